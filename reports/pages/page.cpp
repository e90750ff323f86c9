// SPDX-License-Identifier: Apache-2.0
#include "page.h"

#include <algorithm>
#include <ostream>

#include "assets.h"
#include "escape.h"

namespace allocgate::reports::pages {

std::string script_json(const nlohmann::json& json) {
  const std::string text = json.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    // "<" only appears inside strings, where \u003c means the same.
    if (c == '<') {
      out += "\\u003c";
    } else {
      out += c;
    }
  }
  return out;
}

bool Budget::take_section() {
  if (sections_ == Limits::kSections || rows_ == Limits::kRows) {
    ++sections_cut_;
    return false;
  }
  ++sections_;
  return true;
}

std::size_t Budget::take_rows(std::size_t rows) {
  const std::size_t taken = std::min({rows, Limits::kTableRows, Limits::kRows - rows_});
  rows_ += taken;
  rows_cut_ += rows - taken;
  return taken;
}

std::vector<std::size_t> decimated(std::size_t n, const std::function<double(std::size_t)>& y) {
  std::vector<std::size_t> kept;
  if (n <= Limits::kPoints) {
    kept.resize(n);
    for (std::size_t i = 0; i < n; ++i) kept[i] = i;
    return kept;
  }
  // Each run's two points, and the line's first and last, so that it spans
  // its whole axis.
  const std::size_t runs = Limits::kPoints / 2 - 1;
  kept.push_back(0);
  for (std::size_t run = 0; run < runs; ++run) {
    const std::size_t begin = run * n / runs, end = (run + 1) * n / runs;
    std::size_t low = begin, high = begin;
    for (std::size_t i = begin + 1; i < end; ++i) {
      if (y(i) < y(low)) low = i;
      if (y(i) > y(high)) high = i;
    }
    for (const std::size_t i : {std::min(low, high), std::max(low, high)}) {
      if (i != kept.back()) kept.push_back(i);
    }
  }
  if (kept.back() != n - 1) kept.push_back(n - 1);
  return kept;
}

void write_page(std::ostream& out, const Page& page) {
  const auto has = [&](const char* key) {
    const auto it = page.data.find(key);
    return it != page.data.end() && !it->empty();
  };
  const bool charts = has("charts");
  const bool flames = has("flames");
  out << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
      << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      << "<title>" << files::html_text(page.title) << "</title>\n<style>\n"
      << assets::page_css() << "</style>\n";
  if (flames) out << "<style>\n" << assets::flamegraph_css() << "</style>\n";
  out << "</head><body>\n" << page.body_html;
  out << "<script type=\"application/json\" id=\"allocgate-data\">" << script_json(page.data) << "</script>\n";
  if (charts) out << "<script>\n" << assets::chart_js() << "\n</script>\n";
  if (flames) {
    out << "<script>\n" << assets::d3_selection_js() << "\n</script>\n";
    out << "<script>\n" << assets::flamegraph_js() << "\n</script>\n";
    out << "<script>\n" << assets::flamegraph_tooltip_js() << "\n</script>\n";
  }
  out << "<script>\n" << assets::page_js() << "\n</script>\n</body></html>\n";
}

}  // namespace allocgate::reports::pages
