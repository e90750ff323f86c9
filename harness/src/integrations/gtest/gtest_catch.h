// SPDX-License-Identifier: Apache-2.0
// Every catch of the program, seen: gtest_catch.cpp defines
// __cxa_begin_catch and resolve_begin_catch; the listener
// (gtest_counting.cpp) defines exception_caught, which the catch tells. The
// two files meet here, so neither includes the other's header.
#pragma once

namespace allocgate::testing::detail {

/// An exception is caught (__cxa_begin_catch), `object` the thrown object:
/// the figures are noted, so that when it was GoogleTest's catch of an
/// exception a test threw (gtest_catch.cpp's __cxa_begin_catch, which a
/// static and a shared GoogleTest both reach), what GoogleTest allocates to
/// record that failure is taken out, as a failed assertion's recording is
/// never counted.
/// `where`: the catching code (the return address of __cxa_begin_catch):
/// GoogleTest's own catch of an exception out of a test's body ends a
/// sweep's --allocgate_fail_rest, whose failures are the test's code's.
void exception_caught(const void* object, const void* where) noexcept;

/// Looks up the C++ runtime's __cxa_begin_catch (gtest_catch.cpp), before
/// the tests run, so that no test's catch pays for it; and links the
/// program's definition in, whichever libraries its catches are in.
void resolve_begin_catch() noexcept;

}  // namespace allocgate::testing::detail
