// SPDX-License-Identifier: Apache-2.0
#include "io.h"

#include <iostream>

#include "escape.h"
#include "json_file.h"

namespace allocgate::command {

reports::Report read_report_saying_source(const std::string& file) {
  reports::Report report = reports::read_report(file);
  if (!report.source_summary.empty()) {
    std::cerr << "allocgate: " << files::terminal_text(file) << ": " << report.source_summary << "\n";
  }
  return report;
}

void write_output(const std::string& file, const std::function<void(std::ostream&)>& print) {
  if (file.empty() || file == "-") {
    print(std::cout);
    return;
  }
  files::print_file_atomically(file, print);
}

void write_output(const std::string& file, const std::string& text) {
  if (file.empty() || file == "-") {
    std::cout << text;
  } else {
    files::write_file_atomically(file, text);
  }
}

}  // namespace allocgate::command
