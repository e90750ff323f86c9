// libFuzzer: any bytes given to the report and bounds readers end in a report,
// or in InputError; never in a crash, a hang or another exception. What is
// read is then gated, compared and rendered in every medium, which must not
// crash either; and the streaming parser must read what the plain one reads.

#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "bounds.h"
#include "compare.h"
#include "gate.h"
#include "input_error.h"
#include "json_file.h"
#include "report.h"
#include "table.h"

using namespace allocgate::reports;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  nlohmann::json json;
  try {
    json = parse_json(text, "fuzz.json");
  } catch (const InputError&) {
    return 0;
  }
  // Streamed, the benchmarks entries come out one by one; put back, they are
  // the document the plain parser built.
  std::vector<nlohmann::json> entries;
  nlohmann::json streamed = parse_json_streaming(text, "fuzz.json", "benchmarks",
                                                 [&](nlohmann::json&& entry, std::size_t index, const nlohmann::json&) {
                                                   if (index != entries.size()) __builtin_trap();
                                                   entries.push_back(std::move(entry));
                                                 });
  if (streamed.is_object() && streamed.contains("benchmarks") && streamed["benchmarks"].is_array()) {
    for (auto& entry : entries) streamed["benchmarks"].push_back(std::move(entry));
  } else if (!entries.empty()) {
    __builtin_trap();
  }
  if (streamed != json) __builtin_trap();
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
    std::vector<std::string> changes;
    bounds = update_bounds(bounds, report, "fuzz", false, changes);
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
