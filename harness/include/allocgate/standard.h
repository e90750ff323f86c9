// SPDX-License-Identifier: Apache-2.0
/// @file
/// allocgate's headers are C++17 (std::optional, std::string_view, inline
/// variables). A translation unit built for an older standard is told so in
/// one line, first, and stopped there, not shown the errors each use would
/// give. The zero-code targets (allocgate::gtest_main, ::catch2, ::doctest)
/// need no header of allocgate's and leave a project's standard as it is.
#pragma once

#if __cplusplus < 201703L
#error "allocgate's headers need C++17 or later: build the target that includes them with cxx_std_17 (-std=c++17)"
// Not a file: the compiler stops here, after the line above, instead of going on into std::optional.
#include "allocgate/stop-here-this-target-is-older-than-cxx17"
#endif
