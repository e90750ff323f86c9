// SPDX-License-Identifier: Apache-2.0
// `allocgate diff`: a report against the recorded bounds of its toolchain.
// Allocation counts are exact, so the comparison is exact: a case regresses
// when it makes more allocations per operation than its bound (plus the
// bound's tolerance, 0 unless set), or requests more bytes where bytes are
// bounded.
#pragma once

#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bounds_file.h"
#include "report.h"

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

// Rows hold copies, not pointers into the report and bounds they came from,
// so a result outlives its inputs.
struct GateRow {
  std::string name;
  Status status = Status::ok;
  std::optional<bounds::Bound> bound;  // absent when unbounded
  std::optional<CaseResult> measured;  // absent when missing
  std::string detail;                  // "allocs/op 1000 > bound 0 (+1000)"
};

struct GateResult {
  std::string toolchain;
  std::vector<GateRow> rows;  // regressions first, then by status, then by name
  std::size_t count(Status status) const;
  /// A regression, a count that varies or an errored benchmark fails; with strict, so does any
  /// case or bound left unmatched, unmeasured or skipped.
  bool failed(bool strict) const;
};

/// Whether a case's name is one a limit of the bounds file covers (its
/// `cases` pattern, which the command matches with RE2).
using LimitScope = std::function<bool(std::string_view name)>;

/// Throws InputError when bounds has no section for the toolchain. Takes the
/// report by value: its cases move into the rows (pass it with std::move
/// when it is not needed after). `scopes` has one entry per bounds.limits,
/// in order: a case a limit covers fails it by any figure over the limit
/// that its own bound does not set, and an unbounded case that a limit's
/// allocs_per_op covers is bounded by it.
GateResult evaluate(Report report, const bounds::BoundsFile& bounds, const std::string& toolchain,
                    const std::string& bounds_source, const std::vector<LimitScope>& scopes = {});

/// Regressions first, one line each, then a compact table and a summary line.
void print_text(std::ostream& out, const GateResult& result);
/// The same as a markdown section, for a pull request comment or job summary.
void print_markdown(std::ostream& out, const GateResult& result);
/// GitHub Actions workflow commands: one ::error per regression.
void print_github_annotations(std::ostream& out, const GateResult& result);

/// `--update`: the bounds with the toolchain's section rewritten from the
/// report: a case's bound only tightens unless allow_loosen; new cases are
/// added; notes and tolerances are kept. `changes` receives one line per change.
/// A figure that would make a flaky bound is not recorded: a count that
/// varies between repetitions, or allocs/op or bytes/op that are not whole
/// numbers (they change with the iteration count), unless the case's bound
/// has a tolerance. `refused` receives one line per such case, naming it and
/// the likely cause; the caller writes nothing when it is not empty.
bounds::BoundsFile update_bounds(bounds::BoundsFile bounds, const Report& report, const std::string& toolchain,
                                 bool allow_loosen, std::vector<std::string>& changes,
                                 std::vector<std::string>& refused);

}  // namespace allocgate::reports
