# Writes the man page kgroupsd.1 from `kgroupsd --help`, so that it lists exactly the options
# the program has. CLI11's help is a summary line ("kgroupsd: ..."), a usage line, then one
# entry per option: "  --name TYPE=DEFAULT", then its description after padding on the same
# line or on the next lines, indented.
# Usage: cmake -DPROGRAM=<kgroupsd> -DOUTPUT=<kgroupsd.1> -DVERSION=<version> -P man_page.cmake
execute_process(COMMAND ${PROGRAM} --help OUTPUT_VARIABLE help RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "man_page.cmake: `${PROGRAM} --help` failed (${result})")
endif()

# roff escapes first; then `;`, `[` and `]` become control characters while the text is a
# CMake list (they would split or join list items) and come back at the end.
string(REPLACE "\\" "\\e" help "${help}")
string(REPLACE "-" "\\-" help "${help}")
string(ASCII 1 semicolon)
string(ASCII 2 open_bracket)
string(ASCII 3 close_bracket)
string(REPLACE ";" "${semicolon}" help "${help}")
string(REPLACE "[" "${open_bracket}" help "${help}")
string(REPLACE "]" "${close_bracket}" help "${help}")
string(REPLACE "\n" ";" lines "${help}")

set(summary "")
set(options "")
set(option_count 0)
foreach(line IN LISTS lines)
  if(line MATCHES "^kgroupsd: (.+)$")
    set(summary "${CMAKE_MATCH_1}")
  elseif(line MATCHES "^  (\\\\-[^ ]*)( [^ ]([^ ]| [^ ])*)?(  +(.+))?$")
    # "  -h,\-\-help   Print ..." or "  \-\-listen TEXT=127.0.0.1:9092" (description below)
    string(APPEND options ".TP\n\\fB${CMAKE_MATCH_1}\\fR${CMAKE_MATCH_2}\n")
    if(CMAKE_MATCH_5)
      string(APPEND options "${CMAKE_MATCH_5}\n")
    endif()
    math(EXPR option_count "${option_count} + 1")
  elseif(line MATCHES "^   +([^ ].*)$" AND option_count GREATER 0)
    set(text "${CMAKE_MATCH_1}")
    if(text MATCHES "^[.']")
      set(text "\\&${text}")
    endif()
    string(APPEND options "${text}\n")
  endif()
endforeach()
if(summary STREQUAL "" OR option_count LESS 2)
  message(FATAL_ERROR "man_page.cmake: `${PROGRAM} --help` has no summary line or options:\n"
                      "${help}")
endif()

set(page ".TH KGROUPSD 1 \"\" \"kgroups ${VERSION}\" \"User Commands\"
.SH NAME
kgroupsd \\- ${summary}
.SH SYNOPSIS
\\fBkgroupsd\\fR [\\fIOPTIONS\\fR]
.SH DESCRIPTION
kgroupsd binds its listener, prints one line on standard output when it is ready
(\"kgroupsd listening on HOST:PORT\", or with --http
\"kgroupsd listening on HOST:PORT, http on HOST:HTTPPORT\"), then serves Kafka clients
until SIGINT or SIGTERM.
Topics, records, consumer groups and committed offsets live in memory only.
Logs go to standard error.
.SH OPTIONS
${options}.SH SEE ALSO
docs/LIMITS.md (every limit, its default and what a client sees beyond it) and
docs/PROTOCOL.md (the Kafka APIs and versions served) in the kgroups sources.
")
string(REPLACE "${semicolon}" ";" page "${page}")
string(REPLACE "${open_bracket}" "[" page "${page}")
string(REPLACE "${close_bracket}" "]" page "${page}")
file(WRITE "${OUTPUT}" "${page}")
