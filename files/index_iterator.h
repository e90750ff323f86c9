// SPDX-License-Identifier: Apache-2.0
// An input iterator over a container that makes each element when asked
// (container[i] returns it by value): the packed cases and bounds, compare's
// and the gate's rows.
#pragma once

#include <cstddef>
#include <iterator>

namespace allocgate::files {

template <class Container, class Value>
class IndexIterator {
 public:
  using iterator_category = std::input_iterator_tag;
  using value_type = Value;
  using difference_type = std::ptrdiff_t;
  using pointer = void;
  using reference = Value;

  IndexIterator(const Container* container, std::size_t index) : container_(container), index_(index) {}
  Value operator*() const { return (*container_)[index_]; }
  IndexIterator& operator++() {
    ++index_;
    return *this;
  }
  bool operator==(const IndexIterator& other) const { return index_ == other.index_; }
  bool operator!=(const IndexIterator& other) const { return index_ != other.index_; }

 private:
  const Container* container_;
  std::size_t index_;
};

}  // namespace allocgate::files
