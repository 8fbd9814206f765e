# The compiler cache: every build of kgroups (the presets, pip's, npm's, README's install
# commands) compiles through ccache when it is installed, so sources compiled once with
# the same flags are not compiled again by the next build, in any folder or clone.
# ccache is given paths relative to the top of the source tree (CCACHE_BASEDIR) and does not
# hash the working directory (CCACHE_NOHASHDIR), so two builds at the same depth under their
# source trees (build/install and build/pip of two clones, an sdist unpacked by pip) share
# their objects. KGROUPS_CCACHE=OFF, or a launcher of one's own, turns this off.
option(KGROUPS_CCACHE "Compile through ccache when it is installed" ON)
if(KGROUPS_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER AND NOT DEFINED ENV{CMAKE_CXX_COMPILER_LAUNCHER})
  find_program(KGROUPS_CCACHE_PROGRAM ccache DOC "ccache, the compiler cache")
  find_program(KGROUPS_ENV_PROGRAM env DOC "env, to pass ccache its settings")
  if(KGROUPS_CCACHE_PROGRAM AND KGROUPS_ENV_PROGRAM)
    # The sloppiness lets ccache cache the test programs' precompiled header and the objects
    # compiled with it (cmake/kgroups_testing.cmake).
    set(CMAKE_CXX_COMPILER_LAUNCHER ${KGROUPS_ENV_PROGRAM} CCACHE_BASEDIR=${PROJECT_SOURCE_DIR}
        CCACHE_NOHASHDIR=true CCACHE_SLOPPINESS=pch_defines,time_macros
        ${KGROUPS_CCACHE_PROGRAM})
  endif()
endif()
