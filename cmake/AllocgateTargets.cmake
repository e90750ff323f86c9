# SPDX-License-Identifier: Apache-2.0
# Helpers shared by every allocgate target. Flags go on targets, never on the
# directory, so nothing leaks into a project that adds allocgate as a subdirectory.

# Warnings for allocgate's own code (PRIVATE: consumers choose their own).
function(allocgate_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic)
endfunction()

# allocgate_add_test(name source... [TEST_PREFIX prefix] [LABELS label...]): a
# GoogleTest executable registered with ctest, its tests' names prefixed. Tests run from the build tree and may read
# files beside them. The label "threaded" marks the tests that start threads:
# the tsan presets build (target allocgate_threaded_tests) and run just those.
function(allocgate_add_test name)
  cmake_parse_arguments(ARG "" "TEST_PREFIX" "LABELS" ${ARGN})
  add_executable(${name} ${ARG_UNPARSED_ARGUMENTS} ${PROJECT_SOURCE_DIR}/harness/tests/sanitizer_options.cpp)
  allocgate_warnings(${name})
  # uncounted: see harness/CMakeLists.txt. The harness itself for its usage
  # requirements (clang's sized deallocation), which allocgate::gtest keeps to itself.
  target_link_libraries(${name} PRIVATE allocgate_gtest_library allocgate::harness GTest::gtest_main)
  # Test support: the standard library's figures (standard_library.h).
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR}/harness/tests/support)
  allocgate_discover_tests(${name} TEST_PREFIX "${ARG_TEST_PREFIX}" LABELS ${ARG_LABELS})
endfunction()

# allocgate_discover_tests(target [TEST_PREFIX prefix] [LABELS label...]):
# registers a GoogleTest executable's tests with ctest, with labels.
function(allocgate_discover_tests target)
  cmake_parse_arguments(ARG "" "TEST_PREFIX" "LABELS" ${ARGN})
  include(GoogleTest)
  set(properties "")
  if(ARG_LABELS)
    set(properties PROPERTIES LABELS "${ARG_LABELS}")
  endif()
  gtest_discover_tests(${target} TEST_PREFIX "${ARG_TEST_PREFIX}" DISCOVERY_TIMEOUT 60 ${properties})
  if("threaded" IN_LIST ARG_LABELS)
    if(NOT TARGET allocgate_threaded_tests)
      add_custom_target(allocgate_threaded_tests)
    endif()
    add_dependencies(allocgate_threaded_tests ${target})
  endif()
endfunction()

# allocgate_skipped_test(name reason): a test this build cannot run, listed
# by ctest as skipped with the reason in its output, never silently absent.
function(allocgate_skipped_test name reason)
  add_test(NAME ${name} COMMAND sh -c "echo \"skipped: $0\"; exit 77" "${reason}")
  set_tests_properties(${name} PROPERTIES SKIP_RETURN_CODE 77)
  message(STATUS "allocgate: ${name} skipped: ${reason}")
endfunction()
