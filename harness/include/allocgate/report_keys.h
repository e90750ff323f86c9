// SPDX-License-Identifier: Apache-2.0
/// @file
/// The names allocgate gives what it adds to a Google Benchmark binary's
/// output: the counters every counted benchmark reports, and the context keys
/// its main adds. Read them by these names (a script over the JSON, a
/// reporter of your own).
#pragma once

#include "allocgate/standard.h"  // C++17, said in one line

namespace allocgate::keys {

// --- benchmark counters (allocgate::benchmark::CountAllocations) -------------
inline constexpr const char* kAllocsPerOp = "allocs/op";
inline constexpr const char* kBytesPerOp = "bytes/op";
inline constexpr const char* kPeakBytes = "peak_bytes";
/// What an iteration left allocated after it, per iteration (0: it frees all
/// it allocates); absent when a free's size was unknown.
inline constexpr const char* kLeakedBytesPerOp = "leaked_bytes/op";

// --- a test's entry (allocgate::gtest's --allocgate_out) ----------------------
/// The blocks its leaked bytes are in.
inline constexpr const char* kLeakedBlocks = "allocgate_leaked_blocks";
/// Bytes, and blocks, the test allocated that were live at its end and still
/// reachable from a global, a thread-local or a live stack frame (a cache, a
/// registry): kept, not leaked; shown so that a growing cache shows.
inline constexpr const char* kKeptBytes = "allocgate_kept_bytes";
inline constexpr const char* kKeptBlocks = "allocgate_kept_blocks";
/// What function-local statics allocated while being built during the test
/// (one-time initialisation: whichever test uses them first pays it); not in
/// its allocs/op and bytes/op, which stay the same whatever ran before.
/// Absent when none.
inline constexpr const char* kOneTimeAllocations = "allocgate_one_time_allocs";
inline constexpr const char* kOneTimeBytes = "allocgate_one_time_bytes";
/// Of the test's allocations, those made on threads other than the one that
/// ran it (a worker it started or handed work to). Absent when none. A test
/// with some may allocate more or less from run to run as the threads are
/// scheduled: `diff --update` gives its bound a tolerance.
inline constexpr const char* kOtherThreadAllocations = "allocgate_other_thread_allocs";
/// true when the test failed: its figures are reported all the same.
inline constexpr const char* kTestFailed = "allocgate_test_failed";
/// The test's failure sweep (--allocgate_fail_each): {"attempts", "tried",
/// "outcomes": {name: count}, "nondeterministic", "findings": [{"point",
/// "outcome", "line", "detail"}]}.
inline constexpr const char* kSweep = "allocgate_sweep";
/// The outcomes a sweep names, in its order: the two that are as expected
/// (propagated, handled), then the findings, worst last, then a point a
/// second run never reached (its test allocates differently run to run).
inline constexpr const char* kSweepOutcomes[] = {"propagated", "handled", "swallowed", "leaked",
                                                 "terminated", "crashed", "hung",      "not reached"};

// --- context: what built the binary --------------------------------------------
/// "googletest": the report is a test binary's, a case per test
/// (allocgate::gtest's --allocgate_out); its page is drawn per test suite.
inline constexpr const char* kTests = "allocgate_tests";
inline constexpr const char* kToolchain = "allocgate_toolchain";  ///< the bounds file's section for this build
inline constexpr const char* kHookLive = "allocgate_hook_live";   ///< "true": allocations were counted
/// The commit measured: ALLOCGATE_GIT_COMMIT or GITHUB_SHA, else git's HEAD
/// of the work tree holding the binary (or the current directory).
inline constexpr const char* kGitCommit = "git_commit";
/// "true" when that work tree had changes to tracked files; absent when the
/// commit came from the environment.
inline constexpr const char* kGitDirty = "git_dirty";
/// "I/N": the report is of shard I of N (GoogleTest's GTEST_SHARD_INDEX + 1
/// and GTEST_TOTAL_SHARDS); `allocgate merge` joins the shards.
inline constexpr const char* kShard = "allocgate_shard";

}  // namespace allocgate::keys
