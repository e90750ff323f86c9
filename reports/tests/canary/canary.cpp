// SPDX-License-Identifier: Apache-2.0
#include "canary.h"

namespace allocgate::canary {

std::vector<std::string> make_keys(std::size_t n) {
  std::vector<std::string> keys;
  for (std::size_t i = 0; i < n; ++i) keys.push_back("photos/2026/11/object-" + std::to_string(100000 + i) + ".jpg");
  return keys;
}

void render_naive(const std::vector<std::string>& keys, std::string& out) {
  std::string text;
  for (const std::string& key : keys) text += key + "\n";
  out = text;
}

void render(const std::vector<std::string>& keys, std::string& out) {
  out.clear();
  for (const std::string& key : keys) out.append(key).push_back('\n');
}

void render_regressed(const std::vector<std::string>& keys, std::string& out) {
  out.clear();
  for (const std::string& key : keys) {
    std::string needless(key);                             // CANARY-REGRESSION
    asm volatile("" : : "g"(needless.data()) : "memory");  // kept: the optimizer may not remove it
    out.append(key).push_back('\n');
  }
}

}  // namespace allocgate::canary
