// The xml_listing workload in the registry.

#include <stdexcept>

#include "registry/workload.h"
#include "xml_listing.h"

namespace allocgate::workloads {
namespace {

class NaiveCase : public Case {
 public:
  explicit NaiveCase(std::size_t n) : listing_(xml_listing::make_listing(n)) {}
  void run() override { xml_ = xml_listing::render_naive(listing_); }
  std::string output() const override { return xml_; }

 private:
  xml_listing::Listing listing_;
  std::string xml_;
};

class OptimizedCase : public Case {
 public:
  explicit OptimizedCase(std::size_t n) : listing_(xml_listing::make_listing(n)) {}
  void run() override {
    if (!xml_listing::render(listing_, xml_)) throw std::logic_error("xml_listing: time out of range");
  }
  std::string output() const override { return xml_; }

 private:
  xml_listing::Listing listing_;
  std::string xml_;  // the response buffer, reused across runs
};

std::unique_ptr<Case> prepare(std::string_view variant, std::size_t size) {
  if (variant == "naive") return std::make_unique<NaiveCase>(size);
  if (variant == "optimized") return std::make_unique<OptimizedCase>(size);
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
