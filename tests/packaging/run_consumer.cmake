# Builds and runs the consumer project against allocgate, as ctest's packaging
# tests: -DMODE=package installs allocgate from BUILD_DIR into a prefix first.
# Inputs: MODE, SOURCE_DIR (allocgate), BUILD_DIR (allocgate's build), WORK_DIR,
# CXX_COMPILER, CXX_FLAGS, LINKER_FLAGS.
file(REMOVE_RECURSE ${WORK_DIR})

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}\n${out}")
  endif()
  set(last_output "${out}" PARENT_SCOPE)
endfunction()

set(configure_args -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=${CXX_COMPILER}
    "-DCMAKE_CXX_FLAGS=${CXX_FLAGS}" "-DCMAKE_EXE_LINKER_FLAGS=${LINKER_FLAGS}")
if(MODE STREQUAL "package")
  run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK_DIR}/prefix)
  list(APPEND configure_args -DALLOCGATE_CONSUME=package -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix)
else()
  list(APPEND configure_args -DALLOCGATE_CONSUME=subdirectory -DALLOCGATE_SOURCE_DIR=${SOURCE_DIR})
endif()

run(${CMAKE_COMMAND} -S ${SOURCE_DIR}/tests/packaging/consumer -B ${WORK_DIR}/build ${configure_args})
run(${CMAKE_COMMAND} --build ${WORK_DIR}/build -j2)
run(${WORK_DIR}/build/consumer_test)
run(${WORK_DIR}/build/consumer_block_headers_test)
run(${WORK_DIR}/build/consumer_bench --benchmark_color=false)
if(NOT last_output MATCHES "BM_TwoStrings/iterations:100[^\n]* +2 +98 +98")
  message(FATAL_ERROR "consumer_bench did not print exact counters:\n${last_output}")
endif()
message(STATUS "consumer (${MODE}) built and counted exactly")
