// SPDX-License-Identifier: Apache-2.0
#include "heaptrack.h"

#include <charconv>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <sstream>
#include <string_view>
#include <utility>

#include "input_error.h"
#include "process.h"

namespace allocgate::reports {

namespace {

// The whole count at the start of `text`; nullopt unless digits start it.
std::optional<std::uint64_t> leading_count(std::string_view text, std::size_t* used = nullptr) {
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end == text.data()) return std::nullopt;
  if (used != nullptr) *used = static_cast<std::size_t>(end - text.data());
  return value;
}

// What follows `prefix` at the start of `line`, or nullopt.
std::optional<std::string_view> after(std::string_view line, std::string_view prefix) {
  if (line.substr(0, prefix.size()) != prefix) return std::nullopt;
  return line.substr(prefix.size());
}

// "N calls to allocation functions with PEAK peak consumption from": N and PEAK.
std::optional<std::pair<std::uint64_t, std::string>> allocator_header(std::string_view line) {
  std::size_t used = 0;
  const auto calls = leading_count(line, &used);
  if (!calls) return std::nullopt;
  const auto rest = after(line.substr(used), " calls to allocation functions with ");
  constexpr std::string_view kTail = " peak consumption from";
  if (!rest || rest->size() <= kTail.size() || rest->substr(rest->size() - kTail.size()) != kTail) return std::nullopt;
  const std::string_view peak = rest->substr(0, rest->size() - kTail.size());
  if (peak.find(' ') != std::string_view::npos) return std::nullopt;
  return std::make_pair(*calls, std::string(peak));
}

}  // namespace

// Plain prefix matching, line by line: heaptrack_print's text is read like
// any file's, in time linear in its length.
HeaptrackSummary parse_heaptrack_print(const std::string& text) {
  HeaptrackSummary summary;
  std::istringstream lines(text);
  bool in_allocators = false;
  for (std::string line; std::getline(lines, line);) {
    if (line == "MOST CALLS TO ALLOCATION FUNCTIONS") in_allocators = true;
    if (line.rfind("PEAK MEMORY CONSUMERS", 0) == 0 || line.rfind("MOST TEMPORARY", 0) == 0) in_allocators = false;
    if (const auto v = after(line, "calls to allocation functions: ")) summary.calls = leading_count(*v).value_or(0);
    if (const auto v = after(line, "temporary memory allocations: ")) summary.temporary = leading_count(*v).value_or(0);
    if (const auto v = after(line, "peak heap memory consumption: "))
      summary.peak = std::string(v->substr(0, v->find(' ')));
    if (!in_allocators) continue;
    if (const auto header = allocator_header(line)) {
      HeaptrackAllocator a{header->first, header->second, {}, {}};
      if (std::getline(lines, line)) a.function = line;
      if (std::getline(lines, line)) {
        const auto at = line.find("  at ");
        const auto in = line.find("  in ");
        a.location = at == 0 ? line.substr(5) : in == 0 ? line.substr(5) : std::string();
      }
      summary.top.push_back(std::move(a));
    }
  }
  return summary;
}

HeaptrackSummary run_under_heaptrack(const std::string& self, const std::string& case_name, long runs,
                                     const std::string& out_prefix) {
  for (const char* tool : {"heaptrack", "heaptrack_print"}) {
    if (!on_path(tool)) throw files::InputError(std::string(tool) + " is not installed: apt-get install heaptrack");
  }
  const auto [code, log] =
      run_process({"heaptrack", "-o", out_prefix, self, "loop", case_name, "--runs", std::to_string(runs)});
  if (code != 0) throw files::InputError("heaptrack failed (exit " + std::to_string(code) + ") on " + case_name);
  // heaptrack appends its compressor's extension to -o.
  std::string data;
  for (const char* extension : {".zst", ".gz", ""}) {
    if (std::filesystem::exists(out_prefix + extension)) {
      data = out_prefix + extension;
      break;
    }
  }
  if (data.empty()) throw files::InputError("heaptrack wrote no data file at " + out_prefix + ".zst");
  const auto [print_code, text] = run_process({"heaptrack_print", "-f", data, "--print-peaks", "0", "--print-temporary",
                                               "0", "--print-leaks", "0", "-n", "5", "-s", "0"});
  if (print_code != 0) throw files::InputError("heaptrack_print failed on " + data);
  HeaptrackSummary summary = parse_heaptrack_print(text);
  summary.data_file = data;
  return summary;
}

}  // namespace allocgate::reports
