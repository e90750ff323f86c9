// SPDX-License-Identifier: Apache-2.0
// The files a page inlines, built into the command (assets.cpp.in): each as
// the bytes between allocgate_asset_NAME and allocgate_asset_NAME_end.
#pragma once

#include <string_view>

#define ALLOCGATE_ASSET(name)                                                                                         \
  extern "C" const char allocgate_asset_##name[];                                                                     \
  extern "C" const char allocgate_asset_##name##_end[];                                                               \
  namespace allocgate::reports::pages::assets {                                                                       \
  inline std::string_view name() {                                                                                    \
    return {allocgate_asset_##name, static_cast<std::size_t>(allocgate_asset_##name##_end - allocgate_asset_##name)}; \
  }                                                                                                                   \
  }

ALLOCGATE_ASSET(chart_js)               // Chart.js (Debian's libjs-chart.js)
ALLOCGATE_ASSET(d3_selection_js)        // d3.select, which d3-flame-graph is called through
ALLOCGATE_ASSET(flamegraph_js)          // d3-flame-graph (npm)
ALLOCGATE_ASSET(flamegraph_tooltip_js)  // d3-flame-graph's tooltip
ALLOCGATE_ASSET(flamegraph_css)
ALLOCGATE_ASSET(page_js)   // the page's own script: draws what the page's data holds
ALLOCGATE_ASSET(page_css)  // the page's own style

#undef ALLOCGATE_ASSET
