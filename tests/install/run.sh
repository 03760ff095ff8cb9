#!/usr/bin/env bash
# The install test (tests/install/CMakeLists.txt). Usage:
#   run.sh BUILD_DIR SOURCE_DIR TEST_DIR BINDIR LIBDIR DATADIR "EXTRA_CFLAGS"
# BINDIR, LIBDIR and DATADIR are GNUInstallDirs' relative paths. Steps (a)
# and (b) are a user's program; (c) runs docs/writing-a-plugin.md's own
# commands. Nothing built outside the tree may name the source or build tree.
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
grep -qF "tessera $(pkg-config --modversion tessera): golden cases in $prefix/$datadir/tessera/golden, plugins in $prefix/$libdir/tessera" \
    "$work/a.log" || fail "tessera_VERSION, tessera_GOLDEN_DIR or tessera_PLUGIN_DIR is wrong: $(cat "$work/a.log")"
cmake --build "$work/cmake-consumer/build" --verbose >>"$work/a.log"
no_tree_paths "the find_package build's commands" "$work/a.log"
no_tree_paths "the find_package program's RUNPATH" <(runpath "$work/cmake-consumer/build/consumer")
no_tree_paths "the find_package build folder" -r "$work/cmake-consumer"
"$work/cmake-consumer/build/consumer"

step "(b) the same program with a Makefile and pkg-config"
cp -r "$tests/consumer" "$work/make-consumer"
CFLAGS="$extra_cflags" LDFLAGS="$extra_cflags" make -C "$work/make-consumer" >"$work/b.log"
no_tree_paths "the pkg-config build's commands" "$work/b.log"
no_tree_paths "the pkg-config program's RUNPATH" <(runpath "$work/make-consumer/consumer")
no_tree_paths "the pkg-config build folder" -r "$work/make-consumer"
"$work/make-consumer/consumer"

# The vendor's path is docs/writing-a-plugin.md's: its run blocks, in order, in
# an empty folder; its file and excerpt blocks must be the files built here,
# and the outputs it shows the ones the commands printed.
step "(c) docs/writing-a-plugin.md's commands in an empty folder: the acme plugin"
doc=$prefix/$datadir/doc/tessera/docs/writing-a-plugin.md
python3 "$tests/doc_blocks.py" script "$doc" "$work/doc-run.sh"
mkdir "$work/vendor"
(cd "$work/vendor" && env -u TESSERA_PLUGIN_PATH -u TESSERA_BACKEND PREFIX="$prefix" \
    bash "$work/doc-run.sh") >"$work/doc-run.txt" 2>&1 ||
    { cat "$work/doc-run.txt"; fail "the doc's commands failed"; }
sed -n '/^acme /,/^[^ ]/{/^acme /p;/^ /p}' "$work/doc-run.txt"
tail -2 "$work/doc-run.txt"
python3 "$tests/doc_blocks.py" check "$doc" "$tests/acme" run="$work/doc-run.txt" ||
    fail "docs/writing-a-plugin.md does not match what the test built and printed"

step "(c) the plugin names no tree, links no libtessera, exports one symbol"
acme=$work/vendor/acme/build/libtessera_acme.so
for plugin in "$acme" "$work/vendor/acme/libtessera_acme.so"; do
    [ -z "$(runpath "$plugin")" ] || fail "$plugin has RUNPATH '$(runpath "$plugin")'"
    if readelf -d "$plugin" | grep -q 'NEEDED.*libtessera'; then fail "$plugin links libtessera"; fi
    [ "$(nm -D --defined-only "$plugin" | awk '$2 == "T" {print $3}')" = tsr_plugin_entry ] ||
        fail "$plugin exports more than tsr_plugin_entry"
    no_tree_paths "$plugin" "$plugin"
done
no_tree_paths "the plugin's build folder" -r "$work/vendor/acme"

step "(c) tessera-info --json shows acme's version; installed, it is found by default"
TESSERA_PLUGIN_PATH=$work/vendor/acme/build "$prefix/$bindir/tessera-info" --json >"$work/info.json"
grep -qF '{"name": "acme", "path": "'"$acme"'", "version": "1.0.0", "loaded": true' "$work/info.json" ||
    fail "tessera-info --json does not show acme 1.0.0 loaded: $(cat "$work/info.json")"
grep -qF '{"name": "acme", "path": "'"$prefix/$libdir/tessera/libtessera_acme.so"'"' \
    "$work/vendor/acme/info.json" ||
    fail "the installed acme is not found in $prefix/$libdir/tessera: $(cat "$work/vendor/acme/info.json")"

step "the tree moved elsewhere still works"
mv "$prefix" "$work/moved"
moved=$work/moved
"$moved/$bindir/tessera-info" --version
"$moved/$bindir/tessera-info" >"$work/moved.txt" || fail "the moved tessera-info failed"
grep -q "^reference ($moved/$libdir/tessera/libtessera_reference.so)" "$work/moved.txt" ||
    fail "the moved tessera-info does not find its plugins: $(cat "$work/moved.txt")"
[ "$(realpath "$(PKG_CONFIG_PATH=$moved/$libdir/pkgconfig pkg-config --variable=goldendir tessera)")" = \
    "$moved/$datadir/tessera/golden" ] || fail "the moved tessera.pc points elsewhere"
"$moved/$bindir/tessera-conformance" --backend acme \
    --cases "$moved/$datadir/tessera/golden" --op add >/dev/null || fail "the moved conformance run failed"
# Its data from the moved tree too, not from the source it was built from.
"$moved/$bindir/train_digits" --epochs 1 >"$work/train.txt" ||
    { cat "$work/train.txt"; fail "the moved train_digits failed"; }
grep -qF "data: $moved/$bindir/../$datadir/tessera/digits.csv.gz: 1797 images" "$work/train.txt" ||
    fail "the moved train_digits did not read its installed data: $(cat "$work/train.txt")"
echo "install test: OK"
