# SPDX-License-Identifier: Apache-2.0
# Install and export. find_package(allocgate) gives allocgate::harness,
# allocgate::block_headers and allocgate::c_allocations, which need nothing
# but threads; each component adds its targets and finds its dependencies:
#   find_package(allocgate REQUIRED COMPONENTS gtest benchmark)
#   sites       allocgate::sites (libdw)
#   gtest       allocgate::gtest (GoogleTest; brings sites)
#   benchmark   allocgate::benchmark, allocgate::benchmark_main (Google Benchmark; brings sites)
# The allocgate command goes to bin/.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(ALLOCGATE_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/allocgate)

# One export set per component, so that the package includes only the
# targets, and looks only for the dependencies, that a consumer asked for.
# allocgate_installable builds what `cmake --install` installs and nothing
# else (no test, no benchmark): ci/gate.sh builds it, so an install follows.
add_custom_target(allocgate_installable)
function(allocgate_install_export set)
  add_dependencies(allocgate_installable ${ARGN})
  install(TARGETS ${ARGN}
    EXPORT allocgate${set}Targets
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
    OBJECTS DESTINATION ${CMAKE_INSTALL_LIBDIR}/allocgate-objects
    INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  install(EXPORT allocgate${set}Targets NAMESPACE allocgate:: DESTINATION ${ALLOCGATE_CMAKE_DIR})
endfunction()

allocgate_install_export(Harness allocgate_harness allocgate_c_allocations allocgate_block_headers)
set(ALLOCGATE_COMPONENTS "")
if(TARGET allocgate_sites)
  allocgate_install_export(Sites allocgate_sites)
  list(APPEND ALLOCGATE_COMPONENTS sites)
endif()
if(TARGET allocgate_bounds)
  # The JSON files, for gtest and benchmark
  # The JSON files and what the integrations need beside a framework's headers.
  allocgate_install_export(Files allocgate_files allocgate_bounds allocgate_site_summary allocgate_integration_support)
endif()
install(DIRECTORY ${PROJECT_SOURCE_DIR}/harness/include/allocgate DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

# allocgate::gtest and allocgate::benchmark are compiled in the consumer's
# build, against the framework it has (cmake/allocgateIntegrations.cmake):
# their sources and the internal headers they include, laid out as one
# include directory, src/.
set(ALLOCGATE_INTEGRATIONS_DIR ${CMAKE_INSTALL_DATADIR}/allocgate/integrations)
if(TARGET allocgate_integration_support)
  set(harness_src ${PROJECT_SOURCE_DIR}/harness/src)
  # A folder per framework (benchmark_sites.cpp is prebuilt, in
  # allocgate::integration_support).
  install(DIRECTORY ${harness_src}/integrations/ DESTINATION ${ALLOCGATE_INTEGRATIONS_DIR}/src/integrations
    FILES_MATCHING PATTERN "*.cpp" REGEX "/core/[^/]*$" EXCLUDE PATTERN "benchmark_sites.cpp" EXCLUDE)
  foreach(dir IN ITEMS integrations counting capture)
    install(DIRECTORY ${harness_src}/${dir}/ DESTINATION ${ALLOCGATE_INTEGRATIONS_DIR}/src/${dir}
      FILES_MATCHING PATTERN "*.h")
  endforeach()
  install(FILES ${PROJECT_SOURCE_DIR}/files/atomic_write.h ${PROJECT_SOURCE_DIR}/files/escape.h
    ${PROJECT_SOURCE_DIR}/files/format.h ${PROJECT_SOURCE_DIR}/files/input_error.h
    DESTINATION ${ALLOCGATE_INTEGRATIONS_DIR}/src)
  install(FILES ${PROJECT_SOURCE_DIR}/cmake/allocgateIntegrations.cmake DESTINATION ${ALLOCGATE_CMAKE_DIR})
  if(GTest_FOUND)
    list(APPEND ALLOCGATE_COMPONENTS gtest)
  endif()
  if(benchmark_FOUND)
    list(APPEND ALLOCGATE_COMPONENTS benchmark)
  endif()
  list(APPEND ALLOCGATE_COMPONENTS catch2 doctest)  # compiled in the consumer's build, against its Catch2 v3, doctest
endif()

# pkg-config, for Meson, Make and any build without CMake: one .pc per
# component (cmake/pkgconfig), relocatable (paths from the .pc's own place).
file(RELATIVE_PATH ALLOCGATE_PC_TO_PREFIX /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)  # ../../..
function(allocgate_install_pc name)
  configure_file(${PROJECT_SOURCE_DIR}/cmake/pkgconfig/${name}.pc.in ${PROJECT_BINARY_DIR}/pkgconfig/${name}.pc @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/pkgconfig/${name}.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endfunction()
allocgate_install_pc(allocgate)
if(TARGET allocgate_sites)
  allocgate_install_pc(allocgate-sites)
endif()
# pkg-config has no way to compile sources in its consumer's build: its
# allocgate-gtest and allocgate-benchmark are the archives built here,
# against the GoogleTest and Google Benchmark this build found (docs/package.md).
if(TARGET allocgate_gtest)
  add_dependencies(allocgate_installable allocgate_gtest_library allocgate_gtest_main)
  install(TARGETS allocgate_gtest_library ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
  get_property(gtest_wrapped GLOBAL PROPERTY ALLOCGATE_GTEST_WRAPPED_HERE)
  list(TRANSFORM gtest_wrapped PREPEND "-Wl,--wrap=" OUTPUT_VARIABLE wrap_flags)
  list(JOIN wrap_flags " " ALLOCGATE_GTEST_WRAP_FLAGS)
  allocgate_install_pc(allocgate-gtest)
  allocgate_install_pc(allocgate-gtest-main)
  install(FILES $<TARGET_OBJECTS:allocgate_gtest_main> DESTINATION ${CMAKE_INSTALL_LIBDIR}/allocgate
    RENAME allocgate_gtest_main.o)
endif()
if(TARGET allocgate_benchmark)
  add_dependencies(allocgate_installable allocgate_benchmark allocgate_benchmark_main)
  install(TARGETS allocgate_benchmark ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
  list(TRANSFORM ALLOCGATE_BENCHMARK_WRAPPED PREPEND "-Wl,--wrap=" OUTPUT_VARIABLE wrap_flags)
  list(JOIN wrap_flags " " ALLOCGATE_BENCHMARK_WRAP_FLAGS)
  allocgate_install_pc(allocgate-benchmark)
  allocgate_install_pc(allocgate-benchmark-main)
  # Under a name of its own, for the .pc (CMake's objects go to a per-config path).
  install(FILES $<TARGET_OBJECTS:allocgate_benchmark_main> DESTINATION ${CMAKE_INSTALL_LIBDIR}/allocgate
    RENAME allocgate_benchmark_main.o)
endif()
if(TARGET allocgate AND NOT ALLOCGATE_PREBUILT_COMMAND)  # a command built elsewhere is installed from there
  install(TARGETS allocgate RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  add_dependencies(allocgate_installable allocgate)
  # The licenses of the libraries every page inlines (reports/pages).
  list(GET ALLOCGATE_PAGES_LICENSES 0 chart_js_license)
  list(GET ALLOCGATE_PAGES_LICENSES 1 flamegraph_license)
  list(GET ALLOCGATE_PAGES_LICENSES 2 d3_selection_license)
  install(FILES ${chart_js_license} DESTINATION ${CMAKE_INSTALL_DOCDIR}/pages RENAME chart.js.copyright)
  install(FILES ${flamegraph_license} DESTINATION ${CMAKE_INSTALL_DOCDIR}/pages RENAME d3-flame-graph.LICENSE)
  install(FILES ${d3_selection_license} DESTINATION ${CMAKE_INSTALL_DOCDIR}/pages RENAME d3-selection.LICENSE)
  if(TARGET allocgate_man_pages)
    add_dependencies(allocgate_installable allocgate_man_pages)
    install(DIRECTORY ${ALLOCGATE_MAN_DIR}/ DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 FILES_MATCHING PATTERN "*.1.gz")
  endif()
endif()
# Whoever builds a package to hand on puts their own name and address here:
# the Debian package's Maintainer and its changelog's signer.
set(ALLOCGATE_PACKAGE_CONTACT "allocgate maintainers <maintainers@allocgate.invalid>" CACHE STRING
  "The Maintainer of the Debian package (cpack -G DEB)")
# The license, as Debian expects it beside every package's files
# (cmake/debian/copyright), and the changelog a Debian package carries.
install(FILES ${PROJECT_SOURCE_DIR}/cmake/debian/copyright DESTINATION ${CMAKE_INSTALL_DOCDIR})
# The debug package's (cpack -G DEB: allocgate-dbg); its content is made
# while packaging (cmake/debian/split_debug.cmake).
install(FILES ${PROJECT_SOURCE_DIR}/cmake/debian/copyright DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/doc/allocgate-dbg
  COMPONENT dbg EXCLUDE_FROM_ALL)
find_program(ALLOCGATE_GZIP gzip)
if(ALLOCGATE_GZIP)
  set(changelog ${PROJECT_BINARY_DIR}/debian/changelog)
  configure_file(${PROJECT_SOURCE_DIR}/cmake/debian/changelog.in ${changelog} @ONLY)
  execute_process(COMMAND ${ALLOCGATE_GZIP} -9nf ${changelog} COMMAND_ERROR_IS_FATAL ANY)
  install(FILES ${changelog}.gz DESTINATION ${CMAKE_INSTALL_DOCDIR})
  install(FILES ${changelog}.gz DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/doc/allocgate-dbg COMPONENT dbg EXCLUDE_FROM_ALL)
endif()

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/allocgateConfig.cmake.in
  ${PROJECT_BINARY_DIR}/allocgateConfig.cmake INSTALL_DESTINATION ${ALLOCGATE_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/allocgateConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/allocgateConfig.cmake
  ${PROJECT_BINARY_DIR}/allocgateConfigVersion.cmake ${PROJECT_SOURCE_DIR}/cmake/allocgateTestBounds.cmake
  DESTINATION ${ALLOCGATE_CMAKE_DIR})

include(AllocgatePackage)
