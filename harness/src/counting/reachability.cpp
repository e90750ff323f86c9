// SPDX-License-Identifier: Apache-2.0
// The marking of reachability.h: roots from the dynamic linker, the stack
// and the thread pointer; regions from /proc/self/maps, so that no word is
// read outside memory that was mapped when the marking began; blocks told
// by their headers. Its worklist, its regions and the set of blocks reached
// are arrays mapped from the kernel and grown by doubling.

#include "counting/reachability.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstring>

#include "counting/block_header.h"
#include "counting/other_threads.h"

// The marking reads every word of memory it is given, redzones and
// uninitialised bytes included, as LeakSanitizer's own does.
#define ALLOCGATE_NO_SANITIZE __attribute__((no_sanitize("address", "thread")))

namespace allocgate::detail {
namespace {

void* map_pages(std::size_t bytes) noexcept {
  void* memory = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  return memory == MAP_FAILED ? nullptr : memory;
}

// A growable array of trivially copyable T in mapped pages.
template <typename T>
class MappedArray {
 public:
  MappedArray() noexcept = default;
  ~MappedArray() {
    if (data_ != nullptr) ::munmap(data_, capacity_ * sizeof(T));
  }
  MappedArray(const MappedArray&) = delete;
  MappedArray& operator=(const MappedArray&) = delete;

  bool push(const T& value) noexcept {
    if (size_ == capacity_ && !grow(capacity_ == 0 ? 4096 / sizeof(T) : capacity_ * 2)) return false;
    data_[size_++] = value;
    return true;
  }
  T pop() noexcept { return data_[--size_]; }
  T& back() noexcept { return data_[size_ - 1]; }
  bool empty() const noexcept { return size_ == 0; }
  std::size_t size() const noexcept { return size_; }
  T* data() noexcept { return data_; }
  const T* begin() const noexcept { return data_; }
  const T* end() const noexcept { return data_ + size_; }
  /// Room for `n` more, for a caller that writes into data() + size() itself.
  bool reserve_more(std::size_t n) noexcept {
    return size_ + n <= capacity_ || grow(std::max(capacity_ * 2, size_ + n));
  }
  void grow_by(std::size_t n) noexcept { size_ += n; }

 private:
  bool grow(std::size_t capacity) noexcept {
    auto* data = static_cast<T*>(map_pages(capacity * sizeof(T)));
    if (data == nullptr) return false;
    if (data_ != nullptr) {
      std::memcpy(static_cast<void*>(data), data_, size_ * sizeof(T));
      ::munmap(data_, capacity_ * sizeof(T));
    }
    data_ = data;
    capacity_ = capacity;
    return true;
  }

  T* data_ = nullptr;
  std::size_t size_ = 0;
  std::size_t capacity_ = 0;
};

struct Range {
  std::uintptr_t begin = 0;
  std::uintptr_t end = 0;
};

// The readable and writable mappings, in address order, as /proc/self/maps
// lists them: where a heap block can be, and where a word can be read.
// Neighbours are joined into one region: the kernel lists apart mappings
// it could not merge, and a block can span two of them (a forked child's
// heap grows in a mapping of its own beside the one it inherited, and the
// block malloc carves across the seam is the child's as much as any).
// `text` is where the listing is read into: the caller keeps it mapped
// while it uses `regions`, which may list it merged with a neighbour.
bool read_writable_regions(MappedArray<char>& text, MappedArray<Range>& regions) noexcept {
  const int fd = ::open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  // Room for a large listing from the start: a buffer outgrown and
  // unmapped would leave a hole in the regions listed.
  if (!text.reserve_more(std::size_t{1} << 20)) {
    ::close(fd);
    return false;
  }
  for (;;) {
    if (!text.reserve_more(65536)) {
      ::close(fd);
      return false;
    }
    const ssize_t n = ::read(fd, text.data() + text.size(), 65536);
    if (n < 0) {
      ::close(fd);
      return false;
    }
    if (n == 0) break;
    text.grow_by(static_cast<std::size_t>(n));
  }
  ::close(fd);
  // Each line: "begin-end perms offset dev inode [path]", in hexadecimal.
  const char* p = text.begin();
  const char* const end = text.end();
  while (p < end) {
    const char* eol = static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(end - p)));
    if (eol == nullptr) eol = end;
    Range r;
    bool second = false;
    const char* q = p;
    for (; q < eol && *q != ' '; ++q) {
      if (*q == '-') {
        second = true;
        continue;
      }
      const int digit = *q <= '9' ? *q - '0' : (*q | 0x20) - 'a' + 10;
      std::uintptr_t& value = second ? r.end : r.begin;
      value = value << 4 | static_cast<std::uintptr_t>(digit);
    }
    if (eol - q >= 3 && q[1] == 'r' && q[2] == 'w') {
      if (!regions.empty() && regions.back().end == r.begin) {
        regions.back().end = r.end;  // one region with its neighbour: see above
      } else if (!regions.push(r)) {
        return false;
      }
    }
    p = eol + 1;
  }
  return true;
}

// The size of the static thread-local storage, the thread pointer's
// neighbourhood: the dynamic linker's own answer when it gives one.
std::atomic<std::size_t> g_static_tls_size{0};
constexpr std::size_t kStaticTlsGuess = 64 * 1024;

std::size_t static_tls_size() noexcept {
  const std::size_t size = g_static_tls_size.load(std::memory_order_relaxed);
  return size != 0 ? size : kStaticTlsGuess;
}

// A fault inside the marking skips the word that led to it: a stale word
// can point just past a region that /proc/self/maps listed and that is gone
// since (the marking's own buffer for that listing, merged by the kernel
// with its neighbour, or a mapping another thread dropped). Anyone else's
// fault goes to the handler that was there.
constinit thread_local sigjmp_buf* t_fault_exit = nullptr;
struct sigaction g_previous_segv {};
struct sigaction g_previous_bus {};

void on_fault(int signal, siginfo_t*, void*) {
  if (t_fault_exit != nullptr) siglongjmp(*t_fault_exit, 1);
  // Put back and return: the faulting instruction runs again under it.
  ::sigaction(signal, signal == SIGSEGV ? &g_previous_segv : &g_previous_bus, nullptr);
}

}  // namespace

ReachedBlocks::~ReachedBlocks() {
  if (slots_ != nullptr) ::munmap(slots_, capacity_ * sizeof(void*));
}

namespace {
std::size_t slot_for(const void* block, std::size_t capacity) noexcept {
  return static_cast<std::size_t>((reinterpret_cast<std::uintptr_t>(block) >> 4) * 0x9E3779B97F4A7C15ull >> 20) &
         (capacity - 1);
}
}  // namespace

bool ReachedBlocks::contains(const void* block) const noexcept {
  if (capacity_ == 0) return false;
  for (std::size_t i = slot_for(block, capacity_);; i = (i + 1) & (capacity_ - 1)) {
    if (slots_[i] == block) return true;
    if (slots_[i] == nullptr) return false;
  }
}

bool ReachedBlocks::insert(void* block) noexcept {
  if ((used_ + 1) * 2 > capacity_) {
    const std::size_t capacity = capacity_ == 0 ? 4096 : capacity_ * 2;
    auto** slots = static_cast<void**>(map_pages(capacity * sizeof(void*)));
    if (slots == nullptr) return false;
    for (std::size_t i = 0; i < capacity_; ++i) {
      if (slots_[i] == nullptr) continue;
      std::size_t j = slot_for(slots_[i], capacity);
      while (slots[j] != nullptr) j = (j + 1) & (capacity - 1);
      slots[j] = slots_[i];
    }
    if (slots_ != nullptr) ::munmap(slots_, capacity_ * sizeof(void*));
    slots_ = slots;
    capacity_ = capacity;
  }
  std::size_t i = slot_for(block, capacity_);
  for (; slots_[i] != nullptr; i = (i + 1) & (capacity_ - 1)) {
    if (slots_[i] == block) return false;
  }
  slots_[i] = block;
  ++used_;
  return true;
}

class Marking {
 public:
  Marking(ReachedBlocks& reached, const void* stack_floor) noexcept
      : reached_(reached), stack_floor_(reinterpret_cast<std::uintptr_t>(stack_floor)) {}

  // The other threads are stopped before the mappings are read: a stack a
  // thread grows, or a block it allocates, is then in the listing.
  ALLOCGATE_NO_SANITIZE bool run(const StoppedThreads& others) noexcept {
    if (!read_writable_regions(maps_text_, regions_) || regions_.empty()) return false;
    if (!add_roots(roots_) || !add_other_threads(others, roots_)) return false;
    for (const Range& root : roots_) {
      if (!scan(root)) return false;
    }
    while (!pending_.empty()) {
      if (!scan(pending_.pop())) return false;
    }
    return true;
  }

 private:
  const Range* region_of(std::uintptr_t address) const noexcept {
    const Range* r = std::upper_bound(regions_.begin(), regions_.end(), address,
                                      [](std::uintptr_t a, const Range& range) { return a < range.begin; });
    if (r == regions_.begin()) return nullptr;
    --r;
    return address < r->end ? r : nullptr;
  }

  static int add_module(dl_phdr_info* info, std::size_t, void* data) noexcept {
    auto& roots = *static_cast<MappedArray<Range>*>(data);
    for (int i = 0; i < info->dlpi_phnum; ++i) {
      const ElfW(Phdr)& segment = info->dlpi_phdr[i];
      if (segment.p_type != PT_LOAD || !(segment.p_flags & PF_W)) continue;
      const std::uintptr_t begin = info->dlpi_addr + segment.p_vaddr;
      if (!roots.push(Range{begin, begin + segment.p_memsz})) return 1;
    }
    return 0;
  }

  // Globals of every module; this thread's stack above this frame (or the
  // floor, when higher) and its
  // thread-local storage around the thread pointer, each cut to its mapping.
  bool add_roots(MappedArray<Range>& roots) noexcept {
    if (::dl_iterate_phdr(add_module, &roots) != 0) return false;
    const auto sp = std::max(reinterpret_cast<std::uintptr_t>(__builtin_frame_address(0)), stack_floor_);
    if (const Range* stack = region_of(sp); stack != nullptr && !roots.push(Range{sp, stack->end})) return false;
    return add_thread_local_storage(reinterpret_cast<std::uintptr_t>(::pthread_self()), roots);
  }

  // Each stopped thread's registers, its stack from the interrupted frame
  // up, and its thread-local storage.
  bool add_other_threads(const StoppedThreads& others, MappedArray<Range>& roots) noexcept {
    if (others.size() == 0) return true;
    if (!roots.push(Range{reinterpret_cast<std::uintptr_t>(others.records_begin()),
                          reinterpret_cast<std::uintptr_t>(others.records_end())})) {
      return false;
    }
    for (std::size_t i = 0; i < others.size(); ++i) {
      if (!others.stopped(i)) continue;
      const StoppedThread& thread = others[i];
      if (const Range* stack = region_of(thread.stack_pointer);
          stack != nullptr && !roots.push(Range{thread.stack_pointer, stack->end})) {
        return false;
      }
      if (!add_thread_local_storage(thread.thread_pointer, roots)) return false;
    }
    return true;
  }

  // The static thread-local storage around a thread pointer, cut to its mapping.
  bool add_thread_local_storage(std::uintptr_t tp, MappedArray<Range>& roots) const noexcept {
    const Range* tls = region_of(tp);
    if (tls == nullptr) return true;
    const std::size_t size = static_tls_size();
    const Range around{tp - tls->begin > size ? tp - size : tls->begin, tls->end - tp > size ? tp + size : tls->end};
    return roots.push(around);
  }

  ALLOCGATE_NO_SANITIZE bool scan(Range range) noexcept {
    // The next word to read lives in memory and moves on before the read, so
    // that a fault, reading the word or the block it leads to, resumes past
    // it. No signal mask is saved: SA_NODEFER leaves SIGSEGV unblocked.
    volatile std::uintptr_t at = (range.begin + 7) & ~std::uintptr_t{7};
    sigjmp_buf resume;
    sigjmp_buf* const outer = t_fault_exit;
    bool ok = true;
    sigsetjmp(resume, 0);
    t_fault_exit = &resume;
    while (at + sizeof(void*) <= range.end) {
      const std::uintptr_t here = at;
      at = here + sizeof(void*);
      std::atomic_signal_fence(std::memory_order_seq_cst);  // the store above, before the read below
      const std::uintptr_t word = *reinterpret_cast<const std::uintptr_t*>(here);
      if ((word & 7) != 0 || word < regions_.begin()->begin || word >= (regions_.end() - 1)->end) continue;
      if (!follow(word)) {
        ok = false;
        break;
      }
    }
    t_fault_exit = outer;
    return ok;
  }

  // A word that points to a block's start, or past new[]'s cookie.
  ALLOCGATE_NO_SANITIZE bool follow(std::uintptr_t word) noexcept {
    const std::uintptr_t start = (word & 15) != 0 ? word - 8 : word;
    const Range* region = region_of(start);
    if (region == nullptr || start - region->begin < sizeof(BlockHeader)) return true;
    const BlockHeader header =
        *reinterpret_cast<const BlockHeader*>(start - sizeof(BlockHeader));  // read here, unsanitized
    if (!plausible_header(header, reinterpret_cast<const void*>(start - sizeof(BlockHeader)), region->end - start)) {
      return true;
    }
    // Past a cookie only where the block starts with one: the count of
    // elements that fill the rest of it (not a pointer into text at offset 8).
    if (start != word) {
      const std::uint64_t count = header.size >= 16 ? *reinterpret_cast<const std::uint64_t*>(start) : 0;
      if (count == 0 || count > header.size - 8 || (header.size - 8) % count != 0) return true;
    }
    auto* block = reinterpret_cast<void*>(start);
    if (reached_.contains(block)) return true;
    return reached_.insert(block) && pending_.push(Range{start, start + header.size});
  }

  ReachedBlocks& reached_;
  std::uintptr_t stack_floor_;
  MappedArray<char> maps_text_;
  MappedArray<Range> regions_;
  MappedArray<Range> roots_;
  MappedArray<Range> pending_;
};

void mark_reachable(ReachedBlocks& reached, const void* stack_floor, const StoppedThreads* others) noexcept {
  reached.complete_ = false;
  struct sigaction on {};
  on.sa_sigaction = on_fault;
  on.sa_flags = SA_SIGINFO | SA_NODEFER;
  sigemptyset(&on.sa_mask);
  if (::sigaction(SIGSEGV, &on, &g_previous_segv) != 0) return;
  if (::sigaction(SIGBUS, &on, &g_previous_bus) != 0) {
    ::sigaction(SIGSEGV, &g_previous_segv, nullptr);
    return;
  }
  sigjmp_buf exit;
  Marking marking(reached, stack_floor);
  auto run = [&] {
    if (sigsetjmp(exit, 1) == 0) {
      t_fault_exit = &exit;
      if (others != nullptr) {
        reached.complete_ = marking.run(*others);
      } else {
        const StoppedThreads stopped;
        reached.complete_ = marking.run(stopped);
      }
    }
  };
  if (others != nullptr) {
    run();  // the caller holds the loader
  } else {
    holding_the_loader(run);
  }
  t_fault_exit = nullptr;
  ::sigaction(SIGBUS, &g_previous_bus, nullptr);
  ::sigaction(SIGSEGV, &g_previous_segv, nullptr);
}

void prepare_reachability() noexcept {
  if (g_static_tls_size.load(std::memory_order_relaxed) != 0) return;
  // glibc's: the static TLS size and alignment, the thread control block included.
  using TlsInfo = void (*)(std::size_t*, std::size_t*);
  std::size_t size = 0;
  std::size_t align = 0;
  if (auto info = reinterpret_cast<TlsInfo>(::dlsym(RTLD_DEFAULT, "_dl_get_tls_static_info"))) info(&size, &align);
  g_static_tls_size.store(size != 0 ? size : kStaticTlsGuess, std::memory_order_relaxed);
  prepare_stopping_threads();
}

}  // namespace allocgate::detail
