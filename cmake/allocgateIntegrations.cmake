# SPDX-License-Identifier: Apache-2.0
# allocgate::gtest, allocgate::gtest_main, allocgate::benchmark and
# allocgate::benchmark_main: the parts of allocgate that include a test
# framework's headers. They are compiled in the build that links them, against
# the framework target that build has (GTest::gtest, benchmark::benchmark),
# whichever version and however it came (a package, FetchContent,
# add_subdirectory, static or shared): a binary holds one framework's layouts.
# What needs no framework header (counting, reports, bounds, symbolizing) is
# prebuilt (allocgate::integration_support). allocgate's own build calls
# these functions on its source tree; the package calls them on the sources it
# installs (docs/package.md).

include_guard(DIRECTORY)  # the lists below are variables of the including directory
include(CheckCXXSourceCompiles)

# What the program's calls to GoogleTest reach first (ld --wrap: see
# src/integrations/gtest/gtest_wrapped.cpp). Every name is the same in GoogleTest
# 1.11 to 1.18, as tests/frameworks checks by building each.
set(ALLOCGATE_GTEST_WRAPPED
    _ZN7testing14InitGoogleTestEPiPPc  # InitGoogleTest(int*, char**)
    _ZN7testing8UnitTest3RunEv         # UnitTest::Run(), RUN_ALL_TESTS()
    _ZN7testing4TestC2Ev               # Test::Test(), where a test's counting begins
    # GoogleTest's own, run paused: a failure's recording and printing, SCOPED_TRACE's bookkeeping
    _ZN7testing8internal12AssertHelperC1ENS_14TestPartResult4TypeEPKciS5_
    _ZN7testing8internal12AssertHelperD1Ev
    _ZNK7testing8internal12AssertHelperaSERKNS_7MessageE
    _ZN7testing7MessageC1Ev
    _ZN7testing11ScopedTraceD1Ev
    _ZN7testing8internal10AlwaysTrueEv  # AlwaysTrue(): a macro's statement begins (a death assertion's matcher next)
    # An assertion's failure message, built by GoogleTest's own functions
    # that the assertion macros' templates call: EXPECT_EQ's, EXPECT_TRUE's,
    # the string, floating-point and substring assertions'
    _ZN7testing16AssertionFailureERKNS_7MessageE
    _ZN7testing7FloatLEEPKcS1_ff
    _ZN7testing8DoubleLEEPKcS1_dd
    _ZN7testing8internal14CmpHelperSTREQEPKcS2_S2_S2_
    _ZN7testing8internal14CmpHelperSTREQEPKcS2_PKwS4_
    _ZN7testing8internal14CmpHelperSTRNEEPKcS2_S2_S2_
    _ZN7testing8internal14CmpHelperSTRNEEPKcS2_PKwS4_
    _ZN7testing8internal18CmpHelperSTRCASEEQEPKcS2_S2_S2_
    _ZN7testing8internal18CmpHelperSTRCASENEEPKcS2_S2_S2_
    _ZN7testing8internal20DoubleNearPredFormatEPKcS2_S2_ddd
    )
# Names that spell the standard library's std::string: PushTrace
# (SCOPED_TRACE), Message::GetString, DeathTest::Create (a death assertion
# begins), and EqFailure, GetBoolAssertionFailureMessage and
# StringStreamToString (a failure's message). gtest_wrapped.cpp picks the same spelling.
set(ALLOCGATE_GTEST_WRAPPED_LIBSTDCXX
    _ZN7testing11ScopedTrace9PushTraceEPKciNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE
    _ZNK7testing7Message9GetStringB5cxx11Ev
    _ZN7testing8internal9DeathTest6CreateEPKcNS_7MatcherIRKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEEEES3_iPPS1_
    _ZN7testing8internal9EqFailureEPKcS2_RKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEESA_b
    _ZN7testing8internal30GetBoolAssertionFailureMessageB5cxx11ERKNS_15AssertionResultEPKcS5_S5_
    _ZN7testing8internal20StringStreamToStringEPNSt7__cxx1118basic_stringstreamIcSt11char_traitsIcESaIcEEE
    # AssertHelper's constructor of string_views (GoogleTest 1.18 on)
    _ZN7testing8internal12AssertHelperC1ENS_14TestPartResult4TypeESt17basic_string_viewIcSt11char_traitsIcEEiS7_)
set(ALLOCGATE_GTEST_WRAPPED_LIBCXX
    _ZN7testing11ScopedTrace9PushTraceEPKciNSt3__112basic_stringIcNS3_11char_traitsIcEENS3_9allocatorIcEEEE
    _ZNK7testing7Message9GetStringEv
    _ZN7testing8internal9DeathTest6CreateEPKcNS_7MatcherIRKNSt3__112basic_stringIcNS5_11char_traitsIcEENS5_9allocatorIcEEEEEES3_iPPS1_
    _ZN7testing8internal9EqFailureEPKcS2_RKNSt3__112basic_stringIcNS3_11char_traitsIcEENS3_9allocatorIcEEEESB_b
    _ZN7testing8internal30GetBoolAssertionFailureMessageERKNS_15AssertionResultEPKcS5_S5_
    _ZN7testing8internal20StringStreamToStringEPNSt3__118basic_stringstreamIcNS1_11char_traitsIcEENS1_9allocatorIcEEEE
    _ZN7testing8internal12AssertHelperC1ENS_14TestPartResult4TypeENSt3__117basic_string_viewIcNS4_11char_traitsIcEEEEiS8_)

# gMock's bookkeeping, run paused (src/integrations/gtest/gmock_wrapped.cpp): its
# registry of mocks, their reactions to uninteresting calls (a const void*
# up to 1.11, a uintptr_t since), sequences, and the location each
# EXPECT_CALL formats.
set(ALLOCGATE_GMOCK_WRAPPED
    _ZN7testing10InSequenceC1Ev
    _ZN7testing10InSequenceC2Ev
    _ZN7testing10InSequenceD1Ev
    _ZN7testing10InSequenceD2Ev
    _ZNK7testing8Sequence14AddExpectationERKNS_11ExpectationE
    _ZN7testing4Mock8RegisterEPKvPNS_8internal25UntypedFunctionMockerBaseE
    _ZN7testing8internal25UntypedFunctionMockerBase13RegisterOwnerEPKv
    _ZN7testing4Mock31RegisterUseByOnCallOrExpectCallEPKvPKci
    _ZN7testing4Mock16UnregisterLockedEPNS_8internal25UntypedFunctionMockerBaseE
    _ZN7testing4Mock23AllowUninterestingCallsEm
    _ZN7testing4Mock22WarnUninterestingCallsEm
    _ZN7testing4Mock22FailUninterestingCallsEm
    _ZN7testing4Mock22UnregisterCallReactionEm
    _ZN7testing4Mock23AllowUninterestingCallsEPKv
    _ZN7testing4Mock22WarnUninterestingCallsEPKv
    _ZN7testing4Mock22FailUninterestingCallsEPKv
    _ZN7testing4Mock22UnregisterCallReactionEPKv)
set(ALLOCGATE_GMOCK_WRAPPED_LIBSTDCXX
    _ZN7testing8internal15LogWithLocationENS0_11LogSeverityEPKciRKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE)
set(ALLOCGATE_GMOCK_WRAPPED_LIBCXX
    _ZN7testing8internal15LogWithLocationENS0_11LogSeverityEPKciRKNSt3__112basic_stringIcNS4_11char_traitsIcEENS4_9allocatorIcEEEE)

# Google Benchmark's loop entry points (src/integrations/benchmark/benchmark_loop.h),
# the same names in 1.7 to 1.9.
set(ALLOCGATE_BENCHMARK_WRAPPED
    _ZN9benchmark5State16StartKeepRunningEv   # State::StartKeepRunning()
    _ZN9benchmark5State17FinishKeepRunningEv  # State::FinishKeepRunning()
    _ZN9benchmark5State11PauseTimingEv        # State::PauseTiming()
    _ZN9benchmark5State12ResumeTimingEv       # State::ResumeTiming()
    _ZN9benchmark10InitializeEPiPPcPFvvE      # Initialize(int*, char**, void (*)())
    _ZN9benchmark22RunSpecifiedBenchmarksEv   # RunSpecifiedBenchmarks()
    _ZN9benchmark22RunSpecifiedBenchmarksEPNS_17BenchmarkReporterE  # RunSpecifiedBenchmarks(BenchmarkReporter*)
    # RunSpecifiedBenchmarks(BenchmarkReporter*, BenchmarkReporter*)
    _ZN9benchmark22RunSpecifiedBenchmarksEPNS_17BenchmarkReporterES1_)

# _allocgate_integration_library(name type EXPORT_NAME n SOURCES files...
# SOURCE_DIR dir INCLUDE_DIRS dirs... [QUIET]): a library of integration
# sources (named in SOURCE_DIR), C++20 inside, asking nothing of its users'
# standard. QUIET: compiled in another project's build, where that project's
# warning flags are not for allocgate's code.
function(_allocgate_integration_library name type)
  cmake_parse_arguments(ARG "QUIET" "EXPORT_NAME;SOURCE_DIR" "SOURCES;INCLUDE_DIRS" ${ARGN})
  list(TRANSFORM ARG_SOURCES PREPEND ${ARG_SOURCE_DIR}/)
  add_library(${name} ${type} ${ARG_SOURCES})
  add_library(allocgate::${ARG_EXPORT_NAME} ALIAS ${name})
  set_target_properties(${name} PROPERTIES EXPORT_NAME ${ARG_EXPORT_NAME})
  target_include_directories(${name} PRIVATE ${ARG_INCLUDE_DIRS})
  target_compile_features(${name} PRIVATE cxx_std_20)
  if(ARG_QUIET)
    target_compile_options(${name} PRIVATE -w)
  elseif(COMMAND allocgate_warnings)
    allocgate_warnings(${name})
  endif()
endfunction()

# Links the harness and the sites into an integration library without
# passing on their usage requirements (the C++17 their headers need, clang's
# sized deallocation): a project that links a zero-code target keeps its own
# standard and flags. Their headers' directories are passed on.
function(_allocgate_link_harness target)
  target_link_libraries(${target} PRIVATE allocgate::harness allocgate::sites)
  foreach(library IN ITEMS allocgate::harness allocgate::sites)
    target_include_directories(${target} SYSTEM INTERFACE $<TARGET_PROPERTY:${library},INTERFACE_INCLUDE_DIRECTORIES>)
  endforeach()
endfunction()

# A listener that registers itself (Catch2 v2's, doctest's) in a static
# library, kept in every program that links the library however it reaches
# it: directly, or through the OBJECT or static library that compiles the
# suite's main (nlohmann/json's test_main), whose objects CMake hands only to
# the targets that link it directly while its link items reach every program.
# The listener's file defines `symbol`; asking the linker for it (-u, which
# holds wherever it stands on the command line) takes the file from the
# archive, with its registration.
function(_allocgate_keep_listener target symbol)
  target_link_libraries(${target} INTERFACE "-Wl,--undefined=${symbol}")
endfunction()

function(_allocgate_wrap target)
  foreach(symbol IN LISTS ARGN)
    target_link_options(${target} INTERFACE "LINKER:--wrap=${symbol}")
  endforeach()
endfunction()

# allocgate_add_gtest_integration(SOURCE_DIR dir INCLUDE_DIRS dirs... [QUIET]):
# allocgate::gtest (the assertions, and every test counted by the wrapped
# calls), allocgate::gtest_library (the code without the wrapping) and
# allocgate::gtest_main, on GTest::gtest.
function(allocgate_add_gtest_integration)
  _allocgate_integration_library(allocgate_gtest_library STATIC EXPORT_NAME gtest_library
    SOURCES gtest/gtest.cpp gtest/gtest_bounds.cpp gtest/gtest_catch.cpp gtest/gtest_counting.cpp
    gtest/gtest_leak_rerun.cpp gtest/gtest_wrapped.cpp gtest/gmock_wrapped.cpp ${ARGN})
  set_target_properties(allocgate_gtest_library PROPERTIES OUTPUT_NAME allocgate_gtest)  # liballocgate_gtest.a
  target_link_libraries(allocgate_gtest_library PUBLIC GTest::gtest
    PRIVATE allocgate::integration_support allocgate::files ${CMAKE_DL_LIBS})
  _allocgate_link_harness(allocgate_gtest_library)

  add_library(allocgate_gtest INTERFACE)
  add_library(allocgate::gtest ALIAS allocgate_gtest)
  set_target_properties(allocgate_gtest PROPERTIES EXPORT_NAME gtest)
  target_link_libraries(allocgate_gtest INTERFACE allocgate_gtest_library)
  check_cxx_source_compiles("#include <ciso646>\n#ifdef _LIBCPP_VERSION\n#error libc++\n#endif\nint main() {}"
    ALLOCGATE_LIBSTDCXX)
  if(ALLOCGATE_LIBSTDCXX)
    set(wrapped ${ALLOCGATE_GTEST_WRAPPED} ${ALLOCGATE_GTEST_WRAPPED_LIBSTDCXX} ${ALLOCGATE_GMOCK_WRAPPED}
      ${ALLOCGATE_GMOCK_WRAPPED_LIBSTDCXX})
  else()
    set(wrapped ${ALLOCGATE_GTEST_WRAPPED} ${ALLOCGATE_GTEST_WRAPPED_LIBCXX} ${ALLOCGATE_GMOCK_WRAPPED}
      ${ALLOCGATE_GMOCK_WRAPPED_LIBCXX})
  endif()
  _allocgate_wrap(allocgate_gtest ${wrapped})
  set_property(GLOBAL PROPERTY ALLOCGATE_GTEST_WRAPPED_HERE ${wrapped})  # for the .pc files

  # main() for a test binary: InitGoogleTest and RUN_ALL_TESTS, counted. An
  # OBJECT library, as allocgate::benchmark_main is: with a main of the
  # program's own, the link fails naming both.
  _allocgate_integration_library(allocgate_gtest_main OBJECT EXPORT_NAME gtest_main SOURCES gtest/gtest_main.cpp ${ARGN})
  target_link_libraries(allocgate_gtest_main PUBLIC allocgate::gtest)
endfunction()

# Catch2 v3's functions that allocgate::catch2 wraps (src/integrations/
# catch2_wrapped.cpp): the two that bracket a test's body, and Catch2's own
# that a test's code calls into, run paused. As in Catch2 3.7.1.
set(ALLOCGATE_CATCH2_WRAPPED
    _ZN5Catch7Session16applyCommandLineEiPKPKc              # allocgate's flags taken out first
    _ZN5Catch21FatalConditionHandler15engage_platformEv     # just before a test's body
    _ZN5Catch21FatalConditionHandler18disengage_platformEv  # just after it
    _ZN5Catch16AssertionHandlerC1ENS_9StringRefERKNS_14SourceLineInfoES1_NS_17ResultDisposition5FlagsE
    _ZN5Catch16AssertionHandler10handleExprERKNS_20ITransientExpressionE
    _ZN5Catch16AssertionHandler33handleUnexpectedInflightExceptionEv
    _ZN5Catch16AssertionHandler8completeEv
    _ZN5Catch7SectionC1ERKNS_14SourceLineInfoENS_9StringRefEPKc
    _ZN5Catch7SectionD1Ev
    _ZN5Catch13ScopedMessageC1EONS_14MessageBuilderE
    _ZN5Catch13ScopedMessageD1Ev
    _ZN5Catch20ReusableStringStreamC1Ev
    _ZN5Catch20ReusableStringStreamD1Ev
    _ZN5Catch10Generators23acquireGeneratorTrackerENS_9StringRefERKNS_14SourceLineInfoE
    _ZN5Catch10Generators22createGeneratorTrackerENS_9StringRefENS_14SourceLineInfoEONS_6Detail10unique_ptrINS0_20GeneratorUntypedBaseEEE)
# AssertionHandler::handleMessage (FAIL, SKIP, WARN): its name spells the
# standard library's std::string. catch2_wrapped.cpp picks the same spelling.
set(ALLOCGATE_CATCH2_WRAPPED_LIBSTDCXX
    _ZN5Catch16AssertionHandler13handleMessageENS_9ResultWas6OfTypeEONSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE)
set(ALLOCGATE_CATCH2_WRAPPED_LIBCXX
    _ZN5Catch16AssertionHandler13handleMessageENS_9ResultWas6OfTypeEONSt3__112basic_stringIcNS3_11char_traitsIcEENS3_9allocatorIcEEEE)

# Catch2 v2 (catch2/catch.hpp): allocgate::catch2, a static library linked
# beside the translation unit that defines CATCH_CONFIG_MAIN or
# CATCH_CONFIG_RUNNER (or by the library that compiles it), its listener
# registering itself and kept by _allocgate_keep_listener, nothing wrapped
# (src/integrations/catch2/catch2_v2_counting.cpp). allocgate::catch2_main is the
# same: the main is the program's own.
function(_allocgate_add_catch2_v2_integration)
  _allocgate_integration_library(allocgate_catch2 STATIC EXPORT_NAME catch2 SOURCES catch2/catch2_v2_counting.cpp ${ARGN})
  _allocgate_keep_listener(allocgate_catch2 allocgate_catch2_v2_listener)
  # PRIVATE: linked, but asking nothing of the suite's C++ standard (Catch2
  # v2 suites are C++11); integration_support's users need C++17.
  target_link_libraries(allocgate_catch2 PUBLIC Catch2::Catch2 PRIVATE allocgate::integration_support allocgate::files)
  _allocgate_link_harness(allocgate_catch2)
  add_library(allocgate_catch2_main INTERFACE)
  add_library(allocgate::catch2_main ALIAS allocgate_catch2_main)
  target_link_libraries(allocgate_catch2_main INTERFACE allocgate_catch2)
endfunction()

# allocgate_add_catch2_integration(SOURCE_DIR dir INCLUDE_DIRS dirs... [QUIET]):
# allocgate::catch2 (every test run of a Catch2 v3 suite counted by the
# wrapped calls and a listener) and allocgate::catch2_main (the same, with
# Catch2's own main), on Catch2::Catch2.
function(allocgate_add_catch2_integration)
  if(NOT TARGET Catch2::Catch2)
    message(FATAL_ERROR "allocgate's catch2 component is compiled against Catch2::Catch2, which this project has "
                        "not got yet: find_package(Catch2) or FetchContent_MakeAvailable(Catch2) before "
                        "find_package(allocgate COMPONENTS catch2)")
  endif()
  # Catch2 v2 (2.13 has a Catch2WithMain too) is told by its version, or by
  # its one header where the version is not told.
  _allocgate_framework_version(Catch2::Catch2 Catch2_VERSION "project\\(Catch2" version)
  set(v2 FALSE)
  if(version MATCHES "^2\\.")
    set(v2 TRUE)
  elseif(NOT version)
    get_target_property(includes Catch2::Catch2 INTERFACE_INCLUDE_DIRECTORIES)
    foreach(dir IN LISTS includes)
      if(EXISTS "${dir}/catch2/catch.hpp")
        set(v2 TRUE)
      endif()
    endforeach()
  endif()
  if(v2)  # one header, no library to wrap
    _allocgate_add_catch2_v2_integration(${ARGN})
    return()
  endif()
  _allocgate_integration_library(allocgate_catch2 STATIC EXPORT_NAME catch2
    SOURCES catch2/catch2_counting.cpp catch2/catch2_wrapped.cpp ${ARGN})
  target_link_libraries(allocgate_catch2 PUBLIC Catch2::Catch2
    PRIVATE allocgate::integration_support allocgate::files ${CMAKE_DL_LIBS})
  _allocgate_link_harness(allocgate_catch2)
  check_cxx_source_compiles("#include <ciso646>\n#ifdef _LIBCPP_VERSION\n#error libc++\n#endif\nint main() {}"
    ALLOCGATE_LIBSTDCXX)
  if(ALLOCGATE_LIBSTDCXX)
    _allocgate_wrap(allocgate_catch2 ${ALLOCGATE_CATCH2_WRAPPED} ${ALLOCGATE_CATCH2_WRAPPED_LIBSTDCXX})
  else()
    _allocgate_wrap(allocgate_catch2 ${ALLOCGATE_CATCH2_WRAPPED} ${ALLOCGATE_CATCH2_WRAPPED_LIBCXX})
  endif()
  add_library(allocgate_catch2_main INTERFACE)
  add_library(allocgate::catch2_main ALIAS allocgate_catch2_main)
  target_link_libraries(allocgate_catch2_main INTERFACE allocgate_catch2 Catch2::Catch2WithMain)
endfunction()

# allocgate_add_doctest_integration(SOURCE_DIR dir INCLUDE_DIRS dirs... [QUIET]):
# allocgate::doctest: a static library linked beside the translation unit
# that defines DOCTEST_CONFIG_IMPLEMENT(_WITH_MAIN), or by the library that
# compiles it. Its listener registers itself, so its object must enter the
# link whole (_allocgate_keep_listener); nothing is wrapped, as doctest's
# runner is compiled into the program's own code
# (src/integrations/doctest/doctest_counting.cpp). It is compiled against
# doctest::doctest when the project has it now; otherwise against the
# doctest.h the targets that link it compile with, a header directory as
# nlohmann/json bundles, settled at the end of the configuration
# (allocgate_settle_doctest).
function(allocgate_add_doctest_integration)
  _allocgate_integration_library(allocgate_doctest STATIC EXPORT_NAME doctest SOURCES doctest/doctest_counting.cpp ${ARGN})
  _allocgate_keep_listener(allocgate_doctest allocgate_doctest_listener)
  # PRIVATE: linked, but asking nothing of the suite's C++ standard (doctest
  # suites may be C++11); integration_support's users need C++17.
  target_link_libraries(allocgate_doctest PRIVATE allocgate::integration_support allocgate::files)
  _allocgate_link_harness(allocgate_doctest)
  if(TARGET doctest::doctest)
    target_link_libraries(allocgate_doctest PUBLIC doctest::doctest)
  endif()
endfunction()

# The doctest headers `target` compiles with: each doctest.h and
# doctest/doctest.h in its include directories and in those of the targets
# it links (transitively), in that order, as "version|path" in `out`;
# `definitions` gets the DOCTEST_CONFIG_* definitions it compiles with that
# a listener shares (not those that compile doctest's implementation or
# remove it). A directory given by a generator expression is read only
# through $<BUILD_INTERFACE:...>, as FetchContent's doctest gives it.
function(_allocgate_doctest_headers target out definitions)
  set(pending ${target})
  set(visited "")
  set(directories "")
  set(defines "")
  while(pending)
    list(POP_FRONT pending current)
    if(current IN_LIST visited OR NOT TARGET ${current} OR current MATCHES "^allocgate")
      continue()
    endif()
    list(APPEND visited ${current})
    get_target_property(aliased ${current} ALIASED_TARGET)
    if(aliased)
      list(APPEND pending ${aliased})
      continue()
    endif()
    set(properties INTERFACE_INCLUDE_DIRECTORIES INTERFACE_LINK_LIBRARIES INTERFACE_COMPILE_DEFINITIONS)
    get_target_property(type ${current} TYPE)
    if(current STREQUAL target AND NOT type STREQUAL "INTERFACE_LIBRARY")
      list(PREPEND properties INCLUDE_DIRECTORIES LINK_LIBRARIES COMPILE_DEFINITIONS)
    endif()
    foreach(property IN LISTS properties)
      get_target_property(values ${current} ${property})
      if(NOT values)
        continue()
      endif()
      foreach(value IN LISTS values)
        string(REGEX REPLACE "^\\$<(BUILD_INTERFACE|LINK_ONLY):(.*)>$" "\\2" value "${value}")
        if(value MATCHES "\\$<")
          continue()
        elseif(property MATCHES "INCLUDE_DIRECTORIES$")
          list(APPEND directories ${value})
        elseif(property MATCHES "LINK_LIBRARIES$")
          list(APPEND pending ${value})
        elseif(value MATCHES "^DOCTEST_CONFIG_" AND NOT value MATCHES "^DOCTEST_CONFIG_(IMPLEMENT|DISABLE)")
          list(APPEND defines ${value})
        endif()
      endforeach()
    endforeach()
  endwhile()
  set(headers "")
  set(paths "")
  foreach(directory IN LISTS directories)
    foreach(candidate IN ITEMS ${directory}/doctest.h ${directory}/doctest/doctest.h)
      if(NOT EXISTS ${candidate})
        continue()
      endif()
      file(REAL_PATH ${candidate} path)
      if(path IN_LIST paths)
        continue()
      endif()
      list(APPEND paths ${path})
      file(STRINGS ${path} lines REGEX "^#define DOCTEST_VERSION_(MAJOR|MINOR|PATCH) +[0-9]+" LIMIT_COUNT 3)
      set(version "")
      foreach(line IN LISTS lines)
        string(REGEX REPLACE ".* +([0-9]+)$" "\\1" number "${line}")
        list(APPEND version ${number})
      endforeach()
      list(JOIN version "." version)
      if(NOT version)
        set(version "of unknown version")
      endif()
      list(APPEND headers "${version}|${path}")
    endforeach()
  endforeach()
  list(REMOVE_DUPLICATES defines)
  set(${out} ${headers} PARENT_SCOPE)
  set(${definitions} ${defines} PARENT_SCOPE)
endfunction()

# allocgate_settle_doctest(users...): at the end of the configuration, the
# doctest header allocgate::doctest is compiled against is the one its users
# (the targets that link it) compile with: a listener compiled against
# another version of doctest than the suite's main would read that main's
# objects with the wrong layout. Two versions seen are refused naming both;
# none, unless the project has doctest::doctest, naming what to link.
function(allocgate_settle_doctest)
  if(NOT TARGET allocgate_doctest)
    return()
  endif()
  set(chosen "")
  set(chosen_by "")
  get_target_property(links allocgate_doctest LINK_LIBRARIES)
  if("doctest::doctest" IN_LIST links)
    _allocgate_doctest_headers(doctest::doctest headers ignored)
    if(headers)
      list(GET headers 0 chosen)
      set(chosen_by "doctest::doctest (which allocgate::doctest links)")
    endif()
  endif()
  set(definitions "")
  foreach(user IN LISTS ARGN)
    _allocgate_doctest_headers(${user} headers user_definitions)
    list(APPEND definitions ${user_definitions})
    foreach(header IN LISTS headers)
      string(REPLACE "|" ";" parts "${header}")
      list(GET parts 0 version)
      list(GET parts 1 path)
      if(NOT chosen)
        set(chosen ${header})
        set(chosen_by ${user})
        continue()
      endif()
      string(REPLACE "|" ";" chosen_parts "${chosen}")
      list(GET chosen_parts 0 chosen_version)
      list(GET chosen_parts 1 chosen_path)
      if(NOT version STREQUAL chosen_version)
        message(FATAL_ERROR "allocgate: ${user} compiles with doctest ${version} (${path}) and ${chosen_by} with "
                            "doctest ${chosen_version} (${chosen_path}): allocgate::doctest is compiled against the "
                            "doctest.h the suite's main includes, so a suite brings one doctest")
      endif()
    endforeach()
  endforeach()
  if(NOT chosen)
    if(TARGET doctest::doctest)  # found after allocgate
      target_link_libraries(allocgate_doctest PUBLIC doctest::doctest)
      return()
    endif()
    list(JOIN ARGN ", " users)
    message(FATAL_ERROR "allocgate: allocgate::doctest is linked by ${users}, and no doctest.h is in the include "
                        "directories there or in those of what is linked: link doctest::doctest "
                        "(find_package(doctest), FetchContent) or add the directory of the doctest.h the suite's "
                        "main includes")
  endif()
  string(REPLACE "|" ";" chosen_parts "${chosen}")
  list(GET chosen_parts 0 version)
  list(GET chosen_parts 1 path)
  if(NOT "doctest::doctest" IN_LIST links)
    target_compile_definitions(allocgate_doctest PRIVATE "ALLOCGATE_DOCTEST_HEADER=\"${path}\"")
  endif()
  list(REMOVE_DUPLICATES definitions)
  target_compile_definitions(allocgate_doctest PRIVATE ${definitions})
  message(STATUS "allocgate::doctest: compiled against doctest ${version} (${path}), as ${chosen_by}")
endfunction()

# allocgate_add_benchmark_integration(SOURCE_DIR dir INCLUDE_DIRS dirs...
# [QUIET]): allocgate::benchmark and allocgate::benchmark_main, on
# benchmark::benchmark.
function(allocgate_add_benchmark_integration)
  _allocgate_integration_library(allocgate_benchmark STATIC EXPORT_NAME benchmark
    SOURCES benchmark/benchmark.cpp benchmark/benchmark_loop.cpp benchmark/benchmark_own_main.cpp ${ARGN})
  target_link_libraries(allocgate_benchmark PUBLIC benchmark::benchmark
    PRIVATE allocgate::integration_support allocgate::files)
  _allocgate_link_harness(allocgate_benchmark)
  # Sized deallocation (g++'s default, clang's since 19) tells the hook the
  # size of each block the benchmarked code frees: without it, clang's code
  # frees unsized and a benchmark's peak bytes are not told. It changes no
  # code's behaviour, only which operator delete it calls.
  target_compile_options(allocgate_benchmark INTERFACE $<$<COMPILE_LANG_AND_ID:CXX,Clang>:-fsized-deallocation>)
  # Every benchmark's timed loop counted with no code: the program's calls to
  # Google Benchmark's loop entry points reach allocgate first.
  _allocgate_wrap(allocgate_benchmark ${ALLOCGATE_BENCHMARK_WRAPPED})
  # An OBJECT library, so its main() always enters the link, ahead of any
  # archive: with Google Benchmark's benchmark_main also linked, this main
  # wins and that archive's is never pulled in; with a BENCHMARK_MAIN() of the
  # program's own, the link fails naming both.
  _allocgate_integration_library(allocgate_benchmark_main OBJECT EXPORT_NAME benchmark_main
    SOURCES benchmark/benchmark_main.cpp ${ARGN})
  target_link_libraries(allocgate_benchmark_main PUBLIC allocgate::benchmark)
endfunction()

# The version of the framework behind `target` (GTest::gtest or
# benchmark::benchmark): read from the project() of the source tree it was
# built from (FetchContent, add_subdirectory), else from the package's
# version variable `package_version`; empty when neither tells.
function(_allocgate_framework_version target package_version pattern out)
  set(version "")
  get_target_property(aliased ${target} ALIASED_TARGET)
  if(aliased)
    set(target ${aliased})
  endif()
  get_target_property(imported ${target} IMPORTED)
  if(NOT imported)
    # Google Benchmark's own VERSION comes from `git describe`, which reads the
    # tags of any repository its source was unpacked in: its project() line
    # is what the release says.
    get_target_property(dir ${target} SOURCE_DIR)
    foreach(candidate IN ITEMS ${dir} ${dir}/..)
      if(EXISTS ${candidate}/CMakeLists.txt)
        file(STRINGS ${candidate}/CMakeLists.txt lines REGEX "${pattern}")
        if(lines)
          list(GET lines 0 line)
          string(REGEX MATCH "[0-9]+\\.[0-9]+(\\.[0-9]+)?" version "${line}")
          break()
        endif()
      endif()
    endforeach()
    if(NOT version)
      get_target_property(version ${target} VERSION)
    endif()
  elseif(DEFINED ${package_version})
    set(version ${${package_version}})
  endif()
  if(NOT version)
    set(version "")
  endif()
  set(${out} ${version} PARENT_SCOPE)
endfunction()

# Refuses a framework version outside the tested range, in one line naming it
# and what to do; ALLOCGATE_UNTESTED_FRAMEWORKS=ON makes it a warning.
function(_allocgate_check_version name target package_version pattern oldest newest)
  set(version "")
  if(TARGET ${target})
    _allocgate_framework_version(${target} ${package_version} "${pattern}" version)
  endif()
  if(NOT version)
    message(STATUS "allocgate: the ${name} version of ${target} is not told; its entry points are checked at "
                   "link time")
    return()
  endif()
  string(REGEX MATCH "^[0-9]+\\.[0-9]+" minor "${version}")
  if(minor VERSION_LESS oldest OR minor VERSION_GREATER newest)
    string(CONCAT text "allocgate: ${name} ${version} (${target}) is outside the versions allocgate is tested "
                       "with (${oldest} to ${newest}): bring one of those, or set ALLOCGATE_UNTESTED_FRAMEWORKS=ON "
                       "to try it")
    if(ALLOCGATE_UNTESTED_FRAMEWORKS)
      message(WARNING "${text}")
    else()
      message(FATAL_ERROR "${text}")
    endif()
  endif()
endfunction()

# Whether `target` (a framework's main library) is a shared library.
function(_allocgate_is_shared target out)
  set(shared FALSE)
  if(TARGET ${target})
    get_target_property(aliased ${target} ALIASED_TARGET)
    if(aliased)
      set(target ${aliased})
    endif()
    get_target_property(type ${target} TYPE)
    if(type STREQUAL "SHARED_LIBRARY")
      set(shared TRUE)
    elseif(type STREQUAL "UNKNOWN_LIBRARY")
      get_target_property(location ${target} LOCATION)
      if(location MATCHES "\\.so(\\.|$)")
        set(shared TRUE)
      endif()
    endif()
  endif()
  set(${out} ${shared} PARENT_SCOPE)
endfunction()

# allocgate_check_frameworks(gtest|benchmark...): the checks a consumer's
# configuration ends with, once every target exists, for the integrations
# its programs link: the framework each compiles against is there (found as a
# package only when the project brought none) and of a tested version.
function(allocgate_check_frameworks)
  # The framework versions the compatibility tests build (tests/frameworks):
  # patch releases of a tested minor version are taken, others refused.
  # Here, not in the file's scope: the check runs in the top directory, and
  # the file may have been included in another.
  set(ALLOCGATE_GTEST_OLDEST 1.11)
  set(ALLOCGATE_GTEST_NEWEST 1.18)
  set(ALLOCGATE_BENCHMARK_OLDEST 1.7)
  set(ALLOCGATE_BENCHMARK_NEWEST 1.9)
  if("gtest" IN_LIST ARGN)
    _allocgate_seen(GTest::gtest allocgate_gtest_library seen)
    if(NOT seen AND TARGET gtest)
      add_library(GTest::gtest ALIAS gtest)
      set(seen TRUE)
    endif()
    if(NOT seen)
      find_package(GTest QUIET)
      if(NOT TARGET GTest::gtest)
        message(FATAL_ERROR "allocgate::gtest needs GoogleTest: bring it (FetchContent, add_subdirectory) or "
                            "install it (apt-get install libgtest-dev)")
      endif()
      _allocgate_make_global(GTest::gtest GTest::gtest_main GTest::gmock GTest::gmock_main)
    endif()
    _allocgate_check_version(GoogleTest GTest::gtest GTest_VERSION "GOOGLETEST_VERSION [0-9]"
      ${ALLOCGATE_GTEST_OLDEST} ${ALLOCGATE_GTEST_NEWEST})
  endif()
  if("benchmark" IN_LIST ARGN)
    _allocgate_seen(benchmark::benchmark allocgate_benchmark seen)
    if(NOT seen)
      find_package(benchmark QUIET)
      if(NOT TARGET benchmark::benchmark)
        message(FATAL_ERROR "allocgate::benchmark needs Google Benchmark: bring it (FetchContent, "
                            "add_subdirectory) or install it (apt-get install libbenchmark-dev)")
      endif()
      _allocgate_make_global(benchmark::benchmark benchmark::benchmark_main)
    endif()
    _allocgate_check_version("Google Benchmark" benchmark::benchmark benchmark_VERSION
      "project *\\( *benchmark" ${ALLOCGATE_BENCHMARK_OLDEST} ${ALLOCGATE_BENCHMARK_NEWEST})
  endif()
endfunction()

# Whether `name` is a target the integration `user` sees: a global one
# (FetchContent's, add_subdirectory's), or one imported in the directory
# that made `user` or a parent of it (a find_package there).
function(_allocgate_seen name user out)
  set(seen FALSE)
  if(TARGET ${name})
    set(seen TRUE)
  else()
    get_target_property(directory ${user} SOURCE_DIR)
    while(directory)
      get_property(imported DIRECTORY ${directory} PROPERTY IMPORTED_TARGETS)
      if(name IN_LIST imported)
        set(seen TRUE)
        break()
      endif()
      get_property(directory DIRECTORY ${directory} PROPERTY PARENT_DIRECTORY)
    endwhile()
  endif()
  set(${out} ${seen} PARENT_SCOPE)
endfunction()

# Imported targets found here, at the end of the top directory, seen from
# every directory (the integrations may have been made in another).
function(_allocgate_make_global)
  foreach(target IN LISTS ARGN)
    if(TARGET ${target})
      get_target_property(aliased ${target} ALIASED_TARGET)
      get_target_property(global ${target} IMPORTED_GLOBAL)
      if(NOT aliased AND NOT global)
        set_target_properties(${target} PROPERTIES IMPORTED_GLOBAL TRUE)
      endif()
    endif()
  endforeach()
endfunction()
