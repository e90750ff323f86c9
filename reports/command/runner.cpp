// SPDX-License-Identifier: Apache-2.0
#include "runner.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <map>
#include <optional>
#include <ostream>

#include "allocgate/measure.h"
#include "context.h"
#include "filter.h"
#include "input_error.h"
#include "json_keys.h"
#include "progress.h"
#include "registry/sha256.h"
#include "registry/workload.h"
#include "timing.h"

namespace allocgate::reports {
namespace {

using allocgate::workloads::all_cases;
using allocgate::workloads::all_workloads;
using allocgate::workloads::CaseRef;
using allocgate::workloads::Workload;

std::vector<const CaseRef*> select_cases(const std::string& filter, const Shard& shard) {
  const NameFilter pattern(filter);
  std::vector<const CaseRef*> cases;
  for (const CaseRef& c : all_cases()) {
    if (pattern.matches(c.name)) cases.push_back(&c);
  }
  if (cases.empty()) throw files::InputError("--filter '" + filter + "' matches no case");
  const auto total = static_cast<std::size_t>(cases.size());
  const auto count = static_cast<std::size_t>(shard.count);
  if (count > total) {
    throw files::InputError("--shard " + shard.text() + ": more shards than the " + std::to_string(total) +
                            " cases selected");
  }
  // Contiguous parts: joined in order, the shards are the unsharded run.
  const std::size_t begin = total * static_cast<std::size_t>(shard.index - 1) / count;
  const std::size_t end = total * static_cast<std::size_t>(shard.index) / count;
  return std::vector<const CaseRef*>(cases.begin() + static_cast<std::ptrdiff_t>(begin),
                                     cases.begin() + static_cast<std::ptrdiff_t>(end));
}

// One operation of a case, its call sites captured from here when `capture`
// is wanted: a stack begins at the function that began the capture (the
// outer frames, measure's and the runner's, are the capture's callers', left
// out), and this function's own frame is the runner's too, taken off each
// stack after (kCapturedFrom). Its table is the harness's, never counted.
constexpr std::string_view kCapturedFrom = "capture_one_run";
[[gnu::noinline]] void capture_one_run(workloads::Case& c, std::optional<CaptureSites>& capture) {
  capture.emplace(4096);
  c.run();
  capture->stop();
}

// The counting pass: one warm-up operation, then counted_runs operations,
// then one more for its peak and, with `sites`, its call sites (capture
// costs time, not allocations: the harness's table is reserved before and
// never counted).
void count_case(const CaseRef& s, int counted_runs, bool sites, CaseResult& result) {
  const auto c = s.prepare();
  const AllocsPerRun per_run = allocs_per_run(counted_runs, [&] { c->run(); });
  std::optional<CaptureSites> capture;
  const AllocationStats one = measure([&] {  // a single op's peak
    if (sites) {
      capture_one_run(*c, capture);
    } else {
      c->run();
    }
  });
  if (capture) {
    // One operation's: its sites and stacks as every report keeps them.
    site_summary::Summary summary = site_summary::summarize(capture->profile(ALLOCGATE_SOURCE_ROOT), 1);
    for (StackSummary& stack : summary.stacks) {
      if (!stack.frames.empty() && std::string_view(stack.frames.front()).ends_with(kCapturedFrom)) {
        stack.frames.erase(stack.frames.begin());
        if (!stack.locations.empty()) stack.locations.erase(stack.locations.begin());
      }
    }
    result.sites = std::move(summary.sites);
    result.stacks = std::move(summary.stacks);
  }
  result.allocs_per_op = per_run.mean;
  result.bytes_per_op = static_cast<double>(per_run.total.bytes_allocated) / counted_runs;
  // Absent when a free's size was unknown (the peak would be too high).
  if (one.sizes_known()) result.peak_bytes = static_cast<double>(one.peak_live_bytes);
  // What the counted operations left allocated, per operation: known only
  // when every free's size was (a leak of unknown size is never taken for 0).
  if (per_run.total.sizes_known()) {
    result.leaked_bytes_per_op = static_cast<double>(std::max<std::int64_t>(per_run.total.net_bytes, 0)) / counted_runs;
  }
  result.output_sha256 = allocgate::workloads::sha256_hex(c->output());
}

// The sites of one operation after a warm-up.
SiteProfile capture_one_operation(workloads::Case& c, Unwinder unwinder = Unwinder::kCached) {
  c.run();
  CaptureSites capture(4096, unwinder);
  c.run();
  capture.stop();
  return capture.profile(ALLOCGATE_SOURCE_ROOT);
}

const CaseRef& named_case(const std::string& name) {
  const CaseRef* c = allocgate::workloads::find_case(name);
  if (c == nullptr) throw files::InputError("no case named '" + name + "' (allocgate list shows them)");
  return *c;
}

}  // namespace

Report run_cases(const RunOptions& options, std::ostream& progress_out) {
  const std::vector<const CaseRef*> cases = select_cases(options.filter, options.shard);
  command::Progress progress(progress_out, cases.size(), options.time ? 2 : 1);

  std::vector<CaseResult> results;                    // timed below, then packed into the report
  std::map<std::string, std::string> reference_hash;  // "workload/size" -> hash
  for (const CaseRef* s : cases) {
    CaseResult r;
    r.name = s->name;
    r.workload = s->workload->name;
    r.variant = s->variant->name;
    r.size = s->size;
    count_case(*s, options.counted_runs, options.sites, r);
    const std::string key = std::string(s->workload->name) + "/" + std::to_string(s->size);
    if (!reference_hash.count(key)) {
      const auto reference = s->prepare_reference();
      reference->run();
      reference_hash[key] = allocgate::workloads::sha256_hex(reference->output());
    }
    r.equal_to_reference = r.output_sha256 == reference_hash[key];
    results.push_back(std::move(r));
    progress.step(s->name + " (counted)");
  }

  RunContext context = build_context();
  context.counted_runs = options.counted_runs;
  for (const Workload& w : all_workloads()) {
    context.workloads.push_back(
        WorkloadInfo{std::string(w.name), std::string(w.summary), std::string(w.reference().name), w.default_size});
  }
  if (options.time) {
    context.machine =
        time_cases(cases, options, results, [&](const std::string& name) { progress.step(name + " (timed)"); });
    context.repetitions = options.repetitions;
  }
  Report report;
  for (const CaseResult& r : results) report.cases.push_back(r);
  report.context = to_json(context);
  if (options.shard.count > 1) report.context[keys::kShard] = options.shard.text();
  return report;
}

std::string case_output(const std::string& name) {
  const auto c = named_case(name).prepare();
  c->run();
  return c->output();
}

SiteProfile profile_case(const std::string& name, Unwinder unwinder) {
  return capture_one_operation(*named_case(name).prepare(), unwinder);
}

SiteProfile loop_case(const std::string& name, long runs, bool sites) {
  const auto c = named_case(name).prepare();
  c->run();
  if (!sites) {
    for (long i = 0; i < runs; ++i) c->run();
    return {};
  }
  CaptureSites capture(4096);
  for (long i = 0; i < runs; ++i) c->run();
  capture.stop();
  return capture.profile(ALLOCGATE_SOURCE_ROOT);
}

}  // namespace allocgate::reports
