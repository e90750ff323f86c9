/// @file
/// The toolchain key: allocation counts differ between compilers and standard
/// libraries, so recorded bounds are kept per key.
#pragma once

#define ALLOCGATE_STRINGIFY_(x) #x
#define ALLOCGATE_STRINGIFY(x) ALLOCGATE_STRINGIFY_(x)

namespace allocgate {

/// "<compiler>-<major>-<standard library>-<version>" of the translation unit
/// that includes this header, e.g. "gcc-12-libstdc++-12" or "clang-14-libstdc++-12".
inline constexpr const char* kToolchain =
#if defined(__clang__)
    "clang-" ALLOCGATE_STRINGIFY(__clang_major__)
#elif defined(__GNUC__)
    "gcc-" ALLOCGATE_STRINGIFY(__GNUC__)
#else
    "unknown-compiler"
#endif
#if defined(_LIBCPP_VERSION)
    "-libc++-" ALLOCGATE_STRINGIFY(_LIBCPP_VERSION)
#elif defined(_GLIBCXX_RELEASE)
    "-libstdc++-" ALLOCGATE_STRINGIFY(_GLIBCXX_RELEASE)
#else
    "-unknown-stdlib"
#endif
    ;

}  // namespace allocgate
