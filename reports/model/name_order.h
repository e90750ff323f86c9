// SPDX-License-Identifier: Apache-2.0
// The order cases are listed in: by name, with the numbers in a name compared
// as numbers, so that a ->Range family reads as Google Benchmark ran it
// (BM_Copy/8, /64, /512, /4096) and not as text sorts it (/4096 before /512).
#pragma once

#include <string_view>

namespace allocgate::reports {

/// Whether a comes before b: runs of digits compare by value (then by length,
/// so "07" after "7"), everything else byte by byte. A strict weak order.
bool name_before(std::string_view a, std::string_view b);

}  // namespace allocgate::reports
