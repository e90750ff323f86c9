// SPDX-License-Identifier: Apache-2.0
// allocgate::catch2: every test run of a Catch2 v3 suite counted, with no
// code. A run is one entry into a TEST_CASE: a leaf SECTION, a GENERATE
// value. It is counted from the moment Catch2 hands the test's body its
// thread to the moment the body returns (catch2_wrapped.cpp); Catch2's own
// work inside the body (assertions, sections, messages, generators) runs
// paused. The listener (catch2_counting.cpp) names each run by its path and
// writes the report.
#pragma once

#include <string>
#include <vector>

namespace allocgate::catch2::detail {

/// Takes allocgate's flags (--allocgate-out=FILE, ...) from a command line
/// Catch2 is about to parse, which refuses a flag it does not know: `kept`
/// gets the rest. False, with a one-line `error`, on a bad one.
bool take_flags(int argc, const char* const* argv, std::vector<const char*>& kept, std::string& error);

/// The test's body is about to run on this thread (Catch2 installs its
/// fatal-condition handler just before). `floor`: the lowest frame live
/// then, which the leak check reads the stack from.
void body_begins(const void* floor);

/// The body has returned, or thrown (Catch2 removes that handler). One
/// that threw is judged once Catch2 has handled the exception.
void body_ends(bool thrown);

/// A generator is being made, in the test's own code, between a tracker
/// lookup that found none and the tracker's creation: its allocations are
/// Catch2's.
void generator_making_begins();
void generator_making_ends();

}  // namespace allocgate::catch2::detail
