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

template <class Input, class Render>
std::unique_ptr<Case> make_text_case(Input input, Render render) {
  return std::make_unique<TextCase<Input, Render>>(std::move(input), render);
}

}  // namespace allocgate::workloads
