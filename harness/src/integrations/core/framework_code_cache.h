// SPDX-License-Identifier: Apache-2.0
// What FrameworkCode found in a program, kept for the next process of the
// same program. ctest runs each test of a discovered suite as a process of
// its own, and the walk of a program's debug information that finds the
// framework's inlined calls costs each one a tenth of a second or more; a
// suite run that way writes its reports into one directory
// (ALLOCGATE_OUT=dir/), and the first process leaves what it found there.
//
// A cache is taken only when every module the process has loaded is one it
// names, by build id: a rebuilt program, another library version or a
// module more or less, and the walk is done anew. Its lines are untrusted:
// one that does not parse, or a range out of order, and it is not taken.
// Framework-free: prebuilt in allocgate::integration_support.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "counting/thread_state.h"

namespace allocgate::integrations {

/// A loaded module's part of a framework's code, its ranges from the
/// module's lowest address: the same in every process, wherever the module
/// is loaded.
struct ModuleCode {
  std::string build_id;      // lowercase hex
  std::uintptr_t start = 0;  // this process's: not kept
  std::vector<detail::CodeRange> framework;
  std::vector<detail::CodeRange> boundaries;
  bool without_debug_information = false;
};

/// Sorted by start, empty ranges dropped, overlapping and touching ones
/// joined (aliases of one function; an inlined call's code that continues
/// where another's ends), in place.
void sort_and_merge(std::vector<detail::CodeRange>& ranges);

/// The cache of `framework_namespace`'s code for the program whose build id
/// is `program`, in `directory`: a hidden file (no report reader takes it
/// for a report).
std::filesystem::path framework_code_cache(const std::filesystem::path& directory, std::string_view framework_namespace,
                                           std::string_view program);

/// The modules of the cache at `file`, with the starts of `loaded` (this
/// process's modules, by build id and start), when it names exactly those
/// modules and every line of it parses; nothing otherwise.
std::optional<std::vector<ModuleCode>> read_framework_code_cache(const std::filesystem::path& file,
                                                                 std::string_view framework_namespace,
                                                                 const std::vector<ModuleCode>& loaded);

/// Writes `modules` to `file` (atomically, as every output: a process that
/// reads it meanwhile sees the old cache or the new). A failure is only a
/// cache not kept: nothing is said.
void write_framework_code_cache(const std::filesystem::path& file, std::string_view framework_namespace,
                                const std::vector<ModuleCode>& modules) noexcept;

}  // namespace allocgate::integrations
