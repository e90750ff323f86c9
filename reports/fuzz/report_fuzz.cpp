// SPDX-License-Identifier: Apache-2.0
// libFuzzer: any bytes given to the report and bounds readers end in a report,
// or in InputError; never in a crash, a hang or another exception. What is
// read is then gated, compared and rendered in every medium, which must not
// crash either; and the document must be the one nlohmann's parser reads.

#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "bounds_file.h"
#include "compare.h"
#include "gate.h"
#include "input_error.h"
#include "json_file.h"
#include "report.h"
#include "table.h"

using namespace allocgate::reports;
using namespace allocgate::files;
using namespace allocgate::bounds;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  nlohmann::json json;
  try {
    json = parse_json(text, "fuzz.json");
  } catch (const InputError&) {
    return 0;
  }
  // simdjson reads what nlohmann's parser reads (which the document is
  // compared against), wherever nlohmann takes the text as it is.
  try {
    if (nlohmann::json::parse(text) != json) __builtin_trap();
  } catch (const nlohmann::json::exception&) {
    // Google Benchmark's NaN literals, which allocgate reads as null and
    // nlohmann refuses: nothing to compare.
  }
  try {
    const BoundsFile bounds = bounds_from_json(json, "fuzz.json");
    (void)to_json(bounds).dump();
  } catch (const InputError&) {
  }
  try {
    const Report report = report_from_json(json, "fuzz.json");
    std::ostringstream sink;
    print_markdown_tables(sink, report);
    print_html(sink, report);
    print_comparison(sink, compare_reports(report, report), false);
    BoundsFile bounds;
    std::vector<BoundChange> changes;
    std::vector<std::string> refused;
    bounds = update_bounds(bounds, report, "fuzz", false, changes, refused);
    for (const BoundChange& change : changes) sink << describe(change, report) << '\n';
    const GateResult gate = evaluate(report, bounds, "fuzz", "bounds.json");
    print_text(sink, gate);
    print_markdown(sink, gate);
    print_github_annotations(sink, gate);
    print_comparison(sink, compare_reports(report, report), true);
    (void)to_json(report).dump();
  } catch (const InputError&) {
  }
  return 0;
}
