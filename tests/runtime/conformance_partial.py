#!/usr/bin/env python3
"""Runs tessera-conformance on a partial plugin and checks the verdicts.

    conformance_partial.py CONFORMANCE INFO BACKEND golden CASES_DIR
    conformance_partial.py CONFORMANCE INFO BACKEND against REF COUNT

The whole run must end with exit status 0, no failure and no error (forward
or gradient), and some passes. Besides, the report must not credit the
backend with what it does not claim (docs/conformance.md, "Partial
backends"), checked against the kernels tessera-info lists for it:

  - a case expecting an error passes for a kernel op only where the backend
    has that op's kernel, and a TSR_ERR_UNIMPLEMENTED refusal only where it
    has the kernel for the case's dtype or the reference has none either;
  - in the differential mode, a refusal by both sides passes only where the
    backend has the op's kernel for the drawn dtype;
  - every (op, dtype) the backend claims that the run has cases of passes at
    least one of them: a claim is exercised, not skipped wholesale.
"""
import json
import os
import subprocess
import sys
import tempfile


def coverage(info, backend):
    out = subprocess.run([info, "--json"], capture_output=True, text=True, check=False).stdout
    plugins = {p["name"]: p for p in json.loads(out)["plugins"]}
    if backend not in plugins or not plugins[backend].get("loaded"):
        sys.exit(f"FAIL: tessera-info does not list '{backend}' as loaded")
    return ({op: set(d) for op, d in plugins[backend]["coverage"].items()},
            {op: set(d) for op, d in plugins["reference"]["coverage"].items()})


def run(argv):
    with tempfile.TemporaryDirectory() as tmp:
        report = os.path.join(tmp, "report.json")
        proc = subprocess.run(argv + ["--report", report], capture_output=True, text=True)
        sys.stdout.write(proc.stdout[-3000:])
        sys.stderr.write(proc.stderr[-3000:])
        if proc.returncode != 0:
            sys.exit(f"FAIL: tessera-conformance exited with {proc.returncode}")
        with open(report) as f:
            return json.load(f)["results"]


def main():
    conformance, info, backend, mode = sys.argv[1:5]
    claimed, reference = coverage(info, backend)
    if mode == "golden":
        argv = [conformance, "--backend", backend, "--cases", sys.argv[5]]
    else:
        argv = [conformance, "--backend", backend, "--against", sys.argv[5],
                "--cases-count", sys.argv[6], "--seed", "1"]
    results = run(argv)
    problems = []
    counts = {"pass": 0, "fail": 0, "skip": 0, "error": 0}
    exercised, seen = set(), set()
    for r in results:
        counts[r["result"]] += 1
        if r.get("grad") in ("fail", "error"):
            problems.append(f"gradient {r['grad']}: {r['op']}/{r['case']}: {r['message']}")
        op, dtype, msg = r["op"].rstrip("_"), r["dtype"], r["message"]
        if op in claimed and dtype in claimed[op]:
            seen.add((op, dtype))
            if r["result"] == "pass":
                exercised.add((op, dtype))
        if r["result"] != "pass" or op not in reference:
            continue  # only kernel ops are checked against the claims
        refused_both = msg.startswith("both refused")
        refused = msg.startswith("TSR_ERR_")
        has_dtype = dtype in claimed.get(op, ())
        if refused and op not in claimed:
            problems.append(f"credited without a {op} kernel: {r['op']}/{r['case']}: {msg}")
        elif refused and msg.startswith("TSR_ERR_UNIMPLEMENTED") and not has_dtype \
                and dtype in reference[op]:
            problems.append(f"credited for an unclaimed {op} {dtype}: {r['op']}/{r['case']}")
        elif refused_both and not has_dtype:
            problems.append(f"credited for an unclaimed {op} {dtype}: {r['op']}/{r['case']}")
    for r in results:
        if r["result"] in ("fail", "error"):
            problems.append(f"{r['result']}: {r['op']}/{r['case']} [{r['dtype']}]: {r['message']}")
    for op, dtype in sorted(seen - exercised):
        problems.append(f"claimed {op} {dtype} has cases but none passed")
    print(f"{backend}: {counts['pass']} passed, {counts['fail']} failed, {counts['error']} errors, "
          f"{counts['skip']} skipped; {len(exercised)} claimed (op, dtype) pairs exercised")
    if counts["pass"] == 0:
        problems.append("no case passed")
    for p in problems[:40]:
        print("FAIL:", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
