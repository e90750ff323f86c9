// SPDX-License-Identifier: Apache-2.0
// The xml_listing workload in the registry.

#include <stdexcept>

#include "registry/text_case.h"
#include "registry/workload.h"
#include "xml_listing.h"

namespace allocgate::workloads {
namespace {

void render_naive(const xml_listing::Listing& listing, std::string& xml) { xml = xml_listing::render_naive(listing); }

// The response buffer is reused across runs.
void render(const xml_listing::Listing& listing, std::string& xml) {
  if (!xml_listing::render(listing, xml)) throw std::logic_error("xml_listing: time out of range");
}

}  // namespace

Workload xml_listing_workload() {
  return Workload{"xml_listing",
                  "S3 ListObjectsV2 XML response with escaped keys and millisecond LastModified",
                  {{"naive", &make_text_case<&xml_listing::make_listing, &render_naive>},
                   {"optimized", &make_text_case<&xml_listing::make_listing, &render>}},
                  {10, 1000, 100000},
                  1000};
}

}  // namespace allocgate::workloads
