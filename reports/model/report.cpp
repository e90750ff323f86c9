// SPDX-License-Identifier: Apache-2.0
#include "report.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <tuple>
#include <unordered_set>

#include <simdjson.h>

#include "format.h"
#include "input_error.h"
#include "json_file.h"
#include "json_keys.h"

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

CaseIndex::CaseIndex(const Report& report) {
  cases_.reserve(report.cases.size());
  for (const CaseResult& c : report.cases) cases_.emplace(c.name, &c);
  for (const NotRun& n : report.not_run) not_run_.emplace(n.name, &n);
}

const CaseResult* CaseIndex::find(std::string_view name) const {
  const auto it = cases_.find(name);
  return it == cases_.end() ? nullptr : it->second;
}

const NotRun* CaseIndex::find_not_run(std::string_view name) const {
  const auto it = not_run_.find(name);
  return it == not_run_.end() ? nullptr : it->second;
}

namespace {

// Readers check every figure: a report is input, and a NaN or a negative
// count in it must stop the gate, not pass it; nor may a huge one reach a
// conversion to an integer, where it would be undefined behaviour.
constexpr double kMaxCount = 9007199254740992.0;  // 2^53

// What a case may carry. allocgate writes at most site_summary::kSites sites
// and kStacks stacks of kFrames frames; these leave room for
// other writers and stop a hostile report before the flame graph recurses
// through a 100,000-frame stack.
constexpr std::size_t kMaxSitesPerCase = 1000;
constexpr std::size_t kMaxStacksPerCase = 1000;
constexpr std::size_t kMaxFramesPerStack = 256;
constexpr std::size_t kMaxHintBytes = 1000;
using simdjson::dom::array;
using simdjson::dom::element;
using simdjson::dom::object;

std::optional<element> field(object o, std::string_view key) {
  element value;
  if (o.at_key(key).get(value) != simdjson::SUCCESS) return std::nullopt;
  return value;
}

class Reader {
 public:
  Reader(const std::string& source, object entry, std::size_t index) : source_(source), entry_(entry), index_(index) {}

  std::string_view name() const {
    const auto value = field(entry_, "name");
    std::string_view name;
    if (!value || value->get(name) != simdjson::SUCCESS || name.empty()) {
      fail("benchmarks[" + std::to_string(index_) + "] has no name");
    }
    return name;
  }

  std::optional<double> figure(const char* key) const {
    const auto it = field(entry_, key);
    if (!it) return std::nullopt;
    if (it->is_null()) fail(label() + ": " + key + " is null or NaN");
    double value = 0;
    if (!it->is_number() || it->get(value) != simdjson::SUCCESS) fail(label() + ": " + key + " is not a number");
    if (!std::isfinite(value)) fail(label() + ": " + key + " is not finite");
    if (value < 0) fail(label() + ": " + key + " is negative (" + files::json_text(*it) + ")");
    return value;
  }

  /// An allocation figure (allocs/op, bytes/op, peak or leaked bytes): a
  /// figure no larger than 2^53, where a double still holds every whole
  /// number, so that a count compares with its bound exactly (2^53 + 1 would
  /// read as 2^53).
  std::optional<double> allocation(const char* key) const {
    const std::optional<double> value = figure(key);
    if (!value) return std::nullopt;
    std::uint64_t whole = 0;
    const auto it = field(entry_, key);
    const bool integer = it->is_uint64() && it->get(whole) == simdjson::SUCCESS;
    if (*value > kMaxCount || (integer && whole > static_cast<std::uint64_t>(kMaxCount))) {
      fail(label() + ": " + key + " is above 2^53, beyond what can be counted exactly (" + files::json_text(*it) + ")");
    }
    return value;
  }

  /// A time in time_unit, in nanoseconds: finite after the conversion too.
  std::optional<double> nanoseconds(const char* key) const {
    const std::optional<double> value = figure(key);
    if (!value) return std::nullopt;
    const std::string_view unit = text(k::kTimeUnit);
    double scale = 1;
    if (unit == "us") {
      scale = 1e3;
    } else if (unit == "ms") {
      scale = 1e6;
    } else if (unit == "s") {
      scale = 1e9;
    } else if (!unit.empty() && unit != "ns") {
      fail("unknown time_unit '" + std::string(unit) + "'");
    }
    const double ns = *value * scale;
    if (!std::isfinite(ns)) {
      fail(label() + ": " + key + " " + files::json_text(*field(entry_, key)) + " " + std::string(unit) +
           " is more nanoseconds than a double holds");
    }
    return ns;
  }

  /// A whole count (a size, an iteration count): an integer no larger than
  /// 2^53, so that it converts to an integer type exactly.
  std::optional<std::uint64_t> count(const char* key) const {
    const std::optional<double> value = figure(key);
    if (!value) return std::nullopt;
    if (*value > kMaxCount || std::trunc(*value) != *value) {
      fail(label() + ": " + key + " is not a whole number up to 2^53 (" + files::json_text(*field(entry_, key)) + ")");
    }
    return static_cast<std::uint64_t>(*value);
  }

  /// true or false; absent is false.
  bool flag(const char* key) const {
    const auto it = field(entry_, key);
    bool value = false;
    if (it && it->get(value) != simdjson::SUCCESS) fail(label() + ": " + key + " is not true or false");
    return value;
  }

  std::string_view text(const char* key) const {
    const auto it = field(entry_, key);
    if (!it || it->is_null()) return {};
    std::string_view value;
    if (it->get(value) != simdjson::SUCCESS) fail(label() + ": " + key + " is not a string");
    return value;
  }

  [[noreturn]] void fail(const std::string& problem) const { throw files::InputError(source_ + ": " + problem); }

 private:
  std::string label() const { return "benchmarks[" + std::to_string(index_) + "] (" + std::string(name()) + ")"; }

  const std::string& source_;
  object entry_;
  std::size_t index_;
};

// Each distinct frame of a report once (SiteSummary::frame), looked up by views
// into the document: a frame seen before costs no allocation.
class FramePool {
 public:
  std::shared_ptr<const SiteFrame> get(std::string_view function, std::string_view file, unsigned line) {
    if (const auto it = frames_.find(Key{function, file, line}); it != frames_.end()) return it->second;
    auto frame = std::make_shared<const SiteFrame>(SiteFrame{std::string(function), std::string(file), line});
    frames_.emplace(Key{frame->function, frame->file, line}, frame);  // views into the frame, which the pool holds
    return frame;
  }

 private:
  using Key = std::tuple<std::string_view, std::string_view, unsigned>;
  std::map<Key, std::shared_ptr<const SiteFrame>> frames_;
};

// A case's sites and stacks (`run --sites`, `--allocgate_sites`), checked like
// every figure, named after the case.
void read_sites(const Reader& r, object entry, CaseResult& c, FramePool& frames) {
  const auto number = [&](object o, const char* key, double max = HUGE_VAL) {
    const auto value = field(o, key);
    if (!value) return 0.0;
    double v = 0;
    if (!value->is_number() || value->get(v) != simdjson::SUCCESS || !std::isfinite(v) || v < 0 || v > max) {
      r.fail(c.name + ": a site's " + key + " is not a number from 0 to " + files::exact(max) + " (" +
             files::json_text(*value) + ")");
    }
    return v;
  };
  const auto text = [&](object o, const char* key) {
    const auto value = field(o, key);
    if (!value) return std::string_view();
    std::string_view v;
    if (value->get(v) != simdjson::SUCCESS) r.fail(c.name + ": a site's " + key + " is not a string");
    return v;
  };
  if (const auto it = field(entry, k::kSites)) {
    array sites;
    if (it->get(sites) != simdjson::SUCCESS) r.fail(c.name + ": sites is not an array");
    if (sites.size() > kMaxSitesPerCase) {
      r.fail(c.name + ": " + std::to_string(sites.size()) + " sites (at most " + std::to_string(kMaxSitesPerCase) +
             ")");
    }
    for (const element value : sites) {
      object site;
      if (value.get(site) != simdjson::SUCCESS) r.fail(c.name + ": a site is not an object");
      const double line = number(site, k::kLine, std::numeric_limits<unsigned>::max());
      if (std::trunc(line) != line) r.fail(c.name + ": a site's line is not a whole number");
      if (c.sites.empty()) c.sites.reserve(sites.size());
      const double allocs = number(site, k::kAllocsPerOpField);
      const double temporary = number(site, k::kTemporaryPerOp);
      if (temporary > allocs) r.fail(c.name + ": a site's temporary_per_op is above its allocs_per_op");
      std::string_view hint = text(site, k::kHint);
      if (hint.size() > kMaxHintBytes)
        r.fail(c.name + ": a site's hint is longer than " + std::to_string(kMaxHintBytes) + " bytes");
      c.sites.emplace_back(frames.get(text(site, k::kFunction), text(site, k::kFile), static_cast<unsigned>(line)),
                           allocs, number(site, k::kBytesPerOpField), temporary, std::string(hint));
    }
  }
  if (const auto it = field(entry, k::kStacks)) {
    array stacks;
    if (it->get(stacks) != simdjson::SUCCESS) r.fail(c.name + ": stacks is not an array");
    if (stacks.size() > kMaxStacksPerCase) {
      r.fail(c.name + ": " + std::to_string(stacks.size()) + " stacks (at most " + std::to_string(kMaxStacksPerCase) +
             ")");
    }
    for (const element value : stacks) {
      object stack;
      array frames;
      if (value.get(stack) != simdjson::SUCCESS || !field(stack, k::kFrames) ||
          field(stack, k::kFrames)->get(frames) != simdjson::SUCCESS) {
        r.fail(c.name + ": a stack has no frames array");
      }
      if (frames.size() > kMaxFramesPerStack) {
        r.fail(c.name + ": a stack of " + std::to_string(frames.size()) + " frames (at most " +
               std::to_string(kMaxFramesPerStack) + ")");
      }
      StackSummary summary;
      for (const element frame : frames) {
        std::string_view text;
        if (frame.get(text) != simdjson::SUCCESS) r.fail(c.name + ": a stack frame is not a string");
        summary.frames.emplace_back(text);
      }
      if (const auto locations = field(stack, site_summary::keys::kLocations)) {
        array texts;
        if (locations->get(texts) != simdjson::SUCCESS || texts.size() != frames.size()) {
          r.fail(c.name + ": a stack's locations are not one string per frame");
        }
        for (const element location : texts) {
          std::string_view text;
          if (location.get(text) != simdjson::SUCCESS) r.fail(c.name + ": a stack's location is not a string");
          summary.locations.emplace_back(text);
        }
      }
      // A stack's figure: absent (reports before bytes and temporaries were
      // kept) is 0, anything else a finite, non-negative number.
      const auto figure = [&](const char* key, bool required) {
        const auto value = field(stack, key);
        double v = 0;
        if (!value) {
          if (required) r.fail(c.name + ": a stack has no " + key);
          return v;
        }
        if (!value->is_number() || value->get(v) != simdjson::SUCCESS || !(v >= 0) || !std::isfinite(v)) {
          r.fail(c.name + ": a stack's " + key + " is not a non-negative number");
        }
        return v;
      };
      summary.allocs_per_op = figure(k::kAllocsPerOpField, true);
      summary.bytes_per_op = figure(k::kBytesPerOpField, false);
      summary.temporary_per_op = figure(site_summary::keys::kTemporaryPerOp, false);
      c.stacks.push_back(std::move(summary));
    }
  }
}

// A case's timed repetitions: finite, non-negative figures, at most as many as
// `run --repetitions` allows.
void read_repetitions(const Reader& r, object entry, CaseResult& c) {
  constexpr std::size_t kMaxRepetitions = 1000;
  const auto it = field(entry, k::kNsPerOpRepetitions);
  if (!it) return;
  array values;
  if (it->get(values) != simdjson::SUCCESS || values.size() > kMaxRepetitions) {
    r.fail(c.name + ": ns_per_op_repetitions is not an array of at most " + std::to_string(kMaxRepetitions) +
           " figures");
  }
  for (const element value : values) {
    double v = 0;
    if (!value.is_number() || value.get(v) != simdjson::SUCCESS || !std::isfinite(v) || v < 0) {
      r.fail(c.name + ": ns_per_op_repetitions holds " + files::json_text(value) + ", not a figure >= 0");
    }
    c.ns_repetitions.push_back(v);
  }
  std::sort(c.ns_repetitions.begin(), c.ns_repetitions.end());
}

// An allocgate report: one entry per case, every field ours.
CaseResult read_case(const Reader& r, object entry, FramePool& frames) {
  CaseResult c;
  c.name = r.name();
  c.workload = r.text(k::kWorkload);
  c.variant = r.text(k::kVariant);
  c.size = r.count(k::kSize).value_or(0);
  const auto allocs = r.allocation(k::kAllocsPerOpField);
  if (!allocs) r.fail(c.name + ": allocs_per_op is missing");
  c.allocs_per_op = *allocs;
  c.allocs_per_op_min = r.allocation(k::kAllocsPerOpMin);
  if (c.allocs_per_op_min && !(*c.allocs_per_op_min < c.allocs_per_op)) {
    r.fail(c.name + ": allocs_per_op_min is not below allocs_per_op");
  }
  c.bytes_per_op = r.allocation(k::kBytesPerOpField);
  c.peak_bytes = r.allocation(k::kPeakBytes);
  c.leaked_bytes_per_op = r.allocation(k::kLeakedBytesPerOp);
  c.ns_median = r.nanoseconds(k::kRealTime);
  c.cpu_ns_median = r.nanoseconds(k::kCpuTime);
  c.ns_min = r.nanoseconds(k::kNsPerOpMin);
  c.ns_max = r.nanoseconds(k::kNsPerOpMax);
  read_repetitions(r, entry, c);
  if (const auto iterations = r.count(k::kIterations)) c.iterations = static_cast<std::int64_t>(*iterations);
  c.output_sha256 = r.text(k::kOutputSha256);
  if (const auto it = field(entry, k::kEqualToReference); it && !it->is_null()) {
    bool equal = false;
    if (it->get(equal) != simdjson::SUCCESS) r.fail(c.name + ": equal_to_reference is not true or false");
    c.equal_to_reference = equal;
  }
  c.test_failed = r.flag(k::kTestFailed);
  read_sites(r, entry, c, frames);
  return c;
}

// The entries of one benchmark in a Google Benchmark JSON: its iteration runs
// (one per repetition), its aggregates (mean, median, stddev, cv) and whether
// it errored or was skipped.
struct BenchmarkEntries {
  std::vector<std::pair<object, std::size_t>> iterations, aggregates;
  std::optional<NotRun> not_run;
};

// One case from the iteration runs: the largest allocation figures any
// repetition saw (the gate errs towards failing), times over the repetitions.
CaseResult from_iterations(const std::string& name, const BenchmarkEntries& b, const std::string& source,
                           FramePool& frames) {
  CaseResult c;
  c.name = name;
  std::vector<double> real_ns, cpu_ns;
  double fewest = std::numeric_limits<double>::infinity();
  for (const auto& [entry, i] : b.iterations) {
    const Reader r(source, entry, i);
    const double allocs = *r.allocation(k::kAllocsPerOp);
    c.allocs_per_op = std::max(c.allocs_per_op, allocs);
    fewest = std::min(fewest, allocs);
    if (const auto v = r.allocation(k::kBytesPerOp)) c.bytes_per_op = std::max(c.bytes_per_op.value_or(0), *v);
    if (const auto v = r.allocation(k::kPeakBytes)) c.peak_bytes = std::max(c.peak_bytes.value_or(0), *v);
    if (const auto v = r.allocation(k::kLeakedBytesPerOpCounter)) {
      c.leaked_bytes_per_op = std::max(c.leaked_bytes_per_op.value_or(0), *v);
    }
    if (const auto n = r.count(k::kIterations)) {
      // Each repetition's count is at most 2^53; their sum may still not fit.
      std::int64_t sum = 0;
      if (__builtin_add_overflow(c.iterations.value_or(0), static_cast<std::int64_t>(*n), &sum)) {
        r.fail(name + ": the repetitions' iterations add up to more than 2^63");
      }
      c.iterations = sum;
    }
    if (r.flag(k::kTestFailed)) c.test_failed = true;      // in any repeat
    if (c.sites.empty()) read_sites(r, entry, c, frames);  // --allocgate_sites writes them into every repetition
    if (const auto t = r.nanoseconds(k::kRealTime)) real_ns.push_back(*t);
    if (const auto t = r.nanoseconds(k::kCpuTime)) cpu_ns.push_back(*t);
  }
  if (fewest < c.allocs_per_op) c.allocs_per_op_min = fewest;  // repetitions that disagree
  set_times(c, std::move(real_ns), std::move(cpu_ns));
  return c;
}

// One case from the aggregates (--benchmark_report_aggregates_only): the
// figures of the mean, the times of the median. No minimum or maximum.
std::optional<CaseResult> from_mean_aggregate(const std::string& name, const BenchmarkEntries& b,
                                              const std::string& source, FramePool& frames) {
  std::optional<CaseResult> c;
  for (const auto& [entry, i] : b.aggregates) {
    const Reader r(source, entry, i);
    const std::string_view aggregate = r.text(k::kAggregateName);
    if (aggregate == "mean") {
      const auto allocs = r.allocation(k::kAllocsPerOp);
      if (!allocs) return std::nullopt;
      if (!c) c.emplace();
      c->name = name;
      c->allocs_per_op = *allocs;
      c->bytes_per_op = r.allocation(k::kBytesPerOp);
      c->peak_bytes = r.allocation(k::kPeakBytes);
      read_sites(r, entry, *c, frames);
    } else if (aggregate == "median") {
      if (!c) c.emplace();
      if (const auto t = r.nanoseconds(k::kRealTime)) c->ns_median = *t;
      if (const auto t = r.nanoseconds(k::kCpuTime)) c->cpu_ns_median = *t;
    }
  }
  if (c && c->name.empty()) return std::nullopt;  // a median without a counted mean
  return c;
}

Report read_google_benchmark(array entries, const nlohmann::json& context, const std::string& source,
                             FramePool& frames) {
  // Group the entries by benchmark (run_name: the name without an aggregate's
  // suffix), in the order they first appear.
  // Two benchmarks registered under one name (spdlog's "%l" twice) are two
  // families (family_index and per_family_instance_index, Google Benchmark
  // 1.6 on): kept apart, the second as NAME#2, never joined as repetitions.
  std::vector<std::string> order;
  std::map<std::string, BenchmarkEntries> benchmarks;
  std::map<std::pair<std::string, std::string>, std::string> name_of_instance;  // (run_name, instance) -> name
  std::map<std::string, std::size_t> instances_named;                           // run_name -> instances seen
  std::vector<std::string> renamed;
  std::size_t i = 0;
  for (const element value : entries) {
    object entry;
    if (value.get(entry) != simdjson::SUCCESS) {
      throw files::InputError(source + ": benchmarks[" + std::to_string(i) + "] is not an object");
    }
    const Reader r(source, entry, i);
    std::string name(r.text(k::kRunName));
    if (name.empty()) name = r.name();
    const auto family = r.count(k::kFamilyIndex), instance = r.count(k::kFamilyInstanceIndex);
    if (family && instance) {
      const std::string id = std::to_string(*family) + "/" + std::to_string(*instance);
      const auto [named, added] = name_of_instance.try_emplace({name, id}, name);
      if (added) {
        const std::size_t n = ++instances_named[name];
        if (n > 1) {
          named->second = name + "#" + std::to_string(n);
          renamed.push_back(named->second);
        }
      }
      name = named->second;
    }
    const auto [it, inserted] = benchmarks.try_emplace(name);
    if (inserted) order.push_back(name);
    BenchmarkEntries& b = it->second;
    bool errored = false;
    if (const auto error = field(entry, k::kErrorOccurred); error && error->get(errored) != simdjson::SUCCESS) {
      r.fail(name + ": error_occurred is not true or false");
    }
    // Google Benchmark 1.8 writes a message with error_occurred false for a skipped benchmark.
    const std::string_view message = r.text(k::kErrorMessage);
    if (errored || !message.empty()) {
      b.not_run = NotRun{name, errored, std::string(message)};
    } else if (r.text(k::kRunType) == "aggregate") {
      b.aggregates.emplace_back(entry, i);
    } else if (r.figure(k::kAllocsPerOp)) {
      b.iterations.emplace_back(entry, i);
    }
    ++i;
  }

  Report report;
  report.context = context;
  std::size_t from_iteration_runs = 0, from_means = 0;
  for (const std::string& name : order) {
    const BenchmarkEntries& b = benchmarks[name];
    if (b.not_run) {
      report.not_run.push_back(*b.not_run);
    } else if (!b.iterations.empty()) {
      report.cases.push_back(from_iterations(name, b, source, frames));
      ++from_iteration_runs;
    } else if (auto c = from_mean_aggregate(name, b, source, frames)) {
      report.cases.push_back(std::move(*c));
      ++from_means;
    }
    // Otherwise not counted: the gate lists a bound on it as without a case, not as 0.
  }
  report.source_summary = std::to_string(from_iteration_runs) + " benchmark(s) from their iteration runs";
  if (from_means > 0) {
    report.source_summary += ", " + std::to_string(from_means) + " from their mean aggregate (aggregates only)";
  }
  const auto errored =
      std::count_if(report.not_run.begin(), report.not_run.end(), [](const NotRun& n) { return n.errored; });
  if (errored > 0) report.source_summary += "; " + std::to_string(errored) + " errored";
  if (report.not_run.size() > static_cast<std::size_t>(errored)) {
    report.source_summary += "; " + std::to_string(report.not_run.size() - errored) + " skipped";
  }
  if (!renamed.empty()) {
    report.source_summary += "; " + std::to_string(renamed.size()) +
                             " registered under a name taken already, kept apart as " + renamed.front() +
                             (renamed.size() > 1 ? " and the like" : "");
  }
  return report;
}

// The context fields the command reads (the toolchain, the tables' workload
// descriptions) have the types it reads them as; the rest is shown as is.
void check_context(const nlohmann::json& context, const std::string& source) {
  const auto fail = [&](const std::string& problem) { throw files::InputError(source + ": context." + problem); };
  if (const auto it = context.find(k::kToolchain); it != context.end() && !it->is_string()) {
    fail(std::string(k::kToolchain) + " is not a string");
  }
  const auto workloads = context.find(k::kWorkloads);
  if (workloads == context.end()) return;
  if (!workloads->is_object()) fail(std::string(k::kWorkloads) + " is not an object");
  for (const auto& [name, info] : workloads->items()) {
    const std::string where = std::string(k::kWorkloads) + "." + name;
    if (!info.is_object()) fail(where + " is not an object");
    for (const char* key : {k::kWorkloadSummary, k::kReferenceVariant}) {
      if (const auto it = info.find(key); it != info.end() && !it->is_string())
        fail(where + "." + key + " is not a string");
    }
    if (const auto it = info.find(k::kCaseStudySize); it != info.end() && !it->is_number_unsigned()) {
      fail(where + "." + k::kCaseStudySize + " is not a whole number >= 0");
    }
  }
}

// Reads a parsed report: allocgate's own (its context has a schema version),
// one case per entry, or a Google Benchmark JSON, whose entries are grouped
// by benchmark.
Report read_report_document(element root, const std::string& source) {
  object document;
  if (root.get(document) != simdjson::SUCCESS) {
    throw files::InputError(source + ": not a report (the top level is not an object)");
  }
  array benchmarks;
  if (const auto value = field(document, "benchmarks"); !value || value->get(benchmarks) != simdjson::SUCCESS) {
    throw files::InputError(source + ": not a report (no benchmarks array)");
  }
  nlohmann::json context = nlohmann::json::object();
  if (const auto value = field(document, "context")) {
    if (!value->is_object()) throw files::InputError(source + ": context is not an object");
    context = files::to_nlohmann(*value);  // small, and printed as is
  }
  const bool ours = context.contains(k::kSchemaVersion);
  Report report;
  FramePool frames;
  if (ours) {
    const auto& version = context.at(k::kSchemaVersion);
    // Compared as JSON numbers: get<int>() would read 4294967297 as 1.
    if (!version.is_number_integer() || version != kReportSchemaVersion) {
      throw files::InputError(source + ": report schema version " + version.dump() +
                              " is not supported (this allocgate reads " + std::to_string(kReportSchemaVersion) + ")");
    }
    check_context(context, source);
    report.context = std::move(context);
    report.cases.reserve(benchmarks.size());
    std::unordered_set<std::string_view> names;  // views into the document, which outlives them
    names.reserve(benchmarks.size());
    std::size_t index = 0;
    for (const element value : benchmarks) {
      object entry;
      if (value.get(entry) != simdjson::SUCCESS) {
        throw files::InputError(source + ": benchmarks[" + std::to_string(index) + "] is not an object");
      }
      const Reader r(source, entry, index++);
      if (!names.insert(r.name()).second)
        throw files::InputError(source + ": case " + std::string(r.name()) + " appears twice");
      report.cases.push_back(read_case(r, entry, frames));
    }
  } else {
    report = read_google_benchmark(benchmarks, context, source, frames);
  }
  if (report.cases.empty() && report.not_run.empty()) {
    throw files::InputError(source + (ours ? ": the report has no cases"
                                           : ": no benchmark reports allocs/op: the program that wrote it was not "
                                             "linked with allocgate::benchmark or allocgate::benchmark_main"));
  }
  return report;
}

}  // namespace

Report report_from_json(const nlohmann::json& json, const std::string& source) {
  return files::with_json_errors(source, [&] {
    const files::JsonDocument document = files::parse_document(json.dump(), source);
    return read_report_document(document.root(), source);
  });
}

Report read_report(const std::filesystem::path& file) {
  const std::string source = file.string();
  return files::with_json_errors(source, [&] {
    const files::JsonDocument document = files::read_json_document(file);
    return read_report_document(document.root(), source);
  });
}

namespace {

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
  return entry;
}

nlohmann::json context_json(const Report& report) {
  nlohmann::json context = report.context;
  context[k::kSchemaVersion] = kReportSchemaVersion;
  return context;
}

// value.dump(2) appended, each of its lines after the first indented by
// `indent` more: the text it has nested that deep in a document dumped whole.
// (JSON strings hold no raw newline, so every '\n' is a line's end.)
void append_nested(std::string& out, const nlohmann::json& value, std::size_t indent) {
  const std::string text = value.dump(2);
  std::size_t from = 0;
  for (std::size_t newline; (newline = text.find('\n', from)) != std::string::npos; from = newline + 1) {
    out.append(text, from, newline + 1 - from);
    out.append(indent, ' ');
  }
  out.append(text, from, std::string::npos);
}

}  // namespace

nlohmann::json to_json(const Report& report) {
  nlohmann::json benchmarks = nlohmann::json::array();
  for (const CaseResult& c : report.cases) benchmarks.push_back(case_json(c));
  return nlohmann::json{{"context", context_json(report)}, {"benchmarks", std::move(benchmarks)}};
}

// The text of to_json(report) dumped with the context first, built a case at
// a time: a report of 300,000 cases never exists as one JSON value, whose
// nodes would take several times the text's size (merge held 8.8x its input).
std::string report_text(const Report& report) {
  std::string out = "{\n  \"context\": ";
  append_nested(out, context_json(report), 2);
  out += ",\n  \"benchmarks\": [";
  for (std::size_t i = 0; i < report.cases.size(); ++i) {
    out += i == 0 ? "\n    " : ",\n    ";
    append_nested(out, case_json(report.cases[i]), 4);
  }
  out += report.cases.empty() ? "]\n}\n" : "\n  ]\n}\n";
  return out;
}

}  // namespace allocgate::reports
