// SPDX-License-Identifier: Apache-2.0
// Deterministic inputs: std::mt19937_64's sequence is fixed by the standard,
// while the std distributions differ between standard libraries, so values
// are taken from the raw sequence to be the same with libstdc++ and libc++.
#pragma once

#include <cstdint>
#include <random>

namespace allocgate::workloads {

class Seeded {
 public:
  explicit Seeded(std::uint64_t seed) : engine_(seed) {}
  /// A value in [0, n); the modulo bias is far below anything a test sees.
  std::uint64_t below(std::uint64_t n) { return engine_() % n; }
  /// A value in [lo, hi].
  std::int64_t between(std::int64_t lo, std::int64_t hi) {
    return lo + static_cast<std::int64_t>(below(static_cast<std::uint64_t>(hi - lo) + 1));
  }
  bool one_in(std::uint64_t n) { return below(n) == 0; }

 private:
  std::mt19937_64 engine_;
};

}  // namespace allocgate::workloads
