// SPDX-License-Identifier: Apache-2.0
// The doctest.h of a bundled header directory (VENDORED_DOCTEST) when the
// suite has one, as nlohmann/json's does; else doctest::doctest's.
#pragma once
#if __has_include("doctest.h")
#include "doctest.h"
#else
#include <doctest/doctest.h>
#endif
