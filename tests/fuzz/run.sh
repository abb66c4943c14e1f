#!/bin/sh
# fuzz_mrig_smoke: configure tests/fuzz with clang++ into a temporary folder, build fuzz_mrig, and fuzz the
# .mrig reader for SECONDS seconds starting from the committed corpus. Fails when the configure or build
# fails or when libFuzzer reports a crash, a sanitizer error, a timeout, a leak or an allocation above
# 64 MB; the offending input is kept in ARTIFACT_DIR (add it to tests/formats/rig/corpus, see its README).
# Usage: run.sh CMAKE FUZZ_SOURCE_DIR SEED_CORPUS_DIR ARTIFACT_DIR SECONDS [GENERATOR [CXX_COMPILER]]
set -eu
CMAKE=${1:?cmake path}
SRC=${2:?fuzz source dir}
SEEDS=${3:?seed corpus dir}
ARTIFACTS=${4:?artifact dir}
SECONDS_TO_FUZZ=${5:?seconds}
GENERATOR=${6:-}
CXX=${7:-clang++}

BIN=$(mktemp -d "${TMPDIR:-/tmp}/marionette-fuzz.XXXXXX")
trap 'rm -rf "$BIN"' EXIT INT TERM

set -- -S "$SRC" -B "$BIN/build" -DCMAKE_CXX_COMPILER="$CXX"
[ -n "$GENERATOR" ] && set -- "$@" -G "$GENERATOR"

echo "== configure: $CMAKE $*"
if ! "$CMAKE" "$@" >"$BIN/configure.log" 2>&1; then
    cat "$BIN/configure.log"
    echo "fuzz_mrig_smoke: configure failed" >&2
    exit 1
fi

echo "== build"
"$CMAKE" --build "$BIN/build" --parallel 2 --target fuzz_mrig

echo "== fuzz for $SECONDS_TO_FUZZ s from $SEEDS"
mkdir -p "$BIN/corpus" "$ARTIFACTS"
# The first folder receives new inputs (temporary); the seed folder is only read.
if ! "$BIN/build/fuzz_mrig" -max_total_time="$SECONDS_TO_FUZZ" -timeout=10 -rss_limit_mb=2048 \
        -malloc_limit_mb=64 -max_len=65536 -print_final_stats=1 -dict="$SRC/mrig.dict" \
        -artifact_prefix="$ARTIFACTS/" "$BIN/corpus" "$SEEDS"; then
    echo "fuzz_mrig_smoke: the fuzzer found a problem; the input is in $ARTIFACTS" >&2
    exit 1
fi
echo "fuzz_mrig_smoke: no crash in $SECONDS_TO_FUZZ s"
