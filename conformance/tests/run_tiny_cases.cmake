# Builds the hand-written case sets and runs the unchanged runner on them:
#   cmake -DRUNNER=... -DMAKER=... -DDIR=... -P run_tiny_cases.cmake
# The good set must pass (one skip: an op without an adapter) and produce all
# three report formats; the bad set must fail, naming each problem.

file(REMOVE_RECURSE "${DIR}")
execute_process(COMMAND "${MAKER}" "${DIR}" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "making the case sets failed: ${rc}")
endif()

function(run_set set expected_rc out_var)
    execute_process(
        COMMAND "${RUNNER}" --backend reference --cases "${DIR}/${set}" --verbose
                --report "${DIR}/${set}.json"
        RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    message("--- ${set} (exit ${rc}) ---\n${out}${err}")
    if(NOT rc EQUAL expected_rc)
        message(FATAL_ERROR "${set}: exit status ${rc}, expected ${expected_rc}")
    endif()
    set(${out_var} "${out}" PARENT_SCOPE)
endfunction()

function(expect text pattern)
    if(NOT text MATCHES "${pattern}")
        message(FATAL_ERROR "the output does not match: ${pattern}")
    endif()
endfunction()

run_set(good 0 good_out)
expect("${good_out}" "\n10 passed, 0 failed, 1 skipped\n$")
expect("${good_out}" "SKIP  frobnicate/no_adapter \\[reference, float32\\]: runner: no adapter")
expect("${good_out}" "PASS  sub/bool_error \\[reference, bool\\]: TSR_ERR_")
expect("${good_out}" "PASS  add_/f32_through_view")

# The same run writes HTML and Markdown as well.
foreach(ext html md)
    execute_process(COMMAND "${RUNNER}" --backend reference --cases "${DIR}/good"
                            --report "${DIR}/good.${ext}"
                    RESULT_VARIABLE rc OUTPUT_QUIET)
    if(NOT rc EQUAL 0 OR NOT EXISTS "${DIR}/good.${ext}")
        message(FATAL_ERROR "--report good.${ext}: exit ${rc}")
    endif()
endforeach()
file(READ "${DIR}/good.json" json)
expect("${json}" "\"summary\":[ \t\n]*{[ \t\n]*\"pass\":[ \t]*10,")
file(READ "${DIR}/good.html" html)
expect("${html}" "<th class=\"op\">add</th><td class=\"none\"></td><td class=\"none\"></td><td class=\"good\">1 pass</td>")
expect("${html}" "<th class=\"op\">frobnicate</th>[^\n]*<td class=\"skip\">1 skip</td>")
file(READ "${DIR}/good.md" md)
expect("${md}" "\\| add \\|")

run_set(bad 1 bad_out)
expect("${bad_out}" "\n1 passed, 2 failed, 0 skipped\n$")
expect("${bad_out}" "FAIL  add/wrong_value \\[reference, float32\\]: output 0: 1 of 3 elements differ; first at \\[1\\]: got 22, expected 23")
expect("${bad_out}" "ERROR neg/missing_error \\[reference, float32\\]: no error; PyTorch raised RuntimeError")
message("tiny case sets: ok")
