# Install rules and the exported CMake package: `cmake --install build
# --prefix P` gives P/include/{opsnn,opsnn-c} (with the generated .inc files),
# P/lib/*.a, libOpsNNCAPI.so, OpsNNPlugin.so and P/lib/cmake/opsnn, which
# find_package(OpsNN) reads (see cmake/OpsNNConfig.cmake.in for its targets).
# examples/embed is a consumer built against such an installation.

include(CMakePackageConfigHelpers)

# The compiler libraries (what OpsNNInitAll links), the C API and the plugin.
# The runtime and execution libraries are not part of the package yet.
set(OPSNN_EXPORTED_TARGETS
  OpsNNAnalysis
  OpsNNLayoutDialect
  OpsNNLayoutInterfaces
  OpsNNPrecisionDialect
  OpsNNTarget
  OpsNNTransforms
  OpsNNPipelines
  OpsNNInitAll
  OpsNNCAPI
  OpsNNPlugin
)
foreach(target ${OPSNN_EXPORTED_TARGETS})
  target_include_directories(${target} INTERFACE $<INSTALL_INTERFACE:include>)
endforeach()
set_target_properties(OpsNNPlugin PROPERTIES INSTALL_RPATH "${LLVM_LIBRARY_DIR}")

install(TARGETS ${OPSNN_EXPORTED_TARGETS}
  EXPORT OpsNNTargets
  ARCHIVE DESTINATION lib
  LIBRARY DESTINATION lib)
install(EXPORT OpsNNTargets
  NAMESPACE OpsNN::
  DESTINATION lib/cmake/opsnn)

install(DIRECTORY include/opsnn include/opsnn-c
  DESTINATION include
  FILES_MATCHING PATTERN "*.h" PATTERN "*.td")
install(DIRECTORY ${PROJECT_BINARY_DIR}/include/opsnn
                  ${PROJECT_BINARY_DIR}/include/opsnn-c
  DESTINATION include
  FILES_MATCHING PATTERN "*.inc"
  PATTERN "CMakeFiles" EXCLUDE)

configure_package_config_file(
  ${CMAKE_CURRENT_LIST_DIR}/OpsNNConfig.cmake.in
  ${PROJECT_BINARY_DIR}/lib/cmake/opsnn/OpsNNConfig.cmake
  INSTALL_DESTINATION lib/cmake/opsnn)
install(FILES ${PROJECT_BINARY_DIR}/lib/cmake/opsnn/OpsNNConfig.cmake
  DESTINATION lib/cmake/opsnn)
