// SPDX-License-Identifier: Apache-2.0
// ld's --wrap, as allocgate::benchmark and allocgate::gtest use it: a call to SYMBOL in a linked
// object reaches __wrap_SYMBOL, and __real_SYMBOL reaches the original. The
// symbols are listed in cmake/allocgateIntegrations.cmake (ALLOCGATE_*_WRAPPED)
// by their Itanium ABI names: a Google Benchmark whose functions are named
// otherwise fails to link (undefined __real_...), never runs uncounted.
#pragma once

// Declares real::name, Google Benchmark's function (a member function is
// called as a function whose first argument is `this`), and wrapped::name,
// the one the program's calls reach instead.
#define ALLOCGATE_WRAPPED_IN(space, result, name, parameters, symbol) \
  namespace space::real {                                             \
  result name parameters __asm__("__real_" symbol);                   \
  }                                                                   \
  namespace space::wrapped {                                          \
  result name parameters __asm__("__wrap_" symbol);                   \
  }
#define ALLOCGATE_WRAPPED(result, name, parameters, symbol) \
  ALLOCGATE_WRAPPED_IN(allocgate::benchmark::detail, result, name, parameters, symbol)
