// SPDX-License-Identifier: Apache-2.0
// Internal: allocgate::gtest's definitions of the C++ runtime's static guards
// (static_guard.cpp), through which a static's blocks are told from a leak.
#pragma once

namespace allocgate::testing::detail {

/// Finds the runtime's own guard functions now, before any test runs, so that
/// no test's first static pays for (or allocates in) the lookup. Calling it
/// also links static_guard.cpp into every counted program, whether or not its
/// own code has a static.
void resolve_static_guards() noexcept;

}  // namespace allocgate::testing::detail
