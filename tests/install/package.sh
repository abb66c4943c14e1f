#!/bin/sh
# package_deb: build the Debian package of the build (`cpack -G DEB`), check its metadata and file list,
# unpack it into a scratch root and run the CLI from there (it must find its plugins under that root).
# Usage: package.sh CPACK BUILD_DIR RIG
set -eu
CPACK=${1:?cpack}
BUILD=${2:?build dir}
RIG=${3:?rig}

WORK=$(mktemp -d "${TMPDIR:-/tmp}/marionette-deb.XXXXXX")
trap 'rm -rf "$WORK"' EXIT INT TERM
fail() { echo "package_deb: $*" >&2; exit 1; }

"$CPACK" -G DEB -B "$WORK/out" --config "$BUILD/CPackConfig.cmake" >"$WORK/cpack.log" 2>&1 \
    || { cat "$WORK/cpack.log"; fail "cpack -G DEB failed"; }
deb=$(ls "$WORK"/out/*.deb 2>/dev/null | head -n 1)
[ -n "$deb" ] || { cat "$WORK/cpack.log"; fail "cpack wrote no .deb"; }
echo "== $deb"
dpkg-deb --info "$deb"
dpkg-deb --field "$deb" Package | grep -qx marionette || fail "the package is not called marionette"
dpkg-deb --field "$deb" Depends | grep -q libqt6widgets6 || fail "the package does not depend on Qt"
dpkg-deb --contents "$deb" >"$WORK/contents.txt"
for f in ./usr/bin/marionette ./usr/bin/marionette-editor ./usr/include/marionette/marionette.h \
         ./usr/lib/cmake/Marionette/MarionetteConfig.cmake ./usr/lib/pkgconfig/marionette.pc \
         ./usr/lib/libmarionette_runtime.a ./usr/lib/marionette/plugins/; do
    grep -q " $f" "$WORK/contents.txt" || fail "the package has no $f"
done

ROOT="$WORK/root"
dpkg-deb -x "$deb" "$ROOT"
env -u MARIONETTE_PLUGIN_PATH HOME="$WORK" "$ROOT/usr/bin/marionette" plugins >"$WORK/plugins.txt" \
    || { cat "$WORK/plugins.txt"; fail "the unpacked CLI's plugins command failed"; }
cat "$WORK/plugins.txt"
grep -q quadruped "$WORK/plugins.txt" || fail "the unpacked CLI does not load the packaged plugins"
"$ROOT/usr/bin/marionette" simulate "$RIG" --frames 60 --json >"$WORK/sim.json" || fail "the unpacked CLI cannot simulate $RIG"
grep -q '"finite": *true' "$WORK/sim.json" || { cat "$WORK/sim.json"; fail "the unpacked CLI's simulation is not finite"; }
echo "package_deb: ok"
