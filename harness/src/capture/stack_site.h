// SPDX-License-Identifier: Apache-2.0
// Internal: one stack's site, symbolized as a capture's are (symbolize.cpp):
// for what names a single allocation after the fact, as a failure sweep's
// failing one.
#pragma once

#include <string_view>

#include "allocgate/sites.h"

namespace allocgate::detail {

/// The profile of one allocation whose stack is `frames` (return addresses,
/// innermost first, as unwind_stack() gives them from its caller): its
/// site is the program's own innermost frame, as in any capture's profile.
SiteProfile profile_of_stack(void* const* frames, int depth, std::string_view source_root);

}  // namespace allocgate::detail
