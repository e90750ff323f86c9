// SPDX-License-Identifier: Apache-2.0
// The log_report workload in the registry: the four steps as variants v1-v4.

#include "log_report.h"
#include "registry/workload.h"

namespace allocgate::workloads {
namespace {

using log_report::Report;

class StepCase : public Case {
 public:
  StepCase(std::size_t n, Report (*report)(std::span<const std::string>))
      : lines_(log_report::make_log(n)), report_(report) {}
  void run() override { result_ = report_(lines_); }
  std::string output() const override { return result_.text; }

 private:
  std::vector<std::string> lines_;
  Report (*report_)(std::span<const std::string>);
  Report result_;
};

class ReusedCase : public Case {
 public:
  explicit ReusedCase(std::size_t n) : lines_(log_report::make_log(n)) {}
  void run() override { text_ = reporter_.run(lines_); }
  std::string output() const override { return std::string(text_); }

 private:
  std::vector<std::string> lines_;
  log_report::Reporter reporter_;  // the scratch state, kept across runs
  std::string_view text_;
};

}  // namespace

Workload log_report_workload() {
  return Workload{"log_report",
                  "bytes per path over access-log lines, rendered sorted: split, presize, cut, reuse",
                  {{"v1", &make_case<StepCase, &log_report::report_v1>},
                   {"v2", &make_case<StepCase, &log_report::report_v2>},
                   {"v3", &make_case<StepCase, &log_report::report_v3>},
                   {"v4", &make_case<ReusedCase>}},
                  {200, 2000, 20000},
                  2000};
}

}  // namespace allocgate::workloads
