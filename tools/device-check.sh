#!/usr/bin/env bash
# One prepared run for a lent GPU machine (the `device` tool): builds tessera,
# lists what loads there, runs the golden conformance and the differential
# mode for every backend that loads, and the benchmark suite, writing all
# results under $OUT (or ./device-out). No CUDA plugin exists yet; when one
# does it is picked up like any other backend.
#   tools/device-check.sh            # everything, ~5 minutes on 16 cores
#   QUICK=1 tools/device-check.sh    # conformance only
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-device-out}
mkdir -p "$out"
{ nvidia-smi || true; vulkaninfo --summary 2>/dev/null || true; } > "$out/machine.txt" 2>&1

cmake -S . -B build-device -DCMAKE_BUILD_TYPE=Release -DTESSERA_WERROR=OFF -DBUILD_TESTING=ON \
  > "$out/configure.log" 2>&1 || { echo "configure failed"; tail -20 "$out/configure.log"; exit 1; }
cmake --build build-device -j "$(nproc)" > "$out/build.log" 2>&1 \
  || { echo "build failed"; tail -40 "$out/build.log"; exit 1; }

build-device/bin/tessera-info | tee "$out/tessera-info.txt"
build-device/bin/tessera-info --json > "$out/tessera-info.json"
backends=$(build-device/bin/tessera-info --json | python3 -c \
  'import json,sys; print(" ".join(p["name"] for p in json.load(sys.stdin)["plugins"] if p["loaded"]))')

status=0
for b in $backends; do
  echo "== conformance: $b"
  build-device/bin/tessera-conformance --backend "$b" --cases golden/cases \
    --report "$out/conformance_$b.html" > "$out/conformance_$b.txt" 2>&1 || status=1
  tail -2 "$out/conformance_$b.txt"
  if [ "$b" != reference ]; then
    build-device/bin/tessera-conformance --backend "$b" --against reference --cases-count 5000 \
      --seed 1 > "$out/differential_$b.txt" 2>&1 || status=1
    tail -1 "$out/differential_$b.txt"
  fi
done

if [ -z "${QUICK:-}" ]; then
  peer=""
  /usr/bin/python3 -c "import torch" 2>/dev/null || peer="--no-peer"
  for b in $backends; do
    echo "== bench: $b"
    build-device/bin/tessera-bench --backend "$b" --reps 5 $peer --json "$out/bench_$b.json" \
      > "$out/bench_$b.txt" 2>&1 || status=1
    tail -20 "$out/bench_$b.txt"
  done
fi
exit $status
