# Runs PROGRAM with ARGUMENTS (space-separated) and fails unless it exits with CODE, prints
# nothing on stdout, and prints EXPECTED (a regular expression) on stderr.
separate_arguments(arguments UNIX_COMMAND "${ARGUMENTS}")
execute_process(COMMAND ${PROGRAM} ${arguments} RESULT_VARIABLE result OUTPUT_VARIABLE out
                ERROR_VARIABLE err TIMEOUT 30)
if(NOT result EQUAL CODE)
  message(FATAL_ERROR "exit code ${result}, expected ${CODE}; stderr: ${err}")
endif()
if(NOT out STREQUAL "")
  message(FATAL_ERROR "stdout should be empty, got: ${out}")
endif()
if(NOT err MATCHES "${EXPECTED}")
  message(FATAL_ERROR "stderr should match '${EXPECTED}', got: ${err}")
endif()
