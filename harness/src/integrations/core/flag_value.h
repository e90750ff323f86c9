// SPDX-License-Identifier: Apache-2.0
// How the integrations read their flags from argv, as GoogleTest and Google
// Benchmark spell theirs: --name=value, or --name alone.
#pragma once

#include <string_view>

namespace allocgate::integrations {

/// "--name=value" or "--name": the value ("" for the flag alone), or nullptr
/// when arg is another flag.
inline const char* flag_value(std::string_view arg, std::string_view name) {
  if (arg.substr(0, name.size()) != name) return nullptr;
  if (arg.size() == name.size()) return "";
  return arg[name.size()] == '=' ? arg.data() + name.size() + 1 : nullptr;
}

}  // namespace allocgate::integrations
