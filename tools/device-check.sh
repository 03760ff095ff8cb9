#!/usr/bin/env bash
# One prepared run for a lent GPU machine (the `device` tool): builds tessera
# with the reference and cuda plugins only (the machine has nvcc, CMake and
# ninja but none of Debian's libraries), then runs, writing every result
# under $OUT (or ./device-out): tessera-info, the golden conformance on cuda,
# the differential mode against reference (5,000 cases), the training demo
# on cuda, compute-sanitizer memcheck over a slice, and the benchmarks (when
# tessera-bench builds: it needs OpenBLAS, not carried yet).
#
#   tools/device-check.sh --prepare   # here: fetch libcjson and pkgconf into .devdeps/
#   tools/device-check.sh --dry-run   # here: every step that needs no GPU
#   tools/device-check.sh             # there, as the run's command, with carry [".devdeps"]
#
# .devdeps/ holds the unpacked .deb contents (dpkg-deb -x, well under the
# 64 MiB that may travel); add "/.devdeps/" to .git/info/exclude.
set -uo pipefail
cd "$(dirname "$0")/.."
mode=run
case "${1:-}" in
  --prepare) mode=prepare ;;
  --dry-run) mode=dry ;;
  "") ;;
  *) echo "usage: $0 [--prepare|--dry-run]" >&2; exit 2 ;;
esac
deps=$PWD/.devdeps

if [ "$mode" = prepare ]; then
  mkdir -p "$deps/debs" "$deps/root"
  (cd "$deps/debs" && apt-get download libcjson1 libcjson-dev pkgconf pkgconf-bin libpkgconf3) || exit 1
  for f in "$deps"/debs/*.deb; do dpkg-deb -x "$f" "$deps/root"; done
  du -sh "$deps"
  exit 0
fi

out=${OUT:-device-out}
[ "$mode" = dry ] && out=${OUT:-device-out-dry}
mkdir -p "$out"
# Debian's libraries from .devdeps/ where they came along; the system's otherwise.
if [ -d "$deps/root/usr" ]; then
  export PATH="$deps/root/usr/bin:$PATH"
  export PKG_CONFIG_SYSROOT_DIR="$deps/root"
  # LIBDIR, not PATH: only the carried .pc files, each under the sysroot
  export PKG_CONFIG_LIBDIR="$deps/root/usr/lib/x86_64-linux-gnu/pkgconfig:$deps/root/usr/share/pkgconfig"
  export LD_LIBRARY_PATH="$deps/root/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  command -v pkg-config >/dev/null || ln -sf pkgconf "$deps/root/usr/bin/pkg-config"
fi
{ date -u; nvidia-smi || true; command -v nvcc || ls /usr/local/cuda/bin/nvcc; } > "$out/machine.txt" 2>&1

bdir=build-device
[ "$mode" = dry ] && bdir=build-device-dry
cmake -S . -B "$bdir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DTESSERA_WERROR=OFF -DBUILD_TESTING=OFF \
  "-DTESSERA_PLUGINS=cuda" -DTESSERA_CUDA=ON > "$out/configure.log" 2>&1 \
  || { echo "configure failed"; tail -20 "$out/configure.log"; exit 1; }
cmake --build "$bdir" -j "$(nproc)" > "$out/build.log" 2>&1 \
  || { echo "build failed"; tail -40 "$out/build.log"; exit 1; }
bin=$bdir/bin
"$bin/tessera-info" > "$out/tessera-info.txt" 2>&1
grep -A3 '^cuda ' "$out/tessera-info.txt"

# Each GPU step: run it, or in a dry run say what would run.
status=0
step() {
  local name=$1; shift
  if [ "$mode" = dry ]; then
    echo "dry-run: $name: $*" | tee -a "$out/steps.txt"
    return 0
  fi
  echo "== $name"
  timeout "${STEP_TIMEOUT:-150}" "$@" > "$out/$name.txt" 2>&1 || { echo "$name: exit $?"; status=1; }
  tail -3 "$out/$name.txt"
}
cases=golden/cases
step conformance_cuda "$bin/tessera-conformance" --backend cuda --cases $cases \
  --report "$out/conformance_cuda.html"
step differential_cuda "$bin/tessera-conformance" --backend cuda --against reference \
  --cases-count 5000 --seed 1
# The demo needs ops cuda does not claim yet: they run on the reference
# through the opt-in fallback, which says so (TESSERA_LOG=fallback).
step train_digits_cuda env TESSERA_BACKEND=cuda TESSERA_FALLBACK=reference TESSERA_LOG=fallback \
  "$bin/train_digits"
sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
if [ -x "$sanitizer" ] || [ "$mode" = dry ]; then
  # A slice: conversions, a binary op with broadcasts, integer division (the
  # divisor scan), a reduction, matmul (cuBLAS).
  for op in to add floor_divide sum matmul; do
    step "memcheck_$op" env TESSERA_CUDA_ALLOC=plain "$sanitizer" --tool memcheck \
      --error-exitcode 9 "$bin/tessera-conformance" --backend cuda --cases $cases --op "$op"
  done
else
  echo "compute-sanitizer not found: memcheck skipped" | tee "$out/memcheck.txt"
fi
if [ -x "$bin/tessera-bench" ]; then
  peer=""; python3 -c "import torch; assert torch.cuda.is_available()" 2>/dev/null || peer="--no-peer"
  step bench_cuda "$bin/tessera-bench" --backend cuda --reps 5 $peer --json "$out/bench_cuda.json"
fi
[ "$mode" = dry ] && ! grep -q "not loaded: .*no CUDA" "$out/tessera-info.txt" && \
  { echo "dry run: tessera-info does not report cuda's reason"; status=1; }
exit $status
