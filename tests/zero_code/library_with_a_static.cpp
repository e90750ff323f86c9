// SPDX-License-Identifier: Apache-2.0
// A shared library that builds a function-local static on first use, as
// libraries do (a table, a registry, an implementation chosen at run time):
// its guard calls are the library's own, not the test program's.

#include <string>

__attribute__((visibility("default"))) const std::string& library_table() {
  static const std::string table(64, 't');
  return table;
}
