// SPDX-License-Identifier: Apache-2.0
// The cache's text: a first line naming its version and namespace, then per
// module "module BUILD_ID 0|1" (1: no debug information) and its ranges,
// "f BEGIN END" (the framework's) or "b BEGIN END" (a boundary), in hex from
// the module's start, sorted and merged.

#include "integrations/core/framework_code_cache.h"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <memory>
#include <system_error>

#include "atomic_write.h"

namespace allocgate::integrations {

namespace {

constexpr std::string_view kFirstLine = "allocgate framework code 2 ";
// A program of 100 MB has some 10^5 inlined calls of a framework's: ten
// times that is still a cache; more is not one of ours.
constexpr std::uintmax_t kLargestCache = std::uintmax_t{64} << 20;

bool is_build_id(std::string_view id) {
  return !id.empty() && id.size() <= 128 &&
         std::all_of(id.begin(), id.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

// The line's next field (up to a space), taken off the line.
std::string_view next_field(std::string_view& line) {
  const std::size_t space = line.find(' ');
  const std::string_view field = line.substr(0, space);
  line.remove_prefix(space == std::string_view::npos ? line.size() : space + 1);
  return field;
}

bool read_hex(std::string_view field, std::uintptr_t& value) {
  const auto [end, error] = std::from_chars(field.data(), field.data() + field.size(), value, 16);
  return error == std::errc() && end == field.data() + field.size() && !field.empty();
}

// One "f BEGIN END" or "b BEGIN END" line's range (after its kind), moved to
// `start`; false when it does not parse, is empty, or is not after `last`
// (the module's ranges are written sorted and merged).
bool read_range(std::string_view line, std::uintptr_t start, const detail::CodeRange* last, detail::CodeRange& range) {
  std::uintptr_t begin = 0;
  std::uintptr_t end = 0;
  if (!read_hex(next_field(line), begin) || !read_hex(next_field(line), end) || !line.empty() || begin >= end ||
      end > static_cast<std::uintptr_t>(-1) - start) {
    return false;
  }
  range = {start + begin, start + end};
  return last == nullptr || last->end < range.begin;
}

}  // namespace

void sort_and_merge(std::vector<detail::CodeRange>& ranges) {
  ranges.erase(
      std::remove_if(ranges.begin(), ranges.end(), [](const detail::CodeRange& r) { return r.begin >= r.end; }),
      ranges.end());
  const auto by_start = [](const detail::CodeRange& a, const detail::CodeRange& b) { return a.begin < b.begin; };
  if (!std::is_sorted(ranges.begin(), ranges.end(), by_start)) std::sort(ranges.begin(), ranges.end(), by_start);
  std::size_t kept = 0;
  for (const detail::CodeRange& range : ranges) {
    if (kept != 0 && range.begin <= ranges[kept - 1].end) {
      ranges[kept - 1].end = std::max(ranges[kept - 1].end, range.end);
    } else {
      ranges[kept++] = range;
    }
  }
  ranges.resize(kept);
}

std::filesystem::path framework_code_cache(const std::filesystem::path& directory, std::string_view framework_namespace,
                                           std::string_view program) {
  return directory / (".allocgate-framework-code." + std::string(framework_namespace) + "." + std::string(program));
}

std::optional<std::vector<ModuleCode>> read_framework_code_cache(const std::filesystem::path& file,
                                                                 std::string_view framework_namespace,
                                                                 const std::vector<ModuleCode>& loaded) {
  // Read whole and parsed in place: a large program's cache has some 10^4
  // lines, read by every process of a suite run one test a process.
  std::error_code error;
  const std::uintmax_t size = std::filesystem::file_size(file, error);
  if (error || !std::filesystem::is_regular_file(file, error) || size > kLargestCache) return std::nullopt;
  const std::unique_ptr<char[]> text(new char[static_cast<std::size_t>(size)]);  // not cleared: every byte is read
  std::ifstream in(file, std::ios::binary);
  if (!in.read(text.get(), static_cast<std::streamsize>(size)) || in.peek() != EOF) return std::nullopt;
  std::string_view rest(text.get(), static_cast<std::size_t>(size));
  const auto next_line = [&rest](std::string_view& line) {
    const std::size_t end = rest.find('\n');
    if (end == std::string_view::npos) return false;  // every line ends in one, the last too
    line = rest.substr(0, end);
    rest.remove_prefix(end + 1);
    return true;
  };
  std::string_view line;
  if (!next_line(line) || line.substr(0, kFirstLine.size()) != kFirstLine ||
      line.substr(kFirstLine.size()) != framework_namespace) {
    return std::nullopt;
  }
  // A module's ranges are at most the lines after the first: room for them
  // at once, not a vector grown (and copied) some 15 times. The room left
  // over is never touched (no page of it is made).
  const auto lines = static_cast<std::size_t>(std::count(rest.begin(), rest.end(), '\n'));
  std::vector<ModuleCode> modules;
  while (next_line(line)) {
    if (!line.empty() && line.back() == ' ') return std::nullopt;  // a field more, empty
    const std::string_view kind = next_field(line);
    if (kind == "module") {
      ModuleCode module;
      module.build_id = std::string(next_field(line));
      const std::string_view without = next_field(line);
      if (!is_build_id(module.build_id) || (without != "0" && without != "1") || !line.empty()) return std::nullopt;
      module.without_debug_information = without == "1";
      const auto here = std::find_if(loaded.begin(), loaded.end(),
                                     [&](const ModuleCode& m) { return m.build_id == module.build_id; });
      if (here == loaded.end()) return std::nullopt;  // a module this process does not have
      module.start = here->start;
      module.framework.reserve(lines);
      modules.push_back(std::move(module));
    } else if ((kind == "f" || kind == "b") && !modules.empty()) {
      std::vector<detail::CodeRange>& ranges = kind == "f" ? modules.back().framework : modules.back().boundaries;
      detail::CodeRange range;
      if (!read_range(line, modules.back().start, ranges.empty() ? nullptr : &ranges.back(), range)) {
        return std::nullopt;
      }
      ranges.push_back(range);
    } else {
      return std::nullopt;
    }
  }
  if (!rest.empty() || modules.size() != loaded.size()) return std::nullopt;  // a module this process has and it lacks
  return modules;
}

void write_framework_code_cache(const std::filesystem::path& file, std::string_view framework_namespace,
                                const std::vector<ModuleCode>& modules) noexcept {
  // A range below its module's start has no place in the text: no cache.
  const auto below_start = [](const ModuleCode& module) {
    const auto below = [&](const detail::CodeRange& r) { return r.begin < r.end && r.begin < module.start; };
    return std::any_of(module.framework.begin(), module.framework.end(), below) ||
           std::any_of(module.boundaries.begin(), module.boundaries.end(), below);
  };
  if (std::any_of(modules.begin(), modules.end(), below_start)) return;
  try {
    files::print_file_atomically(file, [&](std::ostream& out) {
      out << kFirstLine << framework_namespace << '\n' << std::hex;
      for (const ModuleCode& module : modules) {
        out << "module " << module.build_id << ' ' << (module.without_debug_information ? 1 : 0) << '\n';
        // An empty range (an inlined call the compiler left no code of)
        // tells nothing: not kept.
        const auto print = [&](char kind, std::vector<detail::CodeRange> ranges) {
          sort_and_merge(ranges);
          for (const detail::CodeRange& range : ranges) {
            out << kind << ' ' << range.begin - module.start << ' ' << range.end - module.start << '\n';
          }
        };
        print('f', module.framework);
        print('b', module.boundaries);
      }
    });
  } catch (...) {  // a cache not kept: the next process walks again
  }
}

}  // namespace allocgate::integrations
