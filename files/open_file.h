// SPDX-License-Identifier: Apache-2.0
// A JSON file opened for reading, by json_file.cpp and json_stream.cpp alike:
// the same checks and the same one-line errors (cannot read, a directory,
// larger than kMaxJsonFileBytes).
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <utility>

#include "input_error.h"

namespace allocgate::files {

class OpenedFile {
 public:
  OpenedFile(std::string name, int fd, bool regular, std::size_t size)
      : name_(std::move(name)), fd_(fd), regular_(regular), size_(size) {}
  OpenedFile(OpenedFile&& other) noexcept;
  OpenedFile& operator=(OpenedFile&&) = delete;
  ~OpenedFile();

  /// Up to `size` bytes into `into`; 0 at the end. Throws InputError.
  std::size_t read(char* into, std::size_t size);
  bool regular() const { return regular_; }
  /// A regular file's size when opened; 0 for a pipe or a device.
  std::size_t size() const { return size_; }
  /// The error for a file past kMaxJsonFileBytes.
  InputError too_large() const;

 private:
  std::string name_;
  int fd_;
  bool regular_;
  std::size_t size_;
};

/// Opens `file`; throws InputError when it cannot be read, is a directory,
/// or is a regular file larger than kMaxJsonFileBytes.
OpenedFile open_for_reading(const std::filesystem::path& file);

}  // namespace allocgate::files
