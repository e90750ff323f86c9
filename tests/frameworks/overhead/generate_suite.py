#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes a test suite of N test cases for one framework, as suites are
written: each test builds a few strings and a vector and checks them, and
every third has two sections (subcases; under GoogleTest, which has none,
its two parts in turn). For run_overhead.sh, which times
the suite with its plain main and counted by allocgate.

Usage: generate_suite.py catch2_v3|catch2_v2|doctest|gtest N OUT.cpp"""
import sys

HEADERS = {
    "catch2_v3": "#include <catch2/catch_test_macros.hpp>\n",
    "catch2_v2": "#define CATCH_CONFIG_MAIN\n#include <catch2/catch.hpp>\n",
    "doctest": "#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN\n#include <doctest/doctest.h>\n",
    "gtest": "#include <gtest/gtest.h>\n",
}
SECTION = {"catch2_v3": "SECTION", "catch2_v2": "SECTION", "doctest": "SUBCASE"}


def gtest(i: int) -> str:
    """The same test as GoogleTest's, which has no sections: both run in turn."""
    body = [
        f"TEST(Generated, Test{i}BuildsAndChecksItsValues) {{",
        f"  std::string name(40 + {i % 7}, 'n');",
        "  std::vector<int> values;",
        f"  for (int k = 0; k < {4 + i % 5}; ++k) values.push_back(k);",
        "  EXPECT_GE(name.size(), 40u);",
        "  EXPECT_FALSE(values.empty());",
        "  ASSERT_EQ(values.front(), 0);",
    ]
    if i % 3 == 0:
        body += [
            '  name += " and more, long enough to grow";',
            "  EXPECT_GT(name.size(), 40u);",
            "  const std::string copy = name;",
            "  EXPECT_EQ(copy, name);",
        ]
    body.append("}")
    return "\n".join(body)


def test(framework: str, i: int) -> str:
    if framework == "gtest":
        return gtest(i)
    section = SECTION[framework]
    body = [
        f'TEST_CASE("test {i} builds and checks its values") {{',
        f"  std::string name(40 + {i % 7}, 'n');",
        "  std::vector<int> values;",
        f"  for (int k = 0; k < {4 + i % 5}; ++k) values.push_back(k);",
        "  CHECK(name.size() >= 40);",
        "  CHECK(!values.empty());",
        f"  REQUIRE(values.front() == 0);",
    ]
    if i % 3 == 0:
        body += [
            f'  {section}("appending grows the name") {{',
            '    name += " and more, long enough to grow";',
            "    CHECK(name.size() > 40);",
            "  }",
            f'  {section}("a copy is equal") {{',
            "    const std::string copy = name;",
            "    CHECK(copy == name);",
            "  }",
        ]
    body.append("}")
    return "\n".join(body)


def main() -> None:
    framework, count, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    parts = [HEADERS[framework], "#include <string>\n#include <vector>\n"]
    parts += [test(framework, i) for i in range(count)]
    with open(out, "w", encoding="utf-8") as f:
        f.write("\n".join(parts) + "\n")


if __name__ == "__main__":
    main()
