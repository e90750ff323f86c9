// SPDX-License-Identifier: Apache-2.0
// The names of a Catch2 or doctest suite's runs (integrations/core/run_names.h):
// no two runs share one, and none depends on the order the tests ran in.

#include "integrations/core/run_names.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

namespace allocgate::integrations {
namespace {

TEST(RunNamePart, EscapesWhatWouldReadAsStructure) {
  EXPECT_EQ(run_name_part("plain name"), "plain name");
  EXPECT_EQ(run_name_part("a/b"), "a\\/b");
  EXPECT_EQ(run_name_part("back\\slash"), "back\\\\slash");
  EXPECT_EQ(run_name_part("gen #2"), "gen \\#2");
  EXPECT_EQ(run_name_part("gen #12/x"), "gen #12\\/x");  // not at the end: not a number's form
  EXPECT_EQ(run_name_part("issue #714 - lines"), "issue #714 - lines");
  EXPECT_EQ(run_name_part("gen #"), "gen #");
  EXPECT_EQ(run_name_part("\xc3\xbc ok"), "\xc3\xbc ok");  // UTF-8 as it is
}

TEST(RunNamePart, KeepsBytesThatAreNotUtf8Apart) {
  EXPECT_EQ(run_name_part("bytes \xff end"), "bytes \\xff end");
  EXPECT_NE(run_name_part("bytes \xff end"), run_name_part("bytes \xfe end"));
  EXPECT_EQ(run_name_part("cut \xc3"), "cut \\xc3");
}

// Runs of two test cases as Catch2 names them: the test case, then its
// sections, each part escaped.
std::string path(const std::vector<std::string>& parts) {
  std::string out;
  for (const std::string& part : parts) {
    if (!out.empty()) out += '/';
    out += run_name_part(part);
  }
  return out;
}

TEST(RunNames, NumbersARunAgainWithinItsTestCase) {
  RunNames names;
  names.test_case_begins("t.cpp:1");
  EXPECT_EQ(names.next(path({"gen"})), "gen");
  EXPECT_EQ(names.next(path({"gen"})), "gen #2");
  EXPECT_EQ(names.next(path({"gen"})), "gen #3");
  names.test_case_begins("t.cpp:9");
  EXPECT_EQ(names.next(path({"gen #2"})), "gen \\#2");
  names.test_case_begins("t.cpp:20");
  EXPECT_EQ(names.next(path({"dup", "s"})), "dup/s");
  EXPECT_EQ(names.next(path({"dup", "s"})), "dup/s #2");
  EXPECT_EQ(names.next(path({"dup", "s #2"})), "dup/s \\#2");
  EXPECT_EQ(names.collision(), "");
}

TEST(RunNames, SeparatorsInsideNamesDoNotJoinTwoPaths) {
  RunNames names;
  names.test_case_begins("t.cpp:1");
  const std::string first = names.next(path({"a/b", "c"}));
  names.test_case_begins("t.cpp:5");
  const std::string second = names.next(path({"a", "b/c"}));
  EXPECT_EQ(first, "a\\/b/c");
  EXPECT_EQ(second, "a/b\\/c");
  EXPECT_EQ(names.collision(), "");
}

TEST(RunNames, NamesDoNotDependOnTheOrderTestCasesRun) {
  const auto run = [](bool reversed) {
    std::vector<std::vector<std::vector<std::string>>> cases = {{{"a", "b"}, {"a", "b"}}, {{"a"}}, {{"x", "y"}}};
    if (reversed) cases = {cases[2], cases[1], cases[0]};
    RunNames names;
    std::set<std::string> got;
    int line = 0;
    for (const auto& test_case : cases) {
      names.test_case_begins("t.cpp:" + std::to_string(++line));
      for (const auto& parts : test_case) got.insert(names.next(path(parts)));
    }
    return got;
  };
  EXPECT_EQ(run(false), run(true));
  EXPECT_EQ(run(false), (std::set<std::string>{"a", "a/b", "a/b #2", "x/y"}));
}

TEST(RunNames, TwoTestCasesOfOneNameAreACollisionNamingBoth) {
  RunNames names;
  names.test_case_begins("one.cpp:3");
  names.next(path({"same"}));
  names.test_case_begins("two.cpp:7");
  names.next(path({"same"}));
  EXPECT_EQ(names.collision(),
            "two test cases' runs are both named \"same\" (one.cpp:3 and two.cpp:7): a report keys its figures by "
            "name; rename one");
}

}  // namespace
}  // namespace allocgate::integrations
