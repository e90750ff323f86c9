// SPDX-License-Identifier: Apache-2.0
// `allocgate diff`: a report against the recorded bounds of its toolchain.
// Allocation counts are exact, so the comparison is exact: a case regresses
// when it makes more allocations per operation than its bound (plus the
// bound's tolerance, 0 unless set), or requests more bytes where bytes are
// bounded.
#pragma once

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "bounds_file.h"
#include "index_iterator.h"
#include "report.h"
#include "runs.h"

namespace allocgate::reports {

enum class Status {
  regression,  ///< above its bound
  varies,      ///< the repetitions' counts differ, and the bound has no tolerance
  errored,     ///< the benchmark reported an error: no figures, and a failure
  unmeasured,  ///< bytes are bounded but the report has no bytes figure
  unbounded,   ///< a case with no bound
  missing,     ///< a bound with no case in the report
  skipped,     ///< the benchmark was skipped: no figures
  improved,    ///< below its bound: tighten it with --update
  ok,
};

/// The gate's word for a status, as its lines and tables print it:
/// "REGRESSION", "VARIES", "ERROR", "no bound", "ok"...
const char* label(Status status);

// A row as the printers read it: the case and its bound, copied out of the
// packed rows (GateRows).
struct GateRow {
  std::string name;
  Status status = Status::ok;
  std::optional<bounds::Bound> bound;  // absent when unbounded
  std::optional<CaseResult> measured;  // absent when missing
  std::string detail;                  // "allocs/op 1000 > bound 0 (+1000)"
};

/// Whether a case's name is one a limit of the bounds file covers (its
/// `cases` pattern, which the command matches with RE2).
using LimitScope = std::function<bool(std::string_view name)>;

struct GateResult;

/// The gate's rows, packed: a row is a status, the indices of its case and
/// bound, and its detail when it has one, and is made when asked
/// (operator[], or iterating). The rows own the report and the toolchain's
/// bounds they point into, so a result outlives its inputs; a gate of
/// 1,000,000 cases holds 16 bytes a row beside them, not a decoded case.
class GateRows {
 public:
  using Iterator = files::IndexIterator<GateRows, GateRow>;

  GateRows() = default;
  // Rows hold the report and bounds they index: moved, never copied.
  GateRows(GateRows&&) = default;
  GateRows& operator=(GateRows&&) = default;
  GateRows(const GateRows&) = delete;
  GateRows& operator=(const GateRows&) = delete;

  std::size_t size() const { return rows_.size(); }
  GateRow operator[](std::size_t i) const;
  Status status(std::size_t i) const { return rows_[i].status; }
  Iterator begin() const { return {this, 0}; }
  Iterator end() const { return {this, size()}; }

 private:
  friend GateResult evaluate(Report report, bounds::BoundsFile bounds, const std::string& toolchain,
                             const std::string& bounds_source, const std::vector<LimitScope>& scopes);
  static constexpr std::uint32_t kNone = ~std::uint32_t{0};
  struct Packed {
    std::uint32_t bound;     // into bounds_, or kNone when unbounded
    std::uint32_t measured;  // into report_.cases, or kNone
    std::uint32_t not_run;   // into report_.not_run, or kNone
    std::uint32_t detail;    // into details_, or kNone
    Status status;
  };
  std::string_view name(const Packed& p) const;

  Report report_;
  bounds::ToolchainBounds bounds_;
  std::vector<Packed> rows_;
  std::vector<std::string> details_;
};

struct GateResult {
  std::string toolchain;
  GateRows rows;  // regressions first, then by status, then by name
  /// The sites of each regressed case in a base report (`diff --base`),
  /// where both it and the report have sites: the printers then name the
  /// lines whose allocations grew, not the lines that allocate most.
  std::unordered_map<std::string, std::vector<SiteSummary>> base_sites;
  std::size_t count(Status status) const;
  /// A regression, a count that varies or an errored benchmark fails; with strict, so does any
  /// case or bound left unmatched, unmeasured or skipped.
  bool failed(bool strict) const;
};

/// Throws InputError when bounds has no section for the toolchain. Takes the
/// report and the bounds by value: the rows keep them (pass them with
/// std::move when they are not needed after). `scopes` has one entry per bounds.limits,
/// in order: a case a limit covers fails it by any figure over the limit
/// that its own bound does not set, and an unbounded case that a limit's
/// allocs_per_op covers is bounded by it.
GateResult evaluate(Report report, bounds::BoundsFile bounds, const std::string& toolchain,
                    const std::string& bounds_source, const std::vector<LimitScope>& scopes = {});

/// Keeps, for each regressed case with sites, the sites `base` has for it.
void set_base_sites(GateResult& result, const Report& base);

/// Regressions first, one line each, then a compact table and a summary line.
void print_text(std::ostream& out, const GateResult& result);
/// The same as a markdown section, for a pull request comment or job summary.
void print_markdown(std::ostream& out, const GateResult& result);
/// GitHub Actions workflow commands: one ::error per regression.
void print_github_annotations(std::ostream& out, const GateResult& result);

/// A change `--update` makes to a bound, made into its line when printed:
/// a million added bounds are a million of these, not a million strings.
struct BoundChange {
  /// failed_test: not a change; a failed test's figures are never recorded
  /// (they hold the framework's formatting of the failure).
  /// widened: a tolerance made as wide as the range the runs saw (fold_runs).
  /// swept: the failure sweep's findings recorded (from: how many were
  /// before, -1 when none was recorded; to: how many now).
  enum class Kind : std::uint8_t { added, tightened, loosened, widened, failed_test, swept };
  std::uint32_t case_index;  ///< into the report's cases
  Kind kind;
  bool bytes;   ///< bytes/op moved; else allocs/op (the figure added, for an added bound)
  double from;  ///< when added: the tolerance given it (runs that differ, other threads)
  double to;
};
/// "added NAME: allocs/op 3", "tightened NAME: bytes/op 96 -> 64",
/// "not recorded NAME: the test failed ...".
std::string describe(const BoundChange& change, const Report& report);

/// `--update`: the bounds with the toolchain's section rewritten from the
/// report: a case's bound only tightens unless allow_loosen; new cases are
/// added; notes and tolerances are kept. `changes` receives one entry per
/// change, in the report's order, and one per failed test, whose figures are
/// never recorded. A figure that would make a flaky bound is
/// not recorded: a count that varies between repetitions, or allocs/op or
/// bytes/op that are not whole numbers (they change with the iteration
/// count), unless the case's bound has a tolerance. `refused` receives one
/// line per such case, naming it and the likely cause; the caller writes
/// nothing when it is not empty.
///
/// `spreads`: the report folds several runs (runs.h), and these cases'
/// figures differed between them. Each is recorded at the most a run
/// reached, with a tolerance of the range's width (so a run may reach one
/// range past it), and a note saying so; a bound whose tolerance is
/// narrower is refused unless allow_loosen widens it.
///
/// A swept test (the report's allocgate_sweep) has its sweep's findings
/// recorded in its bound (sweep_gate.h), those marked on purpose kept; a
/// finding its recorded sweep does not know is refused unless allow_loosen.
/// A sweep not to be trusted (nondeterministic) is not recorded.
///
/// A new bound of a test that allocates on other threads (its report's
/// allocgate_other_thread_allocs), whether or not the runs differed, gets a
/// tolerance of at least scheduling_margin(): how much its threads'
/// scheduling may move it, one run or several.
/// The allocations a test's threads' scheduling may add to a run, from
/// those made on other threads: a count that depends on scheduling scatters
/// by about its square root (spdlog's "flush": 108 on the pool's worker, 118 or 119 in all;
/// a discard policy's 7, once 9), and at least 1.
double scheduling_margin(double other_thread_allocations);

bounds::BoundsFile update_bounds(bounds::BoundsFile bounds, const Report& report, const std::string& toolchain,
                                 bool allow_loosen, std::vector<BoundChange>& changes,
                                 std::vector<std::string>& refused, const Spreads* spreads = nullptr);

}  // namespace allocgate::reports
