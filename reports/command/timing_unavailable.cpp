// SPDX-License-Identifier: Apache-2.0
// The timing pass of a build without Google Benchmark (timing.h): none.

#include <stdexcept>

#include "timing.h"

namespace allocgate::reports {

bool timing_available() { return false; }

MachineInfo time_cases(const std::vector<const workloads::CaseRef*>&, const RunOptions&, std::vector<CaseResult>&,
                       const CaseTimed&) {
  throw std::logic_error("time_cases: this allocgate was built without Google Benchmark");
}

}  // namespace allocgate::reports
