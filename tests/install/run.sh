#!/usr/bin/env bash
# The install test (tests/install/CMakeLists.txt). Usage:
#   run.sh BUILD_DIR SOURCE_DIR TEST_DIR BINDIR LIBDIR DATADIR "EXTRA_CFLAGS"
# BINDIR, LIBDIR and DATADIR are GNUInstallDirs' relative paths. Every step
# below is one that docs/writing-a-plugin.md shows a vendor.
set -euo pipefail
build=$(realpath "$1") source=$(realpath "$2") tests=$(realpath "$3")
bindir=$4 libdir=$5 datadir=$6 extra_cflags=$7

fail() { echo "install test: FAIL: $*" >&2; exit 1; }
step() { echo "== [${SECONDS}s] $*"; }

work=$(mktemp -d "${TMPDIR:-/tmp}/tessera-install.XXXXXX")
trap 'rm -rf "$work"' EXIT
case "$work/" in
"$source"/* | "$build"/*) fail "the temporary directory $work is inside the tree" ;;
esac
prefix=$work/prefix

# No file produced outside the tree may name the source or the build tree.
no_tree_paths() { # WHAT FILE...
    local what=$1
    shift
    if grep -F -e "$source" -e "$build" "$@" >"$work/hits"; then
        cat "$work/hits" >&2
        fail "$what names the source or build tree"
    fi
}
# The RUNPATH (or RPATH) entries of an ELF file, one line, empty if none.
runpath() { readelf -d "$1" | sed -n 's/.*(\(RUNPATH\|RPATH\)).*\[\(.*\)\]/\2/p'; }

step "cmake --install into $prefix"
cmake --install "$build" --prefix "$prefix" >"$work/install.log"

step "the layout"
for f in "$bindir"/tessera-info "$bindir"/tessera-conformance "$bindir"/train_digits \
    include/tessera/tessera.h include/tessera/plugin.h "$libdir"/libtessera.so \
    "$libdir"/tessera/libtessera_reference.so "$libdir"/cmake/tessera/tessera-config.cmake \
    "$libdir"/cmake/tessera/tessera-config-version.cmake "$libdir"/pkgconfig/tessera.pc \
    "$libdir"/pkgconfig/tessera-plugin.pc "$datadir"/tessera/golden/manifest.jsonl \
    "$datadir"/tessera/digits.csv.gz "$datadir"/doc/tessera/LICENSE \
    "$datadir"/doc/tessera/docs/writing-a-plugin.md "$datadir"/doc/tessera/examples/acme/acme_plugin.c; do
    [ -e "$prefix/$f" ] || fail "$f is not installed"
done
for h in "$source"/include/tessera/*.h; do
    cmp -s "$h" "$prefix/include/tessera/${h##*/}" || fail "include/tessera/${h##*/} differs"
done
soname=$(readelf -d "$prefix/$libdir/libtessera.so" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
[ "$soname" = libtessera.so.0 ] || fail "libtessera.so's SONAME is '$soname', not libtessera.so.0"

step "RUNPATHs: the tools \$ORIGIN/../$libdir, the libraries none"
for tool in "$prefix/$bindir"/*; do
    rp=$(runpath "$tool")
    [ "$rp" = "\$ORIGIN/$(realpath -m --relative-to="/$bindir" "/$libdir")" ] ||
        fail "${tool##*/} has RUNPATH '$rp'"
done
for lib in "$prefix/$libdir"/libtessera.so "$prefix/$libdir"/tessera/*.so; do
    [ -z "$(runpath "$lib")" ] || fail "${lib##*/} has RUNPATH '$(runpath "$lib")'"
done
no_tree_paths "the installed packages" "$prefix/$libdir"/pkgconfig/*.pc \
    "$prefix/$libdir"/cmake/tessera/*.cmake

export PKG_CONFIG_PATH=$prefix/$libdir/pkgconfig
step "pkg-config: goldendir and plugindir"
goldendir=$(pkg-config --variable=goldendir tessera)
plugindir=$(pkg-config --variable=plugindir tessera)
[ "$(realpath "$goldendir")" = "$prefix/$datadir/tessera/golden" ] || fail "goldendir is $goldendir"
[ "$(realpath "$plugindir")" = "$prefix/$libdir/tessera" ] || fail "plugindir is $plugindir"
[ "$(pkg-config --modversion tessera)" = "$("$prefix/$bindir/tessera-info" --version |
    sed -n "s/^tessera-info (tessera \([^,]*\),.*/\1/p")" ] || fail "pkg-config and --version disagree"

# The external programs: the same -fsanitize flags as the library, if any.
step "(a) a program with CMake's find_package(tessera)"
cp -r "$tests/consumer" "$work/cmake-consumer"
CFLAGS="$extra_cflags" LDFLAGS="$extra_cflags" cmake -S "$work/cmake-consumer" \
    -B "$work/cmake-consumer/build" -DCMAKE_PREFIX_PATH="$prefix" >"$work/a.log"
grep -qx "tessera_DIR:PATH=$prefix/$libdir/cmake/tessera" "$work/cmake-consumer/build/CMakeCache.txt" ||
    fail "find_package(tessera) did not take the installed package"
cmake --build "$work/cmake-consumer/build" --verbose >>"$work/a.log"
no_tree_paths "the find_package build's commands" "$work/a.log"
no_tree_paths "the find_package program's RUNPATH" <(runpath "$work/cmake-consumer/build/consumer")
"$work/cmake-consumer/build/consumer"

step "(b) the same program with a Makefile and pkg-config"
cp -r "$tests/consumer" "$work/make-consumer"
CFLAGS="$extra_cflags" LDFLAGS="$extra_cflags" make -C "$work/make-consumer" >"$work/b.log"
no_tree_paths "the pkg-config build's commands" "$work/b.log"
no_tree_paths "the pkg-config program's RUNPATH" <(runpath "$work/make-consumer/consumer")
"$work/make-consumer/consumer"

step "(c) the example plugin, with find_package(tessera) and tessera::plugin"
mkdir "$work/acme"
cp "$prefix/$datadir/doc/tessera/examples/acme/CMakeLists.txt" \
    "$prefix/$datadir/doc/tessera/examples/acme/acme_plugin.c" "$work/acme/"
cmake -S "$work/acme" -B "$work/acme/build" -DCMAKE_PREFIX_PATH="$prefix" >"$work/c.log"
cmake --build "$work/acme/build" --verbose >>"$work/c.log"
no_tree_paths "the plugin build's commands" "$work/c.log"
acme=$work/acme/build/libtessera_acme.so
[ -z "$(runpath "$acme")" ] || fail "the plugin has RUNPATH '$(runpath "$acme")'"
if readelf -d "$acme" | grep -q 'NEEDED.*libtessera'; then fail "the plugin links libtessera"; fi

step "(c) the same plugin with pkg-config's tessera-plugin, as the doc's one-liner"
mkdir "$work/acme-pc"
(cd "$work/acme-pc" &&
    cc -std=c11 -O2 -fPIC -shared -fvisibility=hidden -Wl,--no-undefined \
        $(pkg-config --cflags tessera-plugin) "$work/acme/acme_plugin.c" -o libtessera_acme.so)
[ "$(nm -D --defined-only "$work/acme-pc/libtessera_acme.so" | awk '$2 == "T" {print $3}')" = \
    tsr_plugin_entry ] || fail "the one-liner's plugin exports more than tsr_plugin_entry"

step "(c) the installed tessera-info loads it"
TESSERA_PLUGIN_PATH=$work/acme/build "$prefix/$bindir/tessera-info" >"$work/info.txt" ||
    fail "tessera-info failed: $(cat "$work/info.txt")"
grep -q "^acme ($acme)" "$work/info.txt" || fail "tessera-info does not list acme: $(cat "$work/info.txt")"
sed -n '/^acme /,/^[^ ]/{/^acme /p;/^ /p}' "$work/info.txt" >"$work/acme-info.txt"
cat "$work/acme-info.txt"
for want in "version: 1.0.0" "status: loaded" "device: acme device (host memory)" \
    "coverage: 3 of $(sed -n 's/.*coverage: [0-9]* of \([0-9]*\) ops/\1/p' "$work/info.txt" | head -1) ops"; do
    grep -qF "    $want" "$work/acme-info.txt" || fail "tessera-info's acme entry lacks '$want'"
done
TESSERA_PLUGIN_PATH=$work/acme/build "$prefix/$bindir/tessera-info" --json >"$work/info.json"
grep -qF '{"name": "acme", "path": "'"$acme"'", "version": "1.0.0", "loaded": true' "$work/info.json" ||
    fail "tessera-info --json does not show acme 1.0.0 loaded"

step "(c) the installed tessera-conformance passes on what acme claims"
# Only add: acme's other claims (copy, fill) are exercised by every case, and
# the golden ops it lacks would count as failures until the runner skips what
# a partial plugin does not claim; then the whole suite can run here.
TESSERA_PLUGIN_PATH=$work/acme/build "$prefix/$bindir/tessera-conformance" --backend acme \
    --cases "$goldendir" --op add >"$work/conformance.txt" ||
    { cat "$work/conformance.txt"; fail "tessera-conformance --backend acme --op add failed"; }
tail -1 "$work/conformance.txt"
grep -Eq '^[1-9][0-9]* passed, 0 failed' "$work/conformance.txt" || fail "no add case passed"

step "(c) installed beside libtessera.so, it is found without TESSERA_PLUGIN_PATH"
cmake --install "$work/acme/build" --prefix "$prefix" >>"$work/c.log"
"$prefix/$bindir/tessera-info" >"$work/info-installed.txt" || true
grep -q "^acme ($prefix/$libdir/tessera/libtessera_acme.so)" "$work/info-installed.txt" ||
    fail "the installed plugin is not found in $prefix/$libdir/tessera"

step "the tree moved elsewhere still works"
mv "$prefix" "$work/moved"
moved=$work/moved
"$moved/$bindir/tessera-info" --version
"$moved/$bindir/tessera-info" >"$work/moved.txt" || fail "the moved tessera-info failed"
grep -q "^reference ($moved/$libdir/tessera/libtessera_reference.so)" "$work/moved.txt" ||
    fail "the moved tessera-info does not find its plugins: $(cat "$work/moved.txt")"
[ "$(realpath "$(PKG_CONFIG_PATH=$moved/$libdir/pkgconfig pkg-config --variable=goldendir tessera)")" = \
    "$moved/$datadir/tessera/golden" ] || fail "the moved tessera.pc points elsewhere"
TESSERA_BACKEND=acme "$moved/$bindir/tessera-conformance" --backend acme \
    --cases "$moved/$datadir/tessera/golden" --op add >/dev/null || fail "the moved conformance run failed"
echo "install test: OK"
