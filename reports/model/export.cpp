// SPDX-License-Identifier: Apache-2.0
#include "export.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <ostream>

#include "escape.h"
#include "format.h"
#include "json_file.h"
#include "streamed_json.h"

namespace allocgate::reports {
namespace {

using files::json_number;

// What a tooltip adds to a figure: the toolchain the counts belong to, and
// the line that allocates most.
std::string extra(const Report& report, const CaseResult& c) {
  std::string text = "toolchain: " + report.toolchain();
  if (!c.sites.empty())
    text +=
        "\ntop site: " + files::readable(c.sites[0].allocs_per_op) + " allocs/op from " + to_string(c.sites[0].where());
  return text;
}

// A frame of a folded stack: one field of one line.
std::string folded_frame(std::string_view name) {
  std::string text = files::terminal_text(name);
  std::replace(text.begin(), text.end(), ';', ':');
  return text;
}

// "± 0.5": half the spread between the smallest and the largest.
std::string spread(double low, double high) { return "± " + files::readable((high - low) / 2); }

}  // namespace

void print_github_action_benchmark(std::ostream& out, const Report& report) {
  files::StreamedJson entries(out, '[');
  for (const CaseResult& c : report.cases) {
    nlohmann::json allocs{{"name", c.name + " - allocs/op"},
                          {"unit", "allocs/op"},
                          {"value", json_number(c.allocs_per_op)},
                          {"extra", extra(report, c)}};
    if (c.allocs_per_op_min) allocs["range"] = spread(*c.allocs_per_op_min, c.allocs_per_op);
    entries.element(allocs);
    if (c.bytes_per_op) {
      entries.element(
          {{"name", c.name + " - bytes/op"}, {"unit", "bytes/op"}, {"value", json_number(*c.bytes_per_op)}});
    }
    if (c.ns_median) {
      nlohmann::json time{{"name", c.name + " - time"}, {"unit", "ns/op"}, {"value", *c.ns_median}};
      if (c.ns_min && c.ns_max) time["range"] = spread(*c.ns_min, *c.ns_max);
      entries.element(time);
    }
  }
  entries.finish();
  out << '\n';
}

void print_bencher_metric_format(std::ostream& out, const Report& report) {
  // In name order, as a JSON object dumped whole has its keys.
  files::StreamedJson benchmarks(out, '{');
  for (const std::uint32_t i : report.cases.by_name()) {
    const CaseResult c = report.cases[i];
    nlohmann::json measures{{"allocs_per_op", {{"value", json_number(c.allocs_per_op)}}}};
    if (c.allocs_per_op_min) {
      measures["allocs_per_op"]["lower_value"] = json_number(*c.allocs_per_op_min);
      measures["allocs_per_op"]["upper_value"] = json_number(c.allocs_per_op);
    }
    if (c.bytes_per_op) measures["bytes_per_op"] = {{"value", json_number(*c.bytes_per_op)}};
    if (c.ns_median) {
      measures["latency"] = {{"value", *c.ns_median}};
      if (c.ns_min && c.ns_max) {
        measures["latency"]["lower_value"] = *c.ns_min;
        measures["latency"]["upper_value"] = *c.ns_max;
      }
    }
    benchmarks.member(c.name, measures);
  }
  benchmarks.finish();
  out << '\n';
}

FoldedScale folded_scale(const Report& report) {
  // Whole within a millionth of one allocation: what a double's decimal
  // digits allow for the figures a report holds.
  const auto whole = [](double count) { return std::abs(count - std::round(count)) <= 1e-6; };
  // No scale that takes the largest count past 2^53, where doubles stop
  // being whole numbers one by one.
  double largest = 0;
  for (const CaseResult& c : report.cases) {
    for (const StackSummary& s : c.stacks) largest = std::max(largest, s.allocs_per_op);
  }
  std::uint64_t most = 1;
  while (most < kMostOperationsPerCount && largest * static_cast<double>(most * 10) <= 0x1p53) most *= 10;
  for (std::uint64_t per = 1; per < most; per *= 10) {
    const bool all_whole = std::all_of(report.cases.begin(), report.cases.end(), [&](const CaseResult& c) {
      return std::all_of(c.stacks.begin(), c.stacks.end(),
                         [&](const StackSummary& s) { return whole(s.allocs_per_op * static_cast<double>(per)); });
    });
    if (all_whole) return {per, false};
  }
  return {most, true};
}

FoldedScale print_collapsed_stacks(std::ostream& out, const Report& report) {
  const FoldedScale scale = folded_scale(report);
  for (const CaseResult& c : report.cases) {
    for (const StackSummary& stack : c.stacks) {
      out << folded_frame(c.name);
      for (const std::string& frame : stack.frames) out << ';' << folded_frame(frame);
      // A whole number in fixed notation: flamegraph.pl's line rule takes no
      // exponent, speedscope's no fraction.
      const double count = std::round(stack.allocs_per_op * static_cast<double>(scale.operations_per_count));
      out << ' ' << static_cast<std::uint64_t>(std::clamp(count, 0.0, 0x1p63)) << '\n';
    }
  }
  return scale;
}

bool has_stacks(const Report& report) {
  return std::any_of(report.cases.begin(), report.cases.end(), [](const CaseResult& c) { return !c.stacks.empty(); });
}

}  // namespace allocgate::reports
