// SPDX-License-Identifier: Apache-2.0
// The report of a counted test suite, written as JSON (see suite_report.h).
#include "integrations/core/suite_report.h"

#include <cstdlib>
#include <map>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "allocgate/report_keys.h"
#include "allocgate/toolchain.h"
#include "capture/site_summary.h"
#include "integrations/core/git_context.h"
#include "json_file.h"

namespace allocgate::integrations {

namespace keys = allocgate::keys;

struct TestReport::Runs {
  struct Run {
    std::string name;
    TestFigures figures;
    std::optional<site_summary::Summary> sites;
  };
  std::vector<Run> runs;
};

TestReport::TestReport(std::string framework) : runs_(std::make_unique<Runs>()), framework_(std::move(framework)) {}
TestReport::~TestReport() = default;

void TestReport::add(std::string name, const TestFigures& figures, const SiteProfile* sites) {
  Runs::Run run{std::move(name), figures, std::nullopt};
  if (sites != nullptr) run.sites = site_summary::summarize(*sites, 1.0);
  runs_->runs.push_back(std::move(run));
}

void TestReport::set_shard(unsigned index, unsigned count) {
  shard_ = count > 1 && index < count ? std::to_string(index + 1) + "/" + std::to_string(count) : std::string();
}

namespace {

nlohmann::json sweep_json(const SweepResult& sweep) {
  nlohmann::json outcomes = nlohmann::json::object();
  for (std::size_t i = 0; i < kSweepOutcomes; ++i) {
    if (sweep.outcomes[i] != 0) outcomes[outcome_name(static_cast<SweepOutcome>(i))] = sweep.outcomes[i];
  }
  nlohmann::json findings = nlohmann::json::array();
  for (const SweepFinding& f : sweep.findings) {
    nlohmann::json finding{
        {"point", f.point}, {"outcome", outcome_name(f.outcome)}, {"line", f.line}, {"detail", f.detail}};
    if (f.on_purpose) finding["on_purpose"] = true;
    findings.push_back(std::move(finding));
  }
  return {{"attempts", sweep.attempts},
          {"tried", sweep.tried},
          {"outcomes", std::move(outcomes)},
          {"nondeterministic", sweep.nondeterministic},
          {"findings", std::move(findings)}};
}

nlohmann::json context_json(const std::string& framework, const std::string& executable, const std::string& shard_set) {
  nlohmann::json context = {{keys::kToolchain, kToolchain}, {keys::kHookLive, "true"}, {keys::kTests, framework}};
  if (!executable.empty()) context["executable"] = executable;
  if (const auto state = git_state()) {
    context[keys::kGitCommit] = state->commit;
    if (state->dirty) context[keys::kGitDirty] = *state->dirty ? "true" : "false";
  }
  // GoogleTest's shards count from 0, allocgate's from 1. GoogleTest itself
  // refuses values that are not numbers.
  const char* shards = std::getenv("GTEST_TOTAL_SHARDS");
  const char* shard = std::getenv("GTEST_SHARD_INDEX");
  if (!shard_set.empty()) {
    context[keys::kShard] = shard_set;
  } else if (shards != nullptr && shard != nullptr && std::atoi(shards) > 1) {
    context[keys::kShard] = std::to_string(std::atoi(shard) + 1) + "/" + std::to_string(std::atoi(shards));
  }
  return context;
}

}  // namespace

void TestReport::write(const std::string& path, const std::string& executable) const {
  if (!refusal_.empty()) throw std::runtime_error(refusal_);
  std::map<std::string, int> repetitions, index;
  for (const Runs::Run& run : runs_->runs) ++repetitions[run.name];
  nlohmann::json benchmarks = nlohmann::json::array();
  for (const Runs::Run& run : runs_->runs) {
    // Google Benchmark's layout, a run per repetition: the report readers
    // tell a count that differs between repeats (VARIES) as they do for
    // benchmarks.
    const TestFigures& f = run.figures;
    nlohmann::json entry = {{"name", run.name},
                            {"run_name", run.name},
                            {"run_type", "iteration"},
                            {"repetitions", repetitions[run.name]},
                            {"repetition_index", index[run.name]++},
                            {"iterations", 1},
                            {keys::kAllocsPerOp, f.stats.allocations},
                            {keys::kBytesPerOp, f.stats.bytes_allocated}};
    // Exact when every free's size was known; otherwise not told, never guessed.
    if (f.stats.sizes_known()) entry[keys::kPeakBytes] = f.stats.peak_live_bytes;
    entry[keys::kLeakedBytesPerOp] = f.leaked_bytes;
    entry[keys::kLeakedBlocks] = f.leaked_blocks;
    entry[keys::kKeptBytes] = f.kept_bytes;
    entry[keys::kKeptBlocks] = f.kept_blocks;
    if (f.one_time_allocations != 0) {
      entry[keys::kOneTimeAllocations] = f.one_time_allocations;
      entry[keys::kOneTimeBytes] = f.one_time_bytes;
    }
    if (f.other_thread_allocations != 0) entry[keys::kOtherThreadAllocations] = f.other_thread_allocations;
    if (f.failed) entry[keys::kTestFailed] = true;
    if (f.sweep) entry[keys::kSweep] = sweep_json(*f.sweep);
    if (run.sites) {
      entry[site_summary::keys::kSites] = site_summary::sites_json(run.sites->sites);
      entry[site_summary::keys::kStacks] = site_summary::stacks_json(run.sites->stacks);
    }
    benchmarks.push_back(std::move(entry));
  }
  const nlohmann::json report = {{"context", context_json(framework_, executable, shard_)},
                                 {"benchmarks", std::move(benchmarks)}};
  // A name or path that is not UTF-8 is written with replacement characters:
  // the report is never lost to a byte.
  files::write_file_atomically(path, report.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
}

}  // namespace allocgate::integrations
