// SPDX-License-Identifier: Apache-2.0
// Writing a text into a reused std::string through a pointer: room for a
// piece of known greatest length is made once, then its bytes are stored with
// no capacity check and no call each, which append() pays per piece (its
// check, its call to memcpy). Most of what the fast variants write is short
// literals and numbers, where those costs were most of the time.
//
// The string is written in place over its previous contents and cut to what
// was written at the end, so a buffer reused for outputs of one size is never
// zero-filled again and never reallocates once it has grown: growing (resize)
// is the only step that touches bytes not written.
#pragma once

#include <cstddef>
#include <cstring>
#include <string>
#include <string_view>

namespace allocgate::workloads {

class TextWriter {
 public:
  /// Starts replacing out's contents; out holds them once finish() is called.
  explicit TextWriter(std::string& out) noexcept : out_(out), at_(out.data()), end_(out.data() + out.size()) {}
  TextWriter(const TextWriter&) = delete;
  TextWriter& operator=(const TextWriter&) = delete;

  /// Where to write up to n more bytes; give the end of what was written to
  /// advance(). May allocate (and throw std::bad_alloc) when out must grow.
  char* room(std::size_t n) {
    if (static_cast<std::size_t>(end_ - at_) < n) grow(n);
    return at_;
  }
  void advance(char* written_end) noexcept { at_ = written_end; }

  /// Cuts out to what was written. Allocates nothing.
  void finish() { out_.resize(static_cast<std::size_t>(at_ - out_.data())); }

 private:
  // Out of line: a run of one output size never comes here once warm.
  [[gnu::noinline]] void grow(std::size_t n) {
    const auto used = static_cast<std::size_t>(at_ - out_.data());
    out_.resize(used + n);  // amortized: the capacity at least doubles when it grows
    at_ = out_.data() + used;
    end_ = out_.data() + out_.size();
  }

  std::string& out_;
  char* at_;
  char* end_;
};

/// Stores a literal's characters (not its terminating NUL) at p: with the
/// length known at compile time, a few moves rather than a call.
template <std::size_t N>
inline char* put(char* p, const char (&literal)[N]) noexcept {
  std::memcpy(p, literal, N - 1);
  return p + N - 1;
}

inline char* put(char* p, std::string_view text) noexcept {
  if (!text.empty()) std::memcpy(p, text.data(), text.size());  // a default view's data() is null
  return p + text.size();
}

}  // namespace allocgate::workloads
