// SPDX-License-Identifier: Apache-2.0
#include "flame_tree.h"

#include <algorithm>
#include <array>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace allocgate::reports {
namespace {

using Figures = std::array<double, 3>;  // allocs, bytes, temporaries per operation

struct Node {
  std::string name;
  std::string location;
  Figures head{};
  Figures base{};
  double width = 0;
  std::vector<std::unique_ptr<Node>> children;  // in the order first met
  std::map<std::string, Node*, std::less<>> by_name;

  Node& child(const std::string& frame, const std::string& at) {
    if (const auto it = by_name.find(frame); it != by_name.end()) return *it->second;
    children.push_back(std::make_unique<Node>());
    Node& c = *children.back();
    c.name = frame;
    c.location = at;
    by_name.emplace(frame, &c);
    return c;
  }
};

Figures figures_of(const StackSummary& s) { return {s.allocs_per_op, s.bytes_per_op, s.temporary_per_op}; }

void add(Figures& to, const Figures& f) {
  for (std::size_t i = 0; i < to.size(); ++i) to[i] += f[i];
}

// Frames outside the measured code: the process's start and main, the
// frames allocgate's runner began a capture in (reports before the runner
// left them out have them), a workload's case adapter (a Case's run()
// override, the runner's call into the case's code), and a test framework's
// own between a test and its runner (GoogleTest's stacks begin at
// TestInfo::Run, Catch2's at its RunContext, doctest's at the body's
// caller allocgate puts in). A stack is drawn from the frame after the
// innermost of them, so that a call path cut at two depths is one tower,
// and a test's begins at its fixture or body.
bool outside_measured_code(std::string_view frame) {
  for (const std::string_view name :
       {"_start", "__libc_start_main", "__libc_start_call_main", "main", "allocgate_doctest_body"}) {
    if (frame == name) return true;
  }
  if (frame.ends_with("capture_one_run") || frame.ends_with("capture_one_operation")) return true;
  if (frame.starts_with("allocgate::workloads::") && frame.ends_with("Case::run")) return true;
  for (const std::string_view runner :
       {"Catch::RunContext::", "Catch::TestCase::invoke", "Catch::TestCaseHandle::invoke",
        "Catch::TestInvokerAsFunction::invoke", "Catch::TestInvokerAsMethod<", "doctest::Context::run"}) {
    if (frame.starts_with(runner)) return true;
  }
  for (const std::string_view runner :
       {"testing::TestInfo::Run", "testing::Test::Run", "testing::TestSuite::Run", "testing::UnitTest::Run",
        "testing::internal::UnitTestImpl::RunAllTests", "testing::internal::HandleExceptionsInMethodIfSupported<",
        "testing::internal::HandleSehExceptionsInMethodIfSupported<", "testing::internal::TestFactoryImpl<"}) {
    // Templates are named with their return type first ("void testing::...").
    const std::size_t at = frame.find(runner);
    if (at == 0 || (at != std::string_view::npos && frame[at - 1] == ' ')) return true;
  }
  return false;
}

std::size_t first_measured_frame(const StackSummary& stack) {
  for (std::size_t i = stack.frames.size(); i-- > 0;) {
    if (outside_measured_code(stack.frames[i])) return i + 1;
  }
  return 0;
}

// Adds a stack to the tree along its frames; `into` picks the head's or the
// base's figures.
void add_stack(Node& root, const StackSummary& stack, Figures Node::*into, double width) {
  const Figures f = figures_of(stack);
  add(root.*into, f);
  root.width += width;
  Node* node = &root;
  for (std::size_t i = first_measured_frame(stack); i < stack.frames.size(); ++i) {
    node = &node->child(stack.frames[i], i < stack.locations.size() ? stack.locations[i] : std::string());
    add(node->*into, f);
    node->width += width;
  }
}

// The hints of a case's sites by function and file:line.
std::map<std::pair<std::string, std::string>, std::string> hints_of(const CaseResult& c) {
  std::map<std::pair<std::string, std::string>, std::string> hints;
  for (const SiteSummary& site : c.sites) {
    if (site.hint.empty()) continue;
    hints.emplace(std::pair{site.where().function, site.where().file + ":" + std::to_string(site.where().line)},
                  site.hint);
  }
  return hints;
}

const char* change_of(const Node& n) {
  if (n.head[0] == n.base[0]) return "same";
  if (n.base[0] == 0) return "new";
  if (n.head[0] == 0) return "gone";
  return n.head[0] > n.base[0] ? "grown" : "shrunk";
}

nlohmann::json to_json(const Node& n, const std::map<std::pair<std::string, std::string>, std::string>& hints,
                       bool differential) {
  nlohmann::json j{{"name", n.name}, {"figures", n.head}};
  if (!n.location.empty()) j["location"] = n.location;
  if (const auto it = hints.find({n.name, n.location}); it != hints.end()) j["hint"] = it->second;
  if (differential) {
    j["base"] = n.base;
    j["change"] = change_of(n);
    j["width"] = n.width;
  }
  if (!n.children.empty()) {
    nlohmann::json children = nlohmann::json::array();
    for (const auto& c : n.children) children.push_back(to_json(*c, hints, differential));
    j["children"] = std::move(children);
  }
  return j;
}

}  // namespace

nlohmann::json flame_tree(const CaseResult& c) {
  if (c.stacks.empty()) return nullptr;
  Node root;
  root.name = c.name;
  for (const StackSummary& stack : c.stacks) add_stack(root, stack, &Node::head, stack.allocs_per_op);
  return to_json(root, hints_of(c), false);
}

nlohmann::json differential_flame_tree(const CaseResult& base, const CaseResult& head) {
  if (base.stacks.empty() && head.stacks.empty()) return nullptr;
  Node root;
  root.name = head.name;
  for (const StackSummary& stack : head.stacks) add_stack(root, stack, &Node::head, stack.allocs_per_op);
  for (const StackSummary& stack : base.stacks) {
    // A stack the head still has is drawn at the head's width already.
    const bool kept = std::any_of(head.stacks.begin(), head.stacks.end(),
                                  [&](const StackSummary& h) { return h.frames == stack.frames; });
    add_stack(root, stack, &Node::base, kept ? 0 : stack.allocs_per_op);
  }
  auto hints = hints_of(head);  // a site's hint as the head gives it
  auto base_hints = hints_of(base);
  hints.merge(base_hints);
  return to_json(root, hints, true);
}

}  // namespace allocgate::reports
