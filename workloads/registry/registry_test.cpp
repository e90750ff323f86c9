// SPDX-License-Identifier: Apache-2.0
// The registry holds exactly the workloads of the CMake list, in its order;
// every case builds, runs and equals its workload's reference variant byte for
// byte, on a second run too.

#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "allocgate/gtest.h"
#include "registry/workload.h"

namespace {

using allocgate::workloads::all_cases;
using allocgate::workloads::all_workloads;
using allocgate::workloads::find_case;

std::vector<std::string> split_list(const std::string& list) {
  std::vector<std::string> names;
  std::istringstream in(list);
  for (std::string name; std::getline(in, name, ',');) names.push_back(name);
  return names;
}

TEST(Registry, HoldsTheWorkloadsOfTheCMakeListInItsOrder) {
  std::vector<std::string> registered;
  for (const auto& w : all_workloads()) registered.emplace_back(w.name);
  EXPECT_EQ(registered, split_list(ALLOCGATE_WORKLOAD_LIST));
}

TEST(Registry, EveryWorkloadHasVariantsAndSizes) {
  for (const auto& w : all_workloads()) {
    EXPECT_GE(w.variants.size(), 2u) << w.name;
    EXPECT_GE(w.sizes.size(), 3u) << w.name;
    std::set<std::size_t> sizes(w.sizes.begin(), w.sizes.end());
    EXPECT_NE(sizes.count(w.default_size), 0u) << w.name << ": the case study's size is not one of its sizes";
  }
}

TEST(Registry, CasesAreEveryVariantAtEverySizeWithUniqueNames) {
  std::size_t expected = 0;
  for (const auto& w : all_workloads()) expected += w.variants.size() * w.sizes.size();
  ASSERT_EQ(all_cases().size(), expected);
  std::set<std::string> names;
  for (const auto& c : all_cases()) {
    EXPECT_TRUE(names.insert(c.name).second) << c.name;
    EXPECT_EQ(c.name,
              std::string(c.workload->name) + "/" + std::string(c.variant->name) + "/" + std::to_string(c.size));
    EXPECT_EQ(find_case(c.name), &c);
  }
  EXPECT_NE(find_case("xml_listing/optimized/1000"), nullptr);
}

TEST(Registry, UnknownNamesFindNoCase) {
  EXPECT_EQ(find_case("xml_listing/no_such_variant/1000"), nullptr);
  EXPECT_EQ(find_case("xml_listing/optimized/7"), nullptr);
  EXPECT_EQ(find_case("xml_listing/optimized"), nullptr);
  EXPECT_EQ(find_case(""), nullptr);
}

TEST(Registry, EveryVariantEqualsItsReferenceAtEverySize) {
  std::map<std::pair<const void*, std::size_t>, std::string> references;  // by workload and size
  for (const auto& c : all_cases()) {
    auto [it, fresh] = references.try_emplace({c.workload, c.size});
    if (fresh) {
      auto reference = c.prepare_reference();
      reference->run();
      it->second = reference->output();
    }
    const std::string& expected = it->second;
    ASSERT_FALSE(expected.empty()) << c.name;
    auto variant = c.prepare();
    variant->run();
    variant->run();  // a second run must give the same bytes as the first
    EXPECT_EQ(variant->output(), expected) << c.name;
  }
}

}  // namespace
