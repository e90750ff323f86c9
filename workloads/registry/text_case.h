// SPDX-License-Identifier: Apache-2.0
// A case whose operation renders its input as text: the naive variants assign
// a fresh string each run, the optimized ones refill the same buffer, so the
// buffer's reuse (or not) is the variant's own doing.
#pragma once

#include <string>
#include <utility>

#include "registry/workload.h"

namespace allocgate::workloads {

template <class Input, class Render>
class TextCase : public Case {
 public:
  TextCase(Input input, Render render) : input_(std::move(input)), render_(render) {}
  void run() override { render_(input_, text_); }
  std::string output() const override { return text_; }

 private:
  Input input_;
  Render render_;  // (const Input&, std::string& text)
  std::string text_;
};

/// A Variant's prepare: the input make(size), rendered by render(input, text).
template <auto make, auto render>
std::unique_ptr<Case> make_text_case(std::size_t size) {
  using Input = decltype(make(size));
  return std::make_unique<TextCase<Input, decltype(render)>>(make(size), render);
}

}  // namespace allocgate::workloads
