// SPDX-License-Identifier: Apache-2.0
// The timing pass of `allocgate run` (timing.h), with Google Benchmark.

#include <benchmark/benchmark.h>

#include <map>
#include <stdexcept>

#include "timing.h"

namespace allocgate::reports {
namespace {

// Google Benchmark reporter that keeps each repetition's times per case and
// what it measured of the machine, and reports progress; prints nothing itself.
class Collector : public ::benchmark::BenchmarkReporter {
 public:
  explicit Collector(const CaseTimed& timed) : timed_(timed) {}
  bool ReportContext(const Context& context) override {
    machine_.num_cpus = context.cpu_info.num_cpus;
    machine_.mhz_per_cpu = static_cast<long>(context.cpu_info.cycles_per_second / 1e6);
    machine_.cpu_scaling_enabled = context.cpu_info.scaling == ::benchmark::CPUInfo::ENABLED;
    machine_.load_avg = context.cpu_info.load_avg;
    machine_.host_name = context.sys_info.name;
    return true;
  }
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& run : runs) {
      if (run.run_type != Run::RT_Iteration) continue;
      const std::string name = run.benchmark_name();
      if (run.error_occurred) throw std::runtime_error(name + ": " + run.error_message);
      real_ns_[name].push_back(run.GetAdjustedRealTime());
      cpu_ns_[name].push_back(run.GetAdjustedCPUTime());
      iterations_[name] += run.iterations;
      if (run.repetition_index + 1 == run.repetitions) timed_(name);
    }
  }
  std::map<std::string, std::vector<double>> real_ns_, cpu_ns_;
  std::map<std::string, std::int64_t> iterations_;
  MachineInfo machine_;

 private:
  const CaseTimed& timed_;
};

}  // namespace

bool timing_available() { return true; }

MachineInfo time_cases(const std::vector<const workloads::CaseRef*>& cases, const RunOptions& options,
                       std::vector<CaseResult>& results, const CaseTimed& timed) {
  for (const workloads::CaseRef* s : cases) {
    ::benchmark::RegisterBenchmark(s->name.c_str(), [s](::benchmark::State& state) {
      const auto c = s->prepare();
      c->run();
      for (auto _ : state) c->run();
    })->Unit(::benchmark::kNanosecond);
  }
  std::string repetitions = "--benchmark_repetitions=" + std::to_string(options.repetitions);
  std::string min_time = "--benchmark_min_time=" + std::to_string(options.min_time);
  std::string program = "allocgate";
  char* argv[] = {program.data(), repetitions.data(), min_time.data(), nullptr};
  int argc = 3;
  ::benchmark::Initialize(&argc, argv);
  Collector collector(timed);
  ::benchmark::RunSpecifiedBenchmarks(&collector);
  ::benchmark::ClearRegisteredBenchmarks();
  for (CaseResult& r : results) {
    auto& real = collector.real_ns_[r.name];
    if (real.empty()) continue;
    set_times(r, std::move(real), std::move(collector.cpu_ns_[r.name]));
    r.iterations = collector.iterations_[r.name];
  }
  return collector.machine_;
}

}  // namespace allocgate::reports
