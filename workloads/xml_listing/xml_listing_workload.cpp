// The xml_listing workload in the registry.

#include <stdexcept>

#include "registry/text_case.h"
#include "registry/workload.h"
#include "xml_listing.h"

namespace allocgate::workloads {
namespace {

std::unique_ptr<Case> prepare(std::string_view variant, std::size_t size) {
  if (variant == "naive") {
    return make_text_case(xml_listing::make_listing(size), [](const auto& listing, std::string& xml) {
      xml = xml_listing::render_naive(listing);
    });
  }
  if (variant == "optimized") {  // the response buffer is reused across runs
    return make_text_case(xml_listing::make_listing(size), [](const auto& listing, std::string& xml) {
      if (!xml_listing::render(listing, xml)) throw std::logic_error("xml_listing: time out of range");
    });
  }
  throw_unknown_variant("xml_listing", variant);
}

}  // namespace

Workload xml_listing_workload() {
  return Workload{"xml_listing",
                  "S3 ListObjectsV2 XML response with escaped keys and millisecond LastModified",
                  {"naive", "optimized"},
                  {10, 1000, 100000},
                  1000,
                  &prepare};
}

}  // namespace allocgate::workloads
