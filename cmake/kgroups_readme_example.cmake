# Compiles and runs README.md's C++ example (the first ```cpp block, which must
# contain no backquote) as a test,
# so the example in the README cannot rot.
file(READ ${PROJECT_SOURCE_DIR}/README.md readme)
string(REGEX MATCH "```cpp\n([^`]*)```" example_block "${readme}")
if(NOT CMAKE_MATCH_1)
  message(FATAL_ERROR "README.md has no ```cpp example block")
endif()
set(example_source ${CMAKE_CURRENT_BINARY_DIR}/readme_example.cc)
file(GENERATE OUTPUT ${example_source} CONTENT "${CMAKE_MATCH_1}")
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/README.md)
add_executable(kgroups_readme_example ${example_source})
target_link_libraries(kgroups_readme_example PRIVATE kgroups kgroups_sanitizers)
target_compile_options(kgroups_readme_example PRIVATE -UNDEBUG)
add_test(NAME readme_cpp_example_runs COMMAND kgroups_readme_example)
set_tests_properties(readme_cpp_example_runs PROPERTIES LABELS unit)
