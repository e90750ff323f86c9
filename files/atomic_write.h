// SPDX-License-Identifier: Apache-2.0
// Writing a file whole or not at all (atomic_write.cpp). Apart from
// json_file.h so that code which writes text includes no JSON library.
#pragma once

#include <filesystem>
#include <functional>
#include <iosfwd>
#include <string_view>

namespace allocgate::files {

/// The file a write to `file` replaces: through any chain of symlinks to the
/// final target, so that a link stays a link and its target gets the content.
/// Throws InputError when a link cannot be read or loops.
std::filesystem::path replaced_file(std::filesystem::path file);

/// Whether `file` names an open descriptor of the process (/dev/stdout,
/// /dev/stderr, /dev/fd/N, /proc/self/fd/N, /proc/PID/fd/N): written into in
/// place, appended to, never replaced, whatever the descriptor is.
bool names_a_descriptor(const std::filesystem::path& file);

/// Writes text to a temporary file in file's directory, then renames it over
/// file: a reader sees the old contents or the new, never a mix. A character
/// device or a FIFO (/dev/null, a terminal, a pipe) is written in place, and a
/// path naming a descriptor (names_a_descriptor) appended to, never
/// renamed over; a directory, a block device or a socket is refused. A symlink is
/// written through (its target is replaced, the link kept); the new file keeps
/// the old one's mode, owner and group. The temporary has no name while it is
/// written (O_TMPFILE where the file system has it), so a process killed
/// meanwhile leaves nothing behind. Throws InputError when the directory cannot
/// be written, the owner cannot be kept, or the file has other hard links
/// (replacing it would detach them).
void write_file_atomically(const std::filesystem::path& file, std::string_view text);

/// What a producer writes its text through, a piece at a time.
using TextSink = std::function<void(std::string_view)>;
using TextProducer = std::function<void(const TextSink&)>;

/// The same, with the text written a piece at a time by `produce` (a report
/// of 1,000,000 cases never exists as one string). When produce throws,
/// nothing is replaced.
void write_file_atomically(const std::filesystem::path& file, const TextProducer& produce);
/// The same with the text printed onto a stream, a block at a time.
void print_file_atomically(const std::filesystem::path& file, const std::function<void(std::ostream&)>& print);

/// Removes the temporaries write_file_atomically(file, ...) left behind when
/// killed in the instant between naming one and renaming it, and nothing that
/// is not provably one: a regular file of the writer's, with one name, named
/// as write_file_atomically names them (".NAME.allocgate-XXXXXX") and holding
/// what `ours` recognises as that writer's complete output. A user's
/// ".NAME.backup" or ".NAME.orig12" stays. Call only while no other writer of
/// file can be running (under update_bounds_file's lock).
void remove_stale_temporaries(const std::filesystem::path& file,
                              const std::function<bool(const std::filesystem::path&)>& ours);

}  // namespace allocgate::files
