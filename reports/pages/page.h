// SPDX-License-Identifier: Apache-2.0
// A page: one self-contained HTML file that opens offline. Its tables are
// HTML, written by whoever makes the page (table.cpp, compare_page.cpp,
// history_chart.cpp); its charts and flame graphs are drawn in the browser by
// Chart.js and d3-flame-graph, inlined with the page's own script (page.js),
// from the figures the page carries as JSON.
#pragma once

#include <iosfwd>
#include <string>

#include <nlohmann/json.hpp>

namespace allocgate::reports::pages {

struct Page {
  std::string title;      ///< plain text; escaped here
  std::string body_html;  ///< the page's HTML, escaped by whoever wrote it
  /// What page.js draws: {"charts": [...], "flames": [...]} (see page.js).
  nlohmann::json data = nlohmann::json::object();
};

/// The page, with the libraries its data needs and no others: a page
/// without flame graphs does not carry d3-flame-graph.
void write_page(std::ostream& out, const Page& page);

/// `json` as the text of a <script type="application/json">: every "<"
/// written as \u003c, so that no string in it can close the element, and
/// bytes that are not UTF-8 replaced.
std::string script_json(const nlohmann::json& json);

}  // namespace allocgate::reports::pages
