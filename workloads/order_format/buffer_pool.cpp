// SPDX-License-Identifier: Apache-2.0
#include "buffer_pool.h"

#include <array>
#include <atomic>

namespace allocgate::workloads::order_format {
namespace {

std::atomic<std::uint64_t> g_next_pool_id{1};

// A thread's cached buffers, each tagged with the pool it came from. The tag is
// an id, not a pointer, so a pool created where a destroyed one lived never
// takes that one's buffers (they are freed when their slot is reused, or when
// the thread exits).
struct CachedBuffer {
  std::uint64_t pool_id = 0;
  std::unique_ptr<std::string> buffer;
};
thread_local std::array<CachedBuffer, BufferPool::kThreadCacheSize> t_cache;

}  // namespace

BufferPool::BufferPool() : id_(g_next_pool_id.fetch_add(1)) { shared_.reserve(64); }

BufferPool::~BufferPool() = default;

BufferPool::Lease BufferPool::acquire() {
  for (CachedBuffer& cached : t_cache) {
    if (cached.pool_id == id_ && cached.buffer) return Lease(this, std::move(cached.buffer));
  }
  {
    std::lock_guard lock(mutex_);
    if (!shared_.empty()) {
      auto buffer = std::move(shared_.back());
      shared_.pop_back();
      return Lease(this, std::move(buffer));
    }
  }
  auto buffer = std::make_unique<std::string>();
  buffer->reserve(128);  // an order line fits without growing
  return Lease(this, std::move(buffer));
}

void BufferPool::release(std::unique_ptr<std::string> buffer) {
  if (buffer->capacity() > kMaxPooledCapacity) {
    std::lock_guard lock(mutex_);
    ++dropped_;
    return;  // freed here, not kept
  }
  buffer->clear();  // no data leaks from one borrower to the next
  // An empty slot first; else take a slot of another (perhaps dead) pool, whose
  // buffer is freed: the cache is only ever a shortcut.
  CachedBuffer* slot = nullptr;
  for (CachedBuffer& cached : t_cache) {
    if (!cached.buffer) {
      slot = &cached;
      break;
    }
    if (cached.pool_id != id_ && slot == nullptr) slot = &cached;
  }
  if (slot != nullptr) {
    *slot = CachedBuffer{id_, std::move(buffer)};
    return;
  }
  std::lock_guard lock(mutex_);
  shared_.push_back(std::move(buffer));
}

std::size_t BufferPool::shared_size() const {
  std::lock_guard lock(mutex_);
  return shared_.size();
}

std::uint64_t BufferPool::dropped() const {
  std::lock_guard lock(mutex_);
  return dropped_;
}

}  // namespace allocgate::workloads::order_format
