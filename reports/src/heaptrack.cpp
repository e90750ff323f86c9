#include "heaptrack.h"

#include <filesystem>
#include <regex>
#include <sstream>

#include "input_error.h"
#include "process.h"

namespace allocgate::reports {

HeaptrackSummary parse_heaptrack_print(const std::string& text) {
  HeaptrackSummary summary;
  static const std::regex calls(R"(^calls to allocation functions: (\d+))");
  static const std::regex temporary(R"(^temporary memory allocations: (\d+))");
  static const std::regex peak(R"(^peak heap memory consumption: (\S+))");
  static const std::regex allocator(R"(^(\d+) calls to allocation functions with (\S+) peak consumption from$)");
  std::istringstream lines(text);
  bool in_allocators = false;
  std::smatch m;
  for (std::string line; std::getline(lines, line);) {
    if (line == "MOST CALLS TO ALLOCATION FUNCTIONS") in_allocators = true;
    if (line.rfind("PEAK MEMORY CONSUMERS", 0) == 0 || line.rfind("MOST TEMPORARY", 0) == 0) in_allocators = false;
    if (std::regex_search(line, m, calls)) summary.calls = std::stoull(m[1]);
    if (std::regex_search(line, m, temporary)) summary.temporary = std::stoull(m[1]);
    if (std::regex_search(line, m, peak)) summary.peak = m[1];
    if (in_allocators && std::regex_match(line, m, allocator)) {
      HeaptrackAllocator a{std::stoull(m[1]), m[2], {}, {}};
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
    if (!on_path(tool)) throw InputError(std::string(tool) + " is not installed: apt-get install heaptrack");
  }
  const auto [code, log] =
      run_process({"heaptrack", "-o", out_prefix, self, "loop", case_name, "--runs", std::to_string(runs)});
  if (code != 0) throw InputError("heaptrack failed (exit " + std::to_string(code) + ") on " + case_name);
  // heaptrack appends its compressor's extension to -o.
  std::string data;
  for (const char* extension : {".zst", ".gz", ""}) {
    if (std::filesystem::exists(out_prefix + extension)) {
      data = out_prefix + extension;
      break;
    }
  }
  if (data.empty()) throw InputError("heaptrack wrote no data file at " + out_prefix + ".zst");
  const auto [print_code, text] = run_process({"heaptrack_print", "-f", data, "--print-peaks", "0",
                                               "--print-temporary", "0", "--print-leaks", "0", "-n", "5", "-s", "0"});
  if (print_code != 0) throw InputError("heaptrack_print failed on " + data);
  HeaptrackSummary summary = parse_heaptrack_print(text);
  summary.data_file = data;
  return summary;
}

}  // namespace allocgate::reports
