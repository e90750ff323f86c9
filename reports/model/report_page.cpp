// SPDX-License-Identifier: Apache-2.0
// `allocgate table --html`: one page for any report, an allocgate run's or a
// Google Benchmark JSON with allocgate's counters (with or without sites), or
// allocgate::gtest's test report. The tables are HTML; the charts (Chart.js)
// and flame graphs (d3-flame-graph) are drawn by the page from its data
// (pages/page.h). Every figure a tooltip shows is the text the table prints.

#include <algorithm>
#include <charconv>
#include <deque>
#include <map>
#include <ostream>
#include <sstream>

#include "escape.h"
#include "flame_tree.h"
#include "format.h"
#include "json_file.h"
#include "json_keys.h"
#include "name_order.h"
#include "page.h"
#include "table.h"
#include "workload_view.h"

namespace allocgate::reports {
namespace {

// The page's data as its body is written: each chart and flame graph gets
// an element id, and its spec goes into the data under that id.
struct PageData {
  nlohmann::json charts = nlohmann::json::array();
  nlohmann::json flames = nlohmann::json::array();
  int ids = 0;
  std::string id(const char* kind) { return kind + std::to_string(++ids); }
  pages::Budget budget;
};

// One line of a chart against an argument: its points in order of x.
struct Line {
  std::string name;
  std::vector<std::pair<double, const CaseResult*>> points;
};

std::string time_text(const CaseResult& c) {
  return c.ns_median ? files::nanoseconds_with_range(*c.ns_median, c.ns_min, c.ns_max) : "-";
}

// A log axis where every figure is above 0 and they span two orders of
// magnitude; otherwise linear from 0, so that 0 is drawn as 0.
bool wants_log(const std::vector<double>& values, double span) {
  if (values.empty()) return false;
  const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
  return *lo > 0 && *hi / *lo >= span;
}

using Figure = std::optional<double> (*)(const CaseResult&);
std::optional<double> allocs_of(const CaseResult& c) { return c.allocs_per_op; }
std::optional<double> bytes_of(const CaseResult& c) { return c.bytes_per_op; }
std::optional<double> time_of(const CaseResult& c) { return c.ns_median; }

std::string figure_text(Figure figure, const CaseResult& c) {
  if (figure == time_of) return time_text(c);
  return files::readable(*figure(c));
}

// A line chart of one figure against the argument, a line per series; the
// time with its fastest-to-slowest band.
void line_chart(std::ostream& body, PageData& data, const std::string& title, const std::string& x_title,
                const std::vector<Line>& lines, Figure figure) {
  nlohmann::json series = nlohmann::json::array();
  std::vector<double> xs, ys;
  bool decimated = false;
  for (const Line& line : lines) {
    nlohmann::json points = nlohmann::json::array(), low = nlohmann::json::array(), high = nlohmann::json::array();
    bool band = figure == time_of;
    std::vector<std::pair<double, const CaseResult*>> with_figure;
    for (const auto& point : line.points) {
      if (figure(*point.second)) with_figure.push_back(point);
    }
    const std::vector<std::size_t> kept =
        pages::decimated(with_figure.size(), [&](std::size_t i) { return *figure(*with_figure[i].second); });
    decimated = decimated || kept.size() < with_figure.size();
    for (const std::size_t i : kept) {
      const auto& [x, c] = with_figure[i];
      const std::optional<double> y = figure(*c);
      points.push_back({{"x", x}, {"y", *y}, {"text", figure_text(figure, *c)}});
      xs.push_back(x);
      ys.push_back(*y);
      band = band && c->ns_min && c->ns_max;
      if (band) {
        low.push_back(*c->ns_min);
        high.push_back(*c->ns_max);
      }
    }
    if (points.empty()) continue;
    nlohmann::json s{{"name", line.name}, {"points", std::move(points)}};
    if (band) {
      s["low"] = std::move(low);
      s["high"] = std::move(high);
    }
    series.push_back(std::move(s));
  }
  if (series.empty()) return;
  const std::string id = data.id("chart");
  body << "<div class=\"chart\" id=\"" << id << "\"></div>\n";
  data.charts.push_back(
      {{"id", id},
       {"title", decimated ? title + " (decimated: its ends, and each of " +
                                 std::to_string(pages::Limits::kPoints / 2 - 1) + " runs' lowest and highest points)"
                           : title},
       {"x_title", x_title},
       {"x_log", wants_log(xs, 8)},
       {"y_log", wants_log(ys, 100)},
       {"y_title", figure == time_of ? "ns" : ""},
       {"series", std::move(series)}});
}

// A bar chart of one figure, a bar per case.
void bar_chart(std::ostream& body, PageData& data, const std::string& title,
               const std::vector<std::pair<std::string, const CaseResult*>>& bars, Figure figure) {
  nlohmann::json labels = nlohmann::json::array(), values = nlohmann::json::array(), texts = nlohmann::json::array();
  std::vector<double> ys;
  const std::size_t shown = std::min(bars.size(), pages::Limits::kBars);
  for (std::size_t i = 0; i < shown; ++i) {
    const auto& [label, c] = bars[i];
    const std::optional<double> y = figure(*c);
    labels.push_back(label);
    values.push_back(y ? nlohmann::json(*y) : nlohmann::json(nullptr));
    texts.push_back(y ? nlohmann::json(figure_text(figure, *c)) : nlohmann::json(nullptr));
    if (y) ys.push_back(*y);
  }
  if (ys.empty()) return;
  const std::string id = data.id("chart");
  body << "<div class=\"chart\" id=\"" << id << "\"></div>\n";
  data.charts.push_back({{"id", id},
                         {"type", "bar"},
                         {"title", shown < bars.size() ? title + " (the first " + std::to_string(shown) + " of " +
                                                             std::to_string(bars.size()) + " cases)"
                                                       : title},
                         {"labels", std::move(labels)},
                         {"y_log", wants_log(ys, 1000)},
                         {"y_title", figure == time_of ? "ns" : ""},
                         {"series", {{{"name", title}, {"values", std::move(values)}, {"texts", std::move(texts)}}}}});
}

void charts_against(std::ostream& body, PageData& data, const std::string& x_title, const std::vector<Line>& lines) {
  body << "<div class=\"charts\">\n";
  line_chart(body, data, "allocs/op", x_title, lines, allocs_of);
  line_chart(body, data, "bytes/op", x_title, lines, bytes_of);
  line_chart(body, data, "time/op (median, fastest to slowest)", x_title, lines, time_of);
  body << "</div>\n";
}

void bar_charts(std::ostream& body, PageData& data,
                const std::vector<std::pair<std::string, const CaseResult*>>& bars) {
  body << "<div class=\"charts\">\n";
  bar_chart(body, data, "allocs/op", bars, allocs_of);
  bar_chart(body, data, "bytes/op", bars, bytes_of);
  bar_chart(body, data, "time/op (median)", bars, time_of);
  body << "</div>\n";
}

// A case's top sites, by allocations: allocs, bytes and temporaries per
// operation, and the usual fix where one is known. A report keeps every
// site; the page shows the first kSitesShown and says how many more.
constexpr std::size_t kSitesShown = 10;

void sites_table(std::ostream& body, const CaseResult& c) {
  body << "<table class=\"sites\"><caption>" << files::html_text(c.name)
       << ": where one operation allocates</caption>\n"
       << "<tr><th>allocs/op</th><th>B/op</th><th>temporary/op</th><th>site</th><th>fix</th></tr>\n";
  for (std::size_t i = 0; i < c.sites.size() && i < kSitesShown; ++i) {
    const SiteSummary& site = c.sites[i];
    body << "<tr><td class=\"n\">" << files::readable(site.allocs_per_op) << "</td><td class=\"n\">"
         << files::readable(site.bytes_per_op) << "</td><td class=\"n\">" << files::readable(site.temporary_per_op)
         << "</td><td>" << files::html_text(to_string(site.where())) << "</td><td>" << files::html_text(site.hint)
         << "</td></tr>\n";
  }
  if (c.sites.size() > kSitesShown) {
    body << "<tr><td colspan=\"5\">and " << c.sites.size() - kSitesShown << " more sites, in the report</td></tr>\n";
  }
  body << "</table>\n";
}

// A case's flame graph, drawn when its <details> is first opened.
void flame(std::ostream& body, PageData& data, const CaseResult& c, bool open) {
  nlohmann::json tree = flame_tree(c);
  if (tree.is_null()) return;
  const std::string id = data.id("flame");
  body << "<details class=\"flame-case\"" << (open ? " open" : "") << "><summary>" << files::html_text(c.name)
       << ": allocation stacks of one operation</summary><div class=\"flame\" id=\"" << id << "\"></div></details>\n";
  data.flames.push_back({{"id", id}, {"title", c.name}, {"differential", false}, {"tree", std::move(tree)}});
}

void context_line(std::ostream& body, const Report& report) {
  body << "<p class=\"context\">";
  for (const char* key : {keys::kDate, keys::kToolchain, keys::kCompiler, keys::kBuildType, keys::kCpu,
                          keys::kGitCommit, keys::kExecutable}) {
    const std::string value = report.context_text(key);
    if (!value.empty()) body << files::html_text(key) << ": <b>" << files::html_text(value) << "</b> &nbsp; ";
  }
  if (!report.source_summary.empty()) body << "<br>" << files::html_text(report.source_summary);
  body << "</p>\n";
}

// A table's last row when the page's budget cut it (pages::Limits).
void rows_cut_row(std::ostream& body, std::size_t cut, int columns) {
  if (cut == 0) return;
  body << "<tr class=\"cut\"><td colspan=\"" << columns << "\">and " << cut << " more, not on this page (see "
       << "<a href=\"#cut\">what is cut</a>)</td></tr>\n";
}

// Headings' ids, from names a report chose: each kind behind a prefix the
// page's own ids (allocgate-data, chartN, flameN) never start with, so that
// no name, "allocgate-data" or "chart1", takes the id of a part of the page.
std::string workload_anchor(const std::string& workload) { return "workload-" + workload; }

// An id (and the href to it) as the page writes it: html_text shows a
// control character as a backslash escape ("\n") and a backslash as it is,
// so two names, one with a newline and one with "\n", would share an id. A
// backslash is doubled first: no two names share one.
std::string id_text(std::string_view anchor) {
  std::string doubled;
  doubled.reserve(anchor.size());
  for (const char c : anchor) {
    doubled += c;
    if (c == '\\') doubled += c;
  }
  return files::html_text(doubled);
}
std::string family_anchor(const std::string& family) { return "family-" + family; }

void workload_section(std::ostream& body, PageData& data, const WorkloadView& v) {
  if (!data.budget.take_section()) return;
  body << "<section class=\"workload\"><h2 id=\"" << id_text(workload_anchor(v.name)) << "\">"
       << files::html_text(v.name) << "</h2>\n";
  if (!v.summary.empty()) body << "<p>" << files::html_text(v.summary) << " (" << v.table_size << " per op)</p>\n";
  body << "<table><tr><th>variant</th><th>ns/op</th><th>B/op</th><th>allocs/op</th><th>speedup</th><th>output</th>"
          "</tr>\n";
  const CaseResult* reference = v.at(v.variants.front(), v.table_size);
  std::vector<std::pair<std::string, const CaseResult*>> at_size;
  for (const std::string& variant : v.variants) {
    const CaseResult* c = v.at(variant, v.table_size);
    if (!c) continue;
    at_size.emplace_back(variant, c);
    const std::string eq = equality(*c, c == reference);
    body << "<tr><td>" << files::html_text(variant) << "</td><td class=\"n\">" << time_cell(*c)
         << "</td><td class=\"n\">" << optional_cell(c->bytes_per_op) << "</td><td class=\"n\">"
         << files::readable(c->allocs_per_op) << "</td><td class=\"n\">" << speedup(*c, reference) << "</td><td"
         << (eq == "DIFFERS" ? " class=\"regressed\"" : "") << ">" << eq << "</td></tr>\n";
  }
  body << "</table>\n";
  if (v.sizes.size() > 1) {
    std::vector<Line> lines;
    for (const std::string& variant : v.variants) {
      Line line{variant, {}};
      for (const auto size : v.sizes) {
        if (const CaseResult* c = v.at(variant, size)) line.points.emplace_back(static_cast<double>(size), c);
      }
      lines.push_back(std::move(line));
    }
    charts_against(body, data, "input size", lines);
  } else {
    bar_charts(body, data, at_size);
  }
  bool first = true;
  for (const auto& [variant, c] : at_size) {
    flame(body, data, *c, first && !c->stacks.empty());
    if (!c->stacks.empty()) first = false;
  }
  for (const auto& [variant, c] : at_size) {
    if (!c->sites.empty()) sites_table(body, *c);
  }
  body << "</section>\n";
}

// A benchmark's name split as a chart needs it: the family (up to the first
// "/"), the argument a ->Range varies (the first part that is a number), and
// the line it is drawn on (the name with that part as "x").
struct NameParts {
  std::string family;
  std::string line;
  std::optional<double> argument;
};

NameParts parts_of(const std::string& name) {
  NameParts parts;
  const std::size_t slash = name.find('/');
  parts.family = name.substr(0, slash);
  parts.line = parts.family;
  if (slash == std::string::npos) return parts;
  std::size_t at = slash + 1;
  while (at <= name.size()) {
    std::size_t end = name.find('/', at);
    if (end == std::string::npos) end = name.size();
    const std::string_view part(name.data() + at, end - at);
    std::uint64_t value = 0;
    const auto [ptr, ec] = std::from_chars(part.data(), part.data() + part.size(), value);
    if (!parts.argument && !part.empty() && ec == std::errc() && ptr == part.data() + part.size()) {
      parts.argument = static_cast<double>(value);
      parts.line += "/x";
    } else {
      parts.line += '/';
      parts.line += part;
    }
    at = end + 1;
  }
  return parts;
}

// The cases of no workload (a Google Benchmark binary's, allocgate::gtest's),
// by family: a table each, and charts against the argument where the family
// has several.
void benchmark_sections(std::ostream& body, PageData& data, const Report& report) {
  std::vector<std::string> order;
  std::deque<CaseResult> decoded;  // the cases drawn, out of the report's packed list; a deque never moves them
  std::map<std::string, std::vector<const CaseResult*>> families;
  for (CaseResult c : report.cases) {
    if (!c.workload.empty()) continue;
    const std::string family = parts_of(c.name).family;
    auto [it, inserted] = families.try_emplace(family);
    if (inserted) order.push_back(family);
    it->second.push_back(&decoded.emplace_back(std::move(c)));
  }
  for (const std::string& family : order) {
    if (!data.budget.take_section()) continue;
    std::vector<const CaseResult*>& cases = families[family];
    std::stable_sort(cases.begin(), cases.end(),
                     [](const CaseResult* a, const CaseResult* b) { return name_before(a->name, b->name); });
    body << "<section class=\"family\"><h2 id=\"" << id_text(family_anchor(family)) << "\">" << files::html_text(family)
         << "</h2>\n<table><tr><th>case</th><th>ns/op</th><th>B/op</th><th>allocs/op</th><th>peak bytes</th>"
            "<th>leaked B/op</th></tr>\n";
    const std::size_t shown = data.budget.take_rows(cases.size());
    for (std::size_t i = 0; i < shown; ++i) {
      const CaseResult* c = cases[i];
      body << "<tr><td>" << files::html_text(c->name)
           << (c->test_failed ? " <span class=\"regressed\">(failed)</span>" : "") << "</td><td class=\"n\">"
           << files::html_text(time_text(*c)) << "</td><td class=\"n\">" << optional_cell(c->bytes_per_op)
           << "</td><td class=\"n\">" << files::readable(c->allocs_per_op) << "</td><td class=\"n\">"
           << optional_cell(c->peak_bytes) << "</td><td class=\"n\">" << optional_cell(c->leaked_bytes_per_op)
           << "</td></tr>\n";
    }
    rows_cut_row(body, cases.size() - shown, 6);
    body << "</table>\n";
    std::vector<Line> lines;
    std::map<std::string, std::size_t> line_of;
    std::size_t with_argument = 0;
    for (const CaseResult* c : cases) {
      const NameParts parts = parts_of(c->name);
      if (!parts.argument) continue;
      ++with_argument;
      const auto [it, inserted] = line_of.try_emplace(parts.line, lines.size());
      if (inserted) lines.push_back(Line{parts.line, {}});
      lines[it->second].points.emplace_back(*parts.argument, c);
    }
    if (with_argument >= 2 && with_argument == cases.size()) {
      charts_against(body, data, "argument", lines);
    } else if (cases.size() >= 2) {
      std::vector<std::pair<std::string, const CaseResult*>> bars;
      for (const CaseResult* c : cases) bars.emplace_back(c->name, c);
      bar_charts(body, data, bars);
    }
    // The stacks and sites of the cases the table shows.
    cases.resize(shown);
    bool first = true;
    for (const CaseResult* c : cases) {
      flame(body, data, *c, first && !c->stacks.empty());
      if (!c->stacks.empty()) first = false;
    }
    for (const CaseResult* c : cases) {
      if (!c->sites.empty()) sites_table(body, *c);
    }
    body << "</section>\n";
  }
}

// A test report's (allocgate::gtest's, catch2's, doctest's): what a reader
// looks for first, the suite at a glance (every test as wide as it
// allocates, by suite, the leaking ones in red), the tests that leak, keep
// memory or allocate most, then one table per test suite, leaking and
// heaviest tests first, sortable by any column. A test's sites and stacks
// are in a <details> of its own, its flame graph drawn when it is opened.
struct TestRow {
  const CaseResult* c;
  double kept_bytes = 0;
  double one_time = 0;
};

// A suite's section: its id apart from the page's own (allocgate-data,
// chartN, flameN), whatever the suite is named.
std::string test_anchor(const std::string& suite) { return "suite-" + suite; }

// A GoogleTest test's suite is before its dot (Suite.Test). Catch2's and
// doctest's runs are named by their path (test case/section/section): a
// test case's runs make its section.
std::string suite_of(const std::string& test, bool runs_by_path) {
  const std::size_t end = test.find(runs_by_path ? '/' : '.');
  if (runs_by_path) return test.substr(0, end);
  return end == std::string::npos ? std::string() : test.substr(0, end);
}

// Leaking first, then by allocs/op, then by name.
bool heavier(const TestRow& a, const TestRow& b) {
  const double la = a.c->leaked_bytes_per_op.value_or(0), lb = b.c->leaked_bytes_per_op.value_or(0);
  if (la != lb) return la > lb;
  if (a.c->allocs_per_op != b.c->allocs_per_op) return a.c->allocs_per_op > b.c->allocs_per_op;
  return name_before(a.c->name, b.c->name);
}

// A number cell: its figure as the tables print it, its value for sorting.
std::string number_cell(std::optional<double> value) {
  if (!value) return "<td class=\"n\" data-v=\"-1\"></td>";
  return "<td class=\"n\" data-v=\"" + files::json_number(*value).dump() + "\">" + files::readable(*value) + "</td>";
}

void test_table(std::ostream& body, const std::vector<TestRow>& rows, bool with_suite_links, bool runs_by_path,
                std::size_t cut = 0) {
  body << "<table class=\"sortable tests\"><thead><tr><th>test</th><th>allocs/op</th><th>B/op</th><th>peak "
          "bytes</th><th>leaked B</th><th>kept B</th><th>one-time allocs</th></tr></thead><tbody>\n";
  for (const TestRow& row : rows) {
    const CaseResult& c = *row.c;
    const double leaked = c.leaked_bytes_per_op.value_or(0);
    body << "<tr" << (leaked > 0 ? " class=\"leaked\"" : "") << "><td>";
    if (with_suite_links) {
      body << "<a href=\"#" << id_text(test_anchor(suite_of(c.name, runs_by_path))) << "\">" << files::html_text(c.name)
           << "</a>";
    } else {
      body << files::html_text(c.name);
    }
    body << (c.test_failed ? " <span class=\"regressed\">(failed)</span>" : "") << "</td>"
         << number_cell(c.allocs_per_op) << number_cell(c.bytes_per_op) << number_cell(c.peak_bytes)
         << number_cell(c.leaked_bytes_per_op) << number_cell(row.kept_bytes) << number_cell(row.one_time) << "</tr>\n";
  }
  body << "</tbody>";
  // Outside the body: sorting moves the rows shown, never this one.
  if (cut != 0) {
    body << "<tfoot>";
    rows_cut_row(body, cut, 7);
    body << "</tfoot>";
  }
  body << "</table>\n";
}

// The suite at a glance: a graph of the run (as a flame graph draws
// stacks), its suites (or test cases) under it and their tests (or runs)
// under each, as wide as they allocate (or, chosen, their bytes or their
// leaks). Its nodes are kept to kGlanceSuites suites, in the page's order
// (leaking first, then by their heaviest test), and kGlanceTests tests, the
// heaviest of each suite first: the others are one node, "and N more".
constexpr std::size_t kGlanceSuites = 200;
constexpr std::size_t kGlanceTests = 2000;

void suite_at_a_glance(std::ostream& body, PageData& data,
                       const std::vector<std::pair<std::string, std::vector<TestRow>>>& suites, bool runs_by_path) {
  std::size_t tests = 0;
  for (const auto& suite : suites) tests += suite.second.size();
  const auto figures = [](double allocs, double bytes, double leaked) {
    return nlohmann::json::array({files::json_number(allocs), files::json_number(bytes), files::json_number(leaked)});
  };
  const std::size_t drawn = std::min(suites.size(), kGlanceSuites);
  const std::size_t each = std::max<std::size_t>(1, kGlanceTests / std::max<std::size_t>(1, drawn));
  double all_allocs = 0, all_bytes = 0, all_leaked = 0;
  double more_allocs = 0, more_bytes = 0, more_leaked = 0;
  nlohmann::json children = nlohmann::json::array();
  for (std::size_t at = 0; at < suites.size(); ++at) {
    const auto& [suite, rows] = suites[at];
    if (at >= drawn) {
      for (const TestRow& row : rows) {
        more_allocs += row.c->allocs_per_op;
        more_bytes += row.c->bytes_per_op.value_or(0);
        more_leaked += row.c->leaked_bytes_per_op.value_or(0);
      }
      continue;
    }
    double allocs = 0, bytes = 0, leaked = 0, rest_allocs = 0, rest_bytes = 0, rest_leaked = 0;
    nlohmann::json tests_of = nlohmann::json::array();
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const CaseResult& c = *rows[i].c;
      const double a = c.allocs_per_op, b = c.bytes_per_op.value_or(0), l = c.leaked_bytes_per_op.value_or(0);
      allocs += a, bytes += b, leaked += l;
      if (i < each) {
        // Under its suite, a test is named by the rest of its name
        // (Suite.Test: Test; a test case's run case/section: section).
        const char separator = runs_by_path ? '/' : '.';
        const bool under = !suite.empty() && c.name.size() > suite.size() + 1 &&
                           c.name.compare(0, suite.size(), suite) == 0 && c.name[suite.size()] == separator;
        const std::string name = under ? c.name.substr(suite.size() + 1) : c.name;
        tests_of.push_back({{"name", name},
                            {"location", c.test_failed ? c.name + " (failed)" : c.name},
                            {"hint", ""},
                            {"leaked", l > 0},
                            {"figures", figures(a, b, l)}});
      } else {
        rest_allocs += a, rest_bytes += b, rest_leaked += l;
      }
    }
    if (rows.size() > each) {
      tests_of.push_back({{"name", "and " + std::to_string(rows.size() - each) + " more"},
                          {"location", ""},
                          {"hint", ""},
                          {"leaked", rest_leaked > 0},
                          {"figures", figures(rest_allocs, rest_bytes, rest_leaked)}});
    }
    all_allocs += allocs, all_bytes += bytes, all_leaked += leaked;
    children.push_back({{"name", suite.empty() ? std::string("(no suite)") : suite},
                        {"location", std::to_string(rows.size()) + (rows.size() == 1 ? " test" : " tests")},
                        {"hint", ""},
                        {"leaked", leaked > 0},
                        {"figures", figures(allocs, bytes, leaked)},
                        {"children", std::move(tests_of)}});
  }
  if (suites.size() > drawn) {
    children.push_back({{"name", "and " + std::to_string(suites.size() - drawn) + " more"},
                        {"location", runs_by_path ? "test cases" : "suites"},
                        {"hint", ""},
                        {"leaked", more_leaked > 0},
                        {"figures", figures(more_allocs, more_bytes, more_leaked)}});
    all_allocs += more_allocs, all_bytes += more_bytes, all_leaked += more_leaked;
  }
  if (all_allocs == 0 && all_bytes == 0) return;  // nothing to draw: every test allocates nothing
  const std::string id = data.id("flame");
  body << "<section class=\"suite\"><h2>The suite at a glance</h2>\n<p>Each " << (runs_by_path ? "run" : "test")
       << " as wide as it allocates, under its " << (runs_by_path ? "test case" : "suite")
       << "; a leaking one in red. Click one to zoom in; choose the width by bytes or by leaks.</p>\n"
       << "<div class=\"flame\" id=\"" << id << "\"></div></section>\n";
  data.flames.push_back({{"id", id},
                         {"title", "the suite"},
                         {"differential", false},
                         {"figures", {"allocs/op", "B/op", "leaked B"}},
                         {"tree",
                          {{"name", "all " + std::to_string(tests) + (runs_by_path ? " runs" : " tests")},
                           {"location", ""},
                           {"hint", ""},
                           {"leaked", false},  // the run: what leaks is drawn red in it
                           {"figures", figures(all_allocs, all_bytes, all_leaked)},
                           {"children", std::move(children)}}}});
}

// A swept suite's sweep (--allocgate_fail_each): how many tests were
// swept, clean, with findings or not to be trusted, and each finding with
// the line whose allocation's failure was mishandled (those on purpose last).
void sweep_section(std::ostream& body, const std::vector<TestRow>& rows) {
  std::size_t swept = 0, clean = 0, doubted = 0, points = 0;
  std::vector<std::pair<const CaseResult*, const SweepFindingResult*>> findings;
  for (const TestRow& row : rows) {
    if (!row.c->sweep) continue;
    const SweepSummary& sweep = *row.c->sweep;
    ++swept;
    points += sweep.tried;
    doubted += sweep.nondeterministic;
    bool bad = false;
    for (const SweepFindingResult& f : sweep.findings) {
      if (f.outcome == "not reached") continue;
      findings.emplace_back(row.c, &f);
      bad = bad || !f.on_purpose;
    }
    clean += !bad && !sweep.nondeterministic;
  }
  if (swept == 0) return;
  body << "<section class=\"suite\"><h2>The failure sweep</h2>\n<p class=\"summary\">" << swept
       << " tests swept under allocation failure, " << points << " failure points tried: " << clean << " clean, "
       << swept - clean - doubted << " with findings, " << doubted
       << " not trusted (their allocations differ from run to run).</p>\n";
  if (findings.empty()) {
    body << "</section>\n";
    return;
  }
  std::stable_sort(findings.begin(), findings.end(),
                   [](const auto& a, const auto& b) { return !a.second->on_purpose && b.second->on_purpose; });
  constexpr std::size_t kFindingsShown = 2000;
  body << "<table class=\"sortable findings\"><thead><tr><th>test</th><th>outcome</th><th>failing allocation's "
          "line</th><th>point</th><th>detail</th></tr></thead><tbody>\n";
  for (std::size_t i = 0; i < findings.size() && i < kFindingsShown; ++i) {
    const auto& [c, f] = findings[i];
    body << "<tr" << (f->on_purpose ? "" : " class=\"leaked\"") << "><td>" << files::html_text(c->name) << "</td><td>"
         << files::html_text(f->outcome) << (f->on_purpose ? " (on purpose)" : "") << "</td><td>"
         << files::html_text(f->line) << "</td>" << number_cell(static_cast<double>(f->point)) << "<td>"
         << files::html_text(f->detail) << "</td></tr>\n";
  }
  body << "</tbody>";
  if (findings.size() > kFindingsShown) {  // outside the body: sorting never moves it
    body << "<tfoot><tr class=\"cut\"><td colspan=\"5\">and " << findings.size() - kFindingsShown
         << " more findings, in the report's allocgate_sweep</td></tr></tfoot>";
  }
  body << "</table>\n</section>\n";
}

void test_sections(std::ostream& body, PageData& data, const Report& report) {
  std::deque<CaseResult> decoded;
  std::vector<TestRow> all;
  for (CaseResult c : report.cases) {
    const CaseResult& kept = decoded.emplace_back(std::move(c));
    all.push_back(TestRow{&kept, kept.kept_bytes.value_or(0), kept.one_time_allocs.value_or(0)});
  }
  const bool runs_by_path = report.context_text(keys::kTests) != "googletest";
  std::map<std::string, std::vector<TestRow>> suites;
  std::size_t leaking = 0, keeping = 0, failed = 0;
  for (const TestRow& row : all) {
    suites[suite_of(row.c->name, runs_by_path)].push_back(row);
    leaking += row.c->leaked_bytes_per_op.value_or(0) > 0;
    keeping += row.kept_bytes > 0;
    failed += row.c->test_failed;
  }
  body << "<p class=\"summary\">" << all.size() << (runs_by_path ? " runs of " : " tests in ") << suites.size()
       << (runs_by_path ? " test cases: " : " suites: ") << leaking << " leaking, " << keeping
       << " keeping memory (reachable at their end), " << failed << " failed.</p>\n";
  // Suites with a leaking test first, then by their heaviest test.
  std::vector<std::pair<std::string, std::vector<TestRow>>> ordered(suites.begin(), suites.end());
  for (auto& [name, rows] : ordered) std::stable_sort(rows.begin(), rows.end(), heavier);
  std::stable_sort(ordered.begin(), ordered.end(),
                   [](const auto& a, const auto& b) { return heavier(a.second.front(), b.second.front()); });
  suite_at_a_glance(body, data, ordered, runs_by_path);
  sweep_section(body, all);
  std::vector<TestRow> heaviest = all;
  const std::size_t shown = std::min<std::size_t>(heaviest.size(), 20);
  std::partial_sort(heaviest.begin(), heaviest.begin() + static_cast<std::ptrdiff_t>(shown), heaviest.end(), heavier);
  heaviest.resize(shown);
  body << "<section class=\"suite\"><h2>The tests that leak or allocate most</h2>\n";
  test_table(body, heaviest, true, runs_by_path);
  body << "</section>\n";

  for (auto& [suite, rows] : ordered) {
    if (!data.budget.take_section()) continue;
    body << "<section class=\"suite\"><h2 id=\"" << id_text(test_anchor(suite)) << "\">"
         << files::html_text(suite.empty() ? std::string("(no suite)") : suite) << "</h2>\n";
    const std::size_t shown = data.budget.take_rows(rows.size());
    const std::size_t cut = rows.size() - shown;
    rows.resize(shown);
    test_table(body, rows, false, runs_by_path, cut);
    for (const TestRow& row : rows) {
      const CaseResult& c = *row.c;
      if (c.sites.empty() && c.stacks.empty()) continue;
      body << "<details class=\"flame-case\"><summary>" << files::html_text(c.name)
           << ": where it allocates</summary>\n";
      if (!c.sites.empty()) sites_table(body, c);
      nlohmann::json tree = flame_tree(c);
      if (!tree.is_null()) {
        const std::string id = data.id("flame");
        body << "<div class=\"flame\" id=\"" << id << "\"></div>\n";
        data.flames.push_back({{"id", id}, {"title", c.name}, {"differential", false}, {"tree", std::move(tree)}});
      }
      body << "</details>\n";
    }
    body << "</section>\n";
  }
}

// What the page's budget cut, said at the top of the page.
std::string cut_note(const pages::Budget& budget, const char* sections, const char* order, const char* rows) {
  if (budget.sections_cut() == 0 && budget.rows_cut() == 0) return {};
  std::ostringstream note;
  note << "<p class=\"cut\" id=\"cut\">This page is cut to what a browser opens at once: ";
  if (budget.sections_cut() != 0) {
    note << "it shows the first " << budget.sections_shown() << " of "
         << budget.sections_shown() + budget.sections_cut() << " " << sections << " (" << order << ")";
    if (budget.rows_cut() != 0) note << ", and ";
  }
  if (budget.rows_cut() != 0) {
    note << "its tables show at most " << pages::Limits::kTableRows << " " << rows << " each and "
         << pages::Limits::kRows << " in all: " << budget.rows_cut() << " " << rows << " of the " << sections
         << " shown are not in them";
  }
  note << ". <code>allocgate table REPORT</code> prints every one as text; <code>allocgate table --filter REGEX "
          "--html</code> makes a page of some.</p>\n";
  return note.str();
}

}  // namespace

void print_html(std::ostream& out, const Report& report) {
  std::ostringstream body, sections;
  PageData data;
  body << "<h1>allocgate report</h1>\n";
  context_line(body, report);
  const bool tests = !report.context_text(keys::kTests).empty();
  if (!tests) {
    for (const WorkloadView& v : arrange(report)) workload_section(sections, data, v);
    benchmark_sections(sections, data, report);
  } else {
    test_sections(sections, data, report);
  }
  body << cut_note(data.budget, tests ? "test suites" : "workloads and families",
                   tests ? "those with a leaking test first, then by their heaviest test" : "in the report's order",
                   tests ? "tests" : "cases")
       << sections.str();
  if (!report.not_run.empty()) {
    body << "<h2>not run</h2>\n<ul>\n";
    const std::size_t shown = std::min(report.not_run.size(), pages::Limits::kTableRows);
    for (std::size_t i = 0; i < shown; ++i) {
      const NotRun& n = report.not_run[i];
      body << "<li>" << files::html_text(n.name) << (n.errored ? " (error: " : " (skipped: ")
           << files::html_text(n.message) << ")</li>\n";
    }
    if (shown < report.not_run.size()) {
      body << "<li>and " << report.not_run.size() - shown << " more, not on this page: <code>allocgate table</code> "
           << "lists them all</li>\n";
    }
    body << "</ul>\n";
  }
  pages::Page page{
      "allocgate report", body.str(), {{"charts", std::move(data.charts)}, {"flames", std::move(data.flames)}}};
  pages::write_page(out, page);
}

}  // namespace allocgate::reports
