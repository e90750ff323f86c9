// SPDX-License-Identifier: Apache-2.0
// A test framework's functions in this program, for a framework whose
// runner is compiled into the test's own translation unit (doctest,
// Catch2 v2): no call of its can be wrapped at link time, so what a test's
// body allocates through them (assertions, subcases, messages, string
// makers) is told apart by each allocation's stack instead
// (counting/thread_state.h). The functions are found by their symbols.
// Framework-free: prebuilt in allocgate::integration_support.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "counting/thread_state.h"

namespace allocgate::integrations {

class FrameworkCode {
 public:
  /// The functions of `framework_namespace` ("doctest", "Catch"), and of
  /// templates instantiated with its types (std::vector<doctest::String>'s),
  /// as the program's symbol tables list them; the boundaries are the
  /// functions `is_boundary` names (by mangled name): the callers of a
  /// test's body. Throws std::runtime_error when either is missing (a
  /// stripped program).
  /// Where the framework's functions were inlined into the program's code
  /// is found too, in the debug information, for a module with a function
  /// of the framework's that `needs_inlined_calls` names (all, when null).
  /// That walk of the debug information costs a tenth of a second or more
  /// at the start of a large suite: with a `cache_directory`, what it found
  /// is kept there for the next process of the same program
  /// (framework_code_cache.h), and taken from there when it is.
  FrameworkCode(std::string_view framework_namespace, bool (*is_boundary)(std::string_view mangled),
                bool (*needs_inlined_calls)(std::string_view mangled) = nullptr,
                const std::string& cache_directory = {});
  FrameworkCode(const FrameworkCode&) = delete;
  FrameworkCode& operator=(const FrameworkCode&) = delete;

  /// From now on, until stop_telling(), this thread's allocations are the
  /// test's only when made outside the framework's functions.
  void tell_on_this_thread();
  static void stop_telling();

  std::size_t functions() const { return framework_.size(); }
  /// Whether `address` is in one of the framework's functions, its
  /// boundaries included.
  bool contains(const void* address) const;
  /// Whether a module whose inlined calls were wanted had no debug
  /// information (built without -g): an optimizing compiler's inlining of
  /// the framework's functions into a test is then not told apart.
  bool without_debug_information() const { return without_debug_information_; }

 private:
  std::vector<detail::CodeRange> framework_;
  std::vector<detail::CodeRange> boundaries_;
  std::vector<detail::FrameRule> rules_;
  bool without_debug_information_ = false;
  detail::FrameworkCode code_;
};

/// Whether a mangled name is of a function that calls a Catch2 test's body
/// (v2 and v3): TestInvokerAsFunction::invoke for TEST_CASE,
/// TestInvokerAsMethod<C>::invoke for TEST_CASE_METHOD (which builds the
/// fixture, the test's as GoogleTest's is), and their caller,
/// RunContext::invokeActiveTestCase, where an optimizing compiler inlines
/// them (the invoker's type guessed from its virtual call).
bool calls_catch2_test_bodies(std::string_view mangled);

/// Whether a mangled name is of a function of `framework_namespace`, or of
/// one instantiated with a type of it: its encoding names the namespace as
/// the first part of a nested name ("N7doctest", "NK7doctest").
bool names_framework(std::string_view mangled, std::string_view framework_namespace);

}  // namespace allocgate::integrations
