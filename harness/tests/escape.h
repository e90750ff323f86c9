// SPDX-License-Identifier: Apache-2.0
// Test support: keep the optimizer from removing allocations under test.
// g++ -O2 deletes `delete new T` pairs and clang -O2 deletes even library
// allocations it can see through, so every pointer a test allocates passes
// through escape() to make it observable.
#pragma once

namespace allocgate::test {

// access(none): escape() reads no byte behind p. Without it g++ 12 at -O0
// warns that a fresh block's contents "may be used uninitialized" here.
#if defined(__GNUC__) && !defined(__clang__)
[[gnu::access(none, 1)]]
#endif
inline void
escape(const void* p) {
  asm volatile("" : : "g"(p) : "memory");
}

}  // namespace allocgate::test
