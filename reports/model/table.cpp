// SPDX-License-Identifier: Apache-2.0
#include "table.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <iomanip>
#include <map>
#include <ostream>
#include <set>
#include <sstream>

#include "escape.h"
#include "format.h"
#include "json_keys.h"
#include "text_table.h"

namespace allocgate::reports {
namespace {

// The cases of one workload, arranged by variant and size.
struct WorkloadView {
  std::string name;
  std::string summary;
  std::vector<std::string> variants;  // in report order; the reference first
  std::vector<std::uint64_t> sizes;   // ascending
  std::uint64_t table_size = 0;       // the size the main table shows
  std::map<std::pair<std::string, std::uint64_t>, const CaseResult*> cases;

  const CaseResult* at(const std::string& variant, std::uint64_t size) const {
    const auto it = cases.find({variant, size});
    return it == cases.end() ? nullptr : it->second;
  }
};

std::vector<WorkloadView> arrange(const Report& report) {
  std::vector<WorkloadView> views;
  std::map<std::string, std::size_t> index;
  // Seen per view, so that arranging is linear in the cases however many
  // variants and sizes they have.
  std::vector<std::pair<std::set<std::string>, std::set<std::uint64_t>>> seen;
  for (const CaseResult& c : report.cases) {
    if (c.workload.empty()) continue;
    const auto [it, inserted] = index.try_emplace(c.workload, views.size());
    if (inserted) {
      views.push_back(WorkloadView{c.workload, {}, {}, {}, 0, {}});
      seen.emplace_back();
    }
    WorkloadView& v = views[it->second];
    auto& [variants, sizes] = seen[it->second];
    if (variants.insert(c.variant).second) v.variants.push_back(c.variant);
    if (sizes.insert(c.size).second) v.sizes.push_back(c.size);
    v.cases[{c.variant, c.size}] = &c;
  }
  // The reader checked these fields' types (report.cpp, check_context).
  const nlohmann::json workloads = report.context.value(keys::kWorkloads, nlohmann::json::object());
  for (WorkloadView& v : views) {
    std::sort(v.sizes.begin(), v.sizes.end());
    v.table_size = v.sizes[v.sizes.size() / 2];
    if (const auto w = workloads.find(v.name); w != workloads.end() && w->is_object()) {
      v.summary = w->value(keys::kWorkloadSummary, "");
      const auto size = w->value(keys::kCaseStudySize, std::uint64_t{0});
      if (std::find(v.sizes.begin(), v.sizes.end(), size) != v.sizes.end()) v.table_size = size;
      const std::string reference = w->value(keys::kReferenceVariant, "");
      const auto r = std::find(v.variants.begin(), v.variants.end(), reference);
      if (r != v.variants.end()) std::rotate(v.variants.begin(), r, r + 1);
    }
  }
  return views;
}

std::string optional_cell(const std::optional<double>& v) { return v ? files::readable(*v) : "-"; }
std::string time_cell(const CaseResult& c) { return c.ns_median ? files::nanoseconds(*c.ns_median) : "-"; }

std::string speedup(const CaseResult& c, const CaseResult* reference) {
  if (!reference || !reference->ns_median || !c.ns_median || *c.ns_median <= 0) return "-";
  return files::ratio(*reference->ns_median / *c.ns_median);
}

std::string equality(const CaseResult& c, bool is_reference) {
  if (is_reference) return "reference";
  if (!c.equal_to_reference) return "-";
  return *c.equal_to_reference ? "equal" : "DIFFERS";
}

void print_plain_markdown(std::ostream& out, const Report& report) {
  using Align = TextTable::Align;
  TextTable table({{"benchmark", Align::left},
                   {"ns/op", Align::right},
                   {"B/op", Align::right},
                   {"allocs/op", Align::right},
                   {"peak bytes", Align::right}});
  for (const CaseResult& c : report.cases) {
    if (!c.workload.empty()) continue;
    table.add_row({files::markdown_code(c.name), time_cell(c), optional_cell(c.bytes_per_op),
                   files::readable(c.allocs_per_op), optional_cell(c.peak_bytes)});
  }
  table.print_markdown(out);
}

}  // namespace

void print_markdown_tables(std::ostream& out, const Report& report) {
  using Align = TextTable::Align;
  const std::vector<WorkloadView> views = arrange(report);
  for (const WorkloadView& v : views) {
    out << "### " << files::markdown_text(v.name);
    if (!v.summary.empty()) out << ": " << files::markdown_text(v.summary);
    out << " (" << v.table_size << " per op)\n\n";
    TextTable variants({{"variant", Align::left},
                        {"ns/op", Align::right},
                        {"B/op", Align::right},
                        {"allocs/op", Align::right},
                        {"speedup", Align::right},
                        {"output", Align::left}});
    const CaseResult* reference = v.at(v.variants.front(), v.table_size);
    for (const std::string& variant : v.variants) {
      const CaseResult* c = v.at(variant, v.table_size);
      if (!c) continue;
      variants.add_row({files::markdown_text(variant), time_cell(*c), optional_cell(c->bytes_per_op),
                        files::readable(c->allocs_per_op), speedup(*c, reference), equality(*c, c == reference)});
    }
    variants.print_markdown(out);
    out << "\nallocs/op by input size:\n\n";
    // A variant per row and a size per column, when most cells hold a case;
    // else a row per case, so the table stays as long as the cases are many
    // (2,000 variants each at a size of its own would be 4,000,000 cells).
    if (v.variants.size() * v.sizes.size() > 2 * v.cases.size()) {
      TextTable by_case({{"variant", Align::left}, {"size", Align::right}, {"allocs/op", Align::right}});
      for (const std::string& variant : v.variants) {
        for (auto it = v.cases.lower_bound({variant, 0}); it != v.cases.end() && it->first.first == variant; ++it) {
          by_case.add_row({files::markdown_text(variant), std::to_string(it->first.second),
                           files::readable(it->second->allocs_per_op)});
        }
      }
      by_case.print_markdown(out);
      out << "\n";
      continue;
    }
    std::vector<TextTable::Column> columns{{"variant", Align::left}};
    for (const auto size : v.sizes) columns.push_back({std::to_string(size), Align::right});
    TextTable by_size(std::move(columns));
    for (const std::string& variant : v.variants) {
      std::vector<std::string> row{files::markdown_text(variant)};
      for (const auto size : v.sizes) {
        const CaseResult* c = v.at(variant, size);
        row.push_back(c ? files::readable(c->allocs_per_op) : "-");
      }
      by_size.add_row(std::move(row));
    }
    by_size.print_markdown(out);
    out << "\n";
  }
  if (std::any_of(report.cases.begin(), report.cases.end(), [](const CaseResult& c) { return c.workload.empty(); })) {
    print_plain_markdown(out, report);
  }
}

// --- HTML -------------------------------------------------------------------

namespace {

constexpr const char* kPalette[] = {"#c0392b", "#2980b9", "#27ae60", "#8e44ad", "#d35400", "#16a085"};

// Horizontal bars, one per variant, linear in value; the value is printed
// beside each bar, so a bar of 0 still says "0".
void svg_bars(std::ostream& out, const std::string& kind, const std::string& title,
              const std::vector<std::pair<std::string, double>>& bars, const std::string& unit) {
  const int row = 26, label_width = 130, bar_width = 300, height = 30 + row * static_cast<int>(bars.size());
  double max = 0;
  for (const auto& [label, value] : bars) max = std::max(max, value);
  out << "<svg class=\"chart " << kind << "\" xmlns=\"http://www.w3.org/2000/svg\" width=\"560\" height=\"" << height
      << "\" role=\"img\" aria-label=\"" << files::html_text(title) << "\">\n"
      << "<text x=\"0\" y=\"16\" class=\"title\">" << files::html_text(title) << "</text>\n";
  for (std::size_t i = 0; i < bars.size(); ++i) {
    const auto& [label, value] = bars[i];
    const int y = 26 + row * static_cast<int>(i);
    const double w = max > 0 ? bar_width * value / max : 0;
    out << "<text x=\"0\" y=\"" << y + 15 << "\">" << files::html_text(label) << "</text>"
        << "<rect class=\"bar\" x=\"" << label_width << "\" y=\"" << y << "\" width=\"" << std::fixed
        << std::setprecision(1) << w << "\" height=\"20\" fill=\"" << kPalette[i % std::size(kPalette)] << "\"/>"
        << "<text x=\"" << label_width + w + 6 << "\" y=\"" << y + 15 << "\">"
        << files::html_text(files::exact(value) + unit) << "</text>\n";
  }
  out << "</svg>\n";
}

// allocs/op against input size, one line per variant. Sizes are evenly spaced
// (they grow by decades); the y axis is log10(1 + allocs/op) so that 0 and a
// million fit on one chart.
void svg_scaling(std::ostream& out, const WorkloadView& v) {
  const int width = 560, height = 260, left = 60, right = 150, top = 30, bottom = 40;
  const int plot_w = width - left - right, plot_h = height - top - bottom;
  double max_log = 1;
  for (const auto& [key, c] : v.cases) max_log = std::max(max_log, std::log10(1 + c->allocs_per_op));
  max_log = std::ceil(max_log);
  const auto x_of = [&](std::size_t i) {
    return left + (v.sizes.size() == 1 ? plot_w / 2.0 : plot_w * static_cast<double>(i) / (v.sizes.size() - 1));
  };
  const auto y_of = [&](double allocs) { return top + plot_h * (1 - std::log10(1 + allocs) / max_log); };
  out << "<svg class=\"chart scaling\" xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\""
      << height << "\" role=\"img\" aria-label=\"allocs/op by input size\">\n"
      << "<text x=\"0\" y=\"16\" class=\"title\">allocs/op by input size (log scale)</text>\n"
      << "<line class=\"axis\" x1=\"" << left << "\" y1=\"" << top + plot_h << "\" x2=\"" << left + plot_w << "\" y2=\""
      << top + plot_h << "\"/>\n<line class=\"axis\" x1=\"" << left << "\" y1=\"" << top << "\" x2=\"" << left
      << "\" y2=\"" << top + plot_h << "\"/>\n";
  for (int decade = 0; decade <= static_cast<int>(max_log); ++decade) {
    const double value = decade == 0 ? 0 : std::pow(10.0, decade - 1);  // 0, 1, 10, 100, ...
    if (std::log10(1 + value) > max_log) break;
    out << "<text x=\"" << left - 6 << "\" y=\"" << std::fixed << std::setprecision(1) << y_of(value) + 4
        << "\" text-anchor=\"end\">" << files::exact(value) << "</text>\n";
  }
  for (std::size_t i = 0; i < v.sizes.size(); ++i) {
    out << "<text x=\"" << x_of(i) << "\" y=\"" << top + plot_h + 18 << "\" text-anchor=\"middle\">" << v.sizes[i]
        << "</text>\n";
  }
  for (std::size_t s = 0; s < v.variants.size(); ++s) {
    const char* color = kPalette[s % std::size(kPalette)];
    std::ostringstream points;
    for (std::size_t i = 0; i < v.sizes.size(); ++i) {
      if (const CaseResult* c = v.at(v.variants[s], v.sizes[i])) {
        points << std::fixed << std::setprecision(1) << x_of(i) << "," << y_of(c->allocs_per_op) << " ";
        out << "<circle cx=\"" << x_of(i) << "\" cy=\"" << y_of(c->allocs_per_op) << "\" r=\"3\" fill=\"" << color
            << "\"/>\n";
      }
    }
    out << "<polyline class=\"series\" fill=\"none\" stroke=\"" << color << "\" stroke-width=\"2\" points=\""
        << points.str() << "\"/>\n<text x=\"" << left + plot_w + 12 << "\" y=\"" << top + 14 + 18 * s << "\" fill=\""
        << color << "\">" << files::html_text(v.variants[s]) << "</text>\n";
  }
  out << "</svg>\n";
}

// A flame graph of one case's allocation stacks: each frame a box as wide as
// the allocations made beneath it, callers below callees, so the widest
// towers are where the allocations come from.
struct FlameNode {
  std::string name;
  double count = 0;
  std::vector<FlameNode> children;

  FlameNode& child(const std::string& frame) {
    for (FlameNode& c : children) {
      if (c.name == frame) return c;
    }
    children.push_back(FlameNode{frame, 0, {}});
    return children.back();
  }
  int depth() const {
    int d = 0;
    for (const FlameNode& c : children) d = std::max(d, c.depth());
    return d + 1;
  }
};

void flame_boxes(std::ostream& out, const FlameNode& node, double x, int level, double scale, int bottom) {
  constexpr int kRow = 17;
  const double width = node.count * scale;
  if (width < 0.5) return;
  // A warm colour picked from the name, so a function keeps its colour.
  const std::size_t hash = std::hash<std::string>{}(node.name);
  const int red = 200 + static_cast<int>(hash % 55), green = 80 + static_cast<int>((hash >> 8) % 120);
  const int y = bottom - (level + 1) * kRow;
  out << "<g class=\"frame\"><title>" << files::html_text(node.name) << ": " << files::exact(node.count)
      << " allocs/op</title><rect x=\"" << std::fixed << std::setprecision(1) << x << "\" y=\"" << y << "\" width=\""
      << width << "\" height=\"" << kRow - 1 << "\" fill=\"rgb(" << red << "," << green << ",60)\"/>";
  if (width > 40) {
    const std::size_t fits = static_cast<std::size_t>(width / 7);
    std::string label = node.name.size() > fits
                            ? std::string(files::utf8_prefix(node.name, fits > 2 ? fits - 2 : 0)) + ".."
                            : node.name;
    out << "<text x=\"" << x + 3 << "\" y=\"" << y + 12 << "\" font-size=\"11\">" << files::html_text(label)
        << "</text>";
  }
  out << "</g>\n";
  double child_x = x;
  for (const FlameNode& child : node.children) {
    flame_boxes(out, child, child_x, level + 1, scale, bottom);
    child_x += child.count * scale;
  }
}

// A case's top sites: allocs/op, how many of them are temporaries, and the
// usual fix where one is known.
void html_sites(std::ostream& out, const CaseResult& c) {
  out << "<table class=\"sites\"><caption>" << files::html_text(c.name) << ": where one operation allocates</caption>\n"
      << "<tr><th>allocs/op</th><th>temporary/op</th><th>site</th><th>fix</th></tr>\n";
  for (const SiteSummary& site : c.sites) {
    out << "<tr><td class=\"n\">" << files::readable(site.allocs_per_op) << "</td><td class=\"n\">"
        << files::readable(site.temporary_per_op) << "</td><td>" << files::html_text(to_string(site.where()))
        << "</td><td>" << files::html_text(site.hint) << "</td></tr>\n";
  }
  out << "</table>\n";
}

void svg_flame(std::ostream& out, const std::string& case_name, const std::vector<StackSummary>& stacks) {
  FlameNode root{"all", 0, {}};
  for (const StackSummary& stack : stacks) {
    root.count += stack.allocs_per_op;
    FlameNode* node = &root;
    for (const std::string& frame : stack.frames) {
      node = &node->child(frame);
      node->count += stack.allocs_per_op;
    }
  }
  if (root.count <= 0) return;
  const int width = 1100, height = 24 + 17 * root.depth();
  out << "<svg class=\"chart flame\" xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height
      << "\" role=\"img\" aria-label=\"allocation flame graph\">\n<text x=\"0\" y=\"14\" class=\"title\">"
      << files::html_text(case_name)
      << ": allocation stacks of one operation, width by allocs/op (hover for names)</text>\n";
  flame_boxes(out, root, 0, 0, width / root.count, height);
  out << "</svg>\n";
}

}  // namespace

void print_html(std::ostream& out, const Report& report) {
  const std::vector<WorkloadView> views = arrange(report);
  out << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>allocgate report</title>\n"
         "<style>body{font:14px/1.4 sans-serif;margin:2em;max-width:1200px}"
         "table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:3px 8px}"
         "td.n{text-align:right;font-variant-numeric:tabular-nums}svg{margin:.5em 1em .5em 0;vertical-align:top}"
         "svg text{font:12px sans-serif}svg .title{font-weight:bold}.axis{stroke:#555}"
         ".differs{color:#c0392b;font-weight:bold}</style></head><body>\n<h1>allocgate report</h1>\n<p>";
  for (const char* key :
       {keys::kDate, keys::kToolchain, keys::kCompiler, keys::kBuildType, keys::kCpu, keys::kGitCommit}) {
    if (const auto it = report.context.find(key); it != report.context.end() && it->is_string()) {
      out << files::html_text(key) << ": <b>" << files::html_text(it->get<std::string>()) << "</b> &nbsp; ";
    }
  }
  out << "</p>\n";
  for (const WorkloadView& v : views) {
    out << "<section class=\"workload\" id=\"" << files::html_text(v.name) << "\"><h2>" << files::html_text(v.name)
        << "</h2>\n";
    if (!v.summary.empty()) out << "<p>" << files::html_text(v.summary) << " (" << v.table_size << " per op)</p>\n";
    out << "<table><tr><th>variant</th><th>ns/op</th><th>B/op</th><th>allocs/op</th><th>speedup</th><th>output</th></"
           "tr>\n";
    const CaseResult* reference = v.at(v.variants.front(), v.table_size);
    std::vector<std::pair<std::string, double>> allocs, times;
    for (const std::string& variant : v.variants) {
      const CaseResult* c = v.at(variant, v.table_size);
      if (!c) continue;
      const std::string eq = equality(*c, c == reference);
      out << "<tr><td>" << files::html_text(variant) << "</td><td class=\"n\">" << time_cell(*c)
          << "</td><td class=\"n\">" << optional_cell(c->bytes_per_op) << "</td><td class=\"n\">"
          << files::readable(c->allocs_per_op) << "</td><td class=\"n\">" << speedup(*c, reference) << "</td><td"
          << (eq == "DIFFERS" ? " class=\"differs\"" : "") << ">" << eq << "</td></tr>\n";
      allocs.emplace_back(variant, c->allocs_per_op);
      if (c->ns_median) times.emplace_back(variant, std::round(*c->ns_median * 10) / 10);
    }
    out << "</table>\n<div>";
    svg_bars(out, "allocs", "allocs/op", allocs, "");
    if (!times.empty()) svg_bars(out, "time", "ns/op (median)", times, " ns");
    svg_scaling(out, v);
    if (reference != nullptr && !reference->stacks.empty()) svg_flame(out, reference->name, reference->stacks);
    out << "</div>";
    if (reference != nullptr && !reference->sites.empty()) html_sites(out, *reference);
    out << "</section>\n";
  }
  // A user's benchmarks (cases of no workload): the plain table's figures as
  // an HTML table, then each case's sites, as the workloads' pages show them.
  if (std::any_of(report.cases.begin(), report.cases.end(), [](const CaseResult& c) { return c.workload.empty(); })) {
    out << "<section><h2>benchmarks</h2>\n<table><tr><th>benchmark</th><th>ns/op</th><th>B/op</th><th>allocs/op</th>"
           "<th>peak bytes</th></tr>\n";
    for (const CaseResult& c : report.cases) {
      if (!c.workload.empty()) continue;
      out << "<tr><td>" << files::html_text(c.name) << "</td><td class=\"n\">" << time_cell(c)
          << "</td><td class=\"n\">" << optional_cell(c.bytes_per_op) << "</td><td class=\"n\">"
          << files::readable(c.allocs_per_op) << "</td><td class=\"n\">" << optional_cell(c.peak_bytes)
          << "</td></tr>\n";
    }
    out << "</table>\n";
    for (const CaseResult& c : report.cases) {
      if (c.workload.empty() && !c.sites.empty()) html_sites(out, c);
    }
    out << "</section>\n";
  }
  out << "</body></html>\n";
}

}  // namespace allocgate::reports
