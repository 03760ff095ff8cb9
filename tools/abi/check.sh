#!/usr/bin/env bash
# The ABI under guard (CTest abi_check): abidiff of the built libtessera.so
# and of the reference plugin (built from include/tessera/plugin.h alone)
# against the abidw baselines committed beside this script.
#   tools/abi/check.sh BUILD_DIR            compare; fails on an incompatible change
#   tools/abi/check.sh BUILD_DIR --update   rewrite the baselines (after a bump)
# Additions (new exported functions, new enum values at the end) are
# compatible: abidiff reports them with bit 4 of its status, which passes.
# An incompatible change (bit 8: a function removed, a signature or a public
# struct's layout changed) fails unless the version that names the ABI was
# bumped with it: libtessera's SONAME (SOVERSION in core/CMakeLists.txt) or
# TSR_PLUGIN_ABI_MAJOR (include/tessera/plugin.h). After a bump, refresh the
# baselines with --update and commit them with the bump.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$1
headers="$root/include/tessera"
if ! command -v abidiff >/dev/null || ! command -v abidw >/dev/null; then
  echo "abi_check: abidiff/abidw missing (Debian package abigail-tools, tools/install-deps.sh)" >&2
  exit 1
fi
libs=("libtessera:$build/lib/libtessera.so" "plugin:$build/lib/tessera/libtessera_reference.so")
plugin_major=$(sed -n 's/^#define TSR_PLUGIN_ABI_MAJOR \([0-9]*\).*/\1/p' "$headers/plugin.h")
version_of() { # the version that names each ABI
  case $1 in
    libtessera) readelf -d "$2" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p' ;;
    plugin) echo "plugin-abi-$plugin_major" ;;
  esac
}
status=0
for entry in "${libs[@]}"; do
  name=${entry%%:*} lib=${entry#*:}
  base="$here/$name.abi" version=$(version_of "$name" "$lib")
  if [ "${2:-}" = "--update" ]; then
    abidw --headers-dir "$headers" --no-corpus-path --no-show-locs --drop-private-types "$lib" > "$base" || exit 1
    sed -i "s|$root/|./|g; s|$build|BUILD|g" "$base" # the baselines name no local paths
    echo "$version" > "$here/$name.version"
    echo "abi_check: $base rewritten ($version)"
    continue
  fi
  abidiff --headers-dir2 "$headers" --drop-private-types --no-added-syms "$base" "$lib" \
    > "$build/abi_$name.txt" 2>&1
  rc=$?
  recorded=$(cat "$here/$name.version")
  if [ $((rc & 3)) -ne 0 ]; then
    echo "abi_check: abidiff failed on $lib (status $rc)"; cat "$build/abi_$name.txt"; status=1
  elif [ $((rc & 8)) -ne 0 ] && [ "$version" = "$recorded" ]; then
    echo "abi_check: FAIL: incompatible change to $name without a version bump ($version):"
    cat "$build/abi_$name.txt"; status=1
  elif [ $((rc & 8)) -ne 0 ]; then
    echo "abi_check: $name: incompatible change with a bump ($recorded -> $version):" \
         "refresh the baseline: tools/abi/check.sh $build --update"
  else
    echo "abi_check: $name ($version): compatible with the baseline (abidiff status $rc)"
  fi
done
exit $status
