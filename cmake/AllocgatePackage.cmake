# SPDX-License-Identifier: Apache-2.0
# `cpack -G DEB` in the build tree: one Debian package with the command, the
# libraries, the headers and the CMake package. Its Depends are what the
# command needs at run time (dpkg-shlibdeps reads them off the binary); the
# components' development packages are Recommends, since a project that links
# only allocgate::harness needs none of them.
set(CPACK_PACKAGE_NAME allocgate)
set(CPACK_PACKAGE_VENDOR allocgate)
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "${ALLOCGATE_PACKAGE_CONTACT}")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "libgtest-dev, libbenchmark-dev, libsimdjson-dev, libdw-dev, pkg-config, cmake")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "heaptrack")
# The synopsis is the summary above; this is the extended description.
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "A replacement of the global operator new and delete that counts allocations
 exactly, GoogleTest assertions and Google Benchmark counters on the counts,
 and the allocgate command, which gates recorded allocs/op bounds in CI.")
# Two packages: allocgate, and allocgate-dbg with the command's debug
# information. The command is stripped; its line tables, which `allocgate
# profile` reads to name the line that allocates, go to allocgate-dbg's
# /usr/lib/debug/.build-id, where Debian keeps debug information and libdw
# finds it (cmake/debian/split_debug.cmake). Not CPack's dbgsym package: it
# takes the installed object files (benchmark_main.o) for unstripped binaries.
# A build without -g (a plain Release) has no debug information to put in
# allocgate-dbg: then there is no allocgate-dbg, and the command is only
# stripped.
string(TOUPPER "${CMAKE_BUILD_TYPE}" _allocgate_build_type)
set(_allocgate_flags " ${CMAKE_CXX_FLAGS} ${CMAKE_CXX_FLAGS_${_allocgate_build_type}} ")
if(_allocgate_flags MATCHES " -g[^ ]* " AND NOT _allocgate_flags MATCHES " -g0 ")
  set(CPACK_ALLOCGATE_DEBUG_PACKAGE ON)
  set(CPACK_COMPONENTS_ALL Unspecified dbg)
else()
  set(CPACK_ALLOCGATE_DEBUG_PACKAGE OFF)
  set(CPACK_COMPONENTS_ALL Unspecified)
endif()
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_DEBIAN_UNSPECIFIED_PACKAGE_NAME allocgate)
set(CPACK_DEBIAN_DBG_PACKAGE_NAME allocgate-dbg)
set(CPACK_DEBIAN_DBG_PACKAGE_DEPENDS "allocgate (= ${PROJECT_VERSION})")
set(CPACK_DEBIAN_DBG_PACKAGE_SECTION debug)
set(CPACK_DEBIAN_DBG_PACKAGE_SHLIBDEPS OFF)
set(CPACK_DEBIAN_DBG_PACKAGE_RECOMMENDS "")
set(CPACK_DEBIAN_DBG_PACKAGE_SUGGESTS "")
set(CPACK_DEBIAN_DBG_DESCRIPTION "Debug information for the allocgate command
 The line tables of the allocgate command, by build ID: with them installed,
 allocgate profile and gdb name the file and line of each frame.")
set(CPACK_COMPONENT_DBG_DESCRIPTION "${CPACK_DEBIAN_DBG_DESCRIPTION}")
set(CPACK_PRE_BUILD_SCRIPTS ${PROJECT_SOURCE_DIR}/cmake/debian/split_debug.cmake)
include(CPack)
