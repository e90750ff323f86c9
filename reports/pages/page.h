// SPDX-License-Identifier: Apache-2.0
// A page: one self-contained HTML file that opens offline. Its tables are
// HTML, written by whoever makes the page (table.cpp, compare_page.cpp,
// history_chart.cpp); its charts and flame graphs are drawn in the browser by
// Chart.js and d3-flame-graph, inlined with the page's own script (page.js),
// from the figures the page carries as JSON.
#pragma once

#include <cstddef>
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace allocgate::reports::pages {

struct Page {
  std::string title;      ///< plain text; escaped here
  std::string body_html;  ///< the page's HTML, escaped by whoever wrote it
  /// What page.js draws: {"charts": [...], "flames": [...]} (see page.js).
  nlohmann::json data = nlohmann::json::object();
};

/// What one page shows at most, so that it opens in a couple of seconds in
/// a browser and stays usable however large the report (100,000 cases):
/// every page that cuts says so where it cut, and how to see the rest.
/// Charts and flame graphs are drawn only as they come near the screen
/// (page.js), so they cost nothing until seen; what is cut here is what the
/// browser must lay out at load, and what no reader could read.
struct Limits {
  static constexpr std::size_t kSections = 10000;  ///< a section per family, suite, changed case or history case
  static constexpr std::size_t kRows = 20000;      ///< rows of cases in all the page's tables
  static constexpr std::size_t kTableRows = 1000;  ///< rows of one table
  static constexpr std::size_t kBars = 200;        ///< bars of one bar chart
  static constexpr std::size_t kPoints = 2000;     ///< points of one line, beyond which it is drawn decimated
};

/// What a page has left to show of Limits: each section and row it writes
/// is taken from it, and what it could not take is counted to be said.
class Budget {
 public:
  /// A section may be written: false once kSections are, or once the
  /// tables have taken every row of kRows.
  bool take_section();
  /// How many of `rows` rows a table may write: at most kTableRows, and
  /// what is left of kRows.
  std::size_t take_rows(std::size_t rows);
  std::size_t sections_shown() const { return sections_; }
  std::size_t sections_cut() const { return sections_cut_; }
  std::size_t rows_cut() const { return rows_cut_; }

 private:
  std::size_t sections_ = 0;
  std::size_t rows_ = 0;
  std::size_t sections_cut_ = 0;
  std::size_t rows_cut_ = 0;
};

/// Of the indices 0..n-1 of a line's points in order, those a line of at
/// most Limits::kPoints draws: the first and the last, and of each of
/// kPoints / 2 - 1 equal runs of points its lowest and its highest (`y(i)`),
/// so that no peak or dip is lost. All of them when n <= kPoints.
std::vector<std::size_t> decimated(std::size_t n, const std::function<double(std::size_t)>& y);

/// The page, with the libraries its data needs and no others: a page
/// without flame graphs does not carry d3-flame-graph.
void write_page(std::ostream& out, const Page& page);

/// `json` as the text of a <script type="application/json">: every "<"
/// written as \u003c, so that no string in it can close the element, and
/// bytes that are not UTF-8 replaced.
std::string script_json(const nlohmann::json& json);

}  // namespace allocgate::reports::pages
