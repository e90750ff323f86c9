// SPDX-License-Identifier: Apache-2.0
/// @file
/// Everything of the harness core: scopes, measure, allocs_per_run, guards and
/// failure injection. The GoogleTest and Google Benchmark integrations have
/// headers of their own (allocgate/gtest.h, allocgate/benchmark.h).
#pragma once

#include "allocgate/standard.h"  // C++17, said in one line

#include "allocgate/failure_injection.h"
#include "allocgate/guards.h"
#include "allocgate/measure.h"
#include "allocgate/scope.h"
#include "allocgate/stats.h"
