# The shell tests' cases are the branches of their scripts. A script such as
# tests/tools/compare.sh takes BIN and a case name and dispatches on it:
#
#   case $case in
#   identical)
#       ...
#       ;;
#   killed_rank_shm | killed_rank_p2p)      two cases
#   bad_root) run 2 2 "only 2 ranks" -r 5 ;;
#   *) fail "unknown case $case" ;;         no case
#   esac
#
# each branch label at the start of its line. ctest runs one test per
# branch, so a case is named once, in its script.
#
# cb_shell_cases(SCRIPT PREFIX LABELS <label>... TIMEOUT <seconds>
#                [PROPERTIES <name> <value>...] [EXCLUDE <case>...] [ARGS <arg>...])
# adds the test PREFIX<case> for each case of SCRIPT (a path relative to the
# calling CMakeLists.txt, or absolute), its command SCRIPT BIN <case> ARGS...
# (BIN: the build's bin folder), with the LABELS, TIMEOUT and further test
# PROPERTIES given (SKIP_RETURN_CODE 77, FIXTURES_REQUIRED x) on every case;
# properties of single cases are set after, by name
# (set_tests_properties(PREFIX<case> ...)). EXCLUDE: cases this build leaves
# out (those that need MPI in a build without it); each must be a case.
# A change to SCRIPT configures the build again, so a new branch is a test at
# the next build.
#
# Configuring fails (FATAL_ERROR) when SCRIPT yields no case, when an EXCLUDE
# is not one of its cases, or when the cases read here differ from the
# branches bash itself parses (tests/lib/shell_cases.sh): a branch this
# pattern misses cannot silently be a test that never runs.
set(CB_SHELL_CASES_SH ${CMAKE_CURRENT_LIST_DIR}/shell_cases.sh)
find_program(CB_BASH bash REQUIRED)

# cb_shell_cases_read(SCRIPT OUT): the cases of SCRIPT, in its order
function(cb_shell_cases_read script out)
  file(STRINGS ${script} lines
       REGEX [[^(case \$case in[ ]*|esac|[a-z0-9_]+([ ]*[|][ ]*[a-z0-9_]+)*\).*)$]])
  set(cases "")
  set(in_case FALSE)
  foreach(line IN LISTS lines)
    if(line MATCHES [[^case \$case in[ ]*$]])
      set(in_case TRUE)
    elseif(line STREQUAL "esac")
      set(in_case FALSE)
    elseif(in_case AND line MATCHES [[^([a-z0-9_]+([ ]*[|][ ]*[a-z0-9_]+)*)\)]])
      string(REPLACE "|" ";" labels "${CMAKE_MATCH_1}")
      foreach(label IN LISTS labels)
        string(STRIP "${label}" label)
        list(APPEND cases ${label})
      endforeach()
    endif()
  endforeach()
  set(${out} ${cases} PARENT_SCOPE)
endfunction()

function(cb_shell_cases script prefix)
  cmake_parse_arguments(PARSE_ARGV 2 A "" "TIMEOUT" "LABELS;PROPERTIES;EXCLUDE;ARGS")
  if(A_UNPARSED_ARGUMENTS OR NOT A_LABELS OR NOT A_TIMEOUT)
    message(FATAL_ERROR "cb_shell_cases(${script} ${prefix}): needs LABELS and TIMEOUT "
                        "(unknown: ${A_UNPARSED_ARGUMENTS})")
  endif()
  cmake_path(ABSOLUTE_PATH script BASE_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR})
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${script})
  cb_shell_cases_read(${script} cases)
  if(NOT cases)
    message(FATAL_ERROR "cb_shell_cases: ${script}: no case read (no branch label between "
                        "a line \"case \$case in\" and a line \"esac\")")
  endif()
  execute_process(COMMAND ${CB_BASH} ${CB_SHELL_CASES_SH} ${script}
                  OUTPUT_VARIABLE parsed ERROR_VARIABLE err RESULT_VARIABLE rc)
  string(REGEX REPLACE "\n$" "" parsed "${parsed}")
  string(REPLACE "\n" ";" parsed "${parsed}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "cb_shell_cases: ${script}: bash's parse failed (exit ${rc}): ${err}")
  endif()
  if(NOT "${parsed}" STREQUAL "${cases}")
    set(missed ${parsed})
    list(REMOVE_ITEM missed ${cases})
    set(extra ${cases})
    list(REMOVE_ITEM extra ${parsed})
    message(FATAL_ERROR "cb_shell_cases: ${script}: the cases read are not the branches bash parses: "
                        "branches not read: [${missed}]; read but no branch: [${extra}] (or the same "
                        "in another order); write each branch label at the start of its line, as "
                        "name) or a | b), and no such line inside a here-document")
  endif()
  foreach(c IN LISTS A_EXCLUDE)
    if(NOT c IN_LIST cases)
      message(FATAL_ERROR "cb_shell_cases: ${script}: EXCLUDE ${c} is no case of it (${cases})")
    endif()
  endforeach()
  list(REMOVE_ITEM cases ${A_EXCLUDE})
  foreach(c IN LISTS cases)
    add_test(NAME ${prefix}${c} COMMAND ${script} ${CMAKE_BINARY_DIR}/bin ${c} ${A_ARGS})
    set_tests_properties(${prefix}${c} PROPERTIES LABELS "${A_LABELS}" TIMEOUT ${A_TIMEOUT}
                         ${A_PROPERTIES})
  endforeach()
endfunction()
