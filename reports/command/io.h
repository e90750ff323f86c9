// SPDX-License-Identifier: Apache-2.0
// What several subcommands do with their input and output.
#pragma once

#include <functional>
#include <iosfwd>
#include <string>

#include "report.h"

namespace allocgate::command {

/// read_report, saying on stderr which runs of a Google Benchmark JSON the
/// figures came from.
reports::Report read_report_saying_source(const std::string& file);

/// Writes text to file atomically, or to stdout when file is empty or "-".
void write_output(const std::string& file, const std::string& text);

/// The same with the text printed onto a stream by `print`, never held whole:
/// to stdout, or a block at a time into the file's temporary.
void write_output(const std::string& file, const std::function<void(std::ostream&)>& print);

}  // namespace allocgate::command
