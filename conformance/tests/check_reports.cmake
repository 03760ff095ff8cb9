# What a published report must say, checked on the hand-written case sets:
#   cmake -DRUNNER=... -DMAKER=... -DDIR=... -DVERSION=X.Y.Z [-DSECOND=NAME]
#         -P check_reports.cmake
# Without SECOND: the reference backend's HTML, Markdown and JSON reports name
# the tessera version, the backend with its plugin version and device, the
# case set with its size, the date and the command; --summary lists a failing
# op; the differential mode's report and summary do the same; --help names
# every option. With SECOND: one run on reference and SECOND gives one HTML
# (and one Markdown) report holding both backends side by side.

file(REMOVE_RECURSE "${DIR}")
execute_process(COMMAND "${MAKER}" "${DIR}" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "making the case sets failed: ${rc}")
endif()

function(run expected_rc)
    execute_process(COMMAND "${RUNNER}" ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                    ERROR_VARIABLE err)
    if(NOT rc EQUAL expected_rc)
        message(FATAL_ERROR "${ARGN}: exit status ${rc}, expected ${expected_rc}\n${out}${err}")
    endif()
    set(run_out "${out}" PARENT_SCOPE)
endfunction()

function(expect file pattern)
    file(READ "${file}" text)
    if(NOT text MATCHES "${pattern}")
        message(FATAL_ERROR "${file} does not match: ${pattern}")
    endif()
endfunction()

function(expect_not file pattern)
    file(READ "${file}" text)
    if(text MATCHES "${pattern}")
        message(FATAL_ERROR "${file} matches, and must not: ${pattern}")
    endif()
endfunction()

function(expect_small file)
    file(SIZE "${file}" size)
    if(size GREATER 65536 OR size EQUAL 0)
        message(FATAL_ERROR "${file}: ${size} bytes, expected 1 to 65536")
    endif()
endfunction()

string(REPLACE "." "\\." version_re "${VERSION}")
set(date_re "20[0-9][0-9]-[01][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-6][0-9]Z")
set(plugin_version_re "[0-9]+\\.[0-9]+\\.[0-9]+")

if(NOT SECOND)
    # The golden runner: each format names the run.
    foreach(ext html md json)
        run(0 --backend reference --cases "${DIR}/good" --report "${DIR}/good.${ext}")
        expect("${DIR}/good.${ext}" "${version_re}")
        expect("${DIR}/good.${ext}" "${date_re}")
        expect("${DIR}/good.${ext}" "--cases [^ ]*good --report [^ ]*good\\.${ext}")
        expect("${DIR}/good.${ext}" "host CPU")
    endforeach()
    expect("${DIR}/good.html" "<tr><th>cases</th><td>11 cases</td></tr>")
    expect("${DIR}/good.md" "\\| case set \\| `` [^`]*good ``: 11 cases \\|")
    expect("${DIR}/good.md" "\\| tessera \\| ${version_re} \\(plugin ABI [0-9]+\\.[0-9]+\\) \\|")
    expect("${DIR}/good.md" "\\| reference \\| ${plugin_version_re} \\| host CPU[^|]* \\| 10 \\| 0 \\| 0 \\| 1 \\|")
    expect("${DIR}/good.md" "\\| date \\(UTC\\) \\| ${date_re} \\|")
    expect("${DIR}/good.html" "<tr><th>reference</th><td>tested</td><td>${plugin_version_re}</td><td>host CPU")
    expect("${DIR}/good.html" "header\\.top{position:sticky;top:0")
    expect("${DIR}/good.html" "<nav id=\"contents\">.*<a href=\"#overview\">.*<a href=\"#backend-reference\">")
    expect("${DIR}/good.html" "<section id=\"columns\">.*<dt>Overview: one column per backend</dt>")
    expect("${DIR}/good.json" "\"tessera\":[ \t\n]*{[ \t\n]*\"version\":[ \t]*\"${version_re}\"")
    expect("${DIR}/good.json" "\"case_set\":[ \t\n]*{[ \t\n]*\"dir\":[ \t]*\"[^\"]*good\",[ \t\n]*\"cases\":[ \t]*11,")
    expect("${DIR}/good.json" "\"name\":[ \t]*\"reference\",[ \t\n]*\"role\":[ \t]*\"tested\",[ \t\n]*\"version\":[ \t]*\"${plugin_version_re}\",[ \t\n]*\"device\":[ \t]*\"host CPU")
    expect("${DIR}/good.json" "\"date\":[ \t]*\"${date_re}\"")

    # --summary: short, with the totals; a failing op named with its count
    # and first failing case; none when nothing failed.
    run(0 --backend reference --cases "${DIR}/good" --summary "${DIR}/good_summary.md")
    expect_small("${DIR}/good_summary.md")
    expect("${DIR}/good_summary.md" "10 passed, 0 failed \\(0 of them errors\\), 1 skipped")
    expect("${DIR}/good_summary.md" "No op failed\\.")
    run(1 --backend reference --cases "${DIR}/bad" --summary "${DIR}/bad_summary.md"
          --report "${DIR}/bad.md")
    expect_small("${DIR}/bad_summary.md")
    expect("${DIR}/bad_summary.md" "${version_re}.*${date_re}.*--summary.*host CPU")
    expect("${DIR}/bad_summary.md" "\\| add \\| reference \\| 1 \\| `add/wrong_value` \\(float32, fail\\): output 0: 1 of 3 elements differ")
    expect("${DIR}/bad_summary.md" "\\| neg \\| reference \\| 1 \\| `neg/missing_error` \\(float32, error\\)")
    expect("${DIR}/bad.md" "\\| add \\| ❌ 1 pass, 1 fail \\|")
    if(NOT run_out MATCHES "\n1 passed, 2 failed, 0 skipped\n$")
        message(FATAL_ERROR "the last line changed:\n${run_out}")
    endif()

    # The differential mode's report and summary name both backends.
    run(0 --backend reference --against reference --cases-count 30 --seed 3 --op "add*"
          --report "${DIR}/diff.md" --summary "${DIR}/diff_summary.md")
    foreach(file diff.md diff_summary.md)
        expect("${DIR}/${file}" "${version_re}")
        expect("${DIR}/${file}" "${date_re}")
        expect("${DIR}/${file}" "random cases: [0-9]+ drawn")
        expect("${DIR}/${file}" "\\| reference \\(tested, reference\\) \\| ${plugin_version_re} \\| host CPU")
        expect("${DIR}/${file}" "--against reference --cases-count 30 --seed 3 --op 'add\\*'")
    endforeach()
    expect_small("${DIR}/diff_summary.md")

    # --help describes every option.
    run(0 --help)
    foreach(option --backend --cases --op --report --summary --verbose --no-grad --list-ops
                   --skip-unavailable --against --cases-count --seed --case --dump --help)
        if(NOT run_out MATCHES "\n  ${option}[ ,]")
            message(FATAL_ERROR "--help does not describe ${option}:\n${run_out}")
        endif()
    endforeach()
else()
    # Two backends, one run: one report with an ops x backends overview and
    # each backend's details.
    run(1 --backend reference,${SECOND} --cases "${DIR}/bad" --report "${DIR}/two.html")
    set(cell "<td class=\"bad\">1 pass, 1 fail</td>")
    expect("${DIR}/two.html" "<th><a href=\"#backend-reference\">reference</a></th><th><a href=\"#backend-${SECOND}\">${SECOND}</a></th>")
    expect("${DIR}/two.html" "<tr><th class=\"op\">add</th>${cell}${cell}</tr>")
    expect("${DIR}/two.html" "<h2 id=\"backend-reference\">Backend reference</h2>.*<h2 id=\"backend-${SECOND}\">Backend ${SECOND}</h2>")
    expect("${DIR}/two.html" "<tr><th>reference</th><td>tested</td>.*<tr><th>${SECOND}</th><td>tested</td><td>${plugin_version_re}</td>")
    expect("${DIR}/two.html" "FAIL[^\n]*add/wrong_value \\(float32, ${SECOND}\\)|<b>fail</b> add/wrong_value \\(float32, ${SECOND}\\)")
    run(1 --backend reference,${SECOND} --cases "${DIR}/bad" --report "${DIR}/two.md"
          --summary "${DIR}/two_summary.md")
    expect("${DIR}/two.md" "\\| op \\| reference \\| ${SECOND} \\|\n")
    expect("${DIR}/two_summary.md" "\\| add \\| reference \\| 1 \\|.*\\| add \\| ${SECOND} \\| 1 \\|")
    expect_small("${DIR}/two_summary.md")
endif()
message("reports: ok")
