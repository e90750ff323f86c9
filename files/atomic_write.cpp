// SPDX-License-Identifier: Apache-2.0
// Writing a file whole or not at all (atomic_write.h): an unnamed temporary
// beside the target, linked and renamed over it, through symlinks, keeping
// the old file's mode, owner and group.

#include "atomic_write.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <ostream>
#include <streambuf>
#include <string>
#include <string_view>

#include "input_error.h"

namespace allocgate::files {

namespace {

namespace fs = std::filesystem;

[[noreturn]] void fail(const fs::path& file, const char* what, int error) {
  throw InputError(file.string() + ": " + what + ": " + std::strerror(error));
}

// An open file, closed when it goes.
struct Descriptor {
  int fd = -1;
  explicit Descriptor(int f) : fd(f) {}
  ~Descriptor() {
    if (fd >= 0) ::close(fd);
  }
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
};

void write_all(int fd, std::string_view text, const fs::path& file) {
  for (std::size_t written = 0; written < text.size();) {
    const ssize_t n = ::write(fd, text.data() + written, text.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      fail(file, "cannot write", errno);
    }
    written += static_cast<std::size_t>(n);
  }
}

// The mode, owner and group the new file takes: the old file's, or rw-r--r--
// and the writer's for a new one. A file owned by someone else keeps its owner
// or is not replaced: fchown fails for a writer who may not give it away.
void take_attributes(int fd, const struct stat* existing, const fs::path& file) {
  const mode_t mode = existing != nullptr ? (existing->st_mode & 07777) : 0644;
  if (::fchmod(fd, mode) != 0) fail(file, "cannot set the mode of the new file", errno);
  if (existing != nullptr && (existing->st_uid != ::geteuid() || existing->st_gid != ::getegid()) &&
      ::fchown(fd, existing->st_uid, existing->st_gid) != 0) {
    throw InputError(file.string() + ": cannot keep its owner (uid " + std::to_string(existing->st_uid) + ", gid " +
                     std::to_string(existing->st_gid) + ") on the new file: " + std::strerror(errno) +
                     "; write it as its owner");
  }
}

// The temporary's name, hidden beside the target (rename stays on one file
// system), and tagged as allocgate's: ".bounds.json.allocgate-XXXXXX".
std::string temporary_name(const fs::path& target) {
  std::string name = ".";  // appended: GCC 12 warns falsely (-Wrestrict) on "." + string
  name += target.filename().string();
  name += ".allocgate-XXXXXX";
  return name;
}

// Replaces the trailing XXXXXX of name, as mkstemp would.
void unique_suffix(std::string& name, int attempt) {
  static constexpr char kChars[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  timespec now{};
  ::clock_gettime(CLOCK_MONOTONIC, &now);
  std::uint64_t bits = static_cast<std::uint64_t>(now.tv_nsec) ^ static_cast<std::uint64_t>(now.tv_sec) << 30 ^
                       static_cast<std::uint64_t>(::getpid()) << 40 ^
                       static_cast<std::uint64_t>(attempt) * 0x9E3779B97F4A7C15ULL;
  for (std::size_t i = name.size() - 6; i < name.size(); ++i, bits /= 62) name[i] = kChars[bits % 62];
}

}  // namespace

std::filesystem::path replaced_file(std::filesystem::path file) {
  for (int hops = 0; hops < 40; ++hops) {
    std::error_code error;
    const fs::file_status status = fs::symlink_status(file, error);
    if (error && error != std::errc::no_such_file_or_directory) fail(file, "cannot reach", error.value());
    if (!fs::is_symlink(status)) return file;
    const fs::path target = fs::read_symlink(file, error);
    if (error) fail(file, "cannot read the link", error.value());
    file = target.is_absolute() ? target : file.parent_path() / target;
  }
  fail(file, "cannot reach", ELOOP);
}

bool names_a_descriptor(const std::filesystem::path& file) {
  const std::string text = file.lexically_normal().string();
  if (text == "/dev/stdout" || text == "/dev/stderr" || text.rfind("/dev/fd/", 0) == 0) return true;
  if (text.rfind("/proc/", 0) != 0) return false;
  const std::size_t fd = text.find("/fd/", 6);
  return fd != std::string::npos && text.find('/', 6) == fd;  // /proc/PID/fd/N, /proc/self/fd/N
}

namespace {

// A target that is not a file to replace: a terminal, /dev/null or a pipe is
// written into as a shell's `>` would (renaming over /dev/null would replace
// the system's); a directory, a block device or a socket is refused. A path
// that names an open descriptor (/dev/stdout, /proc/self/fd/N) is appended to,
// whatever it is: the program's own output, which the report joins at its
// end. False when `file` is a regular file or absent: replace it.
bool wrote_in_place(const fs::path& file, const TextProducer& produce) {
  if (names_a_descriptor(file)) {
    const Descriptor out(::open(file.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC | O_NOCTTY));
    if (out.fd < 0) fail(file, "cannot write", errno);
    produce([&](std::string_view text) { write_all(out.fd, text, file); });
    return true;
  }
  struct stat st {};
  if (::stat(file.c_str(), &st) != 0 || S_ISREG(st.st_mode)) return false;
  if (S_ISDIR(st.st_mode)) throw InputError(file.string() + ": is a directory");
  if (!S_ISCHR(st.st_mode) && !S_ISFIFO(st.st_mode)) {
    throw InputError(file.string() + ": is " + (S_ISBLK(st.st_mode) ? "a block device" : "not a regular file") +
                     ", which allocgate does not write");
  }
  const Descriptor out(::open(file.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY));
  if (out.fd < 0) fail(file, "cannot write", errno);
  produce([&](std::string_view text) { write_all(out.fd, text, file); });
  return true;
}

}  // namespace

void write_file_atomically(const std::filesystem::path& file, std::string_view text) {
  write_file_atomically(file, [&](const TextSink& write) { write(text); });
}

namespace {

// An ostream's bytes, a block at a time, into a sink.
class SinkBuffer : public std::streambuf {
 public:
  explicit SinkBuffer(const TextSink& sink) : sink_(sink) { setp(block_, block_ + sizeof block_); }

 protected:
  int_type overflow(int_type c) override {
    flush_block();
    if (!traits_type::eq_int_type(c, traits_type::eof())) sputc(traits_type::to_char_type(c));
    return traits_type::not_eof(c);
  }
  int sync() override {
    flush_block();
    return 0;
  }

 private:
  void flush_block() {
    if (pptr() > pbase()) sink_(std::string_view(pbase(), static_cast<std::size_t>(pptr() - pbase())));
    setp(block_, block_ + sizeof block_);
  }

  const TextSink& sink_;
  char block_[1 << 16];
};

}  // namespace

void print_file_atomically(const std::filesystem::path& file, const std::function<void(std::ostream&)>& print) {
  write_file_atomically(file, [&](const TextSink& sink) {
    SinkBuffer buffer(sink);
    std::ostream out(&buffer);
    out.exceptions(std::ios::badbit);  // a write that fails throws its InputError out of print
    print(out);
    out.flush();
  });
}

void write_file_atomically(const std::filesystem::path& file, const TextProducer& produce) {
  if (wrote_in_place(file, produce)) return;
  const fs::path target = replaced_file(file);
  const fs::path dir = target.has_parent_path() ? target.parent_path() : ".";
  struct stat existing {};
  const bool exists = ::stat(target.c_str(), &existing) == 0;
  if (!exists && errno != ENOENT) fail(file, "cannot reach", errno);
  if (exists && existing.st_nlink > 1) {
    // rename() would give this name a new file and leave the other names
    // with the old content: refuse rather than split them silently.
    throw InputError(file.string() + ": has " + std::to_string(existing.st_nlink) +
                     " hard links, which replacing it would detach; give it a single name (or a symlink)");
  }

  // An unnamed file (O_TMPFILE) while writing: a process killed in the
  // middle leaves nothing behind. It gets a name only just before the rename.
  // File systems without O_TMPFILE get a named temporary, removed on every
  // error this function sees.
  std::string temp = (dir / temporary_name(target)).string();
  Descriptor out(::open(dir.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600));
  const bool unnamed = out.fd >= 0;
  if (!unnamed) {
    out.fd = ::mkstemp(temp.data());
    if (out.fd < 0) fail(file, "cannot write", errno);
  }
  const auto remove_named = [&] {
    if (!unnamed) std::remove(temp.c_str());
  };
  try {
    produce([&](std::string_view text) { write_all(out.fd, text, file); });
    take_attributes(out.fd, exists ? &existing : nullptr, file);
    if (::fsync(out.fd) != 0) fail(file, "cannot sync", errno);
    if (unnamed) {
      // linkat() wants a name nobody has: mkstemp's pattern, with the six
      // characters from the process and the clock, tried again on a collision.
      const std::string proc = "/proc/self/fd/" + std::to_string(out.fd);
      for (int attempt = 0;; ++attempt) {
        temp = (dir / temporary_name(target)).string();
        unique_suffix(temp, attempt);
        if (::linkat(AT_FDCWD, proc.c_str(), AT_FDCWD, temp.c_str(), AT_SYMLINK_FOLLOW) == 0) break;
        if (errno != EEXIST || attempt == 100) fail(file, "cannot write", errno);
      }
    }
  } catch (...) {
    remove_named();
    throw;
  }
  if (std::rename(temp.c_str(), target.c_str()) != 0) {
    const int error = errno;
    std::remove(temp.c_str());
    fail(file, "cannot replace", error);
  }
  // The rename is durable once the directory is.
  const Descriptor directory(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (directory.fd >= 0) ::fsync(directory.fd);
}

void remove_stale_temporaries(const std::filesystem::path& file,
                              const std::function<bool(const std::filesystem::path&)>& ours) {
  const fs::path target = replaced_file(file);
  const fs::path dir = target.has_parent_path() ? target.parent_path() : ".";
  const std::string pattern = temporary_name(target);
  const std::string_view prefix = std::string_view(pattern).substr(0, pattern.size() - 6);
  static constexpr std::string_view kSuffixChars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  std::error_code error;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir, error)) {
    const std::string name = entry.path().filename().string();
    if (name.size() != pattern.size() || name.compare(0, prefix.size(), prefix) != 0 ||
        name.find_first_not_of(kSuffixChars, prefix.size()) != std::string::npos) {
      continue;
    }
    struct stat st {};
    if (::lstat(entry.path().c_str(), &st) != 0 || !S_ISREG(st.st_mode) || st.st_nlink != 1 ||
        st.st_uid != ::geteuid()) {
      continue;
    }
    if (ours(entry.path())) fs::remove(entry.path(), error);
  }
}

}  // namespace allocgate::files
