// SPDX-License-Identifier: Apache-2.0
// Catch2 v3's functions that allocgate::catch2 wraps (listed in
// cmake/allocgateIntegrations.cmake, ALLOCGATE_CATCH2_WRAPPED). Two bracket
// a test's body: RunContext::invokeActiveTestCase installs Catch2's
// fatal-condition handler just before it and removes it just after, calls
// from another object of libCatch2, which --wrap reaches. The others are
// Catch2's own that the test's code calls into (assertions, sections,
// messages, generators): they run paused, so that what they allocate is
// never the test's.

#include <catch2/catch_message.hpp>
#include <catch2/catch_session.hpp>
#include <catch2/catch_test_macros.hpp>
#include <catch2/generators/catch_generators.hpp>
#include <catch2/interfaces/catch_interfaces_generatortracker.hpp>
#include <catch2/internal/catch_fatal_condition_handler.hpp>
#include <catch2/internal/catch_reusable_string_stream.hpp>

#include <array>
#include <exception>
#include <iostream>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "allocgate/guards.h"
#include "escape.h"
#include "integrations/catch2/catch2_counting.h"
#include "integrations/core/wrapped.h"

// A program whose tests are counted runs with block headers (counting/hook.cpp):
// a test's leaks are told by a tag in each block's header. The same switch
// as allocgate::gtest's; the wrapped functions below bring this file in.
extern "C" const bool allocgate_gtest_linked = true;

namespace c2 = allocgate::catch2::detail;
using allocgate::PauseCounting;
using Catch::AssertionHandler;
using Catch::ITransientExpression;
using Catch::SourceLineInfo;
using Catch::StringRef;

#define ALLOCGATE_CATCH2_WRAPPED(result, name, parameters, symbol) \
  ALLOCGATE_WRAPPED_IN(allocgate::catch2::detail, result, name, parameters, symbol)

ALLOCGATE_CATCH2_WRAPPED(int, apply_command_line, (Catch::Session * self, int argc, const char* const* argv),
                         "_ZN5Catch7Session16applyCommandLineEiPKPKc")
ALLOCGATE_CATCH2_WRAPPED(void, engage, (Catch::FatalConditionHandler * self),
                         "_ZN5Catch21FatalConditionHandler15engage_platformEv")
ALLOCGATE_CATCH2_WRAPPED(void, disengage, (Catch::FatalConditionHandler * self),
                         "_ZN5Catch21FatalConditionHandler18disengage_platformEv")
ALLOCGATE_CATCH2_WRAPPED(
    void, assertion,
    (AssertionHandler * self, StringRef macro, const SourceLineInfo& line, StringRef expression,
     Catch::ResultDisposition::Flags disposition),
    "_ZN5Catch16AssertionHandlerC1ENS_9StringRefERKNS_14SourceLineInfoES1_NS_17ResultDisposition5FlagsE")
ALLOCGATE_CATCH2_WRAPPED(void, handle_expr, (AssertionHandler * self, const ITransientExpression& expression),
                         "_ZN5Catch16AssertionHandler10handleExprERKNS_20ITransientExpressionE")
// Its name spells the standard library's std::string (libstdc++'s
// std::__cxx11, libc++'s std::__1): see cmake/allocgateIntegrations.cmake.
#ifdef _LIBCPP_VERSION
#define ALLOCGATE_CATCH2_HANDLE_MESSAGE                                                                               \
  "_ZN5Catch16AssertionHandler13handleMessageENS_9ResultWas6OfTypeEONSt3__112basic_stringIcNS3_11char_traitsIcEENS3_" \
  "9allocatorIcEEEE"
#else
#define ALLOCGATE_CATCH2_HANDLE_MESSAGE                                                                   \
  "_ZN5Catch16AssertionHandler13handleMessageENS_9ResultWas6OfTypeEONSt7__cxx1112basic_stringIcSt11char_" \
  "traitsIcESaIcEEE"
#endif
ALLOCGATE_CATCH2_WRAPPED(void, handle_message,
                         (AssertionHandler * self, Catch::ResultWas::OfType type, std::string&& message),
                         ALLOCGATE_CATCH2_HANDLE_MESSAGE)
ALLOCGATE_CATCH2_WRAPPED(void, handle_inflight, (AssertionHandler * self),
                         "_ZN5Catch16AssertionHandler33handleUnexpectedInflightExceptionEv")
ALLOCGATE_CATCH2_WRAPPED(void, complete, (AssertionHandler * self), "_ZN5Catch16AssertionHandler8completeEv")
ALLOCGATE_CATCH2_WRAPPED(void, section,
                         (Catch::Section * self, const SourceLineInfo& line, StringRef name, const char* description),
                         "_ZN5Catch7SectionC1ERKNS_14SourceLineInfoENS_9StringRefEPKc")
ALLOCGATE_CATCH2_WRAPPED(void, section_end, (Catch::Section * self), "_ZN5Catch7SectionD1Ev")
ALLOCGATE_CATCH2_WRAPPED(void, scoped_message, (Catch::ScopedMessage * self, Catch::MessageBuilder&& builder),
                         "_ZN5Catch13ScopedMessageC1EONS_14MessageBuilderE")
ALLOCGATE_CATCH2_WRAPPED(void, scoped_message_end, (Catch::ScopedMessage * self), "_ZN5Catch13ScopedMessageD1Ev")
ALLOCGATE_CATCH2_WRAPPED(void, string_stream, (Catch::ReusableStringStream * self),
                         "_ZN5Catch20ReusableStringStreamC1Ev")
ALLOCGATE_CATCH2_WRAPPED(void, string_stream_end, (Catch::ReusableStringStream * self),
                         "_ZN5Catch20ReusableStringStreamD1Ev")
ALLOCGATE_CATCH2_WRAPPED(Catch::IGeneratorTracker*, acquire_generator, (StringRef name, const SourceLineInfo& line),
                         "_ZN5Catch10Generators23acquireGeneratorTrackerENS_9StringRefERKNS_14SourceLineInfoE")
ALLOCGATE_CATCH2_WRAPPED(Catch::IGeneratorTracker*, create_generator,
                         (StringRef name, SourceLineInfo line, Catch::Generators::GeneratorBasePtr&& generator),
                         "_ZN5Catch10Generators22createGeneratorTrackerENS_9StringRefENS_14SourceLineInfoEONS_6Detail10"
                         "unique_ptrINS0_20GeneratorUntypedBaseEEE")

namespace allocgate::catch2::detail::wrapped {

// A stream Catch2 formats a message or a value in (INFO's and CAPTURE's
// text, a StringMaker's) is Catch2's from its construction to its end, and
// so is what the test's code streams into it: its buffer is taken from a
// pool and kept there, grown by whichever test writes the longest text
// first. Streams nest; each pause ends with its own stream. Only a stream
// made in a test's body: Catch2 keeps others for the whole run.
namespace {
struct StreamPause {
  const void* stream = nullptr;
  std::optional<PauseCounting> pause;
};
constexpr int kNestedStreams = 32;
thread_local std::array<StreamPause, kNestedStreams> t_streams;
thread_local int t_streams_open = 0;
thread_local bool t_in_body = false;  // between engage and disengage: a test's body runs on this thread

// What the body left open (a stream that outlives it) is closed with it.
void close_streams() {
  while (t_streams_open > 0) t_streams[--t_streams_open].pause.reset();
}
}  // namespace

int apply_command_line(Catch::Session* self, int argc, const char* const* argv) {
  std::vector<const char*> kept;
  std::string error;
  if (!take_flags(argc, argv, kept, error)) {
    std::cerr << allocgate::files::terminal_text(error) << '\n';
    return 2;
  }
  kept.push_back(nullptr);
  return real::apply_command_line(self, static_cast<int>(kept.size()) - 1, kept.data());
}

void engage(Catch::FatalConditionHandler* self) {
  {
    const PauseCounting pause;
    real::engage(self);
  }
  // Called from the frame that calls the body: this frame and above outlive it.
  body_begins(__builtin_frame_address(0));
  t_in_body = true;
}

void disengage(Catch::FatalConditionHandler* self) {
  t_in_body = false;
  close_streams();
  body_ends(std::uncaught_exceptions() > 0);
  const PauseCounting pause;
  real::disengage(self);
}

void assertion(AssertionHandler* self, StringRef macro, const SourceLineInfo& line, StringRef expression,
               Catch::ResultDisposition::Flags disposition) {
  const PauseCounting pause;
  real::assertion(self, macro, line, expression, disposition);
}
void handle_expr(AssertionHandler* self, const ITransientExpression& expression) {
  const PauseCounting pause;  // a failure's message, its values' string makers
  real::handle_expr(self, expression);
}
void handle_message(AssertionHandler* self, Catch::ResultWas::OfType type, std::string&& message) {
  const PauseCounting pause;
  real::handle_message(self, type, std::move(message));
}
void handle_inflight(AssertionHandler* self) {
  const PauseCounting pause;
  real::handle_inflight(self);
}
void complete(AssertionHandler* self) {
  const PauseCounting pause;
  real::complete(self);
}
void section(Catch::Section* self, const SourceLineInfo& line, StringRef name, const char* description) {
  const PauseCounting pause;  // its tracker, made on the first entry
  real::section(self, line, name, description);
}
void section_end(Catch::Section* self) {
  const PauseCounting pause;
  real::section_end(self);
}
void scoped_message(Catch::ScopedMessage* self, Catch::MessageBuilder&& builder) {
  const PauseCounting pause;
  real::scoped_message(self, std::move(builder));
}
void scoped_message_end(Catch::ScopedMessage* self) {
  const PauseCounting pause;
  real::scoped_message_end(self);
}
void string_stream(Catch::ReusableStringStream* self) {
  const PauseCounting pause;
  real::string_stream(self);
  if (t_in_body && t_streams_open < kNestedStreams) {
    StreamPause& open = t_streams[t_streams_open++];
    open.stream = self;
    open.pause.emplace();
  }
}
void string_stream_end(Catch::ReusableStringStream* self) {
  {
    const PauseCounting pause;
    real::string_stream_end(self);
  }
  if (t_streams_open > 0 && t_streams[t_streams_open - 1].stream == self) t_streams[--t_streams_open].pause.reset();
}
Catch::IGeneratorTracker* acquire_generator(StringRef name, const SourceLineInfo& line) {
  Catch::IGeneratorTracker* tracker = nullptr;
  {
    const PauseCounting pause;
    tracker = real::acquire_generator(name, line);
  }
  if (tracker == nullptr) generator_making_begins();  // GENERATE's own lambda makes it next
  return tracker;
}
Catch::IGeneratorTracker* create_generator(StringRef name, SourceLineInfo line,
                                           Catch::Generators::GeneratorBasePtr&& generator) {
  Catch::IGeneratorTracker* tracker = nullptr;
  {
    const PauseCounting pause;
    tracker = real::create_generator(name, line, std::move(generator));
  }
  generator_making_ends();
  return tracker;
}

}  // namespace allocgate::catch2::detail::wrapped
