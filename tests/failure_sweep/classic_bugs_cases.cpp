// SPDX-License-Identifier: Apache-2.0
// The classic exception-safety bugs (classic_bugs.h) as a Catch2 or a
// doctest suite is written (their TEST_CASE and CHECK are spelled alike),
// the test cases named as the GoogleTest suite's tests: built by
// tests/frameworks/catch2 (Catch2 v3, with allocgate::catch2_main), with
// CLASSIC_BUGS_CATCH2_V2 by tests/frameworks/catch2_v2 and with
// CLASSIC_BUGS_DOCTEST by tests/frameworks/doctest (allocgate::catch2,
// allocgate::doctest).

#if defined(CLASSIC_BUGS_DOCTEST)
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
#elif defined(CLASSIC_BUGS_CATCH2_V2)  // with the main of tests/frameworks/catch2_v2/tutorial_main.cpp
#include <catch2/catch.hpp>
#else
#include <catch2/catch_test_macros.hpp>
#endif

#include "classic_bugs.h"

using namespace classic_bugs;

TEST_CASE("ClassicBugs.RawNewBeforeAThrowingPushBack") {
  register_widget();
  REQUIRE(g_registry.size() == 1u);
  clear_registry();
}

TEST_CASE("ClassicBugs.ANoexceptFunctionThatAllocates") { CHECK(describe(7) == 52u); }

TEST_CASE("ClassicBugs.ACatchAllThatReturnsADefault") { CHECK(length_or_zero(100) == 100u); }

TEST_CASE("ClassicBugs.ASizeUpdatedBeforeTheAllocation") { CHECK(bag_stays_whole()); }

TEST_CASE("ClassicBugs.ANothrowNullUsed") { CHECK(first_of_numbers() == 1); }

TEST_CASE("RetryLoop.RetriesOnBadAlloc") { CHECK(retried().size() == 100u); }

TEST_CASE("Clean.EveryFailurePropagates") { CHECK(names_and_widget() == 42u); }

TEST_CASE("Clean.AFailureHandledWithAFallback") { CHECK(values_with_a_fallback() == 1u); }
