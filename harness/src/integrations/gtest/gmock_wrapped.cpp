// SPDX-License-Identifier: Apache-2.0
// gMock's functions that allocgate::gtest wraps (ALLOCGATE_GMOCK_WRAPPED in
// cmake/allocgateIntegrations.cmake): its bookkeeping, run paused as
// GoogleTest's own is, so that what a test's mocks cost does not depend on
// where the checkout is, nor on which test used gMock first.
//  - LogWithLocation: every EXPECT_CALL and ON_CALL formats its file's path
//    and line into a message, logged or not.
//  - the registry of mock objects and their functions (Register,
//    RegisterOwner, RegisterUseByOnCallOrExpectCall, UnregisterLocked);
//  - the reaction of a NiceMock, NaggyMock or StrictMock to uninteresting
//    calls, in a map whose buckets grow on the first one's registration and
//    stay;
//  - sequences: InSequence, and each expectation added to one (the holder
//    of the thread's implicit sequence is made on its first use, and kept).
// What the test's own code builds through gMock's templates (each
// expectation, its matchers and actions, the mock's calls) stays the test's.
//
// This file enters a program's link only when the program calls one of them,
// that is when it uses gMock: the real functions are referenced weakly, so
// each GoogleTest release links whichever spelling it has (the reactions took
// a const void* up to 1.11, a uintptr_t since).

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "allocgate/guards.h"

namespace testing {
class Expectation;
class Sequence;
namespace internal {
class UntypedFunctionMockerBase;
}  // namespace internal
}  // namespace testing

// gMock's implicit sequence: EXPECT_CALL's template adds each expectation
// to it, and the first call on a thread allocates that thread's holder.
// Built here, paused, in the wrapped call that comes just before.
extern ::testing::internal::ThreadLocal<::testing::Sequence*> allocgate_gmock_implicit_sequence __asm__(
    "_ZN7testing8internal25g_gmock_implicit_sequenceE") __attribute__((weak));

using Mocker = ::testing::internal::UntypedFunctionMockerBase;

// Declares gMock's function (weak) and defines its wrapper, which calls it
// paused. A member function is called as a function whose first argument is
// `this`; gMock's LogSeverity is an int.
#define ALLOCGATE_GMOCK_PAUSED(name, parameters, arguments, symbol)     \
  namespace allocgate::testing::detail::gmock_real {                    \
  void name parameters __asm__("__real_" symbol) __attribute__((weak)); \
  }                                                                     \
  namespace allocgate::testing::detail::gmock_wrapped {                 \
  void name parameters __asm__("__wrap_" symbol);                       \
  void name parameters {                                                \
    const PauseCounting pause;                                          \
    prepare();                                                          \
    gmock_real::name arguments;                                         \
  }                                                                     \
  }

namespace allocgate::testing::detail::gmock_wrapped {
namespace {
void prepare() {
  if (&allocgate_gmock_implicit_sequence != nullptr) allocgate_gmock_implicit_sequence.get();
}
}  // namespace
}  // namespace allocgate::testing::detail::gmock_wrapped

#ifdef _LIBCPP_VERSION
#define ALLOCGATE_GMOCK_LOG_WITH_LOCATION                                                     \
  "_ZN7testing8internal15LogWithLocationENS0_11LogSeverityEPKciRKNSt3__112basic_stringIcNS4_" \
  "11char_traitsIcEENS4_9allocatorIcEEEE"
#else
#define ALLOCGATE_GMOCK_LOG_WITH_LOCATION \
  "_ZN7testing8internal15LogWithLocationENS0_11LogSeverityEPKciRKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE"
#endif

ALLOCGATE_GMOCK_PAUSED(log_with_location, (int severity, const char* file, int line, const std::string& message),
                       (severity, file, line, message), ALLOCGATE_GMOCK_LOG_WITH_LOCATION)
ALLOCGATE_GMOCK_PAUSED(register_mocker, (const void* mock, Mocker* mocker), (mock, mocker),
                       "_ZN7testing4Mock8RegisterEPKvPNS_8internal25UntypedFunctionMockerBaseE")
ALLOCGATE_GMOCK_PAUSED(register_owner, (Mocker * self, const void* mock), (self, mock),
                       "_ZN7testing8internal25UntypedFunctionMockerBase13RegisterOwnerEPKv")
ALLOCGATE_GMOCK_PAUSED(register_use, (const void* mock, const char* file, int line), (mock, file, line),
                       "_ZN7testing4Mock31RegisterUseByOnCallOrExpectCallEPKvPKci")
ALLOCGATE_GMOCK_PAUSED(unregister_locked, (Mocker * mocker), (mocker),
                       "_ZN7testing4Mock16UnregisterLockedEPNS_8internal25UntypedFunctionMockerBaseE")
ALLOCGATE_GMOCK_PAUSED(in_sequence, (void* self), (self), "_ZN7testing10InSequenceC1Ev")
ALLOCGATE_GMOCK_PAUSED(in_sequence_base, (void* self), (self), "_ZN7testing10InSequenceC2Ev")
ALLOCGATE_GMOCK_PAUSED(in_sequence_destructor, (void* self), (self), "_ZN7testing10InSequenceD1Ev")
ALLOCGATE_GMOCK_PAUSED(in_sequence_base_destructor, (void* self), (self), "_ZN7testing10InSequenceD2Ev")
ALLOCGATE_GMOCK_PAUSED(add_expectation, (const void* self, const ::testing::Expectation& expectation),
                       (self, expectation), "_ZNK7testing8Sequence14AddExpectationERKNS_11ExpectationE")
// 1.12 and later
ALLOCGATE_GMOCK_PAUSED(allow_uninteresting, (std::uintptr_t mock), (mock),
                       "_ZN7testing4Mock23AllowUninterestingCallsEm")
ALLOCGATE_GMOCK_PAUSED(warn_uninteresting, (std::uintptr_t mock), (mock), "_ZN7testing4Mock22WarnUninterestingCallsEm")
ALLOCGATE_GMOCK_PAUSED(fail_uninteresting, (std::uintptr_t mock), (mock), "_ZN7testing4Mock22FailUninterestingCallsEm")
ALLOCGATE_GMOCK_PAUSED(unregister_reaction, (std::uintptr_t mock), (mock), "_ZN7testing4Mock22UnregisterCallReactionEm")
// 1.11
ALLOCGATE_GMOCK_PAUSED(allow_uninteresting_1_11, (const void* mock), (mock),
                       "_ZN7testing4Mock23AllowUninterestingCallsEPKv")
ALLOCGATE_GMOCK_PAUSED(warn_uninteresting_1_11, (const void* mock), (mock),
                       "_ZN7testing4Mock22WarnUninterestingCallsEPKv")
ALLOCGATE_GMOCK_PAUSED(fail_uninteresting_1_11, (const void* mock), (mock),
                       "_ZN7testing4Mock22FailUninterestingCallsEPKv")
ALLOCGATE_GMOCK_PAUSED(unregister_reaction_1_11, (const void* mock), (mock),
                       "_ZN7testing4Mock22UnregisterCallReactionEPKv")
