// SPDX-License-Identifier: Apache-2.0
// `allocgate history chart --html`: one self-contained page, an SVG chart per
// case over the recorded runs: allocs/op and bytes/op exact, the time's
// median with its min-max band, and each run where an exact figure changed
// marked and labelled with its commit.

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <ostream>
#include <sstream>
#include <string_view>
#include <vector>

#include "escape.h"
#include "format.h"
#include "history_table.h"

namespace allocgate::reports {

namespace {

constexpr double kWidth = 760, kPanelHeight = 90, kLeft = 70, kRight = 90, kTop = 24, kGap = 34;

struct Panel {
  const char* label;
  const char* css;
  std::vector<std::optional<double>> values, low, high;  // low/high: a band, when set
};

// A coordinate to a tenth of a pixel: to_chars, not the stream's printf, in
// a chart of 10,000 points.
struct Coordinate {
  double value;
};
std::ostream& operator<<(std::ostream& out, Coordinate c) {
  std::array<char, 32> text{};
  const auto end = std::to_chars(text.data(), text.data() + text.size(), c.value, std::chars_format::fixed, 1).ptr;
  return out.write(text.data(), end - text.data());
}

// A commit as an axis label: its first ten bytes, never half a character.
std::string commit_label(const std::string& commit) { return std::string(files::utf8_prefix(commit, 10)); }

double x_of(std::size_t run, std::size_t runs) {
  const double span = kWidth - kLeft - kRight;
  return runs <= 1 ? kLeft + span / 2 : kLeft + span * static_cast<double>(run) / static_cast<double>(runs - 1);
}

// One panel: its axis labels, a band if any, the line, and a circle at each point.
void draw_panel(std::ostream& out, const Panel& panel, double top, std::size_t runs) {
  double lo = HUGE_VAL, hi = -HUGE_VAL;
  for (const auto* series : {&panel.values, &panel.low, &panel.high}) {
    for (const auto& v : *series) {
      if (!v) continue;
      lo = std::min(lo, *v);
      hi = std::max(hi, *v);
    }
  }
  if (lo > hi) return;  // no figure in any run
  // A figure that never changed is a level line across the middle.
  const bool flat = hi == lo;
  const auto y_of = [&](double v) {
    return flat ? top + kPanelHeight / 2 : top + kPanelHeight - (v - lo) / (hi - lo) * kPanelHeight;
  };
  out << "<text class=\"panel\" x=\"" << kLeft << "\" y=\"" << top - 8 << "\">" << panel.label << "</text>";
  for (const double tick : flat ? std::vector<double>{lo} : std::vector<double>{lo, hi}) {
    // Short enough for the margin: an axis says the scale; the points' titles are exact.
    const std::string label =
        panel.css == std::string_view("time") ? files::compact_nanoseconds(tick) : files::compact(tick);
    out << "<text class=\"tick\" x=\"" << kLeft - 6 << "\" y=\"" << Coordinate{y_of(tick) + 4} << "\">"
        << files::html_text(label) << "</text>";
  }
  if (!panel.low.empty()) {
    std::ostringstream band;
    for (std::size_t i = 0; i < runs; ++i) {
      if (panel.high[i]) band << Coordinate{x_of(i, runs)} << "," << Coordinate{y_of(*panel.high[i])} << " ";
    }
    for (std::size_t i = runs; i-- > 0;) {
      if (panel.low[i]) band << Coordinate{x_of(i, runs)} << "," << Coordinate{y_of(*panel.low[i])} << " ";
    }
    out << "<polygon class=\"spread\" points=\"" << band.str() << "\"/>";
  }
  std::ostringstream line;
  for (std::size_t i = 0; i < runs; ++i) {
    if (panel.values[i]) line << Coordinate{x_of(i, runs)} << "," << Coordinate{y_of(*panel.values[i])} << " ";
  }
  out << "<polyline class=\"series " << panel.css << "\" points=\"" << line.str() << "\"/>";
  // A point (with its figure on hover) per run while points stand apart;
  // over thousands of runs the line alone says it, in a smaller page.
  constexpr std::size_t kMostPoints = 400;
  for (std::size_t i = 0; i < runs && runs <= kMostPoints; ++i) {
    if (panel.values[i]) {
      out << "<circle class=\"point\" cx=\"" << Coordinate{x_of(i, runs)} << "\" cy=\""
          << Coordinate{y_of(*panel.values[i])} << "\" r=\"2\"><title>" << files::exact(*panel.values[i])
          << "</title></circle>";
    }
  }
}

void chart(std::ostream& out, const HistoryTable& table, std::size_t c) {
  const std::size_t runs = table.runs.size();
  Panel allocs{"allocs/op", "allocs", {}, {}, {}}, bytes{"bytes/op", "bytes", {}, {}, {}},
      time{"ns/op", "time", {}, {}, {}};
  for (const auto& f : table.figures[c]) {
    allocs.values.push_back(f ? std::optional<double>(f->allocs_per_op) : std::nullopt);
    bytes.values.push_back(f ? f->bytes_per_op : std::nullopt);
    time.values.push_back(f ? f->ns_median : std::nullopt);
    time.low.push_back(f ? f->ns_min : std::nullopt);
    time.high.push_back(f ? f->ns_max : std::nullopt);
  }
  // The panels with a figure in some run: an untimed history has no time panel.
  std::vector<const Panel*> panels;
  for (const Panel* panel : {&allocs, &bytes, &time}) {
    if (std::any_of(panel->values.begin(), panel->values.end(), [](const auto& v) { return v.has_value(); })) {
      panels.push_back(panel);
    }
  }
  const double height = kTop + static_cast<double>(panels.size()) * (kPanelHeight + kGap);
  out << "<section><h2>" << files::html_text(table.cases[c]) << "</h2>\n<svg class=\"history\" width=\"" << kWidth
      << "\" height=\"" << height << "\" viewBox=\"0 0 " << kWidth << " " << height << "\">";
  // A run where allocs/op or bytes/op changed from the run before that had
  // the case: a rule across the panels, labelled with the commit.
  std::optional<std::size_t> previous;
  for (std::size_t i = 0; i < runs; ++i) {
    if (!allocs.values[i]) continue;
    if (previous && (allocs.values[i] != allocs.values[*previous] || bytes.values[i] != bytes.values[*previous])) {
      const double x = x_of(i, runs);
      out << "<line class=\"change\" x1=\"" << x << "\" x2=\"" << x << "\" y1=\"" << kTop - 8 << "\" y2=\""
          << height - kGap + 8 << "\"/><text class=\"change-label\" x=\"" << x + 3 << "\" y=\"" << kTop - 10 << "\">"
          << files::html_text(commit_label(table.runs[i].commit)) << "</text>";
    }
    previous = i;
  }
  double top = kTop;
  for (const Panel* panel : panels) {
    draw_panel(out, *panel, top, runs);
    top += kPanelHeight + kGap;
  }
  out << "</svg></section>\n";
}

}  // namespace

void print_history_chart(std::ostream& out, const HistoryTable& table) {
  out << "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>allocgate history</title><style>"
         "body{font:14px sans-serif;margin:24px;color:#222}h2{font-size:15px;margin:24px 0 4px}"
         ".series{fill:none;stroke-width:2}.allocs{stroke:#c0392b}.bytes{stroke:#2c7fb8}.time{stroke:#555}"
         ".spread{fill:#ccc;fill-opacity:.6}.point{fill:#222}.panel{font-size:12px;fill:#444}"
         ".tick{font-size:11px;fill:#777;text-anchor:end}.change{stroke:#e67e22;stroke-dasharray:4 3}"
         ".change-label{font-size:11px;fill:#e67e22}"
         "</style></head><body>\n<h1>allocgate history</h1>\n<p>"
      << table.runs.size() << " runs, oldest first";
  if (!table.runs.empty()) {
    out << ", from " << files::html_text(commit_label(table.runs.front().commit)) << " ("
        << files::html_text(table.runs.front().date) << ") to "
        << files::html_text(commit_label(table.runs.back().commit)) << " (" << files::html_text(table.runs.back().date)
        << ")";
  }
  out << ". A dashed rule marks a run where allocs/op or bytes/op changed; the grey band is the time's "
         "min to max.</p>\n";
  for (std::size_t c = 0; c < table.cases.size(); ++c) chart(out, table, c);
  out << "</body></html>\n";
}

}  // namespace allocgate::reports
