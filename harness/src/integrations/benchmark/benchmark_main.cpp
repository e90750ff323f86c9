// SPDX-License-Identifier: Apache-2.0
// main() for benchmark binaries that link allocgate::benchmark_main.

#include <link.h>

#include <cstring>
#include <iostream>
#include <string>

#include "allocgate/benchmark.h"

namespace {

// A Google Benchmark built as shared libraries has its main() in
// libbenchmark_main.so. This one wins over it (the executable's symbols come
// first), but a program that links both was meant to have one: say so
// rather than leave it to chance which main a later link order picks.
std::string other_benchmark_main() {
  std::string found;
  dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t, void* data) {
        if (info->dlpi_name != nullptr && std::strstr(info->dlpi_name, "libbenchmark_main") != nullptr) {
          *static_cast<std::string*>(data) = info->dlpi_name;
          return 1;
        }
        return 0;
      },
      &found);
  return found;
}

}  // namespace

int main(int argc, char** argv) {
  if (const std::string other = other_benchmark_main(); !other.empty()) {
    std::cerr << "allocgate: two main()s are linked: allocgate::benchmark_main's and Google Benchmark's (" << other
              << "); link allocgate::benchmark_main alone\n";
    return 2;
  }
  return allocgate::benchmark::run_benchmarks_main(argc, argv);
}
