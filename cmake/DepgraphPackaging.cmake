# What `cmake --install` adds besides the targets' own rules (docs/packaging.md): the exported
# targets depgraph::depgraph, depgraph::passes and depgraph::pto_shim with depgraphConfig.cmake,
# the orchestration helper, and the Debian package `cpack -G DEB` builds from all of it.
include(CMakePackageConfigHelpers)

set(DEPGRAPH_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/depgraph)
install(EXPORT depgraphTargets NAMESPACE depgraph:: DESTINATION ${DEPGRAPH_INSTALL_CMAKEDIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/depgraphConfig.cmake.in
  ${PROJECT_BINARY_DIR}/depgraphConfig.cmake
  INSTALL_DESTINATION ${DEPGRAPH_INSTALL_CMAKEDIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/depgraphConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/depgraphConfig.cmake
              ${PROJECT_BINARY_DIR}/depgraphConfigVersion.cmake
              ${PROJECT_SOURCE_DIR}/cmake/DepgraphOrchestration.cmake
        DESTINATION ${DEPGRAPH_INSTALL_CMAKEDIR})

# The package's copyright file, /usr/share/doc/depgraph/copyright in the Debian package (Debian's
# machine-readable format; the source tree names no license: the file says so).
install(FILES ${PROJECT_SOURCE_DIR}/cmake/debian/copyright
        DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/doc/${PROJECT_NAME})

# The Debian package: everything above under /usr, named depgraph_<version>_<arch>.deb.
# Its dependencies on Debian's runtime libraries come from dpkg-shlibdeps (dpkg-dev).
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME depgraph)
set(CPACK_PACKAGE_VENDOR "depgraph developers")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "Analyse, audit and compare task dependency graphs of accelerator task runtimes")
set(CPACK_PACKAGE_DESCRIPTION "The tools deps_viewer, depgraph (audit, diff, query, run, \
derive, check), orch_runner and gen_graph; libdepgraph, the depir passes and the runtime shim with \
their headers and CMake package (find_package(depgraph)); the Python module depgraph for the \
system python3.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "depgraph developers <depgraph@localhost>")
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# libpto_shim.so ships in the package: dpkg-shlibdeps (run inside the staging root) finds it
# there, and it adds no dependency.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS usr/${CMAKE_INSTALL_LIBDIR})
set(_depgraph_deb_depends "")
if(TARGET _depgraph)
  # The Python module is built for one Python minor version.
  math(EXPR _next "${Python3_VERSION_MINOR} + 1")
  set(_this "${Python3_VERSION_MAJOR}.${Python3_VERSION_MINOR}")
  set(_depgraph_deb_depends "python3 (>= ${_this}), python3 (<< ${Python3_VERSION_MAJOR}.${_next})")
endif()
set(CPACK_DEBIAN_PACKAGE_DEPENDS "${_depgraph_deb_depends}")
# What a find_package(depgraph) consumer compiles against: the libraries' public headers use them.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "libboost-graph-dev, nlohmann-json3-dev, g++, cmake")
include(CPack)
