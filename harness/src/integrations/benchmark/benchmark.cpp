// SPDX-License-Identifier: Apache-2.0
// CountAllocations and the checking main behind allocgate/benchmark.h.

#include "allocgate/benchmark.h"

#include <array>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <set>
#include <sstream>
#include <string>

#include "allocgate/guards.h"
#include "allocgate/report_keys.h"
#include "allocgate/toolchain.h"
#include "format.h"
#include "integrations/benchmark/benchmark_loop.h"
#include "integrations/benchmark/benchmark_sites.h"
#include "integrations/core/git_context.h"

namespace allocgate::benchmark {

CountAllocations::CountAllocations(::benchmark::State& state) : state_(state) {
  detail::set_explicitly_counted(&state);  // the loop's own count stands aside
  if (detail::sites_options().enabled) {
    PauseCounting pause;  // the capture's own object is not the benchmark's
    sites_ = std::make_unique<CaptureSites>(4096);
  }
}

CountAllocations::~CountAllocations() {
  const AllocationStats stats = scope_.stats();
  detail::set_explicitly_counted(nullptr);
  PauseCounting pause;
  if (sites_) {
    sites_->stop();
    detail::add_capture(*sites_, static_cast<std::int64_t>(state_.iterations()));
    sites_.reset();
  }
  detail::set_counters(state_, stats);
}

namespace {

constexpr std::array<const char*, 4> kOurCounters{kAllocsPerOp, kBytesPerOp, kPeakBytes, keys::kLeakedBytesPerOp};

// Google Benchmark's console prints counters with six significant digits and
// SI suffixes ("1.23457M"): a count in that form is not a count. This reporter
// prints the runs as the console reporter does, without allocgate's counters,
// then appends those as exact columns.
class ExactCountersConsole : public ::benchmark::ConsoleReporter {
 public:
  explicit ExactCountersConsole(OutputOptions options) : ConsoleReporter(options) {}

  // Reads the options that --benchmark_color and --benchmark_counters_tabular
  // gave the default console reporter.
  static OutputOptions options_of(const ConsoleReporter& console) {
    return console.*(&ExactCountersConsole::output_options_);
  }

 protected:
  void PrintHeader(const Run& run) override {
    std::string header = without_ours(run, [&](const Run& r) { ConsoleReporter::PrintHeader(r); });
    // header is "----\nBenchmark ...\n----\n": widen the middle line.
    const auto first = header.find('\n');
    std::string title = header.substr(first + 1, header.find('\n', first + 1) - first - 1);
    if (run.counters.count(kAllocsPerOp)) {
      for (const char* name : kOurCounters) title += pad(name);
    }
    const std::string rule(title.size(), '-');
    GetOutputStream() << rule << '\n' << title << '\n' << rule << '\n';
  }

  void PrintRunData(const Run& run) override {
    std::string line = without_ours(run, [&](const Run& r) { ConsoleReporter::PrintRunData(r); });
    // The columns go together; a figure the run lacks (peak_bytes or
    // leaked_bytes/op when a free's size was unknown) prints as "-".
    std::string ours;
    if (run.counters.count(kAllocsPerOp)) {
      for (const char* name : kOurCounters) {
        const auto it = run.counters.find(name);
        ours += pad(it != run.counters.end() ? figure(run, it->second.value) : "-");
      }
    }
    line.insert(line.rfind('\n'), ours);
    GetOutputStream() << line;
  }

 private:
  // A counter's value in a row: exact; the _cv aggregate's in percent, as the
  // time columns print it; "-" for the _cv of a figure that is 0 in every
  // repetition (0/0: there is no spread to give as a share of nothing).
  static std::string figure(const Run& run, double value) {
    if (!std::isfinite(value)) return "-";
    if (run.run_type == Run::RT_Aggregate && run.aggregate_unit == ::benchmark::kPercentage) {
      std::array<char, 32> text{};
      std::snprintf(text.data(), text.size(), "%.2f %%", value * 100);
      return text.data();
    }
    return files::exact(value);
  }

  static std::string pad(const std::string& text) {
    return std::string(text.size() < 12 ? 12 - text.size() : 1, ' ') + text;
  }

  // Runs print(run without allocgate's counters) into a string.
  template <class Print>
  std::string without_ours(const Run& run, Print print) {
    Run stripped = run;
    for (const char* name : kOurCounters) stripped.counters.erase(name);
    std::ostringstream text;
    std::ostream& real = GetOutputStream();
    SetOutputStream(&text);
    print(stripped);
    SetOutputStream(&real);
    return text.str();
  }
};

// Whether a run stopped before its loop was counted: Google Benchmark 1.7
// says so in Run::error_occurred, 1.8 and later in Run::skipped (an error, or
// SkipWithMessage).
template <class Run>
auto stopped_early(const Run& run, int) -> decltype(static_cast<int>(run.skipped), bool()) {
  return static_cast<int>(run.skipped) != 0;
}
template <class Run>
bool stopped_early(const Run& run, long) {
  return run.error_occurred;
}

// Forwards to the reporter it wraps and remembers benchmarks that reported no
// allocation counters, so that a loop left uncounted is said out loud rather
// than read as "allocates nothing".
class MissingCountersCheck : public ::benchmark::BenchmarkReporter {
 public:
  explicit MissingCountersCheck(::benchmark::BenchmarkReporter& inner) : inner_(inner) {
    // Google Benchmark writes its own messages to the display's streams.
    SetOutputStream(&inner.GetOutputStream());
    SetErrorStream(&inner.GetErrorStream());
  }

  bool ReportContext(const Context& context) override { return inner_.ReportContext(context); }

  void ReportRuns(const std::vector<Run>& runs) override {
    // Every run here is of one benchmark: the captures since the last report are its.
    if (!runs.empty()) detail::attribute_captures(runs.front().run_name.str());
    for (const Run& run : runs) {
      if (run.run_type == Run::RT_Iteration && !stopped_early(run, 0) &&
          run.counters.find(kAllocsPerOp) == run.counters.end()) {
        missing_.insert(run.benchmark_name());
      }
    }
    inner_.ReportRuns(runs);
  }

  void Finalize() override {
    inner_.Finalize();
    for (const std::string& name : missing_) {
      // The executable's own calls to the loop functions are wrapped; a
      // shared library's are not.
      std::cerr << "allocgate: " << name
                << " reports no allocation counters: its loop is in a shared library or plugin, whose calls to "
                   "Google Benchmark allocgate::benchmark's link options (-Wl,--wrap) do not reach; build the "
                   "benchmarks into the executable\n";
    }
  }

  /// Some benchmark ran without counters: its figures are missing, not zero.
  bool any_missing() const { return !missing_.empty(); }

 private:
  ::benchmark::BenchmarkReporter& inner_;
  std::set<std::string> missing_;
};

}  // namespace

std::unique_ptr<::benchmark::BenchmarkReporter> make_exact_console_reporter(
    ::benchmark::ConsoleReporter::OutputOptions options) {
  return std::make_unique<ExactCountersConsole>(options);
}

namespace detail {

void add_git_context() {
  const std::optional<integrations::GitState> state = integrations::git_state();
  if (!state) return;
  ::benchmark::AddCustomContext(keys::kGitCommit, state->commit);
  if (state->dirty) ::benchmark::AddCustomContext(keys::kGitDirty, *state->dirty ? "true" : "false");
}

CountedRun run_counted(::benchmark::BenchmarkReporter* display, ::benchmark::BenchmarkReporter* file) {
  std::unique_ptr<::benchmark::BenchmarkReporter> made;
  if (display == nullptr) {
    made.reset(::benchmark::CreateDefaultDisplayReporter());
    if (const auto* console = dynamic_cast<const ::benchmark::ConsoleReporter*>(made.get())) {
      made = make_exact_console_reporter(ExactCountersConsole::options_of(*console));
    }
    display = made.get();
  }
  MissingCountersCheck checked(*display);
  CountedRun result;
  result.benchmarks = run_real(&checked, file);  // the JSON file is whole when it returns
  result.counters_missing = checked.any_missing();
  if (sites_options().enabled) {
    try {
      write_sites(display->GetOutputStream());
    } catch (const std::exception& e) {
      std::cerr << "allocgate: --allocgate_sites: " << e.what() << '\n';
      result.sites_failed = true;
    }
  }
  return result;
}

}  // namespace detail

int run_benchmarks_main(int argc, char** argv) {
  detail::set_allocgate_main();  // the wrapped Initialize leaves flags and context to this main
  if (!detail::take_sites_flags(argc, argv, std::cerr)) return 1;
  ::benchmark::Initialize(&argc, argv);
  if (::benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  try {
    require_hook();
  } catch (const HookNotLinked& e) {
    std::cerr << e.what() << '\n';
    return 2;
  }
  // The JSON context then tells allocgate's gate which bounds apply.
  ::benchmark::AddCustomContext(keys::kToolchain, kToolchain);
  ::benchmark::AddCustomContext(keys::kHookLive, "true");
  detail::add_git_context();  // history add files the run under its commit
  const detail::CountedRun run = detail::run_counted(nullptr, nullptr);
  ::benchmark::Shutdown();
  if (run.sites_failed) return 1;
  return run.counters_missing ? 2 : 0;  // the figures of the others are written all the same
}

}  // namespace allocgate::benchmark
