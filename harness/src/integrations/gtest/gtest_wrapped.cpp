// SPDX-License-Identifier: Apache-2.0
// GoogleTest's functions that allocgate::gtest wraps (listed in
// cmake/allocgateIntegrations.cmake, ALLOCGATE_GTEST_WRAPPED): InitGoogleTest and
// UnitTest::Run, which install the counting; testing::Test's constructor,
// where a test's counting begins; and the functions of GoogleTest's own
// that a test's code calls into, which run paused so that their allocations
// are not the test's.

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>
#include <string_view>

#include "allocgate/guards.h"
#include "counting/block_tracker.h"
#include "integrations/core/wrapped.h"
#include "integrations/gtest/gtest_counting.h"

namespace ag = allocgate::testing::detail;
using ::testing::Message;
using ::testing::TestPartResult;
using ::testing::UnitTest;
using ::testing::internal::AssertHelper;

// A program whose tests allocgate::gtest counts runs with block headers
// (counting/hook.cpp): a test's leaks are told by a tag in each block's
// header, with no table of blocks. Defined here: the wrapped functions below
// bring this file into every such program's link, and only into those.
extern "C" const bool allocgate_gtest_linked = true;

#define ALLOCGATE_GTEST_WRAPPED(result, name, parameters, symbol) \
  ALLOCGATE_WRAPPED_IN(allocgate::testing::detail, result, name, parameters, symbol)

ALLOCGATE_GTEST_WRAPPED(void, init, (int* argc, char** argv), "_ZN7testing14InitGoogleTestEPiPPc")
ALLOCGATE_GTEST_WRAPPED(int, run, (UnitTest * self), "_ZN7testing8UnitTest3RunEv")
ALLOCGATE_GTEST_WRAPPED(void, test_constructor, (::testing::Test * self), "_ZN7testing4TestC2Ev")
ALLOCGATE_GTEST_WRAPPED(void, assert_helper,
                        (AssertHelper * self, TestPartResult::Type type, const char* file, int line,
                         const char* message),
                        "_ZN7testing8internal12AssertHelperC1ENS_14TestPartResult4TypeEPKciS5_")
ALLOCGATE_GTEST_WRAPPED(void, assert_helper_destructor, (AssertHelper * self), "_ZN7testing8internal12AssertHelperD1Ev")
ALLOCGATE_GTEST_WRAPPED(void, assert_helper_assign, (const AssertHelper* self, const Message& message),
                        "_ZNK7testing8internal12AssertHelperaSERKNS_7MessageE")
ALLOCGATE_GTEST_WRAPPED(void, message, (Message * self), "_ZN7testing7MessageC1Ev")
ALLOCGATE_GTEST_WRAPPED(bool, always_true, (), "_ZN7testing8internal10AlwaysTrueEv")
ALLOCGATE_GTEST_WRAPPED(void, scoped_trace_destructor, (::testing::ScopedTrace * self), "_ZN7testing11ScopedTraceD1Ev")
// These three spell the standard library's std::string in their names
// (libstdc++'s std::__cxx11, libc++'s std::__1): see CMakeLists.txt.
#ifdef _LIBCPP_VERSION
#define ALLOCGATE_GTEST_STRING "NSt3__112basic_stringIcNS3_11char_traitsIcEENS3_9allocatorIcEEEE"
#define ALLOCGATE_GTEST_GET_STRING "_ZNK7testing7Message9GetStringEv"
#define ALLOCGATE_GTEST_ASSERT_HELPER_OF_VIEWS                                                            \
  "_ZN7testing8internal12AssertHelperC1ENS_14TestPartResult4TypeENSt3__117basic_string_viewIcNS4_11char_" \
  "traitsIcEEEEiS8_"
#define ALLOCGATE_GTEST_EQ_FAILURE \
  "_ZN7testing8internal9EqFailureEPKcS2_RKNSt3__112basic_stringIcNS3_11char_traitsIcEENS3_9allocatorIcEEEESB_b"
#define ALLOCGATE_GTEST_BOOL_FAILURE \
  "_ZN7testing8internal30GetBoolAssertionFailureMessageERKNS_15AssertionResultEPKcS5_S5_"
#define ALLOCGATE_GTEST_STREAM_TO_STRING \
  "_ZN7testing8internal20StringStreamToStringEPNSt3__118basic_stringstreamIcNS1_11char_traitsIcEENS1_9allocatorIcEEEE"
#define ALLOCGATE_GTEST_CREATE_DEATH_TEST                                                                   \
  "_ZN7testing8internal9DeathTest6CreateEPKcNS_7MatcherIRKNSt3__112basic_stringIcNS5_11char_traitsIcEENS5_" \
  "9allocatorIcEEEEEES3_iPPS1_"
#else
#define ALLOCGATE_GTEST_STRING "NSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE"
#define ALLOCGATE_GTEST_GET_STRING "_ZNK7testing7Message9GetStringB5cxx11Ev"
#define ALLOCGATE_GTEST_ASSERT_HELPER_OF_VIEWS \
  "_ZN7testing8internal12AssertHelperC1ENS_14TestPartResult4TypeESt17basic_string_viewIcSt11char_traitsIcEEiS7_"
#define ALLOCGATE_GTEST_EQ_FAILURE \
  "_ZN7testing8internal9EqFailureEPKcS2_RKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEESA_b"
#define ALLOCGATE_GTEST_BOOL_FAILURE \
  "_ZN7testing8internal30GetBoolAssertionFailureMessageB5cxx11ERKNS_15AssertionResultEPKcS5_S5_"
#define ALLOCGATE_GTEST_STREAM_TO_STRING \
  "_ZN7testing8internal20StringStreamToStringEPNSt7__cxx1118basic_stringstreamIcSt11char_traitsIcESaIcEEE"
#define ALLOCGATE_GTEST_CREATE_DEATH_TEST                                                       \
  "_ZN7testing8internal9DeathTest6CreateEPKcNS_7MatcherIRKNSt7__cxx1112basic_stringIcSt11char_" \
  "traitsIcESaIcEEEEES3_iPPS1_"
#endif
ALLOCGATE_GTEST_WRAPPED(void, push_trace,
                        (::testing::ScopedTrace * self, const char* file, int line, std::string message),
                        "_ZN7testing11ScopedTrace9PushTraceEPKci" ALLOCGATE_GTEST_STRING)
ALLOCGATE_GTEST_WRAPPED(std::string, get_string, (const Message* self), ALLOCGATE_GTEST_GET_STRING)
// GoogleTest 1.18's AssertHelper of string_views: an older GoogleTest has
// none, and its programs never call it (weak: no definition needed).
namespace allocgate::testing::detail::real {
__attribute__((weak)) void assert_helper_of_views(
    AssertHelper* self, TestPartResult::Type type, std::string_view file, int line,
    std::string_view message) __asm__("__real_" ALLOCGATE_GTEST_ASSERT_HELPER_OF_VIEWS);
}  // namespace allocgate::testing::detail::real
namespace allocgate::testing::detail::wrapped {
void assert_helper_of_views(AssertHelper* self, TestPartResult::Type type, std::string_view file, int line,
                            std::string_view message) __asm__("__wrap_" ALLOCGATE_GTEST_ASSERT_HELPER_OF_VIEWS);
}  // namespace allocgate::testing::detail::wrapped
// What an assertion's failure message is built with: GoogleTest's own
// functions, which the assertion macros' templates call, each declared and
// defined here to run paused. The value each side prints as is formatted
// before, by templates compiled into the test's code: a value longer than a
// string's own 15 characters costs the test an allocation there
// (PrintToString's).
#define ALLOCGATE_GTEST_PAUSED(result, name, parameters, arguments, symbol) \
  ALLOCGATE_GTEST_WRAPPED(result, name, parameters, symbol)                 \
  result allocgate::testing::detail::wrapped::name parameters {             \
    const PauseCounting pause;                                              \
    return real::name arguments;                                            \
  }
using ::testing::AssertionResult;
ALLOCGATE_GTEST_PAUSED(AssertionResult, eq_failure,
                       (const char* lhs, const char* rhs, const std::string& lhs_value, const std::string& rhs_value,
                        bool ignoring_case),
                       (lhs, rhs, lhs_value, rhs_value, ignoring_case), ALLOCGATE_GTEST_EQ_FAILURE)
ALLOCGATE_GTEST_PAUSED(std::string, bool_failure,
                       (const AssertionResult& result, const char* expression, const char* actual,
                        const char* expected),
                       (result, expression, actual, expected), ALLOCGATE_GTEST_BOOL_FAILURE)
ALLOCGATE_GTEST_PAUSED(std::string, stream_to_string, (std::stringstream * stream), (stream),
                       ALLOCGATE_GTEST_STREAM_TO_STRING)
ALLOCGATE_GTEST_PAUSED(AssertionResult, assertion_failure, (const Message& message), (message),
                       "_ZN7testing16AssertionFailureERKNS_7MessageE")
ALLOCGATE_GTEST_PAUSED(AssertionResult, float_le, (const char* e1, const char* e2, float v1, float v2),
                       (e1, e2, v1, v2), "_ZN7testing7FloatLEEPKcS1_ff")
ALLOCGATE_GTEST_PAUSED(AssertionResult, double_le, (const char* e1, const char* e2, double v1, double v2),
                       (e1, e2, v1, v2), "_ZN7testing8DoubleLEEPKcS1_dd")
ALLOCGATE_GTEST_PAUSED(AssertionResult, str_eq, (const char* e1, const char* e2, const char* s1, const char* s2),
                       (e1, e2, s1, s2), "_ZN7testing8internal14CmpHelperSTREQEPKcS2_S2_S2_")
ALLOCGATE_GTEST_PAUSED(AssertionResult, wide_str_eq,
                       (const char* e1, const char* e2, const wchar_t* s1, const wchar_t* s2), (e1, e2, s1, s2),
                       "_ZN7testing8internal14CmpHelperSTREQEPKcS2_PKwS4_")
ALLOCGATE_GTEST_PAUSED(AssertionResult, str_ne, (const char* e1, const char* e2, const char* s1, const char* s2),
                       (e1, e2, s1, s2), "_ZN7testing8internal14CmpHelperSTRNEEPKcS2_S2_S2_")
ALLOCGATE_GTEST_PAUSED(AssertionResult, wide_str_ne,
                       (const char* e1, const char* e2, const wchar_t* s1, const wchar_t* s2), (e1, e2, s1, s2),
                       "_ZN7testing8internal14CmpHelperSTRNEEPKcS2_PKwS4_")
ALLOCGATE_GTEST_PAUSED(AssertionResult, str_case_eq, (const char* e1, const char* e2, const char* s1, const char* s2),
                       (e1, e2, s1, s2), "_ZN7testing8internal18CmpHelperSTRCASEEQEPKcS2_S2_S2_")
ALLOCGATE_GTEST_PAUSED(AssertionResult, str_case_ne, (const char* e1, const char* e2, const char* s1, const char* s2),
                       (e1, e2, s1, s2), "_ZN7testing8internal18CmpHelperSTRCASENEEPKcS2_S2_S2_")
ALLOCGATE_GTEST_PAUSED(AssertionResult, double_near,
                       (const char* e1, const char* e2, const char* e3, double v1, double v2, double error),
                       (e1, e2, e3, v1, v2, error), "_ZN7testing8internal20DoubleNearPredFormatEPKcS2_S2_ddd")
ALLOCGATE_GTEST_WRAPPED(bool, create_death_test,
                        (const char* statement, ::testing::Matcher<const std::string&> matcher, const char* file,
                         int line, ::testing::internal::DeathTest** test),
                        ALLOCGATE_GTEST_CREATE_DEATH_TEST)

namespace allocgate::testing::detail::wrapped {

void init(int* argc, char** argv) {
  if (argc != nullptr && argv != nullptr && !take_counting_flags(argc, argv, std::cerr)) std::exit(1);
  real::init(argc, argv);
}

int run(UnitTest* self) {
  // This frame lives while every test runs; below it, GoogleTest's runner
  // and the tests come and go over the same stack.
  install_counting(__builtin_frame_address(0));
  const int failed = real::run(self);
  if (!write_counted_report()) return 1;
  return failed;
}

void test_constructor(::testing::Test* self) {
  test_about_to_begin();
  fixture_constructed(self);
  const PauseCounting pause;  // testing::Test's own: it saves GoogleTest's flags
  real::test_constructor(self);
}

// GoogleTest's own, paused: what the assertion macros call on a failure.
void assert_helper(AssertHelper* self, TestPartResult::Type type, const char* file, int line, const char* message) {
  const PauseCounting pause;
  real::assert_helper(self, type, file, line, message);
}
void assert_helper_of_views(AssertHelper* self, TestPartResult::Type type, std::string_view file, int line,
                            std::string_view message) {
  const PauseCounting pause;
  real::assert_helper_of_views(self, type, file, line, message);
}
void assert_helper_destructor(AssertHelper* self) {
  const PauseCounting pause;
  real::assert_helper_destructor(self);
}
void assert_helper_assign(const AssertHelper* self, const Message& message) {
  const PauseCounting pause;  // recording the failure, and every listener's printing of it
  real::assert_helper_assign(self, message);
}
void message(Message* self) {
  const PauseCounting pause;
  real::message(self);
}
void scoped_trace_destructor(::testing::ScopedTrace* self) {
  const PauseCounting pause;
  real::scoped_trace_destructor(self);
}
void push_trace(::testing::ScopedTrace* self, const char* file, int line, std::string message) {
  const PauseCounting pause;
  real::push_trace(self, file, line, std::move(message));
}
std::string get_string(const Message* self) {
  const PauseCounting pause;
  return real::get_string(self);
}
// Called by GoogleTest's statement macros before their statement; a death
// assertion builds its matcher right after, in the test's own code.
bool always_true() {
  statement_begins();
  return real::always_true();
}

bool create_death_test(const char* statement, ::testing::Matcher<const std::string&> matcher, const char* file,
                       int line, ::testing::internal::DeathTest** test) {
  death_test_started();  // the rest of the test runs paused in this process
  return real::create_death_test(statement, std::move(matcher), file, line, test);
}

}  // namespace allocgate::testing::detail::wrapped
