// SPDX-License-Identifier: Apache-2.0
/// @file
/// The toolchain key: allocation counts differ between compilers and standard
/// libraries, so recorded bounds are kept per key.
#pragma once

#include "allocgate/standard.h"  // C++17, said in one line

#include <cstddef>  // defines the standard library's version macros

#define ALLOCGATE_STRINGIFY_(x) #x
#define ALLOCGATE_STRINGIFY(x) ALLOCGATE_STRINGIFY_(x)

namespace allocgate {

namespace detail {

/// A key built at compile time: a prefix the preprocessor spells, and the
/// standard library's major version, which libc++ encodes in _LIBCPP_VERSION
/// (14000 for 14, 160000 for 16) and only arithmetic can extract.
struct ToolchainKey {
  char text[64] = {};
};

constexpr ToolchainKey make_toolchain_key(const char* prefix, long major) {
  ToolchainKey key;
  int n = 0;
  for (; prefix[n] != '\0'; ++n) key.text[n] = prefix[n];
  if (major >= 0) {
    char digits[20] = {};
    int count = 0;
    do {
      digits[count++] = static_cast<char>('0' + major % 10);
      major /= 10;
    } while (major > 0);
    while (count > 0) key.text[n++] = digits[--count];
  }
  return key;
}

inline constexpr ToolchainKey kToolchainKey = make_toolchain_key(
#if defined(__clang__)
    "clang-" ALLOCGATE_STRINGIFY(__clang_major__)
#elif defined(__GNUC__)
    "gcc-" ALLOCGATE_STRINGIFY(__GNUC__)
#else
    "unknown-compiler"
#endif
#if defined(_LIBCPP_VERSION)
        "-libc++-",
    _LIBCPP_VERSION >= 100000 ? _LIBCPP_VERSION / 10000 : _LIBCPP_VERSION / 1000
#elif defined(_GLIBCXX_RELEASE)
        "-libstdc++-",
    _GLIBCXX_RELEASE
#else
    "-unknown-stdlib",
    -1
#endif
);

}  // namespace detail

/// "<compiler>-<major>-<standard library>-<major>" of the translation unit
/// that includes this header, e.g. "gcc-12-libstdc++-12", "clang-14-libstdc++-12"
/// or "clang-14-libc++-14".
inline constexpr const char* kToolchain = detail::kToolchainKey.text;

}  // namespace allocgate
