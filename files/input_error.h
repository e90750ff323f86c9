// SPDX-License-Identifier: Apache-2.0
// Bad input: a missing file, malformed JSON, a figure that cannot be. The
// command prints what() on one line and exits 2.
#pragma once

#include <stdexcept>
#include <string>

namespace allocgate::files {

class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace allocgate::files
