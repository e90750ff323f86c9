# SPDX-License-Identifier: Apache-2.0
# Installs allocgate into a prefix, then configures the components consumer
# three ways: no component named and allocgate::gtest linked (loaded, as its
# dependencies are found); the benchmark component named and allocgate::gtest
# linked (one line naming the gtest component, not CMake's "ALIAS target is
# missing"); the gtest component named and linked; and the same from a
# subdirectory that alone finds allocgate.
# Inputs: BUILD_DIR (allocgate's build), SOURCE_DIR (this folder), WORK_DIR.
file(REMOVE_RECURSE ${WORK_DIR})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK_DIR}/prefix
  RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "install failed: ${out}")
endif()

function(configure name components link expect_rc expect_output)
  execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}/${name} -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix
    "-DCOMPONENTS=${components}" "-DLINK=${link}" ${ARGN}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if((expect_rc EQUAL 0 AND NOT rc EQUAL 0) OR (NOT expect_rc EQUAL 0 AND rc EQUAL 0))
    message(FATAL_ERROR "${name}: exit ${rc}, expected ${expect_rc}:\n${out}")
  endif()
  if(NOT out MATCHES "${expect_output}")
    message(FATAL_ERROR "${name}: the output lacks '${expect_output}':\n${out}")
  endif()
  if(out MATCHES "ALIAS target")
    message(FATAL_ERROR "${name}: CMake's own error, not allocgate's:\n${out}")
  endif()
endfunction()

configure(none "" "allocgate::gtest;allocgate::benchmark_main" 0 "Generating done")
configure(other benchmark allocgate::gtest 1 "consumer links allocgate::gtest, which is in allocgate's gtest")
configure(named gtest allocgate::gtest 0 "Generating done")
# Found in a subdirectory only: its targets are seen there, and a link to a
# component not asked for is still named.
configure(subdirectory benchmark allocgate::benchmark_main 0 "Generating done" -DSUBDIRECTORY=ON)
configure(subdirectory_other benchmark allocgate::gtest 1 "latency links allocgate::gtest, which is in allocgate's gtest"
  -DSUBDIRECTORY=ON)
message(STATUS "PASS")
