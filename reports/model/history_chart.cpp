// SPDX-License-Identifier: Apache-2.0
// `allocgate history chart --html`: one page, a row of charts per case over
// the recorded runs (Chart.js, drawn by pages/page.js): allocs/op and
// bytes/op exact, the time's median with its fastest-to-slowest band. The x
// axis names each run by commit and date, as the tooltips do with its
// branch; a run where allocs/op or bytes/op changed is marked. Cases come in
// Google Benchmark's order (numbers in names compare as numbers).

#include <algorithm>
#include <numeric>
#include <ostream>
#include <sstream>

#include "escape.h"
#include "format.h"
#include "history_table.h"
#include "name_order.h"
#include "page.h"

namespace allocgate::reports {

namespace {

// A commit as an axis label: its first ten bytes, never half a character.
std::string commit_label(const std::string& commit) { return std::string(files::utf8_prefix(commit, 10)); }

// A run's text in a tooltip, which every chart of the page repeats: at
// most kLongestTooltipText bytes of it, and what was cut said, so that a
// run's 10 MB commit string does not become a page of gigabytes.
constexpr std::size_t kLongestTooltipText = 128;
std::string tooltip_text(const std::string& text) {
  if (text.size() <= kLongestTooltipText) return text;
  const std::string_view kept = files::utf8_prefix(text, kLongestTooltipText);
  return std::string(kept) + "... (" + std::to_string(text.size() - kept.size()) + " more bytes cut)";
}

using Value = std::optional<double> (*)(const HistoryFigures&);

nlohmann::json figure_series(const char* name, const std::vector<std::optional<HistoryFigures>>& row, Value value,
                             bool time) {
  nlohmann::json values = nlohmann::json::array(), texts = nlohmann::json::array(), low = nlohmann::json::array(),
                 high = nlohmann::json::array();
  bool any = false, band = time;
  for (const auto& f : row) {
    const std::optional<double> v = f ? value(*f) : std::nullopt;
    values.push_back(v ? nlohmann::json(*v) : nlohmann::json(nullptr));
    if (!v) {
      texts.push_back(nullptr);
    } else if (time) {
      texts.push_back(files::nanoseconds_with_range(*v, f->ns_min, f->ns_max));
    } else {
      texts.push_back(files::readable(*v));
    }
    any = any || v;
    if (time) {
      low.push_back(f && f->ns_min ? nlohmann::json(*f->ns_min) : nlohmann::json(nullptr));
      high.push_back(f && f->ns_max ? nlohmann::json(*f->ns_max) : nlohmann::json(nullptr));
      band = band && (!v || (f->ns_min && f->ns_max));
    }
  }
  if (!any) return nullptr;
  nlohmann::json s{{"name", name}, {"values", std::move(values)}, {"texts", std::move(texts)}};
  if (band) {
    s["low"] = std::move(low);
    s["high"] = std::move(high);
  }
  return s;
}

}  // namespace

void print_history_chart(std::ostream& out, const HistoryTable& table) {
  std::ostringstream body;
  nlohmann::json charts = nlohmann::json::array();
  nlohmann::json labels = nlohmann::json::array(), titles = nlohmann::json::array();
  for (const RunKey& run : table.runs) {
    labels.push_back({commit_label(run.commit), std::string(files::utf8_prefix(run.date, 10))});
    // A tooltip's title is its lines, each made visible by page.js.
    nlohmann::json title = {tooltip_text(run.commit), tooltip_text(run.date)};
    if (!run.branch.empty()) title.push_back("branch " + tooltip_text(run.branch));
    if (!run.toolchain.empty()) title.push_back(tooltip_text(run.toolchain));
    titles.push_back(std::move(title));
  }
  body << "<h1>allocgate history</h1>\n<p class=\"context\">" << table.runs.size() << " runs, oldest first";
  if (!table.runs.empty()) {
    body << ", from " << files::html_text(commit_label(table.runs.front().commit)) << " ("
         << files::html_text(tooltip_text(table.runs.front().date)) << ") to "
         << files::html_text(commit_label(table.runs.back().commit)) << " ("
         << files::html_text(tooltip_text(table.runs.back().date)) << ")";
  }
  body << ". A larger orange point marks a run where allocs/op or bytes/op changed; the band is the time's "
          "fastest to slowest repetition.</p>\n";
  std::vector<std::size_t> order(table.cases.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return name_before(table.cases[a], table.cases[b]); });
  if (order.size() > pages::Limits::kSections) {
    body << "<p class=\"cut\" id=\"cut\">The history holds " << order.size() << " cases; this page shows the first "
         << pages::Limits::kSections << " in name order, a browser opens no more at once. <code>allocgate history "
         << "chart --filter REGEX --html</code> makes a page of others.</p>\n";
    order.resize(pages::Limits::kSections);
  }
  int id = 0;
  for (const std::size_t c : order) {
    const auto& row = table.figures[c];
    // The runs where allocs/op or bytes/op differ from the run before that had the case.
    nlohmann::json changes = nlohmann::json::array();
    std::optional<std::size_t> previous;
    for (std::size_t i = 0; i < row.size(); ++i) {
      if (!row[i]) continue;
      if (previous && (row[i]->allocs_per_op != row[*previous]->allocs_per_op ||
                       row[i]->bytes_per_op != row[*previous]->bytes_per_op)) {
        changes.push_back(i);
      }
      previous = i;
    }
    body << "<section class=\"history\"><h2>" << files::html_text(table.cases[c]) << "</h2>\n<div class=\"charts\">\n";
    const struct {
      const char* title;
      Value value;
      bool time;
    } figures[] = {
        {"allocs/op", [](const HistoryFigures& f) -> std::optional<double> { return f.allocs_per_op; }, false},
        {"bytes/op", [](const HistoryFigures& f) { return f.bytes_per_op; }, false},
        {"time/op (median, fastest to slowest)", [](const HistoryFigures& f) { return f.ns_median; }, true},
    };
    for (const auto& figure : figures) {
      nlohmann::json series = figure_series(figure.title, row, figure.value, figure.time);
      if (series.is_null()) continue;  // an untimed history has no time chart
      const std::string element = "chart" + std::to_string(++id);
      body << "<div class=\"chart\" id=\"" << element << "\"></div>\n";
      charts.push_back({{"id", element},
                        {"title", figure.title},
                        {"labels", "runs"},  // data.axes.runs, carried once for every chart
                        {"marks", changes},
                        {"y_title", figure.time ? "ns" : ""},
                        {"series", {std::move(series)}}});
    }
    body << "</div></section>\n";
  }
  nlohmann::json axes = {{"runs", {{"labels", std::move(labels)}, {"tooltip_titles", std::move(titles)}}}};
  pages::write_page(out, {"allocgate history", body.str(), {{"charts", std::move(charts)}, {"axes", std::move(axes)}}});
}

}  // namespace allocgate::reports
