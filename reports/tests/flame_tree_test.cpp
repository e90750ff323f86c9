// SPDX-License-Identifier: Apache-2.0
// The tree a flame graph draws from a case's stacks: one tower per call
// path, only the measured code's frames, each frame's figures, location and
// hint; and the differential tree of a change.
#include "flame_tree.h"

#include <gtest/gtest.h>

namespace {

using allocgate::reports::CaseResult;
using allocgate::reports::differential_flame_tree;
using allocgate::reports::flame_tree;
using allocgate::reports::SiteSummary;
using allocgate::reports::StackSummary;
using nlohmann::json;

// The child of `node` named `name`, or null.
const json* child(const json& node, const std::string& name) {
  if (!node.contains("children")) return nullptr;
  for (const json& c : node["children"]) {
    if (c["name"] == name) return &c;
  }
  return nullptr;
}

TEST(FlameTree, ATestsStacksBeginAtItsOwnCodeAsOneTowerPerPath) {
  CaseResult c;
  c.name = "Strings.Copy";
  // As allocgate::gtest records them: GoogleTest's frames first; the second
  // stack was cut one frame deeper, the third comes from main and libc.
  c.stacks.push_back(StackSummary{{"testing::TestInfo::Run", "testing::Test::Run",
                                   "void testing::internal::HandleExceptionsInMethodIfSupported<testing::Test, void>",
                                   "Strings_Copy_Test::TestBody", "std::string::_M_create"},
                                  {"", "", "", "strings_test.cpp:12", ""},
                                  2,
                                  200,
                                  1});
  c.stacks.push_back(
      StackSummary{{"testing::Test::Run", "Strings_Copy_Test::TestBody", "std::string::_M_create"}, {}, 1, 50, 0});
  c.stacks.push_back(StackSummary{{"__libc_start_call_main", "main", "helper"}, {}, 3, 30, 3});
  c.sites.emplace_back(allocgate::SiteFrame{"Strings_Copy_Test::TestBody", "strings_test.cpp", 12}, 3, 250, 1,
                       "reserve() first");
  const json tree = flame_tree(c);
  EXPECT_EQ(tree["name"], "Strings.Copy");
  EXPECT_EQ(tree["figures"], json::parse("[6, 280, 4]"));
  ASSERT_EQ(tree["children"].size(), 2u) << tree.dump(1);  // TestBody's tower and helper's
  const json* body = child(tree, "Strings_Copy_Test::TestBody");
  ASSERT_NE(body, nullptr) << tree.dump(1);
  EXPECT_EQ((*body)["figures"], json::parse("[3, 250, 1]"));
  EXPECT_EQ((*body)["location"], "strings_test.cpp:12");
  EXPECT_EQ((*body)["hint"], "reserve() first");
  const json* create = child(*body, "std::string::_M_create");
  ASSERT_NE(create, nullptr);
  EXPECT_EQ((*create)["figures"], json::parse("[3, 250, 1]"));
  EXPECT_FALSE(create->contains("hint"));
  EXPECT_NE(child(tree, "helper"), nullptr);
  EXPECT_FALSE(tree.contains("change"));  // not a differential tree

  CaseResult none;
  EXPECT_TRUE(flame_tree(none).is_null());
}

TEST(FlameTree, RunnersFramesAreLeftOutForEveryFramework) {
  // Each stack as its runner records it: the frames above the measured code
  // differ by framework; the tower begins at the code's own frame.
  const std::vector<std::vector<std::string>> stacks = {
      {"allocgate::workloads::(anonymous namespace)::StepCase::run", "allocgate::workloads::log_report::report_v1",
       "own"},
      {"Catch::RunContext::runCurrentTest", "Catch::RunContext::invokeActiveTestCase", "Catch::TestCase::invoke",
       "C_A_T_C_H_T_E_S_T_2", "own"},
      {"Catch::TestInvokerAsMethod<(anonymous namespace)::C_A_T_C_H_T_E_S_T_14>::invoke", "Fixture::Fixture", "own"},
      {"doctest::Context::run", "allocgate_doctest_body", "DOCTEST_ANON_FUNC_19", "own"}};
  for (const auto& frames : stacks) {
    CaseResult c;
    c.name = "case";
    c.stacks.push_back(StackSummary{frames, {}, 1, 8, 0});
    const json tree = flame_tree(c);
    ASSERT_EQ(tree["children"].size(), 1u) << tree.dump(1);
    // The first frame drawn is the one after the last runner's.
    EXPECT_EQ(tree["children"][0]["name"], frames[frames.size() - 2]) << tree.dump(1);
  }
}

TEST(FlameTree, AChangeMarksEachFrameAndDrawsWhatWentAway) {
  CaseResult base, head;
  base.name = head.name = "BM_Parse";
  const auto stack = [](std::vector<std::string> frames, double allocs) {
    return StackSummary{std::move(frames), {}, allocs, allocs * 8, 0};
  };
  base.stacks = {stack({"BM_Parse", "same"}, 2), stack({"BM_Parse", "shrinks"}, 5), stack({"BM_Parse", "goes"}, 4)};
  head.stacks = {stack({"BM_Parse", "same"}, 2), stack({"BM_Parse", "shrinks"}, 1), stack({"BM_Parse", "comes"}, 7)};
  const json tree = differential_flame_tree(base, head);
  const json* parse = child(tree, "BM_Parse");
  ASSERT_NE(parse, nullptr) << tree.dump(1);
  EXPECT_EQ((*parse)["change"], "shrunk");  // 2 + 5 + 4 = 11 allocs/op in the base, 2 + 1 + 7 = 10 in the head
  const auto at = [&](const char* name) { return *child(*parse, name); };
  EXPECT_EQ(at("same")["change"], "same");
  EXPECT_EQ(at("shrinks")["change"], "shrunk");
  EXPECT_EQ(at("goes")["change"], "gone");
  EXPECT_EQ(at("comes")["change"], "new");
  // Widths: the head's allocs/op, and the base's for what is gone.
  EXPECT_EQ(at("shrinks")["width"], 1);
  EXPECT_EQ(at("goes")["width"], 4);
  EXPECT_EQ(at("goes")["figures"][0], 0);
  EXPECT_EQ(at("goes")["base"][0], 4);
  EXPECT_EQ((*parse)["width"], 2 + 1 + 7 + 4);
}

}  // namespace
