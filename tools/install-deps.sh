#!/usr/bin/env bash
# Installs the Debian packages tessera builds and tests with. As root it runs
# apt-get; otherwise it prints the exact command to run and fails.
#   tools/install-deps.sh          what the build, the demo and the tests need
#   tools/install-deps.sh --bench  also PyTorch and matplotlib for tessera-bench
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config
  python3                 # the layout checks (tools/check_layers.py, check_families.py)
  libcjson-dev            # the conformance manifest parser, the safetensors header
  libdlpack-dev python3-numpy  # DLPack's header (core/io/dlpack.c); np.from_dlpack in tests/io
  zlib1g-dev              # examples/train_digits reads digits.csv.gz
  clang libclang-rt-14-dev  # the npy fuzzer (libFuzzer) and LeakSanitizer
  libvulkan-dev mesa-vulkan-drivers glslc spirv-tools vulkan-validationlayers  # vulkan backend on lavapipe
  libopenblas-dev libsleef-dev  # cpu backend: matrix products, vectorised math
  libdnnl-dev  # cpu backend: bfloat16 matrix products (oneDNN 2.x)
  liblapacke-dev  # cpu backend: Cholesky and LU (LAPACKE on OpenBLAS's LAPACK)
  abigail-tools  # abidw/abidiff: the ABI check against tools/abi/ (CTest abi_check)
)
if [ "${1:-}" = "--bench" ]; then
  packages+=(python3-torch python3-matplotlib)  # tessera-bench's PyTorch peer and plot
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -eq 0 ]; then
  echo "tessera: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "tessera: missing Debian packages; run:" >&2
  echo "  sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi
