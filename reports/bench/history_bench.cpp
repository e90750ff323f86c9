// SPDX-License-Identifier: Apache-2.0
// `allocgate history` at scale: 10,000 reports of 50 cases added one by one
// (each its own transaction, as 10,000 CI runs would), the database's size
// per report, and one case charted over the 10,000 runs (target: under
// 100 ms). The database is made once, by the first benchmark, and kept.

#include <benchmark/benchmark.h>
#include <unistd.h>

#include <filesystem>
#include <memory>
#include <sstream>

#include "allocgate/benchmark.h"
#include "history.h"
#include "json_keys.h"

namespace {

using namespace allocgate::reports;
namespace fs = std::filesystem;
namespace k = allocgate::reports::keys;

constexpr int kReports = 10000;
constexpr int kCases = 50;

struct Database {
  fs::path dir = fs::temp_directory_path() / ("allocgate-history-bench-" + std::to_string(::getpid()));
  fs::path file = dir / "history.db";
  Database() {
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  ~Database() { fs::remove_all(dir); }
};

Database& database() {
  static Database db;
  return db;
}

Report report(int commit) {
  Report r;
  r.context = {{k::kSchemaVersion, kReportSchemaVersion},
               {k::kToolchain, "tc"},
               {k::kGitCommit, "commit" + std::to_string(commit)},
               {k::kDate, "2026-12-01T00:00:00Z"}};
  for (int c = 0; c < kCases; ++c) {
    CaseResult result;
    result.name = "workload" + std::to_string(c % 5) + "/variant/" + std::to_string(c);
    result.allocs_per_op = c + commit / 1000;  // changes every 1,000 commits
    result.bytes_per_op = 32.0 * result.allocs_per_op;
    result.ns_median = 1000 + commit % 17;
    result.ns_min = *result.ns_median - 10;
    result.ns_max = *result.ns_median + 10;
    r.cases.push_back(result);
  }
  return r;
}

void add_10000_reports(benchmark::State& state) {
  allocgate::benchmark::CountAllocations count(state);
  for (auto _ : state) {
    fs::remove(database().file);
    History db(database().file);
    for (int i = 0; i < kReports; ++i) {
      const Report r = report(i);
      db.add(r, run_key(r, {}, "bench"));
    }
  }
  // The size once the write-ahead log is checkpointed into the database.
  { History checkpoint(database().file); }
  state.counters["reports"] = kReports;
  state.counters["db_bytes"] = static_cast<double>(fs::file_size(database().file));
  state.counters["bytes_per_report"] = static_cast<double>(fs::file_size(database().file)) / kReports;
}
BENCHMARK(add_10000_reports)->Iterations(1)->Unit(benchmark::kSecond);

void chart_one_case_over_10000_runs(benchmark::State& state) {
  History db(database().file);
  allocgate::benchmark::CountAllocations count(state);
  std::size_t runs = 0;
  for (auto _ : state) {
    const HistoryTable table = db.table("^workload2/variant/17$", 0);
    std::ostringstream page;
    print_history_chart(page, table);
    runs = table.runs.size();
    benchmark::DoNotOptimize(page.str().size());
  }
  state.counters["runs"] = static_cast<double>(runs);
}
BENCHMARK(chart_one_case_over_10000_runs)->Unit(benchmark::kMillisecond);

}  // namespace
