// Every registered case builds, runs, equals its workload's reference variant
// byte for byte, and the optimized variants reach zero allocations.

#include <set>
#include <stdexcept>
#include <string>

#include "allocgate/allocgate.h"
#include "allocgate/gtest.h"
#include "registry/workload.h"

namespace {

using allocgate::workloads::all_workloads;

TEST(Registry, ListsTheFiveWorkloadsWithUniqueCaseNames) {
  std::set<std::string> names;
  std::set<std::string_view> workloads;
  for (const auto& w : all_workloads()) {
    workloads.insert(w.name);
    ASSERT_GE(w.variants.size(), 2u) << w.name;
    ASSERT_GE(w.sizes.size(), 3u) << w.name;
    for (auto v : w.variants) {
      for (auto n : w.sizes) EXPECT_TRUE(names.insert(allocgate::workloads::case_name(w, v, n)).second);
    }
  }
  EXPECT_EQ(workloads, (std::set<std::string_view>{"xml_listing", "timestamp", "log_report",
                                                    "row_parse", "order_format"}));
  EXPECT_TRUE(names.count("xml_listing/optimized/1000"));
}

TEST(Registry, UnknownVariantsAreRejected) {
  for (const auto& w : all_workloads()) {
    EXPECT_THROW(w.prepare("no_such_variant", w.default_size), std::invalid_argument);
  }
}

TEST(Registry, EveryVariantEqualsItsReferenceAtEverySize) {
  for (const auto& w : all_workloads()) {
    for (const std::size_t n : w.sizes) {
      auto reference = w.prepare(w.variants[0], n);
      reference->run();
      const std::string expected = reference->output();
      ASSERT_FALSE(expected.empty());
      for (auto v : w.variants) {
        auto c = w.prepare(v, n);
        c->run();
        c->run();  // a second run must give the same bytes as the first
        EXPECT_EQ(c->output(), expected) << allocgate::workloads::case_name(w, v, n);
      }
    }
  }
}

}  // namespace
