#!/bin/sh
# runtime_only_build: configure tests/consumer (which add_subdirectory()s only runtime/) in Release into a
# temporary folder, check that no Qt was found, build it with -j2 and run it.
# Usage: run.sh CMAKE CONSUMER_SOURCE_DIR [GENERATOR [CXX_COMPILER [C_COMPILER]]]
set -eu
CMAKE=${1:?cmake path}
SRC=${2:?consumer source dir}
GENERATOR=${3:-}
CXX=${4:-}
CC=${5:-}

BIN=$(mktemp -d "${TMPDIR:-/tmp}/marionette-consumer.XXXXXX")
trap 'rm -rf "$BIN"' EXIT INT TERM

set -- -S "$SRC" -B "$BIN" -DCMAKE_BUILD_TYPE=Release
[ -n "$GENERATOR" ] && set -- "$@" -G "$GENERATOR"
[ -n "$CXX" ] && set -- "$@" -DCMAKE_CXX_COMPILER="$CXX"
[ -n "$CC" ] && set -- "$@" -DCMAKE_C_COMPILER="$CC"

echo "== configure: $CMAKE $*"
if ! "$CMAKE" "$@" >"$BIN/configure.log" 2>&1; then
    cat "$BIN/configure.log"
    echo "runtime_only_build: configure failed" >&2
    exit 1
fi
cat "$BIN/configure.log"

# No Qt may be looked up successfully: nothing about Qt6 in the configure output, no Qt6_DIR in the cache.
if grep -i 'qt6' "$BIN/configure.log" >/dev/null 2>&1; then
    echo "runtime_only_build: the configure output mentions Qt6:" >&2
    grep -i 'qt6' "$BIN/configure.log" >&2
    exit 1
fi
if grep -E '^Qt6(Core)?_DIR:' "$BIN/CMakeCache.txt" | grep -v -- '-NOTFOUND' >/dev/null 2>&1; then
    echo "runtime_only_build: Qt6 was found:" >&2
    grep -E '^Qt6(Core)?_DIR:' "$BIN/CMakeCache.txt" >&2
    exit 1
fi
if ! grep -q '^CMAKE_DISABLE_FIND_PACKAGE_Qt6' "$BIN/CMakeCache.txt" && ! grep -q 'CMAKE_DISABLE_FIND_PACKAGE_Qt6 ON' "$SRC/CMakeLists.txt"; then
    echo "runtime_only_build: the consumer does not disable find_package(Qt6)" >&2
    exit 1
fi

echo "== build"
"$CMAKE" --build "$BIN" --parallel 2

echo "== run"
"$BIN/consumer"
