#!/bin/sh
# fuzz_mrig_smoke, fuzz_mproj_smoke: configure tests/fuzz with clang++ into a temporary folder for TARGET
# alone (fuzz_mrig, the default, or fuzz_mproj), build it, and fuzz for SECONDS seconds starting from the
# seed corpus: SEED_CORPUS_DIR plus any MORE_SEEDS (files or folders, only read). Fails when the configure or
# build fails or when libFuzzer reports a crash, a broken invariant, a sanitizer error, a timeout, a leak or
# an allocation above 64 MB; the offending input is kept in ARTIFACT_DIR (add it to the corpus folder as its
# README says, and make it a test).
# Usage: run.sh [-t TARGET] CMAKE FUZZ_SOURCE_DIR SEED_CORPUS_DIR ARTIFACT_DIR SECONDS [GENERATOR [CXX_COMPILER [MORE_SEEDS...]]]
# The dictionary is FUZZ_SOURCE_DIR/<TARGET without fuzz_>.dict (mrig.dict, mproj.dict).
set -eu
TARGET=fuzz_mrig
while getopts t: option; do
    case $option in
    t) TARGET=$OPTARG ;;
    *) echo "usage: run.sh [-t TARGET] CMAKE FUZZ_SOURCE_DIR SEED_CORPUS_DIR ARTIFACT_DIR SECONDS [GENERATOR [CXX [SEEDS...]]]" >&2
       exit 2 ;;
    esac
done
shift $((OPTIND - 1))
CMAKE=${1:?cmake path}
SRC=${2:?fuzz source dir}
SEEDS=${3:?seed corpus dir}
ARTIFACTS=${4:?artifact dir}
SECONDS_TO_FUZZ=${5:?seconds}
GENERATOR=${6:-}
CXX=${7:-clang++}
shift $(($# < 7 ? $# : 7))
case $TARGET in
fuzz_mrig) MAX_LEN=65536 ;;
fuzz_mproj) MAX_LEN=262144 ;; # the committed sample projects are up to 150 KB
*) echo "run.sh: unknown target $TARGET (fuzz_mrig or fuzz_mproj)" >&2; exit 2 ;;
esac
NAME=${TARGET}_smoke

BIN=$(mktemp -d "${TMPDIR:-/tmp}/marionette-fuzz.XXXXXX")
trap 'rm -rf "$BIN"' EXIT INT TERM

# Extra seeds: folders are read in place, files are copied into one folder (libFuzzer runs a file given on
# its command line once instead of fuzzing from it).
mkdir -p "$BIN/corpus" "$BIN/seeds" "$ARTIFACTS"
n=0
for seed in "$@"; do
    n=$((n + 1))
    if [ -d "$seed" ]; then
        set -- "$@" "$seed"
    elif [ -f "$seed" ]; then
        cp "$seed" "$BIN/seeds/$n-$(basename "$seed")"
    else
        echo "$NAME: no seed $seed" >&2
        exit 1
    fi
    shift
done

echo "== configure: $CMAKE -S $SRC -B $BIN/build -DCMAKE_CXX_COMPILER=$CXX -DMARIONETTE_FUZZ_TARGETS=$TARGET${GENERATOR:+ -G $GENERATOR}"
if ! "$CMAKE" -S "$SRC" -B "$BIN/build" -DCMAKE_CXX_COMPILER="$CXX" -DMARIONETTE_FUZZ_TARGETS="$TARGET" \
        ${GENERATOR:+-G "$GENERATOR"} >"$BIN/configure.log" 2>&1; then
    cat "$BIN/configure.log"
    echo "$NAME: configure failed" >&2
    exit 1
fi

echo "== build"
"$CMAKE" --build "$BIN/build" --parallel 2 --target "$TARGET"

echo "== fuzz $TARGET for $SECONDS_TO_FUZZ s from $SEEDS${*:+ $*} and $(ls "$BIN/seeds" | wc -l) seed files"
# The first folder receives new inputs (temporary); the seed folders are only read.
if ! "$BIN/build/$TARGET" -max_total_time="$SECONDS_TO_FUZZ" -timeout=10 -rss_limit_mb=2048 \
        -malloc_limit_mb=64 -max_len="$MAX_LEN" -print_final_stats=1 -dict="$SRC/${TARGET#fuzz_}.dict" \
        -artifact_prefix="$ARTIFACTS/" "$BIN/corpus" "$SEEDS" "$BIN/seeds" "$@"; then
    echo "$NAME: the fuzzer found a problem; the input is in $ARTIFACTS" >&2
    exit 1
fi
echo "$NAME: no finding in $SECONDS_TO_FUZZ s"
