// SPDX-License-Identifier: Apache-2.0
// Records packed back to back in blocks of a megabyte that never move, for
// containers that hold a million small things: a report's cases, a
// toolchain's bounds. A struct of strings and optionals takes hundreds of
// bytes whatever it holds; a record takes only the fields it has. A record is
// written with RecordWriter (varints, texts, the bytes of doubles) and read
// back in the same order with RecordReader.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace allocgate::files {

class RecordWriter {
 public:
  explicit RecordWriter(std::string& out) : out_(out) {}
  void varint(std::uint64_t v) {
    while (v >= 0x80) {
      out_ += static_cast<char>(v | 0x80);
      v >>= 7;
    }
    out_ += static_cast<char>(v);
  }
  void text(std::string_view s) {
    varint(s.size());
    out_ += s;
  }
  void figure(double v) {
    char bytes[sizeof v];
    std::memcpy(bytes, &v, sizeof v);
    out_.append(bytes, sizeof v);
  }

 private:
  std::string& out_;
};

class RecordReader {
 public:
  explicit RecordReader(const char* at) : at_(at) {}
  std::uint64_t varint() {
    std::uint64_t v = 0;
    for (int shift = 0;; shift += 7) {
      const auto byte = static_cast<unsigned char>(*at_++);
      v |= static_cast<std::uint64_t>(byte & 0x7f) << shift;
      if (byte < 0x80) return v;
    }
  }
  /// Valid while the blocks it was read from live.
  std::string_view text() {
    const std::size_t n = varint();
    const std::string_view s(at_, n);
    at_ += n;
    return s;
  }
  double figure() {
    double v = 0;
    std::memcpy(&v, at_, sizeof v);
    at_ += sizeof v;
    return v;
  }

 private:
  const char* at_;
};

class RecordBlocks {
 public:
  /// Copies the record in; returns its place (block << 32 | offset).
  std::uint64_t append(std::string_view record);
  /// The record at a place append returned: valid while the blocks live.
  const char* at(std::uint64_t place) const { return blocks_[place >> 32].data() + (place & 0xffffffffu); }

 private:
  std::vector<std::string> blocks_;  // each up to a megabyte, never reallocated once made
};

}  // namespace allocgate::files
