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
set(CPACK_PACKAGE_CONTACT "allocgate maintainers <allocgate@localhost>")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "libgtest-dev, libbenchmark-dev, libsimdjson-dev, libdw-dev, pkg-config, cmake")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "heaptrack")
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "Heap allocations as a number you can test and gate
 A replacement of the global operator new and delete that counts allocations
 exactly, GoogleTest assertions and Google Benchmark counters on the counts,
 and the allocgate command, which gates recorded allocs/op bounds in CI.")
include(CPack)
