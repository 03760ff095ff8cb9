#!/usr/bin/env bash
# Sets up, builds and runs every test: once in a release build, once under
# AddressSanitizer and UndefinedBehaviorSanitizer, then the threading tests
# under ThreadSanitizer.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install-deps.sh
jobs=$(nproc)

cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTESSERA_WERROR=ON
cmake --build build -j "$jobs"
ctest --test-dir build -j "$jobs" --output-on-failure

cmake -S . -B build-sanitize -DCMAKE_BUILD_TYPE=Debug -DTESSERA_SANITIZE=ON -DTESSERA_WERROR=ON
cmake --build build-sanitize -j "$jobs"
# Tests that drive Mesa's lavapipe turn leak detection off themselves (its LLVM
# keeps process-lifetime allocations that no suppression can name cheaply).
ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS=suppressions=$PWD/tools/lsan.supp \
  ctest --test-dir build-sanitize -j "$jobs" --output-on-failure -LE no-sanitize

# ThreadSanitizer on the threading tests only (CTest label tsan: autograd with
# shared leaves, the record cache, the cpu thread pool), so CI grows by about
# a minute and a half. tools/tsan.supp may list third-party reports only.
cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=Debug -DTESSERA_SANITIZE_THREAD=ON -DTESSERA_WERROR=ON
cmake --build build-tsan -j "$jobs" --target test_autograd test_autograd_threads \
  test_record_cache_threads test_cpu_threads tessera_reference tessera_cpu
TSAN_OPTIONS="suppressions=$PWD/tools/tsan.supp halt_on_error=1" \
  ctest --test-dir build-tsan -j "$jobs" --output-on-failure -L tsan
