# depgraph_add_orchestration: build an orchestration source against the runtime shim in one line.
#
#   include(DepgraphOrchestration)      # with <depgraph>/cmake on CMAKE_MODULE_PATH, or
#   find_package(depgraph)              # an installed depgraph: includes this file
#   depgraph_add_orchestration(my_orch SOURCES my_orch.cpp
#                              [RUNTIME tensormap_and_ringbuffer|host_build_graph]
#                              [ARCH a2a3|a5]
#                              [INCLUDE_DIRECTORIES dir...] [COMPILE_DEFINITIONS def...]
#                              [OUTPUT_DIRECTORY dir])
#
# produces the MODULE library lib<my_orch>.so that `orch_runner` loads with dlopen. It is
# compiled as C++17 (like the real runtime's build), position independent, with the shim's
# orchestration API headers (pto_orchestration_api.h, ...) on the include path and the flavour
# definitions: PTO_SHIM_HBG for host_build_graph, PTO_SHIM_A5 for the a5 spelling.
# RUNTIME and ARCH default to tensormap_and_ringbuffer and a2a3. NDEBUG is never defined
# (as in the real build, debug_assert checks such as view bounds stay live).
#
# The module never carries its own copy of the shim: the shim's C entry points (pto_shim_*) are
# resolved when orch_runner loads it, so there is exactly one runtime per process. In this tree
# the headers come from the `pto_shim` target, after find_package(depgraph) from the installed
# `depgraph::pto_shim` (a shared shim is also linked, which adds a DT_NEEDED on the same
# library). Elsewhere set DEPGRAPH_SHIM_INCLUDE_DIR to <depgraph>/runtime_shim/include (the
# default when this file sits in <depgraph>/cmake).

set(DEPGRAPH_SHIM_INCLUDE_DIR "${CMAKE_CURRENT_LIST_DIR}/../runtime_shim/include"
    CACHE PATH "Directory holding pto_orchestration_api.h (used when there is no pto_shim target)")

function(depgraph_add_orchestration target)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "RUNTIME;ARCH;OUTPUT_DIRECTORY"
                        "SOURCES;INCLUDE_DIRECTORIES;COMPILE_DEFINITIONS")
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "depgraph_add_orchestration(${target}): unexpected arguments: ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "depgraph_add_orchestration(${target}): SOURCES is required")
  endif()
  if(NOT ARG_RUNTIME)
    set(ARG_RUNTIME tensormap_and_ringbuffer)
  endif()
  if(NOT ARG_ARCH)
    set(ARG_ARCH a2a3)
  endif()
  if(NOT ARG_RUNTIME MATCHES "^(tensormap_and_ringbuffer|host_build_graph)$")
    message(FATAL_ERROR "depgraph_add_orchestration(${target}): RUNTIME must be tensormap_and_ringbuffer or host_build_graph, not '${ARG_RUNTIME}'")
  endif()
  if(NOT ARG_ARCH MATCHES "^(a2a3|a5)$")
    message(FATAL_ERROR "depgraph_add_orchestration(${target}): ARCH must be a2a3 or a5, not '${ARG_ARCH}'")
  endif()

  add_library(${target} MODULE ${ARG_SOURCES})
  set_target_properties(${target} PROPERTIES
    CXX_STANDARD 17
    CXX_STANDARD_REQUIRED ON
    CXX_EXTENSIONS OFF
    POSITION_INDEPENDENT_CODE ON
    PREFIX "lib")
  # The runtime's orchestration builds never define NDEBUG: debug_assert (view bounds) stays live.
  target_compile_options(${target} PRIVATE -UNDEBUG)
  if(ARG_OUTPUT_DIRECTORY)
    set_target_properties(${target} PROPERTIES LIBRARY_OUTPUT_DIRECTORY "${ARG_OUTPUT_DIRECTORY}")
  endif()
  if(ARG_RUNTIME STREQUAL "host_build_graph")
    target_compile_definitions(${target} PRIVATE PTO_SHIM_HBG)
  endif()
  if(ARG_ARCH STREQUAL "a5")
    target_compile_definitions(${target} PRIVATE PTO_SHIM_A5)
  endif()
  if(ARG_COMPILE_DEFINITIONS)
    target_compile_definitions(${target} PRIVATE ${ARG_COMPILE_DEFINITIONS})
  endif()
  if(ARG_INCLUDE_DIRECTORIES)
    target_include_directories(${target} PRIVATE ${ARG_INCLUDE_DIRECTORIES})
  endif()

  set(_shim "")
  if(TARGET pto_shim)
    set(_shim pto_shim)
  elseif(TARGET depgraph::pto_shim)
    set(_shim depgraph::pto_shim)
  endif()
  if(_shim)
    get_target_property(_type ${_shim} TYPE)
    target_include_directories(${target} PRIVATE
      $<TARGET_PROPERTY:${_shim},INTERFACE_INCLUDE_DIRECTORIES>)
    target_compile_definitions(${target} PRIVATE
      $<TARGET_PROPERTY:${_shim},INTERFACE_COMPILE_DEFINITIONS>)
    if(_type STREQUAL "SHARED_LIBRARY")
      target_link_libraries(${target} PRIVATE ${_shim})
    elseif(_shim STREQUAL "pto_shim")
      # Headers only; orch_runner exports the shim's symbols. Build the shim first anyway so a
      # module is never newer than the runner it is tested with.
      add_dependencies(${target} pto_shim)
    endif()
  else()
    if(NOT EXISTS "${DEPGRAPH_SHIM_INCLUDE_DIR}/pto_orchestration_api.h")
      message(FATAL_ERROR "depgraph_add_orchestration(${target}): pto_orchestration_api.h not found in DEPGRAPH_SHIM_INCLUDE_DIR='${DEPGRAPH_SHIM_INCLUDE_DIR}'")
    endif()
    target_include_directories(${target} PRIVATE "${DEPGRAPH_SHIM_INCLUDE_DIR}")
  endif()
endfunction()
