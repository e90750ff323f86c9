// SPDX-License-Identifier: Apache-2.0
// The cache's text: a first line naming its version and namespace, then per
// module "module BUILD_ID 0|1" (1: no debug information) and its ranges,
// "f BEGIN END" (the framework's) or "b BEGIN END" (a boundary), in hex from
// the module's start.

#include "integrations/framework_code_cache.h"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <system_error>

#include "atomic_write.h"

namespace allocgate::integrations {

namespace {

constexpr std::string_view kFirstLine = "allocgate framework code 1 ";
// A program of 100 MB has some 10^5 inlined calls of a framework's: ten
// times that is still a cache; more is not one of ours.
constexpr std::uintmax_t kLargestCache = std::uintmax_t{64} << 20;

bool is_build_id(std::string_view id) {
  return !id.empty() && id.size() <= 128 &&
         std::all_of(id.begin(), id.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

// One "f BEGIN END" or "b BEGIN END" line's range, moved to `start`; false
// when it does not parse or is empty.
bool read_range(std::istringstream& line, std::uintptr_t start, detail::CodeRange& range) {
  std::uintptr_t begin = 0;
  std::uintptr_t end = 0;
  if (!(line >> std::hex >> begin >> end) || begin >= end || end > static_cast<std::uintptr_t>(-1) - start) {
    return false;
  }
  std::string rest;
  if (line >> rest) return false;
  range = {start + begin, start + end};
  return true;
}

}  // namespace

std::filesystem::path framework_code_cache(const std::filesystem::path& directory, std::string_view framework_namespace,
                                           std::string_view program) {
  return directory / (".allocgate-framework-code." + std::string(framework_namespace) + "." + std::string(program));
}

std::optional<std::vector<ModuleCode>> read_framework_code_cache(const std::filesystem::path& file,
                                                                 std::string_view framework_namespace,
                                                                 const std::vector<ModuleCode>& loaded) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(file, error) || std::filesystem::file_size(file, error) > kLargestCache ||
      error) {
    return std::nullopt;
  }
  std::ifstream in(file);
  std::string line;
  if (!std::getline(in, line) || line != std::string(kFirstLine) + std::string(framework_namespace)) {
    return std::nullopt;
  }
  std::vector<ModuleCode> modules;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string kind;
    fields >> kind;
    if (kind == "module") {
      ModuleCode module;
      int without = -1;
      if (!(fields >> module.build_id >> without) || !is_build_id(module.build_id) || (without != 0 && without != 1)) {
        return std::nullopt;
      }
      module.without_debug_information = without == 1;
      const auto here = std::find_if(loaded.begin(), loaded.end(),
                                     [&](const ModuleCode& m) { return m.build_id == module.build_id; });
      if (here == loaded.end()) return std::nullopt;  // a module this process does not have
      module.start = here->start;
      modules.push_back(std::move(module));
    } else if ((kind == "f" || kind == "b") && !modules.empty()) {
      detail::CodeRange range;
      if (!read_range(fields, modules.back().start, range)) return std::nullopt;
      (kind == "f" ? modules.back().framework : modules.back().boundaries).push_back(range);
    } else {
      return std::nullopt;
    }
  }
  if (!in.eof() || modules.size() != loaded.size()) return std::nullopt;  // a module this process has and it lacks
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
        const auto print = [&](char kind, const detail::CodeRange& range) {
          if (range.begin < range.end) {
            out << kind << ' ' << range.begin - module.start << ' ' << range.end - module.start << '\n';
          }
        };
        for (const detail::CodeRange& range : module.framework) print('f', range);
        for (const detail::CodeRange& range : module.boundaries) print('b', range);
      }
    });
  } catch (...) {  // a cache not kept: the next process walks again
  }
}

}  // namespace allocgate::integrations
