#include <allocgate/allocgate.h>
#include <allocgate/gtest.h>

#include <string>
#include <vector>

TEST(Consumer, CountsAreExact) {
  std::vector<int> v;
  EXPECT_ALLOCATIONS_EQ(for (int i = 0; i < 1000; ++i) v.push_back(i), 11);
  std::string s;
  EXPECT_ALLOCATIONS_EQ(s.assign(16, 'x'), 1);
  const auto r = allocgate::allocs_per_run(10, [] { std::string t(100, 't'); asm volatile("" : : "g"(t.data()) : "memory"); });
  EXPECT_EQ(r.mean, 1.0);
}
