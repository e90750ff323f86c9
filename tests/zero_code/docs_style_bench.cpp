// SPDX-License-Identifier: Apache-2.0
// A benchmark suite written the way Google Benchmark's user guide writes one:
// no allocgate header, no line of allocgate's. Linking allocgate::benchmark_main
// (or allocgate::benchmark beside BENCHMARK_MAIN()) is the only change, and
// zero_code_test.cpp checks that every benchmark below then reports exact
// allocs/op. The helpers the guide leaves to the reader (ConstructRandomSet,
// RandomNumber) are deterministic here, so that the counts are too.

#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <vector>

static void BM_StringCreation(benchmark::State& state) {
  for (auto _ : state) std::string empty_string;
}
// Register the function as a benchmark
BENCHMARK(BM_StringCreation);

// Define another benchmark
static void BM_StringCopy(benchmark::State& state) {
  std::string x = "hello";
  for (auto _ : state) std::string copy(x);
}
BENCHMARK(BM_StringCopy);

static void BM_memcpy(benchmark::State& state) {
  char* src = new char[state.range(0)];
  char* dst = new char[state.range(0)];
  memset(src, 'x', state.range(0));
  for (auto _ : state) memcpy(dst, src, state.range(0));
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(state.range(0)));
  delete[] src;
  delete[] dst;
}
BENCHMARK(BM_memcpy)->Arg(8)->Arg(64)->Arg(512)->Arg(4 << 10)->Arg(8 << 10);

static void BM_vector_push_back(benchmark::State& state) {
  for (auto _ : state) {
    std::vector<int> v;
    v.reserve(1);
    auto data = v.data();            // Allow v.data() to be clobbered. Pass as non-const
    benchmark::DoNotOptimize(data);  // lvalue to avoid undesired compiler optimizations
    v.push_back(42);
    benchmark::ClobberMemory();  // Force 42 to be written to memory.
  }
}
BENCHMARK(BM_vector_push_back);

static std::set<int> ConstructRandomSet(int64_t size) {
  std::set<int> s;
  for (int64_t i = 0; i < size; ++i) s.insert(static_cast<int>(i));
  return s;
}

static int RandomNumber() {
  static int next = 1 << 30;  // never in the constructed set: each insert adds a node
  return next++;
}

static void BM_SetInsert_With_Timer_Control(benchmark::State& state) {
  std::set<int> data;
  for (auto _ : state) {
    state.PauseTiming();                        // Stop timers. They will not count until they are resumed.
    data = ConstructRandomSet(state.range(0));  // Do something that should not be measured
    state.ResumeTiming();                       // And resume timers. They are now counting again.
    // The rest will be measured.
    for (int j = 0; j < state.range(1); ++j) data.insert(RandomNumber());
  }
}
BENCHMARK(BM_SetInsert_With_Timer_Control)->Ranges({{1 << 6, 8 << 6}, {16, 64}});

static void BM_MultiThreaded(benchmark::State& state) {
  static std::vector<std::string> shared;
  if (state.thread_index() == 0) {
    // Setup code here.
    shared.assign(100, std::string(100, 's'));
  }
  for (auto _ : state) {
    // Run the test as normal.
    std::vector<int> v(16);
    benchmark::DoNotOptimize(v.data());
  }
  if (state.thread_index() == 0) {
    // Teardown code here.
    shared.clear();
    shared.shrink_to_fit();
  }
}
BENCHMARK(BM_MultiThreaded)->Threads(2);

class MyFixture : public benchmark::Fixture {
 public:
  void SetUp(const ::benchmark::State& state) { data.assign(static_cast<std::size_t>(state.range(0)), 1); }

  void TearDown(const ::benchmark::State&) {
    data.clear();
    data.shrink_to_fit();
  }

  std::vector<int> data;
};

BENCHMARK_DEFINE_F(MyFixture, BarTest)(benchmark::State& st) {
  for (auto _ : st) {
    std::map<int, int> m;
    m[data[0]] = 2;
    benchmark::DoNotOptimize(m);
  }
}
BENCHMARK_REGISTER_F(MyFixture, BarTest)->Arg(100)->Repetitions(3);

static void BM_KeepRunning(benchmark::State& state) {
  std::string x(100, 'x');
  while (state.KeepRunning()) {
    std::string copy(x);
    benchmark::DoNotOptimize(copy.data());
  }
}
BENCHMARK(BM_KeepRunning)->Iterations(1000);

static void UserCountersExample1(benchmark::State& state) {
  double numFoos = 0, numBars = 0, numBazs = 0;
  for (auto _ : state) {
    // ... count Foo,Bar,Baz events
    numFoos += 1;
    numBars += 2;
    numBazs += 3;
  }
  state.counters["Foo"] = numFoos;
  state.counters["Bar"] = numBars;
  state.counters["Baz"] = numBazs;
  state.SetLabel("foo bar baz, with a label long enough to allocate");
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(UserCountersExample1);
