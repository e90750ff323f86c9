// SPDX-License-Identifier: Apache-2.0
// Test support for the tests built twice, with and without
// allocgate::block_headers: each asserts what its layout promises.
#pragma once

#include "allocgate/stats.h"

namespace allocgate::test {

// True when the test is linked with allocgate::block_headers, so that every
// free's size is known.
inline bool block_headers() { return size_tracking() == SizeTracking::block_headers; }

}  // namespace allocgate::test
