// SPDX-License-Identifier: Apache-2.0
// RE2 behind a C interface. RE2's classes hold std::strings, so C++ code can
// use them only when built against the standard library RE2 was (Debian's:
// libstdc++); the libc++ build links this file built against libstdc++, as a
// shared library, and crosses over through these functions alone.
#pragma once

#include <stddef.h>

extern "C" {

struct allocgate_re2;

/// Compiles a pattern; on error returns null and sets *error to RE2's
/// description of what is wrong (a static string).
allocgate_re2* allocgate_re2_new(const char* pattern, size_t size, const char** error);

/// 1 when the pattern matches anywhere in text, else 0.
int allocgate_re2_partial_match(const allocgate_re2* re, const char* text, size_t size);

void allocgate_re2_delete(allocgate_re2* re);
}
