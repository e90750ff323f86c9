// SPDX-License-Identifier: Apache-2.0
// Internal: the process's other threads, stopped while the leak check's
// marking reads their memory. A block a thread pool's worker holds in a
// register or a local of its own frames (a task it is running, a queue's
// node it has popped) is reachable; a marking that read only the calling
// thread's stack would call it a leak, and which test it blamed would
// depend on where the worker was when the test ended.
//
// LeakSanitizer stops every thread with ptrace from a tracer task. Here each
// is sent a signal instead, as collectors that mark conservatively do (the
// Boehm collector's stop-the-world): its handler copies the interrupted
// registers, says where its stack and thread pointer are, and waits, still
// inside the handler, until the marking is over. Nothing here allocates: the
// handler runs inside any function, malloc's own included.
//
// A thread that blocks the signal is sent it all the same (a thread just
// made blocks every signal until it starts) and waited for briefly; one
// that does not answer (a sanitizer's own threads block it for good) is
// left running, its memory unread, and counted as unanswered. A system call the
// signal interrupts is restarted (SA_RESTART), but for those the kernel
// never restarts (poll, epoll_wait, nanosleep...), which return EINTR as
// under any handled signal.
#pragma once

#include <cstddef>
#include <cstdint>

namespace allocgate::detail {

/// One stopped thread: where its stack is in use, and its registers.
struct StoppedThread {
  static constexpr std::size_t kRegisters = 32;
  std::uintptr_t stack_pointer = 0;           ///< the interrupted code's, its red zone below included
  std::uintptr_t thread_pointer = 0;          ///< pthread_self(): its static thread-local storage is beside it
  std::uintptr_t registers[kRegisters] = {};  ///< the general registers at the interruption
  int stopped_in = 0;  ///< the stop whose handler wrote it, written last: a record of another is not read
};

/// Stops every other thread of the process for its lifetime. Only one set
/// of threads is stopped at a time: a second, made while the first lives
/// (another thread's marking), stops none.
class StoppedThreads {
 public:
  StoppedThreads() noexcept;
  ~StoppedThreads();  ///< lets them go on
  StoppedThreads(const StoppedThreads&) = delete;
  StoppedThreads& operator=(const StoppedThreads&) = delete;

  /// Records 0 to size(): of a thread stopped, or (past the time limit) of
  /// one still writing it, which stopped() tells.
  std::size_t size() const noexcept { return stopped_; }
  const StoppedThread& operator[](std::size_t i) const noexcept;
  bool stopped(std::size_t i) const noexcept;
  /// Threads signalled that did not stop within the time limit.
  std::size_t unanswered() const noexcept { return unanswered_; }
  /// The stopped threads' records, as one range of memory to read.
  const void* records_begin() const noexcept;
  const void* records_end() const noexcept;

 private:
  bool owner_ = false;
  int epoch_ = 0;
  std::size_t stopped_ = 0;
  std::size_t unanswered_ = 0;
};

/// Installs the signal's handler, once, before any thread must be stopped.
/// False when the program already handles that signal itself: other
/// threads are then never stopped, and their memory never read.
bool prepare_stopping_threads() noexcept;

/// The signal that stops a thread: SIGRTMAX - 2.
int stop_signal() noexcept;

}  // namespace allocgate::detail
