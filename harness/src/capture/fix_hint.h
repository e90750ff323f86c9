// SPDX-License-Identifier: Apache-2.0
// The usual fix for an allocation, read off the standard library's frames
// between the program's line and the allocation: a vector or string that
// grows, formatting through to_string or a stream, a shared_ptr made from new,
// a std::function whose callable does not fit its buffer, a thread started,
// a regex compiled per call, a node per element of a map or set, a temporary std::string.
#pragma once

#include <string>
#include <vector>

#include "allocgate/site_frame.h"

namespace allocgate::detail {

/// `under`: the frames from the allocation up to the site, innermost first,
/// not the site itself. `temporary`: every allocation of the stack was freed
/// before the thread's next. Empty when no pattern fits.
std::string fix_hint(const std::vector<SiteFrame>& under, bool temporary);

}  // namespace allocgate::detail
