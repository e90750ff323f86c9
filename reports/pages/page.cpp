// SPDX-License-Identifier: Apache-2.0
#include "page.h"

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
