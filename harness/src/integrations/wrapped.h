// SPDX-License-Identifier: Apache-2.0
// ld's --wrap, as allocgate::benchmark uses it: a call to SYMBOL in a linked
// object reaches __wrap_SYMBOL, and __real_SYMBOL reaches the original. The
// symbols are listed in harness/CMakeLists.txt (ALLOCGATE_BENCHMARK_WRAPPED)
// by their Itanium ABI names: a Google Benchmark whose functions are named
// otherwise fails to link (undefined __real_...), never runs uncounted.
#pragma once

// Declares real::name, Google Benchmark's function (a member function is
// called as a function whose first argument is `this`), and wrapped::name,
// the one the program's calls reach instead.
#define ALLOCGATE_WRAPPED(result, name, parameters, symbol) \
  namespace allocgate::benchmark::detail::real {            \
  result name parameters __asm__("__real_" symbol);         \
  }                                                         \
  namespace allocgate::benchmark::detail::wrapped {         \
  result name parameters __asm__("__wrap_" symbol);         \
  }
