// SPDX-License-Identifier: Apache-2.0
// The runner's allocation figures are exact: the same in every run.

#include "runner.h"
#include "progress.h"
#include "timing.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <set>
#include <sstream>

#include "input_error.h"
#include "registry/workload.h"

namespace {

using namespace allocgate::reports;
using namespace allocgate::files;

TEST(Runner, AllocationFiguresAreIdenticalAcrossTenRuns) {
  RunOptions options;
  options.time = false;
  options.filter = "/(1|10|100|200|1000|2000)$";  // every workload and variant, the smaller sizes
  std::ostringstream progress;
  const Report first = run_cases(options, progress);
  ASSERT_GE(first.cases.size(), 28u);
  for (int run = 1; run < 10; ++run) {
    const Report again = run_cases(options, progress);
    ASSERT_EQ(again.cases.size(), first.cases.size());
    for (std::size_t i = 0; i < first.cases.size(); ++i) {
      const CaseResult& a = first.cases[i];
      const CaseResult& b = again.cases[i];
      ASSERT_EQ(a.name, b.name);
      EXPECT_EQ(a.allocs_per_op, b.allocs_per_op) << a.name << " in run " << run;
      EXPECT_EQ(a.bytes_per_op, b.bytes_per_op) << a.name;
      EXPECT_EQ(a.peak_bytes, b.peak_bytes) << a.name;
      EXPECT_EQ(a.output_sha256, b.output_sha256) << a.name;
    }
  }
  for (const CaseResult& c : first.cases) {
    EXPECT_EQ(c.equal_to_reference, true) << c.name;
    EXPECT_FALSE(c.ns_median.has_value()) << c.name;  // not timed: absent, not 0
    // No workload keeps anything between operations. With libstdc++ every
    // freed size is known; libc++ frees some blocks inside its shared
    // library without their size, and then the figure is absent, not 0.
#if defined(__GLIBCXX__)
    ASSERT_TRUE(c.leaked_bytes_per_op.has_value()) << c.name;
#endif
    if (c.leaked_bytes_per_op) {
      EXPECT_EQ(*c.leaked_bytes_per_op, 0) << c.name;
    }
  }
}

TEST(Runner, TimesEachCaseWithGoogleBenchmark) {
  if (!timing_available()) GTEST_SKIP() << "built without Google Benchmark (Debian ships it for libstdc++ only)";
  RunOptions options;
  options.filter = "^timestamp/.*/1$";
  options.repetitions = 3;
  options.min_time = 0.01;
  std::ostringstream progress;
  const Report r = run_cases(options, progress);
  ASSERT_EQ(r.cases.size(), 2u);
  for (const CaseResult& c : r.cases) {
    ASSERT_TRUE(c.ns_median && c.ns_min && c.ns_max) << c.name;
    EXPECT_LE(*c.ns_min, *c.ns_median);
    EXPECT_LE(*c.ns_median, *c.ns_max);
    EXPECT_GT(c.iterations.value_or(0), 0);
  }
  EXPECT_EQ(CaseIndex(r).find("timestamp/optimized/1")->allocs_per_op, 0);
  EXPECT_EQ(CaseIndex(r).find("timestamp/naive/1")->allocs_per_op, 6);
  EXPECT_EQ(r.context["allocgate_hook_live"], true);
  EXPECT_EQ(r.context["allocgate_repetitions"], 3);
}

// A case's stacks are its own code's: they begin where the case's code does,
// one tower per call path, with none of the runner's frames (the lambda that
// measures, std::invoke's, run_cases, main, libc's start).
TEST(Runner, EveryStackBeginsAtTheCasesOwnCode) {
  RunOptions options;
  options.filter = "^(xml_listing/naive/1000|log_report/v1/200|row_parse/naive/100)$";
  options.time = false;
  options.sites = true;
  std::ostringstream progress;
  const Report r = run_cases(options, progress);
  ASSERT_EQ(r.cases.size(), 3u);
  for (const CaseResult& c : r.cases) {
    ASSERT_FALSE(c.stacks.empty()) << c.name;
    std::set<std::string> roots;
    for (const auto& stack : c.stacks) {
      ASSERT_FALSE(stack.frames.empty());
      // Cut to the innermost frames the report keeps: said, never silently shorter.
      const bool cut = stack.frames.front() == allocgate::site_summary::kTruncatedFrame;
      if (cut) {
        EXPECT_EQ(stack.frames.size(), allocgate::site_summary::kFrames + 1) << c.name;
      } else {
        roots.insert(stack.frames.front());
      }
      for (std::size_t f = cut ? 1 : 0; f < stack.frames.size(); ++f) {
        const std::string& frame = stack.frames[f];
        EXPECT_NE(frame, "main") << c.name;
        EXPECT_NE(frame.rfind("__libc_start", 0), 0u) << c.name << ": " << frame;  // not libc++'s __libcpp_*
        for (const char* runner : {"allocgate::reports", "capture_one_run", "__invoke", "[truncated]"}) {
          EXPECT_EQ(frame.find(runner), std::string::npos) << c.name << ": " << frame;
        }
      }
    }
    // One root, the case's own code: a tower per call path.
    ASSERT_EQ(roots.size(), 1u) << c.name;
    EXPECT_EQ(roots.begin()->rfind("allocgate::workloads::", 0), 0u) << c.name << ": " << *roots.begin();
  }
}

TEST(Runner, AFilterMustBeARegexThatMatches) {
  RunOptions options;
  options.time = false;
  std::ostringstream progress;
  options.filter = "(";
  EXPECT_THROW(run_cases(options, progress), InputError);
  options.filter = "no_such_workload";
  EXPECT_THROW(run_cases(options, progress), InputError);
}

// Each stack, whole: its count, then a frame a line.
std::string stacks_text(const allocgate::SiteProfile& profile) {
  std::string text;
  for (const allocgate::StackSample& stack : profile.stacks) {
    text += std::to_string(stack.count) + " allocations:\n";
    for (const allocgate::SiteFrame& frame : stack.frames) text += "  " + to_string(frame) + "\n";
  }
  return text;
}

// The cached unwinder against glibc's backtrace() on every case: the same
// sites and the same whole stacks, libstdc++'s and libc's frames included.
TEST(Runner, CachedUnwinderFindsTheSitesAndStacksBacktraceFinds) {
  const std::set<std::size_t> smaller_sizes = {1, 10, 100, 200, 1000, 2000};  // every workload and variant
  int profiled = 0;
  for (const allocgate::workloads::CaseRef& c : allocgate::workloads::all_cases()) {
    if (smaller_sizes.count(c.size) == 0) continue;
    ++profiled;
    allocgate::SiteProfile profiles[2];
    const allocgate::Unwinder unwinders[2] = {allocgate::Unwinder::kCached, allocgate::Unwinder::kBacktrace};
    for (int i = 0; i < 2; ++i) profiles[i] = profile_case(c.name, unwinders[i]);  // one line: one caller frame
    const allocgate::SiteProfile& cached = profiles[0];
    const allocgate::SiteProfile& plain = profiles[1];
    EXPECT_EQ(cached.allocations, plain.allocations) << c.name;
    EXPECT_EQ(cached.dropped, 0u) << c.name;
    EXPECT_EQ(cached.top(SIZE_MAX), plain.top(SIZE_MAX)) << c.name;
    EXPECT_EQ(stacks_text(cached), stacks_text(plain)) << c.name;
  }
  EXPECT_GE(profiled, 28);
}

TEST(Runner, OutputOfOneCase) {
  EXPECT_EQ(case_output("timestamp/optimized/1"), "2026-11-30T09:51:58Z 2026-11-30T09:51:58.123Z\n");
  EXPECT_THROW(case_output("timestamp/optimized/7"), InputError);
}

}  // namespace

namespace {

using allocgate::command::Progress;

// A clock the test moves by hand.
struct FakeClock {
  Progress::Clock::time_point now{};
  void advance(double seconds) {
    now += std::chrono::duration_cast<Progress::Clock::duration>(std::chrono::duration<double>(seconds));
  }
};

TEST(Progress, QuietAtFirstThenSaysTheStepsTheTimeInAndLeft) {
  FakeClock clock;
  std::ostringstream out;
  Progress progress(out, 3, 2, [&clock] { return clock.now; });
  clock.advance(0.5);
  progress.step("a (counted)");
  EXPECT_EQ(out.str(), "");  // a quick run stays quiet
  clock.advance(1.5);        // 2 s in, 2 of 6 steps done
  progress.step("b (counted)");
  EXPECT_EQ(out.str(),
            "allocgate: 3 case(s), each counted then timed: 6 steps\n"
            "[2/6] b (counted), 2 s in, about 4 s left\n");
  clock.advance(118);  // 120 s in, 3 of 6
  progress.step("c (counted)");
  clock.advance(60);
  progress.step("a (timed)");
  clock.advance(1);
  progress.step("b (timed)");
  clock.advance(1);
  progress.step("c (timed)");
  EXPECT_NE(out.str().find("[3/6] c (counted), 2 min 0 s in, about 2 min 0 s left\n"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("[6/6] c (timed), 3 min 2 s in\n"), std::string::npos) << out.str();
}

TEST(Progress, ACountedOnlyRunSaysNothingOfPasses) {
  FakeClock clock;
  std::ostringstream out;
  Progress progress(out, 2, 1, [&clock] { return clock.now; });
  clock.advance(3);
  progress.step("a (counted)");
  EXPECT_EQ(out.str(), "allocgate: 2 case(s)\n[1/2] a (counted), 3 s in, about 3 s left\n");
}

}  // namespace
