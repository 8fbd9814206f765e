# Options for the parts of kgroups that need more than a C++20 compiler: the tests, the
# benchmarks and the two bindings. Each is a cache entry ON, OFF or AUTO.
# - AUTO, the default when kgroups is the top-level project: the part is built when its
#   dependencies are found and skipped with one status line when they are not, so a plain
#   `cmake -S . -B build` configures with only what the library, CLI and broker need.
# - ON: the part is required; configuring fails, saying what is missing.
# - OFF, the default when kgroups is a subproject: the part is skipped.

# kgroups_component_option(<option> <doc>): declares <option>.
function(kgroups_component_option option doc)
  if(PROJECT_IS_TOP_LEVEL)
    set(default AUTO)
  else()
    set(default OFF)
  endif()
  set(${option} ${default} CACHE STRING "${doc}: ON, OFF or AUTO (built when found)")
  set_property(CACHE ${option} PROPERTY STRINGS ON OFF AUTO)
endfunction()

# kgroups_component_unavailable(<option> <component> <reason>): for a part whose dependencies
# are missing. If <option> is AUTO, prints "<component>: not built (...): <reason>", sets <option>
# to OFF in the caller's scope, and the caller skips the part (return() in its CMakeLists.txt).
# Otherwise (ON, or undefined when the part's folder is itself the top-level project) stops
# configuring with "<component>: <reason>".
function(kgroups_component_unavailable option component reason)
  string(TOUPPER "${${option}}" value)
  if(value STREQUAL "AUTO")
    message(STATUS "${component}: not built (${option}=AUTO): ${reason}")
    set(${option} OFF PARENT_SCOPE)
  else()
    message(FATAL_ERROR "${component}: ${reason}")
  endif()
endfunction()
