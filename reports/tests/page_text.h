// SPDX-License-Identifier: Apache-2.0
// A page allocgate wrote, read back as a test reads it: its data (what its
// charts and flame graphs draw, pages/page.h) and its body (the tables and
// the charts' places).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace allocgate::reports::page_text {

inline nlohmann::json page_data(const std::string& html) {
  const std::string open = "<script type=\"application/json\" id=\"allocgate-data\">";
  const std::size_t from = html.find(open);
  if (from == std::string::npos) return nullptr;
  const std::size_t at = from + open.size();
  return nlohmann::json::parse(html.substr(at, html.find("</script>", at) - at));
}

inline std::string body_of(const std::string& html) { return html.substr(0, html.find("<script")); }

}  // namespace allocgate::reports::page_text
