// SPDX-License-Identifier: Apache-2.0
// A test's failure sweep against what its bound recorded of it: the gate
// fails a test whose sweep finds a bad outcome its bound does not know
// (a test swept clean stays clean), and `diff --update` records what the
// sweep found, keeping what the bounds file marks on purpose.
//
// A finding is known when its bound has one of the same outcome at the same
// function and file (bounds::same_finding): the line number is left out, so
// that code added above a known finding does not make it new. Two findings
// of one outcome in one function need two recorded.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sweep_result.h"
#include "toolchain_bounds.h"

namespace allocgate::reports {

using KnownFindings = std::optional<std::vector<bounds::KnownFinding>>;

/// The findings of `sweep` that `known` neither records nor marks on
/// purpose, in the sweep's order. None when the sweep is not to be trusted
/// (nondeterministic); "not reached" points are never findings here.
std::vector<const SweepFindingResult*> new_findings(const KnownFindings& known, const SweepSummary& sweep);

/// "failure sweep: leaked at f (a.cpp:32) with allocation 2 failing (73
/// bytes in 2 blocks), not recorded for this test": at most three named.
std::string new_findings_text(const std::vector<const SweepFindingResult*>& findings);

/// What --update records of a sweep: every finding it made (with the note
/// a known one had), and every finding `known` marks on purpose, seen or not.
std::vector<bounds::KnownFinding> recorded_findings(const KnownFindings& known, const SweepSummary& sweep);

/// A finding's line, "function (file:line)", as the file and line an
/// annotation points at; nullopt when the line names no file.
struct FileLine {
  std::string file;
  unsigned line = 0;
};
std::optional<FileLine> file_line_of(const std::string& line);

}  // namespace allocgate::reports
