// SPDX-License-Identifier: Apache-2.0
// The lines that hold a test's leak, found by running that test again alone.
//
// Naming a leak's lines takes each allocation's stack, and unwinding every
// allocation of every test cost the leak check 1.5x the suite's wall time
// (allocgate's own tests), for the few tests that leak. So the check itself
// tracks blocks only, and a test found leaking is run once more, alone, in a
// child process of the same binary with stacks on (as GoogleTest's
// "threadsafe" death tests run a test anew), which writes the lines of its
// leak to a file the parent reads. --allocgate_sites captures stacks in the
// run itself, and the leak's lines come from there.
#pragma once

#include <string>

namespace allocgate::testing::detail {

/// The internal flag that makes a test binary the child: with stacks on, the
/// lines of each leaking test go to FILE.
inline constexpr const char* kLeakSitesFlag = "--allocgate_internal_leak_sites";
/// With it: the full name of the test whose lines are asked for. GoogleTest's
/// filter has no escape for `-`, `:`, `*` and `?` in a name: the child's
/// filter matches each with `?`, and may select other tests beside it.
inline constexpr const char* kLeakRerunOfFlag = "--allocgate_internal_leak_rerun_of";

/// A --gtest_filter pattern that selects `test` (Suite.Name): the name, with
/// each of the filter's own characters matched by `?`.
std::string filter_selecting(std::string test);

/// Runs `test` (Suite.Name) alone in a child of this binary, with the
/// arguments it was given but GoogleTest's filter, repetition, order and
/// output flags, and returns the text to add to the leak's failure: the
/// lines that hold it, by bytes, or why they could not be told.
std::string leak_sites_from_a_rerun(const std::string& test);

}  // namespace allocgate::testing::detail
