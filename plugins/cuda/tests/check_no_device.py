#!/usr/bin/env python3
"""The cuda plugin on a machine without a CUDA device: tessera-info lists it,
not loaded, with a "no CUDA driver" or "no CUDA device" reason; every other
plugin still loads, and the reference backend still computes.
Usage: check_no_device.py TESSERA_INFO TESSERA_CONFORMANCE GOLDEN_CASES"""
import json
import subprocess
import sys

info, conformance, cases = sys.argv[1:4]
report = json.loads(subprocess.run([info, "--json"], check=True, capture_output=True,
                                   text=True).stdout)
plugins = {p["name"]: p for p in report["plugins"]}
cuda = plugins.get("cuda")
if cuda is None:
    sys.exit("tessera-info lists no cuda plugin: %s" % sorted(plugins))
if cuda["loaded"]:
    print("a CUDA device is present (%s): this test is for machines without one" % cuda["reason"])
    sys.exit(77)
if "no CUDA driver" not in cuda["reason"] and "no CUDA device" not in cuda["reason"]:
    sys.exit("cuda's reason is %r, expected 'no CUDA driver' or 'no CUDA device'" % cuda["reason"])
text = subprocess.run([info], check=True, capture_output=True, text=True).stdout
if "not loaded: " + cuda["reason"] not in text:
    sys.exit("tessera-info's text does not give cuda's reason:\n" + text)
for name in ("reference", "cpu"):
    if name in plugins and not plugins[name]["loaded"]:
        sys.exit("%s did not load beside cuda: %s" % (name, plugins[name]["reason"]))
run = subprocess.run([conformance, "--backend", "reference", "--cases", cases, "--op", "add"],
                     capture_output=True, text=True)
if run.returncode != 0 or " 0 failed" not in run.stdout:
    sys.exit("reference conformance on add failed beside cuda:\n" + run.stdout + run.stderr)
print("cuda: %s; others loaded: %s" % (cuda["reason"],
      ", ".join(n for n, p in plugins.items() if p["loaded"])))
