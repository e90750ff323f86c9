// SPDX-License-Identifier: Apache-2.0
// Every test of a suite swept under allocation failure, with no code: each
// test is run again once per failure point, with that allocation of the
// test's own code failing (operator new throws std::bad_alloc, the nothrow
// forms return null) and, with `rest`, every later one too, as when memory
// runs out. What the test does then is its outcome.
//
// Each point runs in a child forked as the test is about to begin, so the
// child starts from the state the test itself starts from; a point that
// crashes, aborts or hangs is a finding, and the suite goes on. The child's
// output is discarded; it tells the parent, through a pipe, the failing
// allocation's stack (its return addresses, which mean the same in the
// parent: a fork keeps the layout) the moment the failure fires, and the
// test's end. The parent names the lines.
//
// Which allocations are points: a first child runs the test with no failure
// and counts its attempts on the test's thread (the framework's own, made
// paused, are not attempts and never fail); a second does the same, and a
// test whose two runs differ is nondeterministic, its sweep not trusted.
//
// Framework-free: prebuilt in allocgate::integration_support. A framework's
// adapter calls sweep_test() where a test's counting would begin, and
// point_ended() where it ends.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace allocgate::integrations {

/// What a test did when an allocation of its own failed, worst last.
enum class SweepOutcome : std::uint8_t {
  kPropagated,  ///< it ended by std::bad_alloc out of its body: as expected
  kHandled,     ///< it passed: the code recovered
  kSwallowed,   ///< it failed on an assertion, not by std::bad_alloc: caught, and a wrong result came out
  kLeaked,      ///< a block left unreachable, by the leak check's rule
  kTerminated,  ///< std::terminate: a noexcept function allocated, or a destructor threw
  kCrashed,     ///< a signal
  kHung,        ///< past the time limit
  kNotReached,  ///< the point was never reached: the test allocates differently run to run
};
inline constexpr std::size_t kSweepOutcomes = 8;

/// The outcome's name in reports and messages: "propagated", "handled"...
const char* outcome_name(SweepOutcome outcome);

/// Whether an outcome is a finding (not propagated, handled).
inline bool is_finding(SweepOutcome outcome) { return outcome >= SweepOutcome::kSwallowed; }

struct SweepOptions {
  enum class Points : std::uint8_t { kSites, kAll, kSample };
  Points points = Points::kSites;
  std::uint64_t sample = 0;       ///< kSample: at most this many points a test, drawn from `seed`
  std::uint64_t seed = 0;         ///< kSample's draw: printed at the start, so a run can be replayed
  bool rest = false;              ///< every allocation after the failing one fails too
  unsigned timeout_seconds = 10;  ///< a point past this is hung, and killed
  std::string source_root;        ///< the failing lines' files shown from here (--allocgate_source_root)
};

/// Reads a --allocgate_fail_each value: "sites" (or empty), "all", or a
/// count N (a sample of at most N a test). False for anything else.
bool parse_fail_each(const std::string& value, SweepOptions& options);

/// One bad outcome: where the failing allocation was, and how to run it alone.
struct SweepFinding {
  std::uint64_t point = 0;  ///< the failing allocation, counted from 0 among the test's attempts
  SweepOutcome outcome = SweepOutcome::kHandled;
  std::string line;    ///< the project's frame: "function (file:line)"; empty when unknown
  std::string detail;  ///< "signal 11", "16 bytes in 1 block"...
  /// The bounds file marks it on purpose for this test (mark_on_purpose):
  /// reported, but it fails nothing.
  bool on_purpose = false;
};

/// A test's sweep.
struct SweepResult {
  std::uint64_t attempts = 0;  ///< the test's allocation attempts, unfailed (not the framework's)
  std::uint64_t tried = 0;     ///< points run
  std::array<std::uint64_t, kSweepOutcomes> outcomes{};
  std::vector<SweepFinding> findings;  ///< in point order
  bool nondeterministic = false;       ///< two unfailed runs made different attempts
};

struct SweepChildRun;  // what the parent read of a child (failure_sweep.cpp)

class FailureSweep {
 public:
  explicit FailureSweep(SweepOptions options) : options_(options) {}

  /// Where a test is about to begin, on its thread, before any of its code
  /// runs. In the parent: sweeps the test (a child per point) and returns
  /// its result; the parent then runs the test as it would have. In a child:
  /// returns nullopt, armed; the child runs the test, and the adapter calls
  /// point_ended() at its end.
  std::optional<SweepResult> sweep_test(const std::string& test);

  /// Whether this process is a sweep's child.
  bool in_child() const { return child_fd_ >= 0; }

  /// In a child, at the test's end (before anything else runs): the
  /// framework's verdict, then the child exits. `bad_alloc_escaped`: the
  /// test ended by std::bad_alloc out of its body (the framework caught
  /// it); `leaked_blocks`/`leaked_bytes`: the leak check's;
  /// `first_failure`: the framework's message of the test's first failure.
  [[noreturn]] void point_ended(bool passed, bool bad_alloc_escaped, std::uint64_t leaked_blocks,
                                std::uint64_t leaked_bytes, std::string_view first_failure);

  /// In a child, where the framework's own work may begin in the test's
  /// code (GoogleTest's statement macros): the attempts from here on are
  /// the framework's if framework_since_mark() says so next.
  static void mark() noexcept;
  /// The attempts since mark() were the framework's, not the test's (a
  /// GoogleTest death assertion's matcher, built from its regex before the
  /// framework's call that tells it is one): no points. They keep their
  /// numbers, which a failing child counts as well, so the points after
  /// them run the same allocation in the sweep as alone.
  static void framework_since_mark() noexcept;

  /// Runs this process's next test with allocation `point` failing (and
  /// every later one, with `rest`): --allocgate_fail_at, a finding run alone.
  static void arm_here(std::uint64_t point, bool rest);
  /// Ends arm_here()'s failures, at the test's end.
  static void disarm();
  /// No allocation fails from here on, but the failure stays fired: the
  /// framework caught what the test's body threw, and reports it.
  static void stop_failing();

  /// Marks the findings of `test`'s sweep that the bounds file named by
  /// ALLOCGATE_BOUNDS marks on purpose under `toolchain` (the gate's own
  /// rule: bounds::same_finding). The file is read once; one that cannot be
  /// read is said once on stderr, and marks none. Returns how many findings
  /// are left that are not on purpose.
  static std::size_t mark_on_purpose(const std::string& test, const char* toolchain, SweepResult& result);

  /// One line per finding of `test`'s sweep not on purpose, with the command that runs it
  /// alone: the point between `before` and `after` ("build/t --allocgate_fail_at=" K, or
  /// "ALLOCGATE_FAIL_AT=" K " build/t", where a framework takes no flag of allocgate's).
  static std::string findings_text(const std::string& test, const SweepResult& result, const std::string& before,
                                   const std::string& after = {});

 private:
  bool fork_run(bool planning, std::uint64_t point, SweepChildRun* run);

  SweepOptions options_;
  int child_fd_ = -1;  // in a child: the pipe's end it writes to
};

}  // namespace allocgate::integrations
