// SPDX-License-Identifier: Apache-2.0
// What a leak verdict must not depend on, in code every tutorial suite
// calls the same way (each framework's run script checks the verdicts):
// a block a worker thread holds on its own stack as the test ends, which is
// kept, and an exception still in flight as the body ends, whose blocks are
// the framework's to free once it has handled it.
#pragma once

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>

namespace verdict_cases {

// A worker that outlives the test that started it, as a thread pool's
// does: it holds what it allocated (41 B, and its std::thread state of 16 B)
// in its own frames, waiting for work that never comes. Returns once the
// worker holds it.
inline void hand_work_to_a_worker() {
  static std::atomic<int> holding{0};
  const int before = holding.load();
  std::thread([] {
    const std::string task(40, 'w');
    holding.fetch_add(1);
    for (;;) {
      asm volatile("" : : "g"(&task) : "memory");  // the string stays in the frame, as a task a worker runs
      std::this_thread::sleep_for(std::chrono::hours(1));
    }
  }).detach();
  while (holding.load() == before) std::this_thread::yield();
}

// Ends the body with an exception that holds a block: 61 B of the message's
// std::string, freed as the exception is built, and 85 B of the copy it
// keeps (libstdc++'s reference-counted string: 24 B of header, 60
// characters and a terminator).
[[noreturn]] inline void throw_with_a_message() { throw std::runtime_error(std::string(60, 'e')); }

}  // namespace verdict_cases
