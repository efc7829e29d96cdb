#!/usr/bin/env bash
# Builds the libFuzzer targets and runs each for SECONDS; `make fuzz` and `make fuzz-smoke` call it.
#
#   Fuzz/fuzz.sh SECONDS [TARGET...]      targets: frame peer-message control-request import (default: all)
#
# Environment: SWIFT (default swift), FUZZ_CONFIG (release or debug, default release: see
# Fuzz/README.md for why), FUZZ_ARGS (more libFuzzer flags, e.g. -jobs=2 or -max_len=65536).
#
# Each target keeps a corpus in .build-fuzz/corpus/TARGET that grows from run to run, starts from
# the golden frames in proto/golden (copied into .build-fuzz/seeds/TARGET; the message targets get
# the bodies, without the 4-byte header; the import target gets the import tests' fixtures and ZIPs
# made of them) and replays Fuzz/regressions/TARGET first. Exits non-zero,
# loudly, if a target doesn't build, doesn't run or finds a crash; a crash leaves its input in
# .build-fuzz/crashes/TARGET/.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:?usage: Fuzz/fuzz.sh SECONDS [TARGET...]}
shift
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(frame peer-message control-request import)
swift=${SWIFT:-swift}
config=${FUZZ_CONFIG:-release}
work=.build-fuzz
read -r -a extra <<<"${FUZZ_ARGS:-}"

fail() {
    echo "fuzz: FAILED: $*" >&2
    exit 1
}

# `-DFUZZING` makes each target's `main` hand over to libFuzzer (Fuzz/Sources/PeerdFuzzing/FuzzTarget.swift).
# A build path of its own, so the normal .build is not rebuilt with other flags.
for target in "${targets[@]}"; do
    [ -d "Fuzz/Sources/fuzz-$target" ] || fail "no fuzz target '$target' (Fuzz/Sources/fuzz-$target)"
    echo "fuzz: building fuzz-$target ($config, -sanitize=fuzzer,address)"
    mkdir -p "$work/logs"
    if ! "$swift" build --build-path "$work" -c "$config" -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING \
        --product "fuzz-$target" >"$work/logs/build-$target.log" 2>&1; then
        grep -v "Cannot export local symbol" "$work/logs/build-$target.log" | tail -n 40 >&2
        fail "fuzz-$target does not build (log: $work/logs/build-$target.log)"
    fi
done
bin=$("$swift" build --build-path "$work" -c "$config" -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING \
    --show-bin-path)

# The import target's seeds: the CSV and JSON fixtures of PeerdImportTests, a Letterboxd export ZIP (deflated)
# and a Trakt one (stored) made of them, the zip64 fixture, and the start of a peerd JSON export.
seed_import() {
    local dir=$1 fixtures=Tests/PeerdImportTests/Fixtures
    cp "$fixtures"/*.csv "$fixtures"/*.zip "$fixtures"/letterboxd/*.csv "$fixtures"/trakt/*.json "$dir/"
    printf '{"peerd": "export", "version": 1, "exportedAt": 0, "member": {"peer": "", "name": "alice"}, "movies": []}' \
        >"$dir/peerd-export.json"
    python3 - "$fixtures" "$dir" <<'PY'
import pathlib, sys, zipfile
fixtures, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
for name, folder, method, files in [
    ("letterboxd.zip", "letterboxd", zipfile.ZIP_DEFLATED, ["watched.csv", "diary.csv", "ratings.csv", "watchlist.csv"]),
    ("trakt.zip", "trakt", zipfile.ZIP_STORED, ["history.json", "ratings-movies.json"]),
]:
    with zipfile.ZipFile(out / name, "w", method) as archive:
        for file in files:
            archive.write(fixtures / folder / file, file)
PY
}

# Golden frames as seeds: whole frames for the frame decoder, bodies for the message decoders.
seed() {
    local target=$1 dir=$work/seeds/$1
    rm -rf "$dir"
    mkdir -p "$dir"
    local prefix
    case $target in
    frame) cp proto/golden/*.bin "$dir/" ;;
    peer-message | control-request)
        prefix=${target%-message}
        for file in proto/golden/"$prefix"-*.bin proto/golden/invalid-"$prefix"-*.bin; do
            tail -c +5 "$file" >"$dir/$(basename "$file")"
        done
        ;;
    import) seed_import "$dir" ;;
    esac
    [ -n "$(ls -A "$dir")" ] || fail "no seeds for $target"
}

summary=()
status=0
for target in "${targets[@]}"; do
    seed "$target"
    corpus=$work/corpus/$target
    crashes=$work/crashes/$target
    log=$work/logs/$target.log
    mkdir -p "$corpus" "$crashes" "$(dirname "$log")"
    echo "fuzz: running fuzz-$target for $seconds s (log: $log)"
    set +e
    # -max_len: without it libFuzzer takes the largest corpus file's size (the 200 KB nesting regression).
    # Without Swift's own backtracer a trap goes to libFuzzer's handler, which saves the input.
    SWIFT_BACKTRACE=enable=no "$bin/fuzz-$target" -max_total_time="$seconds" -print_final_stats=1 -timeout=10 -max_len=8192 \
        -artifact_prefix="$crashes/" "${extra[@]}" "$corpus" "$work/seeds/$target" "Fuzz/regressions/$target" \
        >"$log" 2>&1
    rc=$?
    set -e
    units=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
    if [ "$rc" != 0 ]; then
        tail -n 80 "$log" >&2
        echo "fuzz: fuzz-$target exited with $rc; the input is in $crashes/." >&2
        echo "fuzz: keep it as Fuzz/regressions/$target/<name> (FuzzRegressionTests replays it) and fix the decoder." >&2
        summary+=("$(printf '%-16s CRASH (exit %s), see %s' "$target" "$rc" "$log")")
        status=1
    elif [ -z "$units" ] || [ "$units" = 0 ]; then
        tail -n 40 "$log" >&2
        summary+=("$(printf '%-16s DID NOT RUN, see %s' "$target" "$log")")
        status=1
    else
        summary+=("$(printf '%-16s %10s exec/s %12s executions %6s corpus files' \
            "$target" "$rate" "$units" "$(ls "$corpus" | wc -l)")")
    fi
done

echo "fuzz: $seconds s per target, $config build"
printf '  %s\n' "${summary[@]}"
[ "$status" = 0 ] || fail "see above"
