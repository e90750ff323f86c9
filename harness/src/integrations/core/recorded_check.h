// SPDX-License-Identifier: Apache-2.0
// A statement's figures against its bound in the bounds file (framework-free:
// EXPECT_ALLOCATIONS_WITHIN_BOUNDS's check, gtest_bounds.cpp).
#pragma once

#include <string>

#include "allocgate/sites.h"
#include "allocgate/stats.h"

namespace allocgate::integrations {

/// Checks `measured` against the bound recorded for `name` under
/// `toolchain` in ALLOCGATE_BOUNDS (or `default_file`); with
/// ALLOCGATE_UPDATE=1, records it first (bounds only tighten). Returns the
/// failure's message, empty when the bound holds.
std::string check_recorded_bound(const char* statement, const AllocationStats& measured, const CaptureSites& sites,
                                 const char* name, const char* toolchain, const char* default_file);

}  // namespace allocgate::integrations
