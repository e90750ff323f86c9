// main() for benchmark binaries that link allocgate::benchmark_main.

#include "allocgate/benchmark.h"

int main(int argc, char** argv) { return allocgate::benchmark::run_benchmarks_main(argc, argv); }
