# SPDX-License-Identifier: Apache-2.0
# allocgate_gtest_from_source(dir): GoogleTest built from a source tree (Debian's
# googletest package puts one in /usr/src/googletest) with this build's
# compiler and standard library, as the targets find_package(GTest) gives.
function(allocgate_gtest_from_source dir)
  if(NOT EXISTS ${dir}/googletest/CMakeLists.txt)
    message(FATAL_ERROR "ALLOCGATE_GTEST_SOURCE_DIR=${dir} holds no GoogleTest source "
                        "(on Debian: apt-get install googletest)")
  endif()
  set(BUILD_GMOCK OFF CACHE BOOL "" FORCE)
  set(INSTALL_GTEST OFF CACHE BOOL "" FORCE)
  add_subdirectory(${dir} ${PROJECT_BINARY_DIR}/googletest EXCLUDE_FROM_ALL SYSTEM)
  if(NOT TARGET GTest::gtest)  # GoogleTest 1.12 names them itself; older ones do not
    add_library(GTest::gtest ALIAS gtest)
    add_library(GTest::gtest_main ALIAS gtest_main)
  endif()
  file(STRINGS ${dir}/CMakeLists.txt version_line REGEX "GOOGLETEST_VERSION [0-9.]+")
  string(REGEX MATCH "[0-9.]+" version "${version_line}")
  set(GTest_FOUND TRUE PARENT_SCOPE)
  set(GTest_VERSION ${version} PARENT_SCOPE)
endfunction()
