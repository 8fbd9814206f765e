# Install rules: the library with its public headers, the CLI, kgroupsd with its man page,
# and a CMake package config so that other projects can find_package(kgroups) and link
# kgroups::kgroups.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(TARGETS kgroups EXPORT kgroupsTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        FILE_SET HEADERS DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
if(TARGET kgroups_cli)
  install(TARGETS kgroups_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
if(TARGET kgroupsd)
  install(TARGETS kgroupsd RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  get_target_property(kgroupsd_man_page kgroupsd_man_page KGROUPS_OUTPUT)
  install(FILES ${kgroupsd_man_page} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
endif()
install(EXPORT kgroupsTargets NAMESPACE kgroups::
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/kgroups)
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/kgroupsConfig.cmake.in
                              ${CMAKE_CURRENT_BINARY_DIR}/kgroupsConfig.cmake
                              INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/kgroups)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/kgroupsConfigVersion.cmake
                                 COMPATIBILITY SameMajorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/kgroupsConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/kgroupsConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/kgroups)
