// SPDX-License-Identifier: Apache-2.0
// The names a Catch2 or doctest suite's runs get in the report, where a
// name is what the gate keys a bound by: each run's name is its own, and
// the same whatever order, shard or filter the tests run in.
//  - A run is named by its test case, then the sections or subcases it
//    entered, joined by "/"; a path a test case runs again (a generator's
//    values) gets " #2", " #3" in the order that test case runs them.
//  - Each part is escaped so that the joins and the numbers are the only
//    ones: "\" as "\\", "/" as "\/", a part's own closing " #N" as " \#N",
//    and a byte that is not UTF-8 as "\xHH" (two names differing in such a
//    byte stay two).
//  - Two test cases whose runs would still share a name (doctest takes two
//    test cases of one name from two files) are a collision, refused in one
//    line naming both: the report is not written, and the run fails.
// Framework-free: prebuilt in allocgate::integration_support.
#pragma once

#include <map>
#include <string>
#include <string_view>

namespace allocgate::integrations {

/// One part of a run's name, escaped as said above.
std::string run_name_part(std::string_view part);

class RunNames {
 public:
  /// A test case begins (`where`: its file:line, for a collision's
  /// message); its runs are numbered from here.
  void test_case_begins(std::string where);

  /// The name of the test case's next run whose path (parts escaped by
  /// run_name_part, joined by "/") is `path`.
  std::string next(const std::string& path);

  /// The first collision met, in one line; empty when there was none.
  const std::string& collision() const { return collision_; }

 private:
  std::string where_;
  std::map<std::string, int> runs_of_path_;    // in this test case
  std::map<std::string, std::string> owners_;  // every name given: where its test case is
  std::string collision_;
};

}  // namespace allocgate::integrations
