#!/usr/bin/env bash
# End-to-end throughput of `singletond decode` against gpsd's `gpsdecode` on the same large input.
#   Benchmarks/decode-vs-gpsdecode.sh [COPIES] [RUNS]
# The input is ../shared/nmea-samples/*.log (or Tests/Fixtures/NMEA/*.nmea when the samples are absent)
# concatenated COPIES times (default 200). Each tool decodes it RUNS times (default 5), output to /dev/null;
# the script prints the median sentences/s of each and the ratio. A benchmark, not a test: it never fails on speed.
# Environment (optional): SINGLETOND=path uses that binary and builds nothing; SCRATCH_PATH=dir builds the release
# binary with `swift build --scratch-path dir` instead of the default .build.
set -euo pipefail
copies="${1:-200}"
runs="${2:-5}"
root="$(cd "$(dirname "$0")/.." && pwd)"
command -v gpsdecode >/dev/null || { echo "gpsdecode missing: apt-get install gpsd-clients" >&2; exit 1; }
samples=("$root/../shared/nmea-samples/"*.log)
[ -e "${samples[0]}" ] || samples=("$root/Tests/Fixtures/NMEA/"*.nmea)
input="$(mktemp /tmp/decode-bench.XXXXXX)"
trap 'rm -f "$input"' EXIT
for ((i = 0; i < copies; i++)); do cat "${samples[@]}"; done > "$input"
sentences=$(grep -c '^[$!]' "$input" || true)
bytes=$(stat -c %s "$input")
if [ -n "${SINGLETOND:-}" ]; then
    ours="$SINGLETOND"
elif [ -n "${SCRATCH_PATH:-}" ]; then
    (cd "$root" && swift build -c release --scratch-path "$SCRATCH_PATH" --product singletond >/dev/null)
    ours="$SCRATCH_PATH/release/singletond"
else
    (cd "$root" && swift build -c release --product singletond >/dev/null)
    ours="$root/.build/release/singletond"
fi
[ -x "$ours" ] || { echo "not an executable: $ours" >&2; exit 1; }

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
time_ns() { local s e; s=$(date +%s%N); "$@" < "$input" > /dev/null 2>&1; e=$(date +%s%N); echo $((e - s)); }

ours_ns=(); gpsd_ns=()
for ((r = 0; r < runs; r++)); do
    ours_ns+=("$(time_ns "$ours" decode -)")
    gpsd_ns+=("$(time_ns gpsdecode)")
done
o=$(printf '%s\n' "${ours_ns[@]}" | median)
g=$(printf '%s\n' "${gpsd_ns[@]}" | median)
awk -v n="$sentences" -v b="$bytes" -v o="$o" -v g="$g" 'BEGIN {
    printf "input: %d sentences, %.1f MB\n", n, b / 1e6
    printf "singletond decode: %10.0f sentences/s  %7.1f MB/s  (median %.3f s)\n", n / (o / 1e9), b / 1e6 / (o / 1e9), o / 1e9
    printf "gpsdecode:         %10.0f sentences/s  %7.1f MB/s  (median %.3f s)\n", n / (g / 1e9), b / 1e6 / (g / 1e9), g / 1e9
    printf "ratio: singletond decode is %.1fx faster than gpsdecode\n", g / o
}'
