#include <stdexcept>
#include <string>

#include "workload.h"

namespace allocgate::workloads {

// Each workload's definition lives beside its code.
Workload xml_listing_workload();
Workload timestamp_workload();
Workload log_report_workload();
Workload row_parse_workload();
Workload order_format_workload();

std::span<const Workload> all_workloads() {
  static const std::vector<Workload> workloads{xml_listing_workload(), timestamp_workload(),
                                               log_report_workload(), row_parse_workload(),
                                               order_format_workload()};
  return workloads;
}

std::string case_name(const Workload& workload, std::string_view variant, std::size_t size) {
  return std::string(workload.name) + "/" + std::string(variant) + "/" + std::to_string(size);
}

void throw_unknown_variant(std::string_view workload, std::string_view variant) {
  throw std::invalid_argument(std::string(workload) + ": no variant named '" + std::string(variant) + "'");
}

}  // namespace allocgate::workloads
