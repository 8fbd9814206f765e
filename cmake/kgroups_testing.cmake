# kgroups_add_test(NAME <name> SOURCES <files...> [LIBS <targets...>] LABELS <labels...>)
# Builds a GoogleTest executable and registers each of its tests with CTest.
# Without GoogleTest, KGROUPS_BUILD_TESTS=AUTO turns the tests off (cmake/kgroups_options.cmake).
find_package(GTest QUIET)
if(NOT GTest_FOUND)
  kgroups_component_unavailable(KGROUPS_BUILD_TESTS "kgroups tests"
    "GoogleTest is missing (apt-get install libgtest-dev libgmock-dev, or run \
scripts/install-deps)")
  return()
endif()
enable_testing()
include(GoogleTest)

function(kgroups_add_test)
  cmake_parse_arguments(ARG "" "NAME" "SOURCES;LIBS;LABELS" ${ARGN})
  add_executable(${ARG_NAME} ${ARG_SOURCES})
  target_link_libraries(${ARG_NAME} PRIVATE ${ARG_LIBS} GTest::gtest GTest::gtest_main
                        kgroups_warnings kgroups_sanitizers)
  # GoogleTest's header is a second or two of every test file's compile time: each test
  # program parses it once (ccache caches the precompiled header with the objects).
  target_precompile_headers(${ARG_NAME} PRIVATE <gtest/gtest.h>)
  gtest_discover_tests(${ARG_NAME} PROPERTIES LABELS "${ARG_LABELS}" DISCOVERY_TIMEOUT 60)
endfunction()
