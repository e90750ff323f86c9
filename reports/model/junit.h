// SPDX-License-Identifier: Apache-2.0
// The gate's result as JUnit XML (`allocgate diff --junit FILE`), the test
// report GitLab CI, Jenkins and most other CIs read: one test case per gated
// case.
#pragma once

#include <string>

#include "gate.h"

namespace allocgate::reports {

/// One <testsuite> of one <testcase> per row: a regression or a count that
/// varies is a <failure> whose message is the gate's line and whose text adds
/// the top sites; an errored benchmark an <error>; a case without a bound, a
/// bound without a case, an unmeasured or skipped case <skipped>, or a
/// <failure> under strict (where the gate fails on them too). Names and
/// messages from the report are escaped for a terminal first, so that no
/// character XML 1.0 forbids reaches the file.
std::string junit_xml(const GateResult& result, bool strict);

}  // namespace allocgate::reports
