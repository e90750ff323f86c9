# SPDX-License-Identifier: Apache-2.0
# Included after a GoogleTest suite's top project() (CMAKE_PROJECT_<name>_INCLUDE),
# with ALLOCGATE_ADOPT_TARGET naming its test program: that program links
# allocgate::gtest once the project has defined it (whatever way the project
# brings GoogleTest), with no line of the project's changed.
find_package(allocgate REQUIRED)
# A link from outside the program's directory (policy CMP0079, which a
# function keeps from where it is defined).
cmake_policy(SET CMP0079 NEW)
function(allocgate_adopt target)
  target_link_libraries(${target} PRIVATE allocgate::gtest)
endfunction()
cmake_language(DEFER DIRECTORY ${CMAKE_SOURCE_DIR} CALL allocgate_adopt ${ALLOCGATE_ADOPT_TARGET})
