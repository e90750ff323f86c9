// SPDX-License-Identifier: Apache-2.0
// A pprof profile (profile.proto, as `go tool pprof` reads it) behind a C
// interface. Debian's protobuf is built against libstdc++, so its generated
// classes can be used only by code built against the same standard library;
// the libc++ build links this writer built against libstdc++, as a shared
// library, and crosses over through these functions alone (as re2_shim.h).
#pragma once

#include <stddef.h>
#include <stdint.h>

extern "C" {

struct allocgate_pprof;

/// A text and its length: names may hold any byte.
struct allocgate_pprof_text {
  const char* data;
  size_t size;
};

/// One frame of a sample's stack: a function, its file and line (file empty
/// and line 0 when not known).
struct allocgate_pprof_frame {
  allocgate_pprof_text function;
  allocgate_pprof_text file;
  uint32_t line;
};

/// A profile whose samples carry two values per operation, named as Go's
/// heap profiles name them: alloc_objects (count) and alloc_space (bytes).
/// `comment` is kept in the profile (`go tool pprof -comments`).
allocgate_pprof* allocgate_pprof_new(allocgate_pprof_text comment);

/// A sample: frames innermost first, its two values, and the label `case`.
void allocgate_pprof_add_sample(allocgate_pprof* profile, const allocgate_pprof_frame* frames, size_t frame_count,
                                int64_t alloc_objects, int64_t alloc_space, allocgate_pprof_text case_name);

/// The profile serialized and gzipped, as pprof files are: a buffer of
/// *size bytes that allocgate_pprof_free_buffer releases; null when the
/// profile could not be serialized.
char* allocgate_pprof_gzipped(const allocgate_pprof* profile, size_t* size);
void allocgate_pprof_free_buffer(char* buffer);

void allocgate_pprof_delete(allocgate_pprof* profile);
}
