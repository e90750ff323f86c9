// SPDX-License-Identifier: Apache-2.0
// Stands for Google Benchmark's main() built as a shared library
// (libbenchmark_main.so), as a build with BUILD_SHARED_LIBS makes it.
int main(int, char**) { return 0; }
