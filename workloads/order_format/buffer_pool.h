// SPDX-License-Identifier: Apache-2.0
// A pool of reusable string buffers: the C++ analogue of Go's sync.Pool as
// case study 5 uses it. Each thread keeps a small cache of buffers of its own
// (no lock on the common path); beyond that, buffers go to a free list shared
// by all threads under a mutex. Buffers are cleared before reuse, and one that
// grew past kMaxPooledCapacity is freed instead of returned, so one outlier
// request cannot pin memory in the pool forever.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace allocgate::workloads::order_format {

class BufferPool {
 public:
  static constexpr std::size_t kMaxPooledCapacity = 64 * 1024;
  static constexpr std::size_t kThreadCacheSize = 2;

  BufferPool();
  ~BufferPool();
  BufferPool(const BufferPool&) = delete;
  BufferPool& operator=(const BufferPool&) = delete;

  /// A buffer borrowed from the pool, returned when the lease ends.
  class Lease {
   public:
    Lease(Lease&& other) noexcept : pool_(other.pool_), buffer_(std::move(other.buffer_)) {}
    Lease& operator=(Lease&&) = delete;
    ~Lease() {
      if (buffer_) pool_->release(std::move(buffer_));
    }
    /// An empty buffer (cleared when acquired), with whatever capacity it kept.
    std::string& buffer() { return *buffer_; }

   private:
    friend class BufferPool;
    Lease(BufferPool* pool, std::unique_ptr<std::string> buffer) : pool_(pool), buffer_(std::move(buffer)) {}
    BufferPool* pool_;
    std::unique_ptr<std::string> buffer_;
  };

  Lease acquire();

  /// Buffers in the shared free list (not counting per-thread caches).
  std::size_t shared_size() const;
  /// Buffers dropped because they outgrew kMaxPooledCapacity.
  std::uint64_t dropped() const;

 private:
  void release(std::unique_ptr<std::string> buffer);

  const std::uint64_t id_;  // tells this pool's thread-cache entries from a dead pool's
  mutable std::mutex mutex_;
  std::vector<std::unique_ptr<std::string>> shared_;
  std::uint64_t dropped_ = 0;
};

}  // namespace allocgate::workloads::order_format
