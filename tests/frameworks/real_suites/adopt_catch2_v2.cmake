# SPDX-License-Identifier: Apache-2.0
# Included after a Catch2 v2 suite's project() (CMAKE_PROJECT_<name>_INCLUDE):
# every test program the project defines after it links allocgate::catch2,
# with no line of the project's changed.
find_package(Catch2 2 REQUIRED)
find_package(allocgate REQUIRED COMPONENTS catch2)
link_libraries(allocgate::catch2)
