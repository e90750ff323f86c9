// SPDX-License-Identifier: Apache-2.0
// A suite of 1,000 GoogleTest tests written as a real one is: 100 suites of
// 10, each a fixture with a gMock StrictMock its tests set expectations on
// (some in sequence), a cache that the first test of each suite to look its
// key up fills for the others, a registry each suite's first test adds to
// (kept), and one test in a hundred that leaks a block. Built with
// GTest::gmock_main and with allocgate::gtest_main (mock_suite_measure.sh:
// wall times, leak verdicts against valgrind's, whole against shards).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <numeric>
#include <set>
#include <string>
#include <vector>

namespace {

class Store {
 public:
  virtual ~Store() = default;
  virtual void Put(const std::string& key, int value) = 0;
  virtual int Get(const std::string& key) const = 0;
};

class MockStore : public Store {
 public:
  MOCK_METHOD(void, Put, (const std::string& key, int value), (override));
  MOCK_METHOD(int, Get, (const std::string& key), (const, override));
};

// Filled by the first test that asks for a key: what later tests find.
std::map<std::string, std::vector<int>>& cache() {
  static std::map<std::string, std::vector<int>> values;
  return values;
}
const std::vector<int>& cached(const std::string& key) {
  auto [at, added] = cache().try_emplace(key);
  if (added) {
    at->second.resize(32);
    std::iota(at->second.begin(), at->second.end(), static_cast<int>(key.size()));
  }
  return at->second;
}

// Names registered once for the program's life, one by each suite's first test.
std::vector<std::unique_ptr<std::string>> g_registry;
std::set<int> g_registered;

// The code under test: reads through the cache, writes to the store.
int copy_through(Store& store, const std::string& key, int n) {
  const std::vector<int>& values = cached(key);
  const int sum = std::accumulate(values.begin(), values.begin() + 8 + n % 8, 0);
  store.Put(key + "/" + std::to_string(n), sum);
  return store.Get(key) + sum;
}

class StoreTest : public ::testing::Test {
 protected:
  ::testing::StrictMock<MockStore> store_;
};

void store_test(StoreTest& fixture, ::testing::StrictMock<MockStore>& store, int suite, int n) {
  (void)fixture;
  const std::string key = "key-of-suite-" + std::to_string(suite) + "-which-is-long";
  if (n == 0 && g_registered.insert(suite).second) {
    g_registry.push_back(std::make_unique<std::string>("registered by suite " + std::to_string(suite) + " of many"));
  }
  if (n % 3 == 0) {
    ::testing::InSequence in_order;
    EXPECT_CALL(store, Put(::testing::StartsWith(key), ::testing::_));
    EXPECT_CALL(store, Get(key)).WillOnce(::testing::Return(n));
  } else {
    EXPECT_CALL(store, Put(::testing::_, ::testing::Gt(0)));
    EXPECT_CALL(store, Get(::testing::_)).WillRepeatedly(::testing::Return(n));
  }
  EXPECT_GT(copy_through(store, key, n), n);
  if (suite % 10 == 7 && n == 9) {
    const std::string* leaked = new std::string("a block this test forgets, long enough for the heap");
    EXPECT_FALSE(leaked->empty());
  }
}

// Ten tests a suite, ten suites a line: clang-format would reflow these.
// clang-format off
#define ALLOCGATE_TEST(suite, n) TEST_F(Store##suite, Case##n) { store_test(*this, store_, suite, n); }
#define ALLOCGATE_SUITE(suite) \
  class Store##suite : public StoreTest {}; \
  ALLOCGATE_TEST(suite, 0) \
  ALLOCGATE_TEST(suite, 1) \
  ALLOCGATE_TEST(suite, 2) \
  ALLOCGATE_TEST(suite, 3) \
  ALLOCGATE_TEST(suite, 4) \
  ALLOCGATE_TEST(suite, 5) \
  ALLOCGATE_TEST(suite, 6) \
  ALLOCGATE_TEST(suite, 7) \
  ALLOCGATE_TEST(suite, 8) \
  ALLOCGATE_TEST(suite, 9)
#define ALLOCGATE_TEN_SUITES(t) \
  ALLOCGATE_SUITE(t##0) \
  ALLOCGATE_SUITE(t##1) \
  ALLOCGATE_SUITE(t##2) \
  ALLOCGATE_SUITE(t##3) \
  ALLOCGATE_SUITE(t##4) \
  ALLOCGATE_SUITE(t##5) \
  ALLOCGATE_SUITE(t##6) \
  ALLOCGATE_SUITE(t##7) \
  ALLOCGATE_SUITE(t##8) \
  ALLOCGATE_SUITE(t##9)
// clang-format on

ALLOCGATE_TEN_SUITES(1)
ALLOCGATE_TEN_SUITES(2)
ALLOCGATE_TEN_SUITES(3)
ALLOCGATE_TEN_SUITES(4)
ALLOCGATE_TEN_SUITES(5)
ALLOCGATE_TEN_SUITES(6)
ALLOCGATE_TEN_SUITES(7)
ALLOCGATE_TEN_SUITES(8)
ALLOCGATE_TEN_SUITES(9)
ALLOCGATE_TEN_SUITES(10)

}  // namespace
