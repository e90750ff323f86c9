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
#include <new>

#include "counting/block_header.h"
#include "counting/other_threads.h"
#include "counting/own_mappings.h"

// The marking reads every word of memory it is given, redzones and
// uninitialised bytes included, as LeakSanitizer's own does.
#define ALLOCGATE_NO_SANITIZE __attribute__((no_sanitize("address", "thread")))

namespace allocgate::detail {
namespace {

void* map_pages(std::size_t bytes) noexcept { return map_own_pages(bytes); }

// A growable array of trivially copyable T in mapped pages.
template <typename T>
class MappedArray {
 public:
  MappedArray() noexcept = default;
  ~MappedArray() {
    if (data_ != nullptr) unmap_own_pages(data_, capacity_ * sizeof(T));
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
  void clear() noexcept { size_ = 0; }
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
      unmap_own_pages(data_, capacity_ * sizeof(T));
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

// The region `address` is in, or null.
const Range* region_in(const MappedArray<Range>& regions, std::uintptr_t address) noexcept {
  const Range* r = std::upper_bound(regions.begin(), regions.end(), address,
                                    [](std::uintptr_t a, const Range& range) { return a < range.begin; });
  if (r == regions.begin()) return nullptr;
  --r;
  return address < r->end ? r : nullptr;
}

int add_module(dl_phdr_info* info, std::size_t, void* data) noexcept {
  auto& roots = *static_cast<MappedArray<Range>*>(data);
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& segment = info->dlpi_phdr[i];
    if (segment.p_type != PT_LOAD || !(segment.p_flags & PF_W)) continue;
    const std::uintptr_t begin = info->dlpi_addr + segment.p_vaddr;
    if (!roots.push(Range{begin, begin + segment.p_memsz})) return 1;
  }
  return 0;
}

// The static thread-local storage around a thread pointer, cut to its mapping.
bool add_thread_local_storage_of(const MappedArray<Range>& regions, std::uintptr_t tp,
                                 MappedArray<Range>& roots) noexcept {
  const Range* tls = region_in(regions, tp);
  if (tls == nullptr) return true;
  const std::size_t size = static_tls_size();
  const Range around{tp - tls->begin > size ? tp - size : tls->begin, tls->end - tp > size ? tp + size : tls->end};
  return roots.push(around);
}

// The calling thread's roots: the globals of every module; its stack above
// the caller's frame (or the floor, when higher) and its thread-local
// storage around the thread pointer, each cut to its mapping.
[[gnu::noinline]] bool add_own_roots(const MappedArray<Range>& regions, std::uintptr_t stack_floor,
                                     MappedArray<Range>& roots) noexcept {
  if (::dl_iterate_phdr(add_module, &roots) != 0) return false;
  const auto sp = std::max(reinterpret_cast<std::uintptr_t>(__builtin_frame_address(0)), stack_floor);
  if (const Range* stack = region_in(regions, sp); stack != nullptr && !roots.push(Range{sp, stack->end})) {
    return false;
  }
  return add_thread_local_storage_of(regions, reinterpret_cast<std::uintptr_t>(::pthread_self()), roots);
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
  if (slots_ != nullptr) unmap_own_pages(slots_, capacity_ * sizeof(void*));
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
    if (slots_ != nullptr) unmap_own_pages(slots_, capacity_ * sizeof(void*));
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
  Marking(ReachedBlocks& reached, const void* stack_floor, const RootSnapshot* before,
          bool (*judged)(const void*) noexcept) noexcept
      : reached_(reached),
        stack_floor_(reinterpret_cast<std::uintptr_t>(stack_floor)),
        before_(judged != nullptr ? before : nullptr),
        judged_(judged) {}

  // The other threads are stopped before the mappings are read: a stack a
  // thread grows, or a block it allocates, is then in the listing.
  ALLOCGATE_NO_SANITIZE bool run(const StoppedThreads& others) noexcept {
    if (!read_writable_regions(maps_text_, regions_) || regions_.empty()) return false;
    if (!add_own_roots(regions_, stack_floor_, roots_) || !add_other_threads(others, roots_)) return false;
    if (!cut_out_own_mappings()) return false;
    for (const Range& root : roots_) {
      // The root's words as taken, looked up once for the whole root (none
      // for another thread's, which no snapshot holds).
      std::uintptr_t base = 0;
      const std::uintptr_t* const then = before_ != nullptr ? before_->words_of(root.begin, root.end, base) : nullptr;
      if (!scan(root, then, base)) return false;
    }
    while (!pending_.empty()) {
      if (!scan(pending_.pop(), nullptr, 0)) return false;  // a block's words: no snapshot holds them
    }
    return true;
  }

 private:
  const Range* region_of(std::uintptr_t address) const noexcept { return region_in(regions_, address); }

  // The roots less allocgate's own mappings (own_mappings.h), which a root
  // cut to a mapping the kernel joined to one of them would take in.
  bool cut_out_own_mappings() noexcept {
    OwnMapping own[256];
    const std::size_t count = own_mappings(own, 256);
    for (std::size_t m = 0; m < count; ++m) {
      const std::size_t roots = roots_.size();
      for (std::size_t i = 0; i < roots; ++i) {
        Range& root = roots_.data()[i];
        if (root.end <= own[m].begin || own[m].end <= root.begin) continue;
        const Range above{own[m].end, root.end};
        root.end = std::max(root.begin, own[m].begin);  // what lies below it, or nothing
        if (above.begin < above.end && !roots_.push(above)) return false;
      }
    }
    return true;
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
      if (!add_thread_local_storage_of(regions_, thread.thread_pointer, roots)) return false;
    }
    return true;
  }

  // `then`: the range's words when the snapshot was taken, the word at
  // `address` then[(address - base) / 8]; null for none.
  ALLOCGATE_NO_SANITIZE bool scan(Range range, const std::uintptr_t* then, std::uintptr_t base) noexcept {
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
      const bool unchanged = then != nullptr && then[(here - base) / sizeof(std::uintptr_t)] == word;
      if (!follow(word, unchanged)) {
        ok = false;
        break;
      }
    }
    t_fault_exit = outer;
    return ok;
  }

  // A word that points to a block's start, or past new[]'s cookie.
  // An `unchanged` word (RootSnapshot) leads to no block judged.
  ALLOCGATE_NO_SANITIZE bool follow(std::uintptr_t word, bool unchanged) noexcept {
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
    if (unchanged && judged_(block)) return true;
    if (reached_.contains(block)) return true;
    return reached_.insert(block) && pending_.push(Range{start, start + header.size});
  }

  ReachedBlocks& reached_;
  std::uintptr_t stack_floor_;
  const RootSnapshot* before_;
  bool (*judged_)(const void*) noexcept;
  MappedArray<char> maps_text_;
  MappedArray<Range> regions_;
  MappedArray<Range> roots_;
  MappedArray<Range> pending_;
};

// The snapshot's own: the listing it cut the roots by, the roots sorted by
// address (each widened to whole words) and their words, one after another.
struct RootSnapshot::State {
  MappedArray<char> maps_text;
  MappedArray<Range> regions;
  MappedArray<Range> roots;
  MappedArray<std::size_t> offsets;  // of each root's first word in `words`
  MappedArray<std::uintptr_t> words;
};

RootSnapshot::~RootSnapshot() {
  if (state_ == nullptr) return;
  state_->~State();
  unmap_own_pages(state_, sizeof(State));
}

namespace {
// Copies [begin, end), whole words, into `words`: read as the marking reads,
// unsanitized and a word at a time (a memcpy would be a sanitizer's).
ALLOCGATE_NO_SANITIZE bool copy_words(std::uintptr_t begin, std::uintptr_t end,
                                      MappedArray<std::uintptr_t>& words) noexcept {
  const std::size_t count = (end - begin) / sizeof(std::uintptr_t);
  if (!words.reserve_more(count)) return false;
  std::uintptr_t* to = words.data() + words.size();
  for (std::size_t i = 0; i < count; ++i) {
    to[i] = reinterpret_cast<const volatile std::uintptr_t*>(begin)[i];
  }
  words.grow_by(count);
  return true;
}
}  // namespace

bool RootSnapshot::take(const void* stack_floor) noexcept {
  taken_ = false;
  if (state_ == nullptr) {
    void* memory = map_pages(sizeof(State));
    if (memory == nullptr) return false;
    state_ = new (memory) State;
  }
  State& s = *state_;
  s.maps_text.clear();
  s.regions.clear();
  s.roots.clear();
  s.offsets.clear();
  s.words.clear();
  if (!read_writable_regions(s.maps_text, s.regions) || s.regions.empty()) return false;
  if (!add_own_roots(s.regions, reinterpret_cast<std::uintptr_t>(stack_floor), s.roots)) return false;
  Range* const roots = s.roots.data();
  std::sort(roots, roots + s.roots.size(), [](const Range& a, const Range& b) { return a.begin < b.begin; });
  for (std::size_t i = 0; i < s.roots.size(); ++i) {
    // Whole words: the pages a root is in hold the word each end is in.
    Range& root = roots[i];
    root.begin &= ~std::uintptr_t{7};
    root.end = (root.end + 7) & ~std::uintptr_t{7};
    if (!s.offsets.push(s.words.size()) || !copy_words(root.begin, root.end, s.words)) return false;
  }
  taken_ = true;
  return true;
}

const std::uintptr_t* RootSnapshot::words_of(std::uintptr_t begin, std::uintptr_t end,
                                             std::uintptr_t& base) const noexcept {
  if (!taken_) return nullptr;
  const MappedArray<Range>& roots = state_->roots;
  const Range* r = std::upper_bound(roots.begin(), roots.end(), begin,
                                    [](std::uintptr_t a, const Range& range) { return a < range.begin; });
  // Among the roots that begin at or before it, the nearest few: roots can
  // overlap (the main thread's storage, which the loader carves from the
  // page its own segment ends in), and any that holds it all is right.
  for (int tried = 0; tried < 4 && r != roots.begin(); ++tried) {
    --r;
    if (end <= r->end) {
      base = r->begin;
      return state_->words.begin() + state_->offsets.begin()[r - roots.begin()];
    }
  }
  return nullptr;
}

void mark_reachable(ReachedBlocks& reached, const void* stack_floor, const StoppedThreads* others,
                    const RootSnapshot* before, bool (*judged)(const void* block) noexcept) noexcept {
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
  Marking marking(reached, stack_floor, before, judged);
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
