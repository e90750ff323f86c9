// `allocgate diff` on a 1,000-case report: read the report and the bounds
// from disk, gate, print. The target is well under 100 ms.

#include <benchmark/benchmark.h>

#include <filesystem>
#include <sstream>
#include <unistd.h>

#include "allocgate/benchmark.h"
#include "bounds.h"
#include "gate.h"
#include "json_file.h"
#include "report.h"

namespace {

using namespace allocgate::reports;
namespace fs = std::filesystem;

struct Files {
  fs::path report, bounds;
  Files() {
    const fs::path dir = fs::temp_directory_path() / ("allocgate-diff-bench-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    report = dir / "report.json";
    bounds = dir / "bounds.json";
    Report r;
    r.context = {{"allocgate_toolchain", "tc"}};
    BoundsFile b;
    for (int i = 0; i < 1000; ++i) {
      CaseResult c;
      c.name = "workload" + std::to_string(i % 10) + "/variant" + std::to_string(i / 10 % 10) + "/" + std::to_string(i);
      c.allocs_per_op = i % 7 == 0 ? 0 : i;
      c.bytes_per_op = 32.0 * i;
      c.ns_median = c.ns_min = c.ns_max = 1000.0 + i;
      r.cases.push_back(c);
      Bound bound;
      bound.allocs_per_op = c.allocs_per_op;
      bound.bytes_per_op = c.bytes_per_op;
      b.toolchains["tc"][c.name] = bound;
    }
    write_file_atomically(report, to_json(r).dump(2));
    write_file_atomically(bounds, to_json(b).dump(2));
  }
  ~Files() { fs::remove_all(report.parent_path()); }
};

void diff_1000_cases(benchmark::State& state) {
  const Files files;
  allocgate::benchmark::CountAllocations count(state);
  for (auto _ : state) {
    const GateResult result = evaluate(read_report(files.report), read_bounds(files.bounds), "tc", "bounds.json");
    std::ostringstream out;
    print_text(out, result);
    benchmark::DoNotOptimize(out.str().size());
  }
}
BENCHMARK(diff_1000_cases)->Unit(benchmark::kMillisecond);

}  // namespace
