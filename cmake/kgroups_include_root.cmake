# kgroups_include_root(<target> <folder>...): gives <target> an include root of its own, a
# folder in the build tree holding only a link to each <folder> of src/ (e.g.
# broker/storage). Code that links <target> includes "broker/storage/batch_log.h" through
# that root; code that does not link it finds no such file. So an include that crosses a
# layer boundary the targets do not allow fails to compile (docs/ARCHITECTURE.md, "The broker's layers").
function(kgroups_include_root target)
  set(root ${PROJECT_BINARY_DIR}/include-roots/${target})
  foreach(folder IN LISTS ARGN)
    set(link ${root}/${folder})
    set(source ${PROJECT_SOURCE_DIR}/src/${folder})
    if(IS_SYMLINK ${link})
      file(READ_SYMLINK ${link} current)
      if(NOT current STREQUAL source)
        file(REMOVE ${link})
      endif()
    endif()
    if(NOT IS_SYMLINK ${link})
      get_filename_component(parent ${link} DIRECTORY)
      file(MAKE_DIRECTORY ${parent})
      file(CREATE_LINK ${source} ${link} SYMBOLIC)
    endif()
  endforeach()
  get_target_property(type ${target} TYPE)
  if(type STREQUAL "INTERFACE_LIBRARY")
    target_include_directories(${target} INTERFACE $<BUILD_INTERFACE:${root}>)
  else()
    target_include_directories(${target} PUBLIC $<BUILD_INTERFACE:${root}>)
  endif()
endfunction()

# kgroups_broker_layer(<layer> SOURCES <file>... [LINKS <target>...] [TESTS <file>...]):
# the static library kgroups_broker_<layer> built from src/broker/<layer>, including
# "broker/<layer>/..." through its own root, and linking the layers below it (LINKS) publicly.
# Its TESTS join the one broker test program (kgroups_broker_tests, src/broker/CMakeLists.txt).
function(kgroups_broker_layer layer)
  cmake_parse_arguments(ARG "" "" "SOURCES;LINKS;TESTS" ${ARGN})
  set(target kgroups_broker_${layer})
  add_library(${target} STATIC ${ARG_SOURCES})
  target_compile_features(${target} PUBLIC cxx_std_20)
  kgroups_include_root(${target} broker/${layer})
  target_link_libraries(${target} PUBLIC ${ARG_LINKS}
                        PRIVATE kgroups_warnings kgroups_sanitizers)
  foreach(test IN LISTS ARG_TESTS)
    set_property(GLOBAL APPEND PROPERTY KGROUPS_BROKER_TESTS ${CMAKE_CURRENT_SOURCE_DIR}/${test})
  endforeach()
endfunction()
