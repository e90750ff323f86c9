// SPDX-License-Identifier: Apache-2.0
// Reading a report (report.h's read_report): streamed (json_stream.h), an
// entry of benchmarks[] at a time, each checked and packed into the report's
// cases before the next is read; the document is never held whole.
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <set>
#include <tuple>
#include <utility>

#include "format.h"
#include "input_error.h"
#include "json_file.h"
#include "json_keys.h"
#include "json_stream.h"
#include "report.h"

namespace allocgate::reports {

namespace k = allocgate::reports::keys;

namespace {

using Json = nlohmann::json;

// Readers check every figure: a report is input, and a NaN or a negative
// count in it must stop the gate, not pass it; nor may a huge one reach a
// conversion to an integer, where it would be undefined behaviour.
constexpr double kMaxCount = 9007199254740992.0;  // 2^53

// What a case may carry. allocgate writes at most site_summary::kSites sites
// and kStacks stacks of kFrames frames; these leave room for
// other writers' stacks and stop a hostile report before the flame graph recurses
// through a 100,000-frame stack.
constexpr std::size_t kMaxSitesPerCase = site_summary::kSites;
constexpr std::size_t kMaxStacksPerCase = 1000;
constexpr std::size_t kMaxFramesPerStack = 256;
constexpr std::size_t kMaxHintBytes = 1000;

const Json* field(const Json& object, std::string_view key) {
  const auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

// A string's view, or nullopt when the value is not a string.
std::optional<std::string_view> text_of(const Json& value) {
  if (!value.is_string()) return std::nullopt;
  return std::string_view(value.get_ref<const std::string&>());
}

class Reader {
 public:
  Reader(const std::string& source, const Json& entry, std::size_t index)
      : source_(source), entry_(entry), index_(index) {}

  std::string_view name() const {
    const Json* value = field(entry_, k::kName);
    const auto name = value ? text_of(*value) : std::nullopt;
    if (!name || name->empty()) fail("benchmarks[" + std::to_string(index_) + "] has no name");
    return *name;
  }

  std::optional<double> figure(const char* key) const {
    const Json* it = field(entry_, key);
    if (!it) return std::nullopt;
    if (it->is_null()) fail(label() + ": " + key + " is null or NaN");
    if (!it->is_number()) fail(label() + ": " + key + " is not a number");
    const double value = it->get<double>();
    if (!std::isfinite(value)) fail(label() + ": " + key + " is not finite");
    if (value < 0) fail(label() + ": " + key + " is negative (" + it->dump() + ")");
    return value;
  }

  /// An allocation figure (allocs/op, bytes/op, peak or leaked bytes): a
  /// figure no larger than 2^53, where a double still holds every whole
  /// number, so that a count compares with its bound exactly (2^53 + 1 would
  /// read as 2^53).
  std::optional<double> allocation(const char* key) const {
    const std::optional<double> value = figure(key);
    if (!value) return std::nullopt;
    const Json& it = *field(entry_, key);
    const bool above =
        it.is_number_unsigned() ? it.get<std::uint64_t>() > static_cast<std::uint64_t>(kMaxCount) : *value > kMaxCount;
    if (above) {
      fail(label() + ": " + key + " is above 2^53, beyond what can be counted exactly (" + it.dump() + ")");
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
      fail(label() + ": " + key + " " + field(entry_, key)->dump() + " " + std::string(unit) +
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
      fail(label() + ": " + key + " is not a whole number up to 2^53 (" + field(entry_, key)->dump() + ")");
    }
    return static_cast<std::uint64_t>(*value);
  }

  /// true or false; absent is false.
  bool flag(const char* key) const {
    const Json* it = field(entry_, key);
    if (it && !it->is_boolean()) fail(label() + ": " + key + " is not true or false");
    return it && it->get<bool>();
  }

  std::string_view text(const char* key) const {
    const Json* it = field(entry_, key);
    if (!it || it->is_null()) return {};
    const auto value = text_of(*it);
    if (!value) fail(label() + ": " + key + " is not a string");
    return *value;
  }

  const Json& entry() const { return entry_; }
  std::size_t index() const { return index_; }

  [[noreturn]] void fail(const std::string& problem) const { throw files::InputError(source_ + ": " + problem); }

 private:
  std::string label() const { return "benchmarks[" + std::to_string(index_) + "] (" + std::string(name()) + ")"; }

  const std::string& source_;
  const Json& entry_;
  std::size_t index_;
};

// Each distinct frame of a report once (SiteSummary::frame), however many
// cases name it: a frame seen before costs no allocation.
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
void read_sites(const Reader& r, CaseResult& c, FramePool& frames) {
  const auto number = [&](const Json& o, const char* key, double max = HUGE_VAL) {
    const Json* value = field(o, key);
    if (!value) return 0.0;
    const double v = value->is_number() ? value->get<double>() : -1;
    if (!value->is_number() || !std::isfinite(v) || v < 0 || v > max) {
      r.fail(c.name + ": a site's " + key + " is not a number from 0 to " + files::exact(max) + " (" + value->dump() +
             ")");
    }
    return v;
  };
  const auto text = [&](const Json& o, const char* key) {
    const Json* value = field(o, key);
    if (!value) return std::string_view();
    const auto v = text_of(*value);
    if (!v) r.fail(c.name + ": a site's " + key + " is not a string");
    return *v;
  };
  if (const Json* sites = field(r.entry(), k::kSites)) {
    if (!sites->is_array()) r.fail(c.name + ": sites is not an array");
    if (sites->size() > kMaxSitesPerCase) {
      r.fail(c.name + ": " + std::to_string(sites->size()) + " sites (at most " + std::to_string(kMaxSitesPerCase) +
             ")");
    }
    c.sites.reserve(sites->size());
    for (const Json& site : *sites) {
      if (!site.is_object()) r.fail(c.name + ": a site is not an object");
      const double line = number(site, k::kLine, std::numeric_limits<unsigned>::max());
      if (std::trunc(line) != line) r.fail(c.name + ": a site's line is not a whole number");
      const double allocs = number(site, k::kAllocsPerOpField);
      const double temporary = number(site, k::kTemporaryPerOp);
      if (temporary > allocs) r.fail(c.name + ": a site's temporary_per_op is above its allocs_per_op");
      const std::string_view hint = text(site, k::kHint);
      if (hint.size() > kMaxHintBytes)
        r.fail(c.name + ": a site's hint is longer than " + std::to_string(kMaxHintBytes) + " bytes");
      c.sites.emplace_back(frames.get(text(site, k::kFunction), text(site, k::kFile), static_cast<unsigned>(line)),
                           allocs, number(site, k::kBytesPerOpField), temporary, std::string(hint));
    }
  }
  if (const Json* stacks = field(r.entry(), k::kStacks)) {
    if (!stacks->is_array()) r.fail(c.name + ": stacks is not an array");
    if (stacks->size() > kMaxStacksPerCase) {
      r.fail(c.name + ": " + std::to_string(stacks->size()) + " stacks (at most " + std::to_string(kMaxStacksPerCase) +
             ")");
    }
    for (const Json& stack : *stacks) {
      const Json* frame_list = stack.is_object() ? field(stack, k::kFrames) : nullptr;
      if (!frame_list || !frame_list->is_array()) r.fail(c.name + ": a stack has no frames array");
      if (frame_list->size() > kMaxFramesPerStack) {
        r.fail(c.name + ": a stack of " + std::to_string(frame_list->size()) + " frames (at most " +
               std::to_string(kMaxFramesPerStack) + ")");
      }
      StackSummary summary;
      for (const Json& frame : *frame_list) {
        const auto name = text_of(frame);
        if (!name) r.fail(c.name + ": a stack frame is not a string");
        summary.frames.emplace_back(*name);
      }
      if (const Json* locations = field(stack, site_summary::keys::kLocations)) {
        if (!locations->is_array() || locations->size() != frame_list->size()) {
          r.fail(c.name + ": a stack's locations are not one string per frame");
        }
        for (const Json& location : *locations) {
          const auto where = text_of(location);
          if (!where) r.fail(c.name + ": a stack's location is not a string");
          summary.locations.emplace_back(*where);
        }
      }
      // A stack's figure: absent (reports before bytes and temporaries were
      // kept) is 0, anything else a finite, non-negative number.
      const auto figure = [&](const char* key, bool required) {
        const Json* value = field(stack, key);
        if (!value) {
          if (required) r.fail(c.name + ": a stack has no " + key);
          return 0.0;
        }
        const double v = value->is_number() ? value->get<double>() : -1;
        if (!(v >= 0) || !std::isfinite(v)) r.fail(c.name + ": a stack's " + key + " is not a non-negative number");
        return v;
      };
      summary.allocs_per_op = figure(k::kAllocsPerOpField, true);
      summary.bytes_per_op = figure(k::kBytesPerOpField, false);
      summary.temporary_per_op = figure(site_summary::keys::kTemporaryPerOp, false);
      c.stacks.push_back(std::move(summary));
    }
  }
}

// A test's failure sweep (allocgate_sweep): counts that fit, outcomes the
// sweep names, and texts no longer than a test binary writes them.
void read_sweep(const Reader& r, CaseResult& c) {
  constexpr std::size_t kMaxFindings = 100000;
  constexpr std::size_t kMaxText = 70000;  // a child's line or message, 64 KiB, and the detail's words
  const Json* sweep = field(r.entry(), k::kSweep);
  if (!sweep) return;
  const std::string where = c.name + ": allocgate_sweep";
  if (!sweep->is_object()) r.fail(where + " is not an object");
  const auto count = [&](const Json& o, const char* key) -> std::uint64_t {
    const Json* value = field(o, key);
    if (!value) return 0;
    if (!value->is_number_unsigned() || value->get<std::uint64_t>() > static_cast<std::uint64_t>(kMaxCount)) {
      r.fail(where + "." + key + " is not a whole number up to 2^53 (" + value->dump() + ")");
    }
    return value->get<std::uint64_t>();
  };
  const auto outcome = [&](std::string_view name) {
    for (const char* known : allocgate::keys::kSweepOutcomes) {
      if (name == known) return;
    }
    r.fail(where + " names an outcome it does not know: " + std::string(name.substr(0, 100)));
  };
  const auto text = [&](const Json& o, const char* key) {
    const Json* value = field(o, key);
    if (!value) return std::string();
    const auto v = text_of(*value);
    if (!v || v->size() > kMaxText) {
      r.fail(where + ": a finding's " + key + " is not a string of at most " + std::to_string(kMaxText) + " bytes");
    }
    return std::string(*v);
  };
  SweepSummary s;
  s.attempts = count(*sweep, "attempts");
  s.tried = count(*sweep, "tried");
  if (const Json* nondeterministic = field(*sweep, "nondeterministic")) {
    if (!nondeterministic->is_boolean()) r.fail(where + ".nondeterministic is not true or false");
    s.nondeterministic = nondeterministic->get<bool>();
  }
  if (const Json* outcomes = field(*sweep, "outcomes")) {
    if (!outcomes->is_object()) r.fail(where + ".outcomes is not an object");
    for (const auto& [name, value] : outcomes->items()) {
      outcome(name);
      s.outcomes.emplace_back(name, count(*outcomes, name.c_str()));
    }
  }
  if (const Json* findings = field(*sweep, "findings")) {
    if (!findings->is_array() || findings->size() > kMaxFindings) {
      r.fail(where + ".findings is not an array of at most " + std::to_string(kMaxFindings));
    }
    for (const Json& f : *findings) {
      if (!f.is_object()) r.fail(where + ": a finding is not an object");
      SweepFindingResult finding{count(f, "point"), text(f, "outcome"), text(f, "line"), text(f, "detail"), false};
      if (const Json* on_purpose = field(f, "on_purpose")) {
        if (!on_purpose->is_boolean()) r.fail(where + ": a finding's on_purpose is not true or false");
        finding.on_purpose = on_purpose->get<bool>();
      }
      outcome(finding.outcome);
      s.findings.push_back(std::move(finding));
    }
  }
  c.sweep = std::move(s);
}

// A case's timed repetitions: finite, non-negative figures, at most as many as
// `run --repetitions` allows.
void read_repetitions(const Reader& r, CaseResult& c) {
  constexpr std::size_t kMaxRepetitions = 1000;
  const Json* values = field(r.entry(), k::kNsPerOpRepetitions);
  if (!values) return;
  if (!values->is_array() || values->size() > kMaxRepetitions) {
    r.fail(c.name + ": ns_per_op_repetitions is not an array of at most " + std::to_string(kMaxRepetitions) +
           " figures");
  }
  for (const Json& value : *values) {
    const double v = value.is_number() ? value.get<double>() : -1;
    if (!value.is_number() || !std::isfinite(v) || v < 0) {
      r.fail(c.name + ": ns_per_op_repetitions holds " + value.dump() + ", not a figure >= 0");
    }
    c.ns_repetitions.push_back(v);
  }
  std::sort(c.ns_repetitions.begin(), c.ns_repetitions.end());
}

// An allocgate report: one entry per case, every field ours.
CaseResult read_case(const Reader& r, FramePool& frames) {
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
  read_repetitions(r, c);
  if (const auto iterations = r.count(k::kIterations)) c.iterations = static_cast<std::int64_t>(*iterations);
  c.output_sha256 = r.text(k::kOutputSha256);
  if (const Json* equal = field(r.entry(), k::kEqualToReference); equal && !equal->is_null()) {
    if (!equal->is_boolean()) r.fail(c.name + ": equal_to_reference is not true or false");
    c.equal_to_reference = equal->get<bool>();
  }
  c.test_failed = r.flag(k::kTestFailed);
  read_sites(r, c, frames);
  read_sweep(r, c);
  return c;
}

// One benchmark of a Google Benchmark JSON, from its entries so far: its
// iteration runs (one per repetition), its aggregates (mean, median, stddev,
// cv) and whether it errored or was skipped. Gathered an entry at a time, so
// that no entry is kept once read.
struct Benchmark {
  std::optional<NotRun> not_run;
  // From the iteration runs: the largest allocation figures any repetition
  // saw (the gate errs towards failing), times over the repetitions.
  std::optional<CaseResult> runs;
  double fewest = std::numeric_limits<double>::infinity();
  std::vector<double> real_ns, cpu_ns;
  // From the aggregates (--benchmark_report_aggregates_only): the figures of
  // the mean, the times of the median. No minimum or maximum.
  std::optional<CaseResult> mean;
  bool mean_uncounted = false;  // a mean without allocs/op: no case from the aggregates
  std::optional<double> median_ns, median_cpu_ns;
};

void add_iteration(const std::string& name, Benchmark& b, const Reader& r, FramePool& frames) {
  if (!b.runs) {
    b.runs.emplace();
    b.runs->name = name;
  }
  CaseResult& c = *b.runs;
  const double allocs = *r.allocation(k::kAllocsPerOp);
  c.allocs_per_op = std::max(c.allocs_per_op, allocs);
  b.fewest = std::min(b.fewest, allocs);
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
  if (r.flag(k::kTestFailed)) c.test_failed = true;  // in any repeat
  if (const auto v = r.allocation(allocgate::keys::kKeptBytes)) c.kept_bytes = std::max(c.kept_bytes.value_or(0), *v);
  if (const auto v = r.allocation(allocgate::keys::kOneTimeAllocations)) {
    c.one_time_allocs = std::max(c.one_time_allocs.value_or(0), *v);
  }
  if (const auto v = r.allocation(allocgate::keys::kOtherThreadAllocations)) {
    c.other_thread_allocs = std::max(c.other_thread_allocs.value_or(0), *v);
  }
  if (c.sites.empty()) read_sites(r, c, frames);  // --allocgate_sites writes them into every repetition
  if (!c.sweep) read_sweep(r, c);
  if (const auto t = r.nanoseconds(k::kRealTime)) b.real_ns.push_back(*t);
  if (const auto t = r.nanoseconds(k::kCpuTime)) b.cpu_ns.push_back(*t);
}

void add_aggregate(const std::string& name, Benchmark& b, const Reader& r, FramePool& frames) {
  const std::string_view aggregate = r.text(k::kAggregateName);
  if (aggregate == "mean") {
    const auto allocs = r.allocation(k::kAllocsPerOp);
    if (!allocs) {
      b.mean_uncounted = true;
      return;
    }
    b.mean.emplace();
    b.mean->name = name;
    b.mean->allocs_per_op = *allocs;
    b.mean->bytes_per_op = r.allocation(k::kBytesPerOp);
    b.mean->peak_bytes = r.allocation(k::kPeakBytes);
    read_sites(r, *b.mean, frames);
  } else if (aggregate == "median") {
    if (const auto t = r.nanoseconds(k::kRealTime)) b.median_ns = *t;
    if (const auto t = r.nanoseconds(k::kCpuTime)) b.median_cpu_ns = *t;
  }
}

// A Google Benchmark JSON's entries grouped by benchmark (run_name: the name
// without an aggregate's suffix), in the order they first appear.
// Two benchmarks registered under one name (spdlog's "%l" twice) are two
// families (family_index and per_family_instance_index, Google Benchmark
// 1.6 on): kept apart, the second as NAME#2, never joined as repetitions.
class GoogleBenchmarkCases {
 public:
  void add(const Reader& r) {
    std::string name(r.text(k::kRunName));
    if (name.empty()) name = r.name();
    const auto family = r.count(k::kFamilyIndex), instance = r.count(k::kFamilyInstanceIndex);
    if (family && instance) {
      const std::string id = std::to_string(*family) + "/" + std::to_string(*instance);
      const auto [named, added] = name_of_instance_.try_emplace({name, id}, name);
      if (added) {
        const std::size_t n = ++instances_named_[name];
        if (n > 1) {
          named->second = name + "#" + std::to_string(n);
          renamed_.push_back(named->second);
        }
      }
      name = named->second;
    }
    const auto [it, inserted] = benchmarks_.try_emplace(name);
    if (inserted) order_.push_back(name);
    Benchmark& b = it->second;
    const Json* error = field(r.entry(), k::kErrorOccurred);
    if (error && !error->is_boolean()) r.fail(name + ": error_occurred is not true or false");
    const bool errored = error && error->get<bool>();
    // Google Benchmark 1.8 writes a message with error_occurred false for a skipped benchmark.
    const std::string_view message = r.text(k::kErrorMessage);
    if (errored || !message.empty()) {
      b.not_run = NotRun{name, errored, std::string(message)};
    } else if (r.text(k::kRunType) == "aggregate") {
      add_aggregate(name, b, r, frames_);
    } else if (r.figure(k::kAllocsPerOp)) {
      // Repetitions of one case are numbered; two runs of one number are
      // two cases of one name (two tests named alike), which joined as
      // repetitions would be one case's figures: refused instead.
      if (const auto repetition = r.count(k::kRepetitionIndex);
          repetition && !repetitions_seen_.emplace(name, *repetition).second) {
        r.fail(name + ": two runs are its repetition " + std::to_string(*repetition) +
               ": two cases share this name, and a report keys figures by name");
      }
      add_iteration(name, b, r, frames_);
    }
  }

  void finish(Report& report) {
    std::size_t from_iteration_runs = 0, from_means = 0;
    for (const std::string& name : order_) {
      Benchmark& b = benchmarks_[name];
      if (b.not_run) {
        report.not_run.push_back(*b.not_run);
      } else if (b.runs) {
        if (b.fewest < b.runs->allocs_per_op) b.runs->allocs_per_op_min = b.fewest;  // repetitions that disagree
        set_times(*b.runs, std::move(b.real_ns), std::move(b.cpu_ns));
        report.cases.push_back(*b.runs);
        ++from_iteration_runs;
      } else if (b.mean && !b.mean_uncounted) {
        b.mean->ns_median = b.median_ns;
        b.mean->cpu_ns_median = b.median_cpu_ns;
        report.cases.push_back(*b.mean);
        ++from_means;
      }
      // Otherwise not counted: the gate lists a bound on it as without a case, not as 0.
      b = Benchmark();
    }
    // A test binary's report (allocgate::gtest, catch2, doctest) is of tests and their runs.
    report.source_summary = std::to_string(from_iteration_runs) + (report.context.contains(allocgate::keys::kTests)
                                                                       ? " test(s) from their runs"
                                                                       : " benchmark(s) from their iteration runs");
    if (from_means > 0) {
      report.source_summary += ", " + std::to_string(from_means) + " from their mean aggregate (aggregates only)";
    }
    const auto errored =
        std::count_if(report.not_run.begin(), report.not_run.end(), [](const NotRun& n) { return n.errored; });
    if (errored > 0) report.source_summary += "; " + std::to_string(errored) + " errored";
    if (report.not_run.size() > static_cast<std::size_t>(errored)) {
      report.source_summary += "; " + std::to_string(report.not_run.size() - errored) + " skipped";
    }
    if (!renamed_.empty()) {
      report.source_summary += "; " + std::to_string(renamed_.size()) +
                               " registered under a name taken already, kept apart as " + renamed_.front() +
                               (renamed_.size() > 1 ? " and the like" : "");
    }
  }

 private:
  std::vector<std::string> order_;
  std::map<std::string, Benchmark> benchmarks_;
  std::map<std::pair<std::string, std::string>, std::string> name_of_instance_;  // (run_name, instance) -> name
  std::map<std::string, std::size_t> instances_named_;                           // run_name -> instances seen
  std::vector<std::string> renamed_;
  std::set<std::pair<std::string, std::uint64_t>> repetitions_seen_;  // (name, repetition_index)
  FramePool frames_;
};

// The context fields the command reads (the toolchain, the tables' workload
// descriptions) have the types it reads them as; the rest is shown as is.
void check_context(const Json& context, const std::string& source) {
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

// The document's events: its top-level object streamed, and its benchmarks
// array, an entry at a time. An allocgate report (its context has a schema
// version) has one case per entry; a Google Benchmark JSON's entries are
// grouped by benchmark. Entries that come before the context (no writer puts
// them there) wait for it.
class ReportStream final : public files::JsonStreamHandler {
 public:
  explicit ReportStream(const std::string& source) : source_(source) {}

  bool stream(const files::JsonPath& path, bool is_array) override {
    if (path.empty()) {
      if (is_array) not_a_report("the top level is not an object");
      return true;
    }
    const std::string& key = path.front().key;
    if (path.size() == 1) {
      if (key == "context" || (key == "benchmarks" && !is_array)) return false;  // built, or refused in value()
      top_level_key(key);
      return true;
    }
    return key != "benchmarks";  // an entry is built; another key's value is read through, kept nowhere
  }

  void value(const files::JsonPath& path, Json value) override {
    if (path.empty()) not_a_report("the top level is not an object");
    const std::string& key = path.front().key;
    if (path.size() == 1) top_level_key(key);
    if (key == "context" && path.size() == 1) {
      if (!value.is_object()) throw files::InputError(source_ + ": context is not an object");
      context_ = std::move(value);
      decide();
    } else if (key == "benchmarks") {
      if (path.size() == 1) not_a_report("no benchmarks array");
      if (!kind_) {
        waiting_.push_back(std::move(value));
      } else {
        entry(std::move(value));
      }
    }
  }

  Report finish() {
    if (!keys_.count("benchmarks")) not_a_report("no benchmarks array");
    decide();
    if (*kind_ == Kind::google_benchmark) google_benchmark_.finish(report_);
    const bool ours = *kind_ == Kind::ours;
    if (ours) {
      const std::vector<std::uint32_t> order = report_.cases.by_name();
      const auto twice = std::adjacent_find(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
        return report_.cases.name(a) == report_.cases.name(b);
      });
      if (twice != order.end()) {
        throw files::InputError(source_ + ": case " + std::string(report_.cases.name(*twice)) + " appears twice");
      }
    }
    if (report_.cases.empty() && report_.not_run.empty()) {
      throw files::InputError(source_ + (ours ? ": the report has no cases"
                                              : ": no benchmark reports allocs/op: the program that wrote it was not "
                                                "linked with allocgate::benchmark or allocgate::benchmark_main"));
    }
    return std::move(report_);
  }

 private:
  enum class Kind { ours, google_benchmark };

  void top_level_key(const std::string& key) {
    if (!keys_.insert(key).second) {
      throw files::InputError(source_ + ": the key \"" + key + "\" appears twice in one object");
    }
  }

  [[noreturn]] void not_a_report(const char* why) const {
    throw files::InputError(source_ + ": not a report (" + why + ")");
  }

  // Once the context is read, or the document ended without one.
  void decide() {
    if (kind_) return;
    const bool ours = context_.contains(k::kSchemaVersion);
    if (ours) {
      const Json& version = context_.at(k::kSchemaVersion);
      // Compared as JSON numbers: get<int>() would read 4294967297 as 1.
      if (!version.is_number_integer() || version != kReportSchemaVersion) {
        throw files::InputError(source_ + ": report schema version " + version.dump() +
                                " is not supported (this allocgate reads " + std::to_string(kReportSchemaVersion) +
                                ")");
      }
      check_context(context_, source_);
    }
    report_.context = std::move(context_);
    kind_ = ours ? Kind::ours : Kind::google_benchmark;
    for (Json& waiting : waiting_) entry(std::move(waiting));
    waiting_ = {};
  }

  void entry(Json value) {
    const std::size_t index = index_++;
    if (!value.is_object()) {
      throw files::InputError(source_ + ": benchmarks[" + std::to_string(index) + "] is not an object");
    }
    const Reader r(source_, value, index);
    if (*kind_ == Kind::ours) {
      report_.cases.push_back(read_case(r, frames_));
    } else {
      google_benchmark_.add(r);
    }
  }

  const std::string& source_;
  std::set<std::string> keys_;  // the top level's
  Json context_ = Json::object();
  std::optional<Kind> kind_;
  std::vector<Json> waiting_;
  std::size_t index_ = 0;
  Report report_;
  FramePool frames_;
  GoogleBenchmarkCases google_benchmark_;
};

}  // namespace

Report report_from_json(const nlohmann::json& json, const std::string& source) {
  return files::with_json_errors(source, [&] {
    ReportStream reader(source);
    files::stream_json_text(json.dump(), source, reader);
    return reader.finish();
  });
}

Report read_report(const std::filesystem::path& file) {
  const std::string source = file.string();
  return files::with_json_errors(source, [&] {
    ReportStream reader(source);
    files::stream_json_file(file, reader);
    return reader.finish();
  });
}

}  // namespace allocgate::reports
