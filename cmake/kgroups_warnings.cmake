# kgroups_warnings: warning flags for kgroups' own targets (linked PRIVATE, never exported).
# kgroups_sanitizers: the -fsanitize flags chosen by KGROUPS_SANITIZE, for every target of ours.
add_library(kgroups_warnings INTERFACE)
target_compile_options(kgroups_warnings INTERFACE -Wall -Wextra -Wpedantic
                       $<$<BOOL:${KGROUPS_WERROR}>:-Werror>)

add_library(kgroups_sanitizers INTERFACE)
if(KGROUPS_SANITIZE)
  target_compile_options(kgroups_sanitizers INTERFACE -fsanitize=${KGROUPS_SANITIZE}
                         -fno-omit-frame-pointer -fno-sanitize-recover=all)
  target_link_options(kgroups_sanitizers INTERFACE -fsanitize=${KGROUPS_SANITIZE})
endif()
