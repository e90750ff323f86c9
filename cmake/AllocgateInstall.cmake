# Install and export: find_package(allocgate) then gives allocgate::harness,
# allocgate::gtest, allocgate::benchmark, allocgate::benchmark_main,
# allocgate::c_allocations and allocgate::block_headers.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(ALLOCGATE_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/allocgate)

install(TARGETS allocgate_harness allocgate_gtest allocgate_benchmark allocgate_benchmark_main
                allocgate_c_allocations
                allocgate_block_headers
  EXPORT allocgateTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  OBJECTS DESTINATION ${CMAKE_INSTALL_LIBDIR}/allocgate-objects
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/harness/include/allocgate
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT allocgateTargets NAMESPACE allocgate:: DESTINATION ${ALLOCGATE_CMAKE_DIR})

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/allocgateConfig.cmake.in
  ${PROJECT_BINARY_DIR}/allocgateConfig.cmake INSTALL_DESTINATION ${ALLOCGATE_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/allocgateConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/allocgateConfig.cmake
  ${PROJECT_BINARY_DIR}/allocgateConfigVersion.cmake DESTINATION ${ALLOCGATE_CMAKE_DIR})
