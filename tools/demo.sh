#!/usr/bin/env bash
# Sets up, builds, and runs the demo: tessera-info, then the example programs.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DTESSERA_WERROR=OFF >/dev/null
cmake --build build -j "$(nproc)"
build/bin/tessera-info
echo
build/bin/hello
echo; build/bin/train_digits
