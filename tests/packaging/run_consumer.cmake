# SPDX-License-Identifier: Apache-2.0
# Builds and runs the consumer project against allocgate, as ctest's packaging
# tests do, in one of four ways (MODE):
#   package        cmake --install into a prefix, then find_package
#   deb            cpack -G DEB, the package unpacked with dpkg-deb -x into a
#                  temporary root, find_package from there, and the unpacked
#                  allocgate command run on the consumer's benchmark JSON
#   subdirectory   add_subdirectory(allocgate)
#   fetchcontent   FetchContent_MakeAvailable(allocgate)
# package builds the full consumer and a harness-only one configured with
# GoogleTest, Google Benchmark and pkg-config (so libdw) disabled; fetchcontent
# the harness-only one (allocgate's sources built once, not twice); the others
# the full one.
# Inputs: MODE, SOURCE_DIR (allocgate), BUILD_DIR (allocgate's build), WORK_DIR,
# CXX_COMPILER, CXX_FLAGS, LINKER_FLAGS, CXX_STANDARD.
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}\n${out}")
  endif()
  set(last_output "${out}" PARENT_SCOPE)
endfunction()

set(configure_args -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=${CXX_COMPILER}
    "-DCMAKE_CXX_FLAGS=${CXX_FLAGS}" "-DCMAKE_EXE_LINKER_FLAGS=${LINKER_FLAGS}"
    -DCONSUMER_CXX_STANDARD=${CXX_STANDARD})
set(command "")
if(MODE STREQUAL "package")
  run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK_DIR}/prefix)
  list(APPEND configure_args -DALLOCGATE_CONSUME=package -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix)
  set(command ${WORK_DIR}/prefix/bin/allocgate)
elseif(MODE STREQUAL "deb")
  run(cpack -G DEB -B ${WORK_DIR}/cpack WORKING_DIRECTORY ${BUILD_DIR})
  file(GLOB deb ${WORK_DIR}/cpack/allocgate_*.deb)
  run(dpkg-deb -f ${deb} Depends Recommends)
  foreach(needed libdw1 libssl3 libstdc\\+\\+6 "Recommends: .*libgtest-dev")
    if(NOT last_output MATCHES "${needed}")
      message(FATAL_ERROR "the package's Depends/Recommends lack ${needed}:\n${last_output}")
    endif()
  endforeach()
  run(dpkg-deb -x ${deb} ${WORK_DIR}/root)
  list(APPEND configure_args -DALLOCGATE_CONSUME=package -DCMAKE_PREFIX_PATH=${WORK_DIR}/root/usr)
  set(command ${WORK_DIR}/root/usr/bin/allocgate)
else()
  list(APPEND configure_args -DALLOCGATE_CONSUME=${MODE} -DALLOCGATE_SOURCE_DIR=${SOURCE_DIR})
endif()

# Harness only, with the integrations' packages out of reach.
if(MODE STREQUAL "package" OR MODE STREQUAL "fetchcontent")
  run(${CMAKE_COMMAND} -S ${SOURCE_DIR}/tests/packaging/consumer -B ${WORK_DIR}/harness-only ${configure_args}
      -DCONSUMER_HARNESS_ONLY=ON -DCMAKE_DISABLE_FIND_PACKAGE_GTest=ON -DCMAKE_DISABLE_FIND_PACKAGE_benchmark=ON
      -DCMAKE_DISABLE_FIND_PACKAGE_PkgConfig=ON)
  run(${CMAKE_COMMAND} --build ${WORK_DIR}/harness-only -j2)
  run(${WORK_DIR}/harness-only/consumer_harness_only)
endif()
if(MODE STREQUAL "fetchcontent")
  message(STATUS "consumer (${MODE}, C++${CXX_STANDARD}, harness only) built and counted exactly")
  return()
endif()

run(${CMAKE_COMMAND} -S ${SOURCE_DIR}/tests/packaging/consumer -B ${WORK_DIR}/build ${configure_args})
run(${CMAKE_COMMAND} --build ${WORK_DIR}/build -j2)
run(${WORK_DIR}/build/consumer_harness_only)
run(${WORK_DIR}/build/consumer_test)
run(${WORK_DIR}/build/consumer_block_headers_test)
run(${WORK_DIR}/build/consumer_bench --benchmark_color=false --benchmark_out=${WORK_DIR}/bench.json
    --benchmark_out_format=json)
if(NOT last_output MATCHES "BM_TwoStrings/iterations:100[^\n]* +2 +98 +98")
  message(FATAL_ERROR "consumer_bench did not print exact counters:\n${last_output}")
endif()

# The installed command gates the consumer's own benchmark.
if(command)
  run(${command} --version)
  if(NOT last_output MATCHES "^allocgate [0-9.]+ \\([a-z]+-[0-9]+-lib")
    message(FATAL_ERROR "allocgate --version: ${last_output}")
  endif()
  run(${command} diff --update --bounds ${WORK_DIR}/bounds.json ${WORK_DIR}/bench.json)
  run(${command} diff --strict --bounds ${WORK_DIR}/bounds.json ${WORK_DIR}/bench.json)
  if(NOT last_output MATCHES "0 regression\\(s\\), 0 improved, 1 ok")
    message(FATAL_ERROR "the installed allocgate did not gate the consumer's benchmark:\n${last_output}")
  endif()
endif()
message(STATUS "consumer (${MODE}, C++${CXX_STANDARD}) built and counted exactly")
