# Installation and packaging (docs/install.md). Included last by the top-level CMakeLists.txt, when every
# target exists.
#
#   runtime   libmarionette_runtime.a, libmarionette_rig.a, libmarionette_foundation.a (and
#             libmarionette.so with MARIONETTE_SHARED_RUNTIME), their headers, the CMake package
#             (Marionette::runtime, Marionette::rig, Marionette::foundation, Marionette::shared) and
#             marionette.pc. Needs no Qt.
#   tools     the `marionette` CLI and `marionette-editor` (exported as Marionette::marionette and
#             Marionette::editor), the plugins shipped with them and marionette_add_rigs()
#             (MarionetteRigs.cmake).
#   docs      README.md and docs/.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(MARIONETTE_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/Marionette)

# ---- runtime ----------------------------------------------------------------------------------------------
set(marionette_runtime_targets marionette_foundation marionette_rig marionette_runtime)
if(TARGET marionette_shared)
  list(APPEND marionette_runtime_targets marionette_shared)
endif()
install(TARGETS ${marionette_runtime_targets} EXPORT MarionetteRuntime
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT runtime
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT runtime NAMELINK_COMPONENT runtime
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/foundation/include/ ${PROJECT_SOURCE_DIR}/formats/rig/include/
  ${PROJECT_SOURCE_DIR}/runtime/include/
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT runtime)
install(EXPORT MarionetteRuntime NAMESPACE Marionette:: FILE MarionetteRuntimeTargets.cmake
  DESTINATION ${MARIONETTE_INSTALL_CMAKEDIR} COMPONENT runtime)

configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/MarionetteConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/MarionetteConfig.cmake INSTALL_DESTINATION ${MARIONETTE_INSTALL_CMAKEDIR})
# 0.x: a minor version may break the API, so only the same minor version is compatible.
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/MarionetteConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/MarionetteConfig.cmake ${CMAKE_CURRENT_BINARY_DIR}/MarionetteConfigVersion.cmake
  DESTINATION ${MARIONETTE_INSTALL_CMAKEDIR} COMPONENT runtime)
install(FILES ${CMAKE_CURRENT_LIST_DIR}/MarionetteRigs.cmake DESTINATION ${MARIONETTE_INSTALL_CMAKEDIR} COMPONENT tools)

# pkg-config: the prefix is found from the .pc file's own place, so the installation can be moved.
file(RELATIVE_PATH marionette_pc_up /root/${CMAKE_INSTALL_LIBDIR}/pkgconfig /root)
set(MARIONETTE_PC_PREFIX "\${pcfiledir}/${marionette_pc_up}")
configure_file(${CMAKE_CURRENT_LIST_DIR}/marionette.pc.in ${CMAKE_CURRENT_BINARY_DIR}/marionette.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/marionette.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig
  COMPONENT runtime)

# ---- tools and docs -----------------------------------------------------------------------------------------
if(TARGET marionette)
  set_target_properties(marionette-editor PROPERTIES EXPORT_NAME editor)
  install(TARGETS marionette marionette-editor EXPORT MarionetteTools
    RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT tools)
  install(EXPORT MarionetteTools NAMESPACE Marionette:: FILE MarionetteToolsTargets.cmake
    DESTINATION ${MARIONETTE_INSTALL_CMAKEDIR} COMPONENT tools)
endif()
install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT docs)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT docs)

# ---- packages -------------------------------------------------------------------------------------------------
# `cpack -G DEB` (or TGZ) in the build folder: one package with every component, installed under /usr.
set(CPACK_PACKAGE_NAME marionette)
set(CPACK_PACKAGE_VENDOR "Marionette")
set(CPACK_PACKAGE_CONTACT "Marionette developers <marionette@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Character-physics rig editor, rig pipeline and ragdoll runtime")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_GENERATOR TGZ)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
if(TARGET marionette)
  set(CPACK_DEBIAN_PACKAGE_DEPENDS "libqt6core6, libqt6gui6, libqt6widgets6, libqt6opengl6, libqt6openglwidgets6, libassimp5")
endif()
include(CPack)
