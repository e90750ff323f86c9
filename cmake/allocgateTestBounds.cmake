# SPDX-License-Identifier: Apache-2.0
# allocgate_test_bounds(target FILE path): the bounds file that
# EXPECT_ALLOCATIONS_WITHIN_BOUNDS reads in target's sources, a path relative
# to the calling directory; ALLOCGATE_BOUNDS in the environment overrides it.
# Use the file `allocgate diff` gates with: one file of recorded bounds per
# project, per toolchain.
function(allocgate_test_bounds target)
  cmake_parse_arguments(ARG "" "FILE" "" ${ARGN})
  if(NOT ARG_FILE)
    message(FATAL_ERROR "allocgate_test_bounds(${target}): FILE is required")
  endif()
  get_filename_component(file "${ARG_FILE}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  target_compile_definitions(${target} PRIVATE "ALLOCGATE_BOUNDS_FILE=\"${file}\"")
endfunction()
