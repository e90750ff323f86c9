# Helpers shared by every allocgate target. Flags go on targets, never on the
# directory, so nothing leaks into a project that adds allocgate as a subdirectory.

# Warnings for allocgate's own code (PRIVATE: consumers choose their own).
function(allocgate_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic)
endfunction()

# A GoogleTest executable registered with ctest; extra arguments are sources.
# Tests run from the build tree and may read files beside them.
function(allocgate_add_test name)
  add_executable(${name} ${ARGN} ${PROJECT_SOURCE_DIR}/harness/tests/sanitizer_options.cpp)
  allocgate_warnings(${name})
  target_link_libraries(${name} PRIVATE allocgate::gtest GTest::gtest_main)
  include(GoogleTest)
  gtest_discover_tests(${name} DISCOVERY_TIMEOUT 60)
endfunction()
