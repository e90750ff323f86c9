// SPDX-License-Identifier: Apache-2.0
// `allocgate compare BASE HEAD --html`: a page for a change. Every case whose
// allocations changed gets a row of both sides' figures and a differential
// flame graph of its stacks, each frame coloured by what happened to its
// allocs/op (pages/page.js); cases that did not change are folded away.

#include <algorithm>
#include <ostream>
#include <sstream>
#include <vector>

#include "compare.h"
#include "escape.h"
#include "flame_tree.h"
#include "format.h"
#include "page.h"

namespace allocgate::reports {

namespace {

// A changed case (in both reports) with more allocations or bytes in head.
bool regressed(const CompareRow& row) {
  return row.head->allocs_per_op > row.base->allocs_per_op ||
         row.head->bytes_per_op.value_or(0) > row.base->bytes_per_op.value_or(0);
}

}  // namespace

/// The anchor of a case's section on the compare page, as the gate's
/// markdown points to it.
std::string compare_anchor(const std::string& case_name) { return "case-" + case_name; }

void print_compare_html(std::ostream& out, const Comparison& rows, const std::string& base_name,
                        const std::string& head_name) {
  std::ostringstream body;
  nlohmann::json flames = nlohmann::json::array();
  body << "<h1>allocgate compare</h1>\n<p class=\"context\">base: <b>" << files::html_text(base_name)
       << "</b> &nbsp; head: <b>" << files::html_text(head_name) << "</b></p>\n"
       << "<p class=\"legend\">frames by their change in allocs/op: <span style=\"background:#d62728;color:#fff\">new"
          "</span><span style=\"background:#fc9272\">grown</span><span style=\"background:#9ecae1\">shrunk</span>"
          "<span style=\"background:#3182bd;color:#fff\">gone (drawn at the base's width)</span>"
          "<span style=\"background:#d9d9d9\">same</span></p>\n";
  std::size_t changed = 0;
  pages::Budget budget;
  std::ostringstream sections;
  // Regressions first, so that a page cut to Limits::kSections keeps every
  // section the gate's summary links to; then the rest, in the comparison's order.
  // (A Comparison decodes each row as it is asked for: kept by index.)
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const CompareRow row = rows[i];
    if (row.allocs_changed() || row.bytes_changed()) order.push_back(i);
  }
  std::stable_partition(order.begin(), order.end(), [&](std::size_t i) { return regressed(rows[i]); });
  for (const std::size_t i : order) {
    const CompareRow row = rows[i];
    ++changed;
    if (!budget.take_section()) continue;
    const bool more = row.head->allocs_per_op > row.base->allocs_per_op;
    const CompareCells cells = compare_cells(row);
    const auto cell = [](const std::string& text) { return text.empty() ? std::string("-") : files::html_text(text); };
    sections << "<section class=\"change\"><h2 id=\"" << files::html_text(compare_anchor(row.name)) << "\">"
             << files::html_text(row.name) << "</h2>\n<table><tr><th>allocs/op</th><th>B/op</th><th>base time/op</th>"
             << "<th>head time/op</th><th>time change</th></tr>\n<tr><td class=\"n "
             << (row.allocs_changed() ? (more ? "regressed" : "improved") : "") << "\">" << cell(cells.allocs)
             << "</td><td class=\"n\">" << cell(cells.bytes) << "</td><td class=\"n\">" << cell(cells.base_time)
             << "</td><td class=\"n\">" << cell(cells.head_time) << "</td><td class=\"n\">" << cell(cells.change)
             << "</td></tr>\n</table>\n";
    nlohmann::json tree = differential_flame_tree(*row.base, *row.head);
    if (tree.is_null()) {
      sections << "<p>No stacks in either report: run both with --sites (or --allocgate_sites) to see where.</p>\n";
    } else {
      const std::string id = "flame" + std::to_string(flames.size() + 1);
      sections << "<div class=\"flame\" id=\"" << id << "\"></div>\n";
      flames.push_back({{"id", id}, {"title", row.name}, {"differential", true}, {"tree", std::move(tree)}});
    }
    sections << "</section>\n";
  }
  if (changed == 0) body << "<p>No case's allocations changed.</p>\n";
  if (budget.sections_cut() != 0) {
    body << "<p class=\"cut\" id=\"cut\">" << changed << " cases' allocations changed; this page shows the first "
         << pages::Limits::kSections
         << ", regressions first: a browser opens no more at once. <code>allocgate compare BASE HEAD</code> "
         << "prints every one as text.</p>\n";
  }
  body << sections.str();
  std::ostringstream rest;
  std::size_t unchanged = 0;
  for (const CompareRow& row : rows) {
    if (row.allocs_changed() || row.bytes_changed()) continue;
    if (++unchanged > pages::Limits::kTableRows) continue;
    rest << "<li>" << files::html_text(row.name)
         << (!row.base   ? " (only in head)"
             : !row.head ? " (only in base)"
                         : "")
         << "</li>\n";
  }
  if (unchanged != 0) {
    body << "<details><summary>" << unchanged << " case(s) whose allocations did not change</summary>\n<ul>\n"
         << rest.str();
    if (unchanged > pages::Limits::kTableRows) {
      body << "<li>and " << unchanged - pages::Limits::kTableRows << " more, not on this page</li>\n";
    }
    body << "</ul></details>\n";
  }
  pages::write_page(out, {"allocgate compare", body.str(), {{"flames", std::move(flames)}}});
}

}  // namespace allocgate::reports
