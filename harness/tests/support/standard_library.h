// SPDX-License-Identifier: Apache-2.0
// What the standard library the tests are built with allocates for the
// patterns they measure. Derived from each library's source, not measured,
// so that a test fails when a count changes rather than recording it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace allocgate::test {

#if defined(_LIBCPP_VERSION)

// libc++ (string, __recommend): a string keeps up to 22 characters in the
// object itself (__min_cap is 23 with the terminator); a longer one gets a
// block of its length and the terminator, rounded up to 16 bytes.
inline constexpr std::size_t kShortStringCapacity = 22;
constexpr std::size_t string_block_bytes(std::size_t length) { return (length + 1 + 15) / 16 * 16; }

// libc++ (functional, __value_func): a callable of up to three pointers lives
// inside the std::function; a larger one goes into a block that also holds
// the __func's vtable pointer.
constexpr std::size_t function_block_bytes(std::size_t callable) { return sizeof(void*) + callable; }

// libc++ (thread): constructing a std::thread allocates its __thread_struct,
// the __thread_struct_imp that holds, and the tuple of that and the callable.
inline constexpr std::uint64_t kThreadStartAllocations = 3;

#else

// libstdc++ (basic_string.h, _S_local_capacity): up to 15 characters in the
// object; a longer string gets a block of exactly its length and the
// terminator.
inline constexpr std::size_t kShortStringCapacity = 15;
constexpr std::size_t string_block_bytes(std::size_t length) { return length + 1; }

// libstdc++ (std_function.h, _M_max_size): a callable of up to two pointers
// lives inside the std::function; a larger one is a block of its own size.
constexpr std::size_t function_block_bytes(std::size_t callable) { return callable; }

// libstdc++ (std_thread.h): constructing a std::thread allocates the
// _State_impl that holds the callable.
inline constexpr std::uint64_t kThreadStartAllocations = 1;

#endif

/// Bytes as the failure messages print them: "101 bytes".
inline std::string bytes_text(std::size_t bytes) { return std::to_string(bytes) + " bytes"; }

}  // namespace allocgate::test
