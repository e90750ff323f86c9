// SPDX-License-Identifier: Apache-2.0
#include "report.h"

#include <algorithm>
#include <sstream>

#include "format.h"
#include "input_error.h"
#include "json_file.h"
#include "json_keys.h"
#include "streamed_json.h"

namespace allocgate::reports {

namespace k = allocgate::reports::keys;

// A benchmark that reports no time (a counter-only entry) has none: left
// out, never shown as 0.
void set_times(CaseResult& c, std::vector<double> real_ns, std::vector<double> cpu_ns) {
  std::sort(real_ns.begin(), real_ns.end());
  std::sort(cpu_ns.begin(), cpu_ns.end());
  if (!real_ns.empty()) {
    c.ns_median = real_ns[real_ns.size() / 2];
    c.ns_min = real_ns.front();
    c.ns_max = real_ns.back();
  }
  if (!cpu_ns.empty()) c.cpu_ns_median = cpu_ns[cpu_ns.size() / 2];
  if (real_ns.size() > 1) c.ns_repetitions = std::move(real_ns);
}

std::string Report::toolchain() const { return context_text(k::kToolchain); }

std::string Report::context_text(const char* key) const {
  const auto it = context.find(key);
  return it != context.end() && it->is_string() ? it->get<std::string>() : std::string();
}

CaseIndex::CaseIndex(const Report& report) : report_(report), by_name_(report.cases.by_name()) {
  for (const NotRun& n : report.not_run) not_run_.emplace(n.name, &n);
}

std::optional<CaseResult> CaseIndex::find(std::string_view name) const {
  const auto i = index_of(name);
  if (!i) return std::nullopt;
  return report_.cases[*i];
}

std::optional<std::size_t> CaseIndex::index_of(std::string_view name) const {
  const auto it = std::lower_bound(by_name_.begin(), by_name_.end(), name,
                                   [&](std::uint32_t i, std::string_view n) { return report_.cases.name(i) < n; });
  if (it == by_name_.end() || report_.cases.name(*it) != name) return std::nullopt;
  return *it;
}

const NotRun* CaseIndex::find_not_run(std::string_view name) const {
  const auto it = not_run_.find(name);
  return it == not_run_.end() ? nullptr : it->second;
}

namespace {

// A test's sweep as a test binary writes it (report_keys.h's kSweep).
nlohmann::json sweep_json(const SweepSummary& sweep) {
  nlohmann::json outcomes = nlohmann::json::object();
  for (const auto& [name, count] : sweep.outcomes) outcomes[name] = count;
  nlohmann::json findings = nlohmann::json::array();
  for (const SweepFindingResult& f : sweep.findings) {
    nlohmann::json finding{{"point", f.point}, {"outcome", f.outcome}, {"line", f.line}, {"detail", f.detail}};
    if (f.on_purpose) finding["on_purpose"] = true;
    findings.push_back(std::move(finding));
  }
  return {{"attempts", sweep.attempts},
          {"tried", sweep.tried},
          {"outcomes", std::move(outcomes)},
          {"nondeterministic", sweep.nondeterministic},
          {"findings", std::move(findings)}};
}

// One case as its entry in benchmarks[].
nlohmann::json case_json(const CaseResult& c) {
  nlohmann::json entry{{k::kName, c.name},         {k::kRunName, c.name},
                       {k::kRunType, "iteration"}, {k::kWorkload, c.workload},
                       {k::kVariant, c.variant},   {k::kSize, c.size},
                       {k::kTimeUnit, "ns"},       {k::kAllocsPerOpField, files::json_number(c.allocs_per_op)}};
  // Google Benchmark's fields carry the medians, so compare.py reads ours;
  // a figure not measured is left out, never written as 0.
  if (c.ns_median) entry[k::kRealTime] = *c.ns_median;
  if (c.cpu_ns_median) entry[k::kCpuTime] = *c.cpu_ns_median;
  if (c.allocs_per_op_min) entry[k::kAllocsPerOpMin] = files::json_number(*c.allocs_per_op_min);
  if (c.ns_min) entry[k::kNsPerOpMin] = *c.ns_min;
  if (c.ns_max) entry[k::kNsPerOpMax] = *c.ns_max;
  if (!c.ns_repetitions.empty()) entry[k::kNsPerOpRepetitions] = c.ns_repetitions;
  if (c.iterations) entry[k::kIterations] = *c.iterations;
  if (c.bytes_per_op) entry[k::kBytesPerOpField] = files::json_number(*c.bytes_per_op);
  if (c.peak_bytes) entry[k::kPeakBytes] = files::json_number(*c.peak_bytes);
  if (c.leaked_bytes_per_op) entry[k::kLeakedBytesPerOp] = files::json_number(*c.leaked_bytes_per_op);
  if (!c.output_sha256.empty()) entry[k::kOutputSha256] = c.output_sha256;
  if (c.equal_to_reference) entry[k::kEqualToReference] = *c.equal_to_reference;
  if (c.test_failed) entry[k::kTestFailed] = true;
  if (!c.sites.empty()) entry[k::kSites] = site_summary::sites_json(c.sites);
  if (!c.stacks.empty()) entry[k::kStacks] = site_summary::stacks_json(c.stacks);
  if (c.sweep) entry[k::kSweep] = sweep_json(*c.sweep);
  return entry;
}

nlohmann::json context_json(const Report& report) {
  nlohmann::json context = report.context;
  context[k::kSchemaVersion] = kReportSchemaVersion;
  return context;
}

}  // namespace

nlohmann::json to_json(const Report& report) {
  nlohmann::json benchmarks = nlohmann::json::array();
  for (const CaseResult& c : report.cases) benchmarks.push_back(case_json(c));
  return nlohmann::json{{"context", context_json(report)}, {"benchmarks", std::move(benchmarks)}};
}

// The text of to_json(report) dumped with the context first, written a case
// at a time: a report of 300,000 cases never exists as one JSON value, whose
// nodes would take several times the text's size (merge held 8.8x its input).
void print_report(std::ostream& out, const Report& report) {
  files::StreamedJson document(out, '{');
  document.member("context", context_json(report));
  document.key("benchmarks");
  files::StreamedJson benchmarks(out, '[', document.nested_indent());
  for (const CaseResult& c : report.cases) benchmarks.element(case_json(c));
  benchmarks.finish();
  document.finish();
  out << '\n';
}

std::string report_text(const Report& report) {
  std::ostringstream out;
  print_report(out, report);
  return out.str();
}

}  // namespace allocgate::reports
