// SPDX-License-Identifier: Apache-2.0
#include "buffer_pool.h"

#include <string>
#include <thread>
#include <vector>

#include "allocgate/gtest.h"
#include "order_format.h"
#include "standard_library.h"

namespace {

using allocgate::workloads::order_format::BufferPool;

TEST(BufferPool, ReusesBuffersAndClearsThemFirst) {
  BufferPool pool;
  const char* first = nullptr;
  {
    auto lease = pool.acquire();
    lease.buffer() = "secret request data";
    first = lease.buffer().data();
  }
  auto again = pool.acquire();
  EXPECT_TRUE(again.buffer().empty());        // nothing leaks to the next borrower
  EXPECT_EQ(again.buffer().data(), first);    // the same buffer came back
  EXPECT_GE(again.buffer().capacity(), 19u);  // with its capacity
}

TEST(BufferPool, DropsBuffersThatOutgrewTheLimit) {
  BufferPool pool;
  {
    auto lease = pool.acquire();
    lease.buffer().assign(BufferPool::kMaxPooledCapacity + 1, 'x');
  }
  EXPECT_EQ(pool.dropped(), 1u);
  auto next = pool.acquire();
  EXPECT_LE(next.buffer().capacity(), BufferPool::kMaxPooledCapacity);
  {
    auto small = pool.acquire();
    // At the limit: kept. The longest string whose capacity stays within it:
    // the limit itself with libstdc++; with libc++, whose blocks are rounded
    // up to 16 bytes, a little less.
    std::size_t at_limit = BufferPool::kMaxPooledCapacity;
    while (allocgate::test::string_block_bytes(at_limit) - 1 > BufferPool::kMaxPooledCapacity) --at_limit;
    small.buffer().assign(at_limit, 'y');
  }
  EXPECT_EQ(pool.dropped(), 1u);
}

TEST(BufferPool, SpillsToTheSharedListBeyondTheThreadCache) {
  BufferPool pool;
  {
    std::vector<BufferPool::Lease> leases;
    for (std::size_t i = 0; i < BufferPool::kThreadCacheSize + 3; ++i) leases.push_back(pool.acquire());
  }
  EXPECT_EQ(pool.shared_size(), 3u);
}

TEST(BufferPool, AWarmPoolAllocatesNothing) {
  BufferPool pool;
  { auto warm = pool.acquire(); }
  EXPECT_NO_ALLOCATIONS({
    auto lease = pool.acquire();
    lease.buffer().append("order_id:ord-98234-xyz;amount:249.99");
  });
}

// Run under the tsan preset: threads borrowing and returning concurrently,
// through both the thread caches and the shared list.
TEST(BufferPool, ManyThreadsShareOnePool) {
  BufferPool pool;
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&pool, t] {
      for (int i = 0; i < 2000; ++i) {
        auto a = pool.acquire();
        auto b = pool.acquire();
        auto c = pool.acquire();  // one more than the thread cache holds
        a.buffer() = "thread " + std::to_string(t);
        b.buffer().assign(static_cast<std::size_t>(i % 100), 'b');
        ASSERT_TRUE(c.buffer().empty());
        const std::string line =
            allocgate::workloads::order_format::format_pooled(pool, {"ord-" + std::to_string(i), i / 100.0});
        ASSERT_EQ(line.rfind("order_id:ord-", 0), 0u);
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(pool.dropped(), 0u);
}

}  // namespace
