// SPDX-License-Identifier: Apache-2.0
// The stop of other_threads.h: the threads listed in /proc/self/task, each
// sent the signal with tgkill; each handler takes a record, counts itself
// in, and waits on a futex until the epoch it stopped in is over.

#include "counting/other_threads.h"

#include <fcntl.h>
#include <linux/futex.h>
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>

namespace allocgate::detail {
namespace {

// A thread the signal reached within this long is stopped; past it, the
// marking goes on without it. Seconds, not milliseconds: a loaded machine
// (a sanitizer's build, two test processes on two cores) can take that
// long to schedule a woken thread.
constexpr long kAnswerWithinNanoseconds = 2'000'000'000;
// A thread that blocks the signal is sent it too: one just made blocks
// every signal until it starts (and holds its std::thread state then, in
// its descriptor). It is waited for this much longer: a sanitizer's own
// thread blocks it for good.
constexpr long kBlockedAnswerWithinNanoseconds = 100'000'000;

// Odd while threads are stopped. The futex the handlers wait on.
std::atomic<int> g_epoch{0};
std::atomic<bool> g_stopping{false};  // a StoppedThreads owns the stop
std::atomic<bool> g_installed{false};

// The records, in memory mapped once and grown, never unmapped: a handler
// that runs late (its thread scheduled after the time limit) may still
// write into the memory it read the address of.
std::atomic<StoppedThread*> g_records{nullptr};
std::atomic<std::size_t> g_capacity{0};
std::atomic<std::size_t> g_next{0};  // the next record a handler takes
std::atomic<std::size_t> g_arrived{0};
std::atomic<std::size_t> g_departed{0};

long futex(std::atomic<int>& word, int op, int value, const timespec* timeout) noexcept {
  static_assert(sizeof(std::atomic<int>) == sizeof(int));
  return ::syscall(SYS_futex, reinterpret_cast<int*>(&word), op, value, timeout, nullptr, 0);
}

void take_registers(StoppedThread& record, const void* context) noexcept {
  const auto* uc = static_cast<const ucontext_t*>(context);
#if defined(__x86_64__)
  static_assert(NGREG <= StoppedThread::kRegisters);
  for (int i = 0; i < NGREG; ++i) record.registers[i] = static_cast<std::uintptr_t>(uc->uc_mcontext.gregs[i]);
  record.stack_pointer = static_cast<std::uintptr_t>(uc->uc_mcontext.gregs[REG_RSP]) - 128;  // the red zone
#elif defined(__aarch64__)
  for (int i = 0; i < 31; ++i) record.registers[i] = static_cast<std::uintptr_t>(uc->uc_mcontext.regs[i]);
  record.stack_pointer = static_cast<std::uintptr_t>(uc->uc_mcontext.sp);
#else
  (void)uc;
  record.stack_pointer = reinterpret_cast<std::uintptr_t>(__builtin_frame_address(0));
#endif
}

// Async-signal-safe: atomics, and the futex system call.
void on_stop(int, siginfo_t*, void* context) {
  const int saved_errno = errno;
  const int epoch = g_epoch.load(std::memory_order_acquire);
  if ((epoch & 1) != 0) {  // else a late signal, of a stop that is over
    const std::size_t i = g_next.fetch_add(1, std::memory_order_relaxed);
    if (i < g_capacity.load(std::memory_order_acquire)) {
      StoppedThread& record = g_records.load(std::memory_order_acquire)[i];
      take_registers(record, context);
      record.thread_pointer = reinterpret_cast<std::uintptr_t>(::pthread_self());
      __atomic_store_n(&record.stopped_in, epoch, __ATOMIC_RELEASE);
    }
    g_arrived.fetch_add(1, std::memory_order_release);
    while (g_epoch.load(std::memory_order_acquire) == epoch) futex(g_epoch, FUTEX_WAIT_PRIVATE, epoch, nullptr);
    g_departed.fetch_add(1, std::memory_order_release);
  }
  errno = saved_errno;
}

long now_nanoseconds() noexcept {
  timespec t{};
  ::clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1'000'000'000L + t.tv_nsec;
}

// Waits until `count` reaches `target`, or `limit` passes.
bool wait_for(const std::atomic<std::size_t>& count, std::size_t target,
              long limit = kAnswerWithinNanoseconds) noexcept {
  const long deadline = now_nanoseconds() + limit;
  for (int spins = 0; count.load(std::memory_order_acquire) < target; ++spins) {
    if (spins < 100) {
      ::sched_yield();
      continue;
    }
    if (now_nanoseconds() > deadline) return false;
    const timespec pause{0, 50'000};
    ::nanosleep(&pause, nullptr);
  }
  return true;
}

// What a thread's /proc/self/task/TID/status says of the signal: its
// SigBlk and SigPnd lines, a bit per signal in hexadecimal.
struct SignalState {
  bool blocked = false;
  bool pending = false;  // sent before and not taken yet
};

bool has_stop_signal(const char* text, const char* key) noexcept {
  const char* line = std::strstr(text, key);
  if (line == nullptr) return false;
  const char* p = line + std::strlen(key);
  while (*p == ' ' || *p == '\t') ++p;
  const char* end = p;
  while ((*end >= '0' && *end <= '9') || (*end >= 'a' && *end <= 'f')) ++end;
  // Signal s is bit s - 1, counted from the mask's last digit.
  const int bit = stop_signal() - 1;
  const char* digit = end - 1 - bit / 4;
  if (digit < p) return false;
  const int value = *digit <= '9' ? *digit - '0' : *digit - 'a' + 10;
  return (value >> (bit % 4) & 1) != 0;
}

SignalState signal_state(long tid) noexcept {
  char path[64];
  std::snprintf(path, sizeof path, "/proc/self/task/%ld/status", tid);
  const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return {};
  char text[4096];
  const ssize_t got = ::read(fd, text, sizeof text - 1);
  ::close(fd);
  if (got <= 0) return {};
  text[got] = '\0';
  return SignalState{has_stop_signal(text, "\nSigBlk:"), has_stop_signal(text, "\nSigPnd:")};
}

// Room for `threads` records, mapped anew when there is less.
bool reserve_records(std::size_t threads) noexcept {
  if (threads <= g_capacity.load(std::memory_order_relaxed)) return true;
  std::size_t capacity = 64;
  while (capacity < threads) capacity *= 2;
  void* memory =
      ::mmap(nullptr, capacity * sizeof(StoppedThread), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (memory == MAP_FAILED) return false;
  g_records.store(static_cast<StoppedThread*>(memory), std::memory_order_release);
  g_capacity.store(capacity, std::memory_order_release);
  return true;
}

// Calls each(tid) for every thread of the process, as /proc/self/task
// lists them, through getdents64 (opendir allocates). False when it cannot
// be read.
template <typename Each>
bool for_each_thread(Each each) noexcept {
  const int fd = ::open("/proc/self/task", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return false;
  alignas(8) char buffer[4096];
  for (;;) {
    const long got = ::syscall(SYS_getdents64, fd, buffer, sizeof buffer);
    if (got <= 0) break;
    for (long at = 0; at < got;) {
      // struct linux_dirent64: inode, offset, record length, type, name.
      unsigned short length = 0;
      std::memcpy(&length, buffer + at + 16, sizeof length);
      const char* name = buffer + at + 19;
      long tid = 0;
      for (const char* c = name; *c >= '0' && *c <= '9'; ++c) tid = tid * 10 + (*c - '0');
      if (tid > 0) each(tid);
      at += length;
    }
  }
  ::close(fd);
  return true;
}

}  // namespace

int stop_signal() noexcept { return SIGRTMAX - 2; }

bool prepare_stopping_threads() noexcept {
  if (g_installed.load(std::memory_order_acquire)) return true;
  struct sigaction previous {};
  if (::sigaction(stop_signal(), nullptr, &previous) != 0) return false;
  const bool handled = (previous.sa_flags & SA_SIGINFO)
                           ? previous.sa_sigaction != nullptr
                           : previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN;
  if (handled) return false;
  struct sigaction on {};
  on.sa_sigaction = on_stop;
  on.sa_flags = SA_SIGINFO | SA_RESTART;
  sigfillset(&on.sa_mask);  // nothing else runs on the stopped thread
  if (::sigaction(stop_signal(), &on, nullptr) != 0) return false;
  g_installed.store(true, std::memory_order_release);
  return true;
}

StoppedThreads::StoppedThreads() noexcept {
  if (!g_installed.load(std::memory_order_acquire) || g_stopping.exchange(true, std::memory_order_acquire)) return;
  owner_ = true;
  const long self = ::syscall(SYS_gettid);
  const pid_t process = ::getpid();
  std::size_t threads = 0;
  if (!for_each_thread([&](long) { ++threads; }) || !reserve_records(threads)) return;
  g_next.store(0, std::memory_order_relaxed);
  g_arrived.store(0, std::memory_order_relaxed);
  g_departed.store(0, std::memory_order_relaxed);
  epoch_ = g_epoch.fetch_add(1, std::memory_order_acq_rel) + 1;  // odd: stopping
  std::size_t ready = 0;                                         // sent, taking it
  std::size_t blocked = 0;                                       // sent (or still pending from before), blocking it now
  for_each_thread([&](long tid) {
    if (tid == self) return;
    const SignalState state = signal_state(tid);
    // A signal still pending is not sent again: the queue of real-time
    // signals is bounded, and a thread that never takes it would fill it.
    if (!state.pending && ::syscall(SYS_tgkill, process, tid, stop_signal()) != 0) return;
    ++(state.blocked ? blocked : ready);
  });
  const std::size_t sent = ready + blocked;
  if (wait_for(g_arrived, ready) && blocked > 0) wait_for(g_arrived, sent, kBlockedAnswerWithinNanoseconds);
  const std::size_t arrived = g_arrived.load(std::memory_order_acquire);
  unanswered_ = sent - std::min(sent, arrived);
  stopped_ = std::min(g_next.load(std::memory_order_acquire), g_capacity.load(std::memory_order_relaxed));
}

StoppedThreads::~StoppedThreads() {
  if (!owner_) return;
  const std::size_t arrived = g_arrived.load(std::memory_order_acquire);
  if ((g_epoch.load(std::memory_order_relaxed) & 1) != 0) {
    g_epoch.fetch_add(1, std::memory_order_acq_rel);  // even: go on
    futex(g_epoch, FUTEX_WAKE_PRIVATE, INT_MAX, nullptr);
    wait_for(g_departed, arrived);  // out of their handlers before the next stop
  }
  g_stopping.store(false, std::memory_order_release);
}

const StoppedThread& StoppedThreads::operator[](std::size_t i) const noexcept {
  return g_records.load(std::memory_order_acquire)[i];
}

bool StoppedThreads::stopped(std::size_t i) const noexcept {
  return __atomic_load_n(&(*this)[i].stopped_in, __ATOMIC_ACQUIRE) == epoch_;
}

const void* StoppedThreads::records_begin() const noexcept { return g_records.load(std::memory_order_acquire); }
const void* StoppedThreads::records_end() const noexcept {
  return g_records.load(std::memory_order_acquire) + stopped_;
}

}  // namespace allocgate::detail
