// SPDX-License-Identifier: Apache-2.0
// Every line allocgate prints, from every printer, read as the GitHub Actions
// runner reads a log: a line whose first non-blank characters are "::" is a
// workflow command, and so is a line holding "##[" anywhere (the runner's
// older form). Names, site functions, files, hints, error messages and the
// toolchain come from a report an adversary wrote; none of them can become a
// command, a terminal escape or a hidden character, whatever command prints it.

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "command.h"

namespace {

using allocgate::reports::testing::Result;
using allocgate::reports::testing::run;

const std::string kAllocgate = ALLOCGATE_BIN;

// What a hostile report puts in each text field (JSON-escaped).
const std::vector<std::string> kHostile = {
    R"(::add-mask::x)",
    R"(   ::stop-commands::tok)",
    R"(::error file=x.cpp,line=1::spoofed)",
    R"(f ##[error]old form)",
    R"(x\n::error title=t::after a newline)",
    R"(x\r\n##[warning]after a carriage return)",
    R"(osc52 \u001b]52;c;aGk=\u0007 osc8 \u001b]8;;http://x\u001b\\ csi \u001b[2J)",
    R"(c1 \u009b2J bidi \u202eevil\u2066 nul \u0000 end)",
};

std::string site(const std::string& text, int line) {
  return R"({"function": ")" + text + R"(", "file": ")" + text + R"(.cpp", "line": )" + std::to_string(line) +
         R"(, "allocs_per_op": 3, "bytes_per_op": 64, "temporary_per_op": 1, "hint": ")" + text + R"("})";
}

// An allocgate report with one case per hostile text, each a site of its own
// and a stack, named by it; the toolchain hostile too.
std::string hostile_report(int allocs) {
  std::string cases;
  for (std::size_t i = 0; i < kHostile.size(); ++i) {
    const std::string& t = kHostile[i];
    cases += std::string(i ? "," : "") + R"({"name": ")" + t + "/" + std::to_string(i) + R"(", "workload": ")" + t +
             R"(", "variant": ")" + t + R"(", "size": )" + std::to_string(i + 1) + R"(, "allocs_per_op": )" +
             std::to_string(allocs) + R"(, "bytes_per_op": 64, "real_time": 10,
      "time_unit": "ns", "sites": [)" +
             site(t, static_cast<int>(i) + 1) + R"(], "stacks": [{"frames": [")" + t + R"(", ")" + t +
             R"("], "allocs_per_op": 3}]})";
  }
  return R"({"context": {"allocgate_schema_version": 1, "allocgate_toolchain": ")" + kHostile[0] +
         R"(", "git_commit": ")" + kHostile[3] + R"(", "date": "2026-01-01T00:00:00Z"}, "benchmarks": [)" + cases +
         "]}";
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    // The runner splits on "\r" too.
    std::size_t start = 0;
    for (std::size_t cr; (cr = line.find('\r', start)) != std::string::npos; start = cr + 1) {
      lines.push_back(line.substr(start, cr - start));
    }
    lines.push_back(line.substr(start));
  }
  return lines;
}

class WorkflowCommands : public allocgate::reports::testing::ScratchDirTest {
 protected:
  // Runs a command; every line it prints must be harmless, but for the
  // annotations allocgate itself writes under GITHUB_ACTIONS (`ours`).
  Result expect_harmless(const std::string& args, const std::string& ours = "") {
    const Result r = run(args);
    std::size_t commands = 0;
    for (const std::string& line : lines_of(r.output)) {
      const std::size_t text = line.find_first_not_of(" \t");
      const bool command = text != std::string::npos && line.compare(text, 2, "::") == 0;
      if (command && !ours.empty() && line.rfind(ours, 0) == 0) {
        ++commands;
      } else {
        EXPECT_FALSE(command) << args << "\n" << line;
      }
      EXPECT_EQ(line.find("##["), std::string::npos) << args << "\n" << line;
    }
    if (!ours.empty()) {
      EXPECT_GT(commands, 0u) << args << "\n" << r.output;
    }
    EXPECT_EQ(r.output.find('\x1b'), std::string::npos) << args;
    EXPECT_EQ(r.output.find('\0'), std::string::npos) << args;
    EXPECT_EQ(r.output.find("\xc2\x9b"), std::string::npos) << args;      // C1 CSI
    EXPECT_EQ(r.output.find("\xe2\x80\xae"), std::string::npos) << args;  // U+202E
    EXPECT_EQ(r.output.find("\xe2\x81\xa6"), std::string::npos) << args;  // U+2066
    ++printers_;
    return r;
  }

  int printers_ = 0;
};

TEST_F(WorkflowCommands, NoPrinterLetsAReportStartOne) {
  const std::string base = write("base.json", hostile_report(3));
  const std::string head = write("head.json", hostile_report(5));
  const std::string bounds = path("bounds.json");
  const std::string a = kAllocgate + " ";

  // diff --update: the changed cases and the toolchain.
  Result r = expect_harmless(a + "diff --update --bounds " + bounds + " " + base);
  ASSERT_EQ(r.code, 0) << r.output;
  // The gate, in each of its outputs: a regression per case, with its sites and hints.
  r = expect_harmless(a + "diff --bounds " + bounds + " " + head);
  EXPECT_EQ(r.code, 1) << r.output;
  expect_harmless(a + "diff --markdown --bounds " + bounds + " " + head);
  r = expect_harmless("GITHUB_ACTIONS=true " + a + "diff --bounds " + bounds + " " + head, "::error ");
  EXPECT_EQ(r.code, 1) << r.output;
  expect_harmless(a + "diff --strict --bounds " + bounds + " " + head);
  expect_harmless(a + "compare " + base + " " + head);
  expect_harmless(a + "compare --markdown " + base + " " + head);
  expect_harmless(a + "table " + head);
  expect_harmless(a + "export " + head);
  expect_harmless(a + "merge --out - " + base + " " + head);
  const std::string db = path("history.db");
  expect_harmless(a + "history --db " + db + " add " + base);
  expect_harmless(a + "history --db " + db + " show");
  expect_harmless(a + "history --db " + db + " show --markdown");
  // Errors name what they read: a hostile file name, a hostile case name asked for.
  expect_harmless(a + "diff --bounds " + bounds + " '" + path("::error::missing") + "'");
  expect_harmless(a + "diff --bounds " + bounds + " '" + path("##[error]missing") + "'");
  expect_harmless(a + "profile '::add-mask::x'");
  expect_harmless(a + "loop '##[error]x'");
  EXPECT_EQ(printers_, 17);
}

}  // namespace
