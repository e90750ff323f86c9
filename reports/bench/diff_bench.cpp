// SPDX-License-Identifier: Apache-2.0
// `allocgate diff`, `compare` and `merge` on reports of 1,000 to 300,000
// cases, read from disk as the command reads them, and every command on
// 1,000,000 small cases (tiny_*). Target: each command within 3x its input in
// memory. resident_ratio is the memory ratio: the most memory resident at
// once during the command over its input's size (file_bytes: every shard for
// merge, the report twice for compare, the report and its bounds for the
// small cases' diff, one report for the large ones'). read_report_file shows
// what reading costs in time.

#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <malloc.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "allocgate/benchmark.h"
#include "bounds_file.h"
#include "compare.h"
#include "gate.h"
#include "json_file.h"
#include "merge.h"
#include "report.h"

namespace {

using namespace allocgate::reports;
using namespace allocgate::files;
using namespace allocgate::bounds;
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
    c.sites.emplace_back(
        allocgate::SiteFrame{"allocgate::workloads::render_" + std::to_string(s), "workloads/w/w.cpp", 40 + s},
        c.allocs_per_op / 3, *c.bytes_per_op / 3);
  }
  return c;
}

// A report of `cases` cases, and bounds that hold for every case.
struct Files {
  fs::path report, bounds;
  double report_bytes = 0;

  explicit Files(int cases) {
    const fs::path dir = fs::temp_directory_path() /
                         ("allocgate-diff-bench-" + std::to_string(::getpid()) + "-" + std::to_string(cases));
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
      b.toolchains["tc"].add(c.name, bound);
      r.cases.push_back(std::move(c));
    }
    b.toolchains["tc"].sort();  // the names are unique
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

// The peak resident memory of the allocgate command run with `args` (stdout
// discarded), as /usr/bin/time shows it: the child's ru_maxrss. Linux keeps
// that high-water mark across exec, so it starts at this process's: the
// memory this process freed but kept is returned first and its own mark reset
// (clear_refs "5"), leaving it a small fraction of the command's.
double command_resident_bytes(const std::vector<std::string>& args) {
  ::malloc_trim(0);
  std::ofstream("/proc/self/clear_refs") << "5";
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(ALLOCGATE_COMMAND));
  for (const std::string& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  pid_t pid = 0;
  const int error = ::posix_spawn(&pid, ALLOCGATE_COMMAND, &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (error != 0) throw std::runtime_error(std::string("cannot run " ALLOCGATE_COMMAND ": ") + std::strerror(error));
  int status = 0;
  struct rusage usage {};
  if (::wait4(pid, &status, 0, &usage) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    throw std::runtime_error(ALLOCGATE_COMMAND " failed");
  }
  return static_cast<double>(usage.ru_maxrss) * 1024;
}

// The command's memory over its input's size, as a counter of state.
void command_memory(benchmark::State& state, double input_bytes, const std::vector<std::string>& args) {
  double resident = 0;
  for (auto _ : state) resident = command_resident_bytes(args);

  state.counters["file_bytes"] = input_bytes;
  state.counters["cases"] = static_cast<double>(state.range(0));
  state.counters["resident_bytes"] = resident;
  state.counters["resident_ratio"] = resident / input_bytes;
  // What this process had resident when it ran the command: the floor of
  // resident_bytes.
  std::ifstream statm("/proc/self/statm");
  double pages = 0;
  statm >> pages >> pages;
  state.counters["bench_resident_bytes"] = pages * static_cast<double>(::sysconf(_SC_PAGESIZE));
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
      r.context = {{"allocgate_toolchain", "tc"},
                   {"allocgate_shard", std::to_string(shard + 1) + "/" + std::to_string(kShards)},
                   {"git_commit", "c"},
                   {"executable", "allocgate"}};
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

// The commands' memory, each on its input: diff on a report and its bounds,
// compare on a report against itself (two reports' worth of input), merge on
// three shards.
void diff_command(benchmark::State& state) {
  const Files& f = files(static_cast<int>(state.range(0)));
  command_memory(state, f.report_bytes, {"diff", f.report.string(), "--bounds", f.bounds.string()});
}
BENCHMARK(diff_command)->Arg(100000)->Arg(300000)->Iterations(1)->Unit(benchmark::kMillisecond);

void compare_command(benchmark::State& state) {
  const Files& f = files(static_cast<int>(state.range(0)));
  command_memory(state, f.report_bytes, {"compare", f.report.string(), f.report.string()});
}
BENCHMARK(compare_command)->Arg(100000)->Arg(300000)->Iterations(1)->Unit(benchmark::kMillisecond);

void merge_command(benchmark::State& state) {
  static const Shards shards(static_cast<int>(state.range(0)));
  std::vector<std::string> args = {"merge", "--out", (shards.files.front().parent_path() / "merged.json").string()};
  for (const fs::path& file : shards.files) args.push_back(file.string());
  command_memory(state, shards.total_bytes, args);
}
BENCHMARK(merge_command)->Arg(300000)->Iterations(1)->Unit(benchmark::kMillisecond);

// A report of `cases` cases of a name and an allocs/op each (37 bytes of
// JSON a case): where a command's memory per case, not per byte, shows.
struct TinyReport {
  fs::path file, bounds;
  double bytes = 0, bounds_bytes = 0;

  explicit TinyReport(int cases) {
    file = fs::temp_directory_path() / ("allocgate-tiny-bench-" + std::to_string(::getpid()) + ".json");
    // Without indentation, as a writer that keeps files small writes it.
    std::string text = R"({"context":{"allocgate_schema_version":1,"allocgate_toolchain":"tc"},"benchmarks":[)";
    for (int i = 0; i < cases; ++i) {
      std::string name = "c";  // appended: GCC 12 warns falsely (-Wrestrict) on "c" + string
      name += std::to_string(i);
      if (i > 0) text += ",\n";
      text += nlohmann::json{{"name", name}, {"allocs_per_op", i % 5}}.dump();
    }
    text += "]}\n";
    bytes = static_cast<double>(text.size());
    write_file_atomically(file, text);
    // Its bounds, every case within them, as diff --update writes them.
    BoundsFile b;
    for (int i = 0; i < cases; ++i) {
      std::string name = "c";
      name += std::to_string(i);
      Bound bound;
      bound.allocs_per_op = i % 5;
      b.toolchains["tc"].add(name, bound);
    }
    b.toolchains["tc"].sort();  // the names are unique
    bounds = file;
    bounds.replace_extension(".bounds.json");
    print_file_atomically(bounds, [&](std::ostream& out) { print_bounds(out, b); });
    bounds_bytes = static_cast<double>(fs::file_size(bounds));
  }
  ~TinyReport() {
    fs::remove(file);
    fs::remove(bounds);
  }
};

const TinyReport& tiny_report(int cases) {
  static std::map<int, std::unique_ptr<TinyReport>> made;
  auto& r = made[cases];
  if (!r) r = std::make_unique<TinyReport>(cases);
  return *r;
}

// table, export and merge on many small cases, each within 3x its input.
void tiny_cases_command(benchmark::State& state, const std::vector<std::string>& args) {
  const TinyReport& r = tiny_report(static_cast<int>(state.range(0)));
  std::vector<std::string> command = args;
  command.push_back(r.file.string());
  command_memory(state, r.bytes, command);
}
BENCHMARK_CAPTURE(tiny_cases_command, table, {"table"})->Arg(1000000)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(tiny_cases_command, export_bmf, {"export", "--format", "bmf"})
    ->Arg(1000000)
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(tiny_cases_command, merge, {"merge", "--out", "/dev/null"})
    ->Arg(1000000)
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);

// diff's input is the report and its bounds; compare's, the report twice.
void tiny_cases_diff_command(benchmark::State& state) {
  const TinyReport& r = tiny_report(static_cast<int>(state.range(0)));
  command_memory(state, r.bytes + r.bounds_bytes, {"diff", "--bounds", r.bounds.string(), r.file.string()});
}
BENCHMARK(tiny_cases_diff_command)->Arg(1000000)->Iterations(1)->Unit(benchmark::kMillisecond);

void tiny_cases_compare_command(benchmark::State& state) {
  const TinyReport& r = tiny_report(static_cast<int>(state.range(0)));
  command_memory(state, 2 * r.bytes, {"compare", r.file.string(), r.file.string()});
}
BENCHMARK(tiny_cases_compare_command)->Arg(1000000)->Iterations(1)->Unit(benchmark::kMillisecond);

// The first recording: the report is the only input.
void tiny_cases_update_command(benchmark::State& state) {
  const TinyReport& r = tiny_report(static_cast<int>(state.range(0)));
  const fs::path recorded = r.file.parent_path() / ("allocgate-tiny-recorded-" + std::to_string(::getpid()) + ".json");
  fs::remove(recorded);
  command_memory(state, r.bytes, {"diff", "--update", "--bounds", recorded.string(), r.file.string()});
  fs::remove(recorded);
}
BENCHMARK(tiny_cases_update_command)->Arg(1000000)->Iterations(1)->Unit(benchmark::kMillisecond);

// The first phase of diff: the report read, streamed into its packed cases.
void read_report_file(benchmark::State& state) {
  const Files& f = files(static_cast<int>(state.range(0)));
  allocgate::benchmark::CountAllocations count(state);
  for (auto _ : state) benchmark::DoNotOptimize(read_report(f.report).cases.size());
  set_file_counter(state, f);
}
BENCHMARK(read_report_file)->Arg(100000)->Unit(benchmark::kMillisecond);

}  // namespace
