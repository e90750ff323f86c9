// SPDX-License-Identifier: Apache-2.0
// A toolchain's packed bounds against a std::map of the same bounds: added in
// name order and out of it, replaced, looked up, walked in name order, and a
// name added twice found.

#include "toolchain_bounds.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using allocgate::bounds::Bound;
using allocgate::bounds::ToolchainBounds;

Bound random_bound(std::mt19937_64& rng) {
  const auto has = [&] { return rng() % 2 == 0; };
  Bound b;
  b.allocs_per_op = static_cast<double>(rng() % 1000) / (has() ? 1 : 7);
  if (has()) b.tolerance = static_cast<double>(rng() % 5 + 1);
  if (has()) b.bytes_per_op = static_cast<double>(rng() % 100000);
  if (has()) b.bytes_tolerance = static_cast<double>(rng() % 64 + 1);
  if (has()) b.peak_bytes = static_cast<double>(rng());
  if (has()) b.leaked_bytes_per_op = has() ? 0.0 : static_cast<double>(rng() % 4096);
  if (has()) b.note = std::string(rng() % 300, 'n');  // past a varint's first byte
  return b;
}

void expect_same(const Bound& got, const Bound& want, const std::string& name) {
  EXPECT_EQ(got.allocs_per_op, want.allocs_per_op) << name;
  EXPECT_EQ(got.tolerance, want.tolerance) << name;
  EXPECT_EQ(got.bytes_per_op, want.bytes_per_op) << name;
  EXPECT_EQ(got.bytes_tolerance, want.bytes_tolerance) << name;
  EXPECT_EQ(got.peak_bytes, want.peak_bytes) << name;
  EXPECT_EQ(got.leaked_bytes_per_op, want.leaked_bytes_per_op) << name;
  EXPECT_EQ(got.note, want.note) << name;
}

void expect_equal(const ToolchainBounds& section, const std::map<std::string, Bound>& model) {
  ASSERT_EQ(section.size(), model.size());
  std::size_t i = 0;
  auto wanted = model.begin();
  for (const auto& [name, bound] : section) {
    const auto& [want_name, want] = *wanted++;
    ASSERT_EQ(name, want_name) << "at " << i;
    expect_same(bound, want, want_name);
    EXPECT_EQ(section.index_of(want_name), i);
    ++i;
  }
}

TEST(ToolchainBounds, HoldsWhatAMapHoldsAddedInAnyOrderAndReplaced) {
  std::mt19937_64 rng(20261203);
  std::vector<std::string> names;
  // Bytes above 0x7f and a NUL: ordered as bytes, as std::string orders them.
  for (int i = 0; i < 20000; ++i) {
    names.push_back("case/" + std::to_string(rng() % 1000000) + (i % 7 == 0 ? "\xc3\xa9" : "") +
                    (i % 11 == 0 ? std::string(1, '\0') : ""));
  }
  names.push_back("");
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());

  ToolchainBounds section;
  std::map<std::string, Bound> model;
  // The first half in name order, as a file is read: sorted all along.
  const std::size_t half = names.size() / 2;
  for (std::size_t i = 0; i < half; ++i) {
    const Bound b = random_bound(rng);
    section.add(names[i], b);
    model[names[i]] = b;
    ASSERT_TRUE(section.sorted());
  }
  expect_equal(section, model);

  // The rest shuffled, as --update adds a report's new cases: sorted in by sort().
  std::vector<std::string> rest(names.begin() + static_cast<std::ptrdiff_t>(half), names.end());
  std::shuffle(rest.begin(), rest.end(), rng);
  for (const std::string& name : rest) {
    const Bound b = random_bound(rng);
    section.add(name, b);
    model[name] = b;
  }
  EXPECT_FALSE(section.sorted());
  EXPECT_THROW(section.find(rest.front()), std::logic_error);
  EXPECT_THROW(section.name(0), std::logic_error);
  EXPECT_EQ(section.sort(), std::nullopt);
  expect_equal(section, model);

  // Replaced in place: every third bound.
  for (std::size_t i = 0; i < names.size(); i += 3) {
    const Bound b = random_bound(rng);
    section.set(*section.index_of(names[i]), b);
    model[names[i]] = b;
  }
  expect_equal(section, model);
  EXPECT_EQ(section.find("case/absent"), std::nullopt);
  EXPECT_EQ(section.index_of("case/absent"), std::nullopt);
}

TEST(ToolchainBounds, SortNamesANameAddedTwice) {
  ToolchainBounds section;
  section.add("b", Bound{});
  section.add("c", Bound{});
  section.add("b", Bound{});  // not after "c": out of order
  EXPECT_EQ(section.sort(), "b");

  ToolchainBounds in_order;
  in_order.add("a", Bound{});
  in_order.add("a", Bound{});  // not after "a" either
  EXPECT_FALSE(in_order.sorted());
  EXPECT_EQ(in_order.sort(), "a");
}

}  // namespace
