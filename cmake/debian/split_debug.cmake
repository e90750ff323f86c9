# SPDX-License-Identifier: Apache-2.0
# CPack pre-build script: the packaged command stripped, its debug information
# (line tables included) moved to the dbg component's
# usr/lib/debug/.build-id/XX/REST.debug, found by build ID, where gdb and libdw
# look for it; a build without debug information is stripped only
# (CPACK_ALLOCGATE_DEBUG_PACKAGE, from cmake/AllocgatePackage.cmake).
file(GLOB_RECURSE commands "${CPACK_TEMPORARY_DIRECTORY}/Unspecified/*/bin/allocgate")
if(NOT commands)
  message(FATAL_ERROR "split_debug: no bin/allocgate under ${CPACK_TEMPORARY_DIRECTORY}/Unspecified")
endif()
foreach(command IN LISTS commands)
  if(NOT CPACK_ALLOCGATE_DEBUG_PACKAGE)  # built without -g: nothing to keep
    execute_process(COMMAND strip --remove-section=.comment --remove-section=.note --strip-unneeded "${command}"
                    COMMAND_ERROR_IS_FATAL ANY)
    continue()
  endif()
  execute_process(COMMAND readelf -n "${command}" OUTPUT_VARIABLE notes COMMAND_ERROR_IS_FATAL ANY)
  if(NOT notes MATCHES "Build ID: ([0-9a-f][0-9a-f])([0-9a-f]+)")
    message(FATAL_ERROR "${command} has no build ID")
  endif()
  set(id_head "${CMAKE_MATCH_1}")
  set(id_rest "${CMAKE_MATCH_2}")
  string(REGEX REPLACE "/Unspecified/(.*)/bin/allocgate$" "/dbg/\\1" prefix "${command}")
  set(debug_dir "${prefix}/lib/debug/.build-id/${id_head}")
  set(debug "${debug_dir}/${id_rest}.debug")
  file(MAKE_DIRECTORY "${debug_dir}")
  execute_process(COMMAND objcopy --only-keep-debug --compress-debug-sections "${command}" "${debug}" COMMAND_ERROR_IS_FATAL ANY)
  file(CHMOD "${debug}" PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ)
  execute_process(COMMAND strip --remove-section=.comment --remove-section=.note --strip-unneeded "${command}"
                  COMMAND_ERROR_IS_FATAL ANY)
  execute_process(COMMAND objcopy --add-gnu-debuglink=${debug} "${command}" COMMAND_ERROR_IS_FATAL ANY)
endforeach()
