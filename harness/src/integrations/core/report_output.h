// SPDX-License-Identifier: Apache-2.0
// Where a counted suite's report goes, the same for every framework:
//  - a path that cannot be written is refused before the first test;
//  - a report an earlier run left there is emptied as the run begins, so a
//    run that ends early (a test calls std::exit) leaves none for the gate to
//    take as its own, and that end is said in one line;
//  - the report is written through a symlink, into a FIFO or a character
//    device in place, over a file keeping its mode and owner
//    (files/atomic_write.h), never replacing what the path names;
//  - a write that fails fails the run, every test passed or not.
// Framework-free: prebuilt in allocgate::integration_support.
#pragma once

#include <string>

#include "integrations/core/suite_report.h"

namespace allocgate::integrations {

/// The exit status of a run whose report could not be written at its end.
inline constexpr int kReportNotWritten = 1;

/// Before the first test: false, with a one-line `error`, when the report
/// asked for (`out`: a file, or a directory for a report a process, as
/// report_path() names it) cannot be written. Otherwise empties an earlier run's report
/// there and, until write_report(), says at std::exit and
/// std::quick_exit that the run ended before its report, naming the test
/// `running()` gives (null or empty: none). Only this process says it: a
/// fork's child (a death test's) exits without a word.
bool open_report(const std::string& out, const std::string& executable, std::string (*running)(), std::string& error);

/// Writes the report to the path open_report() named, through
/// files::write_file_atomically. False, after saying why in one line, when it
/// could not. With `fail_at_exit`, for a framework whose exit status is not
/// allocgate's to return (a listener's), the process's exit status then
/// becomes kReportNotWritten when it exits.
bool write_report(const TestReport& report, const std::string& executable, bool fail_at_exit);

}  // namespace allocgate::integrations
