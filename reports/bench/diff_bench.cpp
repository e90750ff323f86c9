// `allocgate diff` and `compare` on reports of 1,000 and 100,000 cases, read
// from disk as the command reads them. Targets: 100,000 cases gated in under
// a second, in under 10x the report's size in memory. peak_bytes (allocgate's
// own count of the live heap's high-water mark, per operation) divided by
// file_bytes is the memory ratio; the phases (parse, read) show where the
// time goes.

#include <benchmark/benchmark.h>
#include <simdjson.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <memory>
#include <sstream>
#include <vector>

#include "allocgate/benchmark.h"
#include "bounds.h"
#include "compare.h"
#include "gate.h"
#include "json_file.h"
#include "merge.h"
#include "report.h"

namespace {

using namespace allocgate::reports;
namespace fs = std::filesystem;

// Case i as `allocgate run --sites` writes it, with three sites.
CaseResult make_case(int i) {
  CaseResult c;
  c.workload = "workload" + std::to_string(i % 10);
  c.variant = "variant" + std::to_string(i / 10 % 10);
  c.size = static_cast<std::uint64_t>(i);
  c.name = c.workload + "/" + c.variant + "/" + std::to_string(i);
  c.allocs_per_op = i % 7 == 0 ? 0 : i;
  c.bytes_per_op = 32.0 * i;
  c.peak_bytes = 16.0 * i;
  c.ns_median = c.cpu_ns_median = c.ns_min = c.ns_max = 1000.0 + i;
  c.iterations = 1000;
  c.output_sha256 = std::string(64, 'a');
  c.equal_to_reference = true;
  for (unsigned s = 0; s < 3; ++s) {
    c.sites.push_back(SiteSummary{{"allocgate::workloads::render_" + std::to_string(s), "workloads/w/w.cpp", 40 + s},
                                  c.allocs_per_op / 3, *c.bytes_per_op / 3});
  }
  return c;
}

// A report of `cases` cases, and bounds that hold for every case.
struct Files {
  fs::path report, bounds;
  double report_bytes = 0;

  explicit Files(int cases) {
    const fs::path dir = fs::temp_directory_path() / ("allocgate-diff-bench-" + std::to_string(::getpid()) + "-" +
                                                      std::to_string(cases));
    fs::create_directories(dir);
    report = dir / "report.json";
    bounds = dir / "bounds.json";
    Report r;
    r.context = {{"allocgate_toolchain", "tc"}};
    BoundsFile b;
    for (int i = 0; i < cases; ++i) {
      CaseResult c = make_case(i);
      Bound bound;
      bound.allocs_per_op = c.allocs_per_op;
      bound.bytes_per_op = c.bytes_per_op;
      b.toolchains["tc"][c.name] = bound;
      r.cases.push_back(std::move(c));
    }
    const std::string text = report_text(r);
    report_bytes = static_cast<double>(text.size());
    write_file_atomically(report, text);
    write_file_atomically(bounds, to_json(b).dump(2) + "\n");
  }
  ~Files() { fs::remove_all(report.parent_path()); }
};

// One set of files per size, made on first use and kept for the run.
const Files& files(int cases) {
  static std::map<int, std::unique_ptr<Files>> made;
  auto& f = made[cases];
  if (!f) f = std::make_unique<Files>(cases);
  return *f;
}

void set_file_counter(benchmark::State& state, const Files& f) {
  state.counters["file_bytes"] = f.report_bytes;
  state.counters["cases"] = static_cast<double>(state.range(0));
}

void diff(benchmark::State& state) {
  const Files& f = files(static_cast<int>(state.range(0)));
  allocgate::benchmark::CountAllocations count(state);
  for (auto _ : state) {
    const GateResult result = evaluate(read_report(f.report), read_bounds(f.bounds), "tc", "bounds.json");
    std::ostringstream out;
    print_text(out, result);
    benchmark::DoNotOptimize(out.str().size());
  }
  set_file_counter(state, f);
}
BENCHMARK(diff)->Arg(1000)->Arg(100000)->Unit(benchmark::kMillisecond);

void compare(benchmark::State& state) {
  const Files& f = files(static_cast<int>(state.range(0)));
  allocgate::benchmark::CountAllocations count(state);
  for (auto _ : state) {
    std::ostringstream out;
    print_comparison(out, compare_reports(read_report(f.report), read_report(f.report)), false);
    benchmark::DoNotOptimize(out.str().size());
  }
  set_file_counter(state, f);
}
BENCHMARK(compare)->Arg(1000)->Arg(100000)->Unit(benchmark::kMillisecond);

// `allocgate merge`: the shards of a run of `cases` cases, three of them,
// read, joined and written as the command does. Its peak over the shards'
// total size is the memory ratio.
struct Shards {
  std::vector<fs::path> files;
  double total_bytes = 0;

  explicit Shards(int cases) {
    const fs::path dir = fs::temp_directory_path() / ("allocgate-merge-bench-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    constexpr int kShards = 3;
    for (int shard = 0; shard < kShards; ++shard) {
      Report r;
      r.context = {{"allocgate_toolchain", "tc"}, {"allocgate_shard", std::to_string(shard + 1) + "/" + std::to_string(kShards)},
                   {"git_commit", "c"}, {"executable", "allocgate"}};
      for (int i = shard * cases / kShards; i < (shard + 1) * cases / kShards; ++i) r.cases.push_back(make_case(i));
      const std::string text = report_text(r);
      total_bytes += static_cast<double>(text.size());
      files.push_back(dir / ("shard" + std::to_string(shard + 1) + ".json"));
      write_file_atomically(files.back(), text);
    }
  }
  ~Shards() { fs::remove_all(files.front().parent_path()); }
};

void merge(benchmark::State& state) {
  static const Shards shards(static_cast<int>(state.range(0)));
  const fs::path out = shards.files.front().parent_path() / "merged.json";
  for (auto _ : state) {
    std::vector<NamedReport> reports;
    for (const fs::path& file : shards.files) reports.push_back({file.string(), read_report(file)});
    write_file_atomically(out, report_text(merge_reports(std::move(reports))));
  }
  state.counters["file_bytes"] = shards.total_bytes;
  state.counters["cases"] = static_cast<double>(state.range(0));
}
BENCHMARK(merge)->Arg(300000)->Iterations(1)->Unit(benchmark::kMillisecond);

// The phases of diff: parsing the text into a checked JSON document, and
// that and the document into a Report.
void parse_report_json(benchmark::State& state) {
  const Files& f = files(static_cast<int>(state.range(0)));
  allocgate::benchmark::CountAllocations count(state);
  for (auto _ : state) benchmark::DoNotOptimize(read_json_document(f.report).root().type());
  set_file_counter(state, f);
}
BENCHMARK(parse_report_json)->Arg(100000)->Unit(benchmark::kMillisecond);

void read_report_file(benchmark::State& state) {
  const Files& f = files(static_cast<int>(state.range(0)));
  allocgate::benchmark::CountAllocations count(state);
  for (auto _ : state) benchmark::DoNotOptimize(read_report(f.report).cases.size());
  set_file_counter(state, f);
}
BENCHMARK(read_report_file)->Arg(100000)->Unit(benchmark::kMillisecond);

}  // namespace
