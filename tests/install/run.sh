#!/bin/sh
# install_consumer: install the build into a temporary prefix (`cmake --install`), check the layout, build
# tests/install/consumer against it with find_package (CMAKE_PREFIX_PATH only) and the C sample with
# pkg-config, run both, run the installed CLI (which must find its plugins in the installation), and build
# rigs with marionette_add_rigs in an asset project (tests/install/rigs): a touched mesh rebuilds only its
# rig, a missing or broken mesh fails naming the file.
# Usage: run.sh CMAKE BUILD_DIR SOURCE_DIR RIG
set -eu
CMAKE=${1:?cmake}
BUILD=${2:?build dir}
SRC=${3:?source dir}
RIG=${4:?rig}

WORK=$(mktemp -d "${TMPDIR:-/tmp}/marionette-install.XXXXXX")
trap 'rm -rf "$WORK"' EXIT INT TERM
PREFIX="$WORK/prefix"
fail() { echo "install_consumer: $*" >&2; exit 1; }

echo "== install into $PREFIX"
"$CMAKE" --install "$BUILD" --prefix "$PREFIX" >"$WORK/install.log" || { cat "$WORK/install.log"; fail "install failed"; }
for f in bin/marionette bin/marionette-editor include/marionette/marionette.h include/marionette/runtime/World.h \
         include/marionette/rig/Mrig.h include/marionette/Math.h lib/libmarionette_runtime.a lib/libmarionette_rig.a lib/libmarionette_foundation.a \
         lib/cmake/Marionette/MarionetteConfig.cmake lib/cmake/Marionette/MarionetteConfigVersion.cmake \
         lib/pkgconfig/marionette.pc share/doc/Marionette/README.md share/doc/Marionette/cli.md; do
    [ -e "$PREFIX/$f" ] || fail "the installation has no $f"
done
plugins=$(ls "$PREFIX/lib/marionette/plugins" 2>/dev/null | wc -l)
[ "$plugins" -ge 3 ] || fail "the installation has $plugins plugins in lib/marionette/plugins"

echo "== find_package consumer"
CBIN="$WORK/consumer"
"$CMAKE" -S "$SRC/tests/install/consumer" -B "$CBIN" -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$PREFIX" \
    -DMARIONETTE_SAMPLES="$SRC/samples" -DMARIONETTE_RIG="$RIG" >"$WORK/configure.log" 2>&1 \
    || { cat "$WORK/configure.log"; fail "the consumer does not configure against the installation"; }
cat "$WORK/configure.log"
grep -q "marionette CLI: $PREFIX/bin/marionette" "$WORK/configure.log" || fail "Marionette::marionette is not the installed CLI"
"$CMAKE" --build "$CBIN" --parallel 2
"$CBIN/gameloop" --count 4 --frames 120 || fail "the game loop built against the installation failed"
if [ -e "$CBIN/c_api_shared" ]; then
    # Only the C API is exported from libmarionette.so.
    other=$(nm -D --defined-only "$PREFIX"/lib/libmarionette.so | awk '$2 ~ /[TDBRW]/ {print $3}' | grep -v -E '^(mr[A-Z]|_init$|_fini$|_edata$|_end$|__bss_start$)' || true)
    [ -z "$other" ] || fail "libmarionette.so exports more than the C API: $(echo $other | head -c 300)"
    "$CBIN/c_api_shared" || fail "the C sample linked to libmarionette.so failed"
fi

echo "== pkg-config consumer"
export PKG_CONFIG_PATH="$PREFIX/lib/pkgconfig"
flags=$(pkg-config --cflags --libs marionette) || fail "pkg-config does not know marionette"
echo "pkg-config --cflags --libs marionette: $flags"
# shellcheck disable=SC2086
cc -std=c11 -DMARIONETTE_SAMPLE_RIG="\"$RIG\"" "$SRC/samples/c_api/main.c" -o "$WORK/c_api" $flags \
    || fail "the C sample does not build with pkg-config's flags"
"$WORK/c_api" || fail "the C sample built with pkg-config failed"

echo "== installed CLI"
env -u MARIONETTE_PLUGIN_PATH HOME="$WORK" "$PREFIX/bin/marionette" plugins >"$WORK/plugins.txt" \
    || { cat "$WORK/plugins.txt"; fail "the installed CLI's plugins command failed"; }
cat "$WORK/plugins.txt"
grep -q quadruped "$WORK/plugins.txt" || fail "the installed CLI does not load the installed plugins"
"$PREFIX/bin/marionette" info "$RIG" >/dev/null || fail "the installed CLI cannot read $RIG"
echo "== marionette_add_rigs"
GAME="$WORK/game"
mkdir -p "$GAME/meshes"
cp "$SRC/samples/characters/mannequin/mannequin.glb" "$GAME/meshes/hero.glb"
cp "$SRC/samples/characters/mannequin/mannequin.glb" "$GAME/meshes/villain.glb"
gen=""
command -v ninja >/dev/null 2>&1 && gen="-GNinja"
# shellcheck disable=SC2086
"$CMAKE" -S "$SRC/tests/install/rigs" -B "$GAME/build" $gen -DCMAKE_PREFIX_PATH="$PREFIX" \
    -DMESHES="$GAME/meshes/hero.glb;$GAME/meshes/villain.glb" >"$WORK/game-configure.log" 2>&1 \
    || { cat "$WORK/game-configure.log"; fail "the asset project does not configure"; }
"$CMAKE" --build "$GAME/build" >"$WORK/game-build1.log" 2>&1 || { cat "$WORK/game-build1.log"; fail "the rigs do not build"; }
cat "$WORK/game-build1.log"
[ "$(grep -c 'Rigging' "$WORK/game-build1.log")" -eq 2 ] || fail "the first build did not rig both meshes"
"$PREFIX/bin/marionette" info "$GAME/build/rigs/hero.mrig" >/dev/null || fail "hero.mrig is not a rig"
"$CMAKE" --build "$GAME/build" >"$WORK/game-build2.log" 2>&1 || { cat "$WORK/game-build2.log"; fail "the second build failed"; }
! grep -q 'Rigging' "$WORK/game-build2.log" || { cat "$WORK/game-build2.log"; fail "an up-to-date build rigged again"; }
sleep 1
touch "$GAME/meshes/villain.glb"
"$CMAKE" --build "$GAME/build" >"$WORK/game-build3.log" 2>&1 || { cat "$WORK/game-build3.log"; fail "the rebuild failed"; }
cat "$WORK/game-build3.log"
[ "$(grep -c 'Rigging' "$WORK/game-build3.log")" -eq 1 ] && grep -q 'Rigging villain.mrig' "$WORK/game-build3.log" \
    || fail "touching villain.glb did not rebuild exactly its rig"

# Bad input: a missing mesh stops the configure naming it; a file that is no mesh fails the build naming it.
# shellcheck disable=SC2086
if "$CMAKE" -S "$SRC/tests/install/rigs" -B "$GAME/missing" $gen -DCMAKE_PREFIX_PATH="$PREFIX" \
    -DMESHES="$GAME/meshes/nobody.glb" >"$WORK/missing.log" 2>&1; then
    cat "$WORK/missing.log"; fail "a missing mesh configured"
fi
tr -s ' \n' ' ' <"$WORK/missing.log" | grep -q "meshes/nobody.glb: no such mesh or project" || { cat "$WORK/missing.log"; fail "the missing mesh is not named"; }
echo "not a mesh" >"$GAME/meshes/broken.fbx"
# shellcheck disable=SC2086
"$CMAKE" -S "$SRC/tests/install/rigs" -B "$GAME/broken" $gen -DCMAKE_PREFIX_PATH="$PREFIX" \
    -DMESHES="$GAME/meshes/broken.fbx" >"$WORK/broken.log" 2>&1 || { cat "$WORK/broken.log"; fail "the broken-mesh project does not configure"; }
if "$CMAKE" --build "$GAME/broken" >"$WORK/broken-build.log" 2>&1; then
    cat "$WORK/broken-build.log"; fail "a file that is no mesh built a rig"
fi
cat "$WORK/broken-build.log"
grep -q "error: .*broken.fbx" "$WORK/broken-build.log" || fail "the build failure does not name broken.fbx"
echo "install_consumer: ok"
