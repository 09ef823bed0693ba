#!/usr/bin/env bash
# End-to-end throughput of `singletond decode` against gpsd's `gpsdecode`, per log and on the whole set.
#   Benchmarks/decode-vs-gpsdecode.sh [COPIES] [RUNS]
# The logs are ../shared/nmea-samples/*.log (or Tests/Fixtures/NMEA/*.nmea when the samples are absent). Each log is
# repeated until it holds at least MIN_SENTENCES sentences (default 50000), so that process start-up weighs less;
# the whole set is the logs concatenated COPIES times (default 200). Each input is decoded RUNS times (default 9) by
# each tool, the two tools interleaved, output to /dev/null; a separate untimed pass pipes each tool's output to
# `wc -c`, since the two tools do not write the same amount. Per input the script prints, for each tool, the median
# sentences/s and output MB/s, and the ratio of the medians (gpsdecode's time over ours); then the lowest ratio.
# It first times each tool on an empty input (RUNS times, medians) and prints that start-up, which every figure
# includes: MIN_SENTENCES=500000 makes it weigh a tenth as much.
# A benchmark, not a test: it never fails on speed.
# It builds singletond as Documentation/Singletond.md installs it: release, with the Swift standard library linked
# in (`--static-swift-stdlib`) and the C++ runtime from GCC's static archives (Packaging/static-libstdc++), into
# .build-static, so that the binary needs no toolchain and starts without loading libstdc++ or the runtime's shared
# libraries.
# Environment (optional): SINGLETOND=path uses that binary and builds nothing; SCRATCH_PATH=dir builds into dir
# instead of .build-static; MIN_SENTENCES=n as above; LOGS="a b" restricts the per-log rows to logs whose file names
# (without .log) are listed.
set -euo pipefail
copies="${1:-200}"
runs="${2:-9}"
min_sentences="${MIN_SENTENCES:-50000}"
root="$(cd "$(dirname "$0")/.." && pwd)"
command -v gpsdecode >/dev/null || { echo "gpsdecode missing: apt-get install gpsd-clients" >&2; exit 1; }
samples=("$root/../shared/nmea-samples/"*.log)
[ -e "${samples[0]}" ] || samples=("$root/Tests/Fixtures/NMEA/"*.nmea)
if [ -n "${SINGLETOND:-}" ]; then
    ours="$SINGLETOND"
else
    scratch="${SCRATCH_PATH:-$root/.build-static}"
    # SwiftPM 6.3 keeps the link command of an earlier build in release.yaml when only -Xswiftc changed: removing it
    # makes the link take the flag (nothing is recompiled for it).
    rm -f "$scratch/release.yaml"
    (cd "$root" && swift build -c release --static-swift-stdlib -Xswiftc -L"$root/Packaging/static-libstdc++" \
        --scratch-path "$scratch" --product singletond >/dev/null)
    ours="$scratch/release/singletond"
fi
[ -x "$ours" ] || { echo "not an executable: $ours" >&2; exit 1; }

input="$(mktemp /tmp/decode-bench.XXXXXX)"
trap 'rm -f "$input"' EXIT
count_sentences() { grep -c '^[$!]' "$@" || true; }
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
# Wall-clock nanoseconds of one run, from bash's own clock ($EPOCHREALTIME, bash 5): no `date` process is started
# inside the timed interval, so the interval holds only the tool's own start, run and exit.
time_ns() {
    local s e
    s=$EPOCHREALTIME
    "$@" < "$input" > /dev/null 2>&1
    e=$EPOCHREALTIME
    echo $((${e/./} - ${s/./}))000
}

# Times both tools RUNS times on $input, interleaved: their median nanoseconds, in $o and $g.
time_both() {
    local ours_ns=() gpsd_ns=() r
    for ((r = 0; r < runs; r++)); do
        ours_ns+=("$(time_ns "$ours" decode -)")
        gpsd_ns+=("$(time_ns gpsdecode)")
    done
    o=$(printf '%s\n' "${ours_ns[@]}" | median)
    g=$(printf '%s\n' "${gpsd_ns[@]}" | median)
}

# Start-up: each tool on an empty input.
: > "$input"
time_both
o0=$o
g0=$g
awk -v o="$o0" -v g="$g0" 'BEGIN { printf "start-up (empty input): singletond decode %.1f ms, gpsdecode %.1f ms\n", o / 1e6, g / 1e6 }'
printf '%-34s %10s | %12s %8s | %12s %8s | %6s\n' "input (sentences)" "" "ours sent/s" "out MB/s" \
    "gpsdecode" "out MB/s" "ratio"
lowest=""
# Times the file at $input as `$1`: the row of the table, and the ratio kept in $ratio.
measure() {
    local label="$1" sentences ours_out gpsd_out o g r
    sentences=$(count_sentences "$input")
    ours_out=$("$ours" decode - < "$input" 2>/dev/null | wc -c)
    gpsd_out=$(gpsdecode < "$input" 2>/dev/null | wc -c)
    time_both
    ratio=$(awk -v o="$o" -v g="$g" 'BEGIN { printf "%.1f", g / o }')
    awk -v l="$label" -v n="$sentences" -v oo="$ours_out" -v go="$gpsd_out" -v o="$o" -v g="$g" 'BEGIN {
        printf "%-34s %10d | %12.0f %8.1f | %12.0f %8.1f | %5.1fx\n", l, n, n / (o / 1e9), oo / 1e6 / (o / 1e9),
            n / (g / 1e9), go / 1e6 / (g / 1e9), g / o
    }'
}

for log in "${samples[@]}"; do
    name="$(basename "$log")"
    name="${name%.*}"
    if [ -n "${LOGS:-}" ] && [[ " $LOGS " != *" $name "* ]]; then continue; fi
    per=$(count_sentences "$log")
    [ "$per" -gt 0 ] || continue
    repeat=$(((min_sentences + per - 1) / per))
    for ((i = 0; i < repeat; i++)); do cat "$log"; done > "$input"
    measure "$name x$repeat"
    if [ -z "$lowest" ] || awk -v a="$ratio" -v b="${lowest%% *}" 'BEGIN { exit !(a < b) }'; then
        lowest="$ratio $name"
    fi
done
for ((i = 0; i < copies; i++)); do cat "${samples[@]}"; done > "$input"
measure "whole set x$copies"
[ -z "$lowest" ] || echo "lowest per-log ratio: ${lowest%% *}x (${lowest#* }); whole set: ${ratio}x"
