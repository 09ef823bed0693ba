#!/usr/bin/env bash
# Instructions per operation of the hot paths, counted by valgrind's callgrind: the same figure for the same binary
# and input whatever else runs on the machine, where timings on a shared VM swing 2x.
#
#   Benchmarks/instructions.sh [--quick] [--baseline FILE] [--output FILE]
#
# For each case it runs `hop-bench --operations N` under callgrind twice, with a small and a large N, and divides the
# difference of the two totals by the difference of the operations: start-up, warm-up and the one-time building of
# inputs cancel out. --quick uses fewer operations (CI prints the figures). --baseline FILE (an earlier --output)
# exits 1 when a case needs more than 2% more instructions than there. Needs valgrind (Debian package valgrind).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
quick=0 baseline="" output=""
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) quick=1 ;;
    --baseline) baseline="${2:?--baseline needs a file}"; shift ;;
    --output) output="${2:?--output needs a file}"; shift ;;
    *) echo "usage: Benchmarks/instructions.sh [--quick] [--baseline FILE] [--output FILE]" >&2; exit 64 ;;
  esac
  shift
done
command -v valgrind >/dev/null || { echo "instructions.sh needs valgrind (apt-get install -y valgrind)" >&2; exit 1; }
if [ -n "$baseline" ] && [ ! -r "$baseline" ]; then echo "instructions.sh: cannot read $baseline" >&2; exit 1; fi

# hop-bench is a product of the Benchmarks package (this folder), built into Benchmarks/.build.
log="$root/Benchmarks/.build/instructions-build.log"
mkdir -p "$(dirname "$log")"
swift build -c release --package-path Benchmarks --product hop-bench >"$log" 2>&1 || { tail -20 "$log" >&2; exit 1; }
bench="$root/Benchmarks/.build/release/hop-bench"
# Swift seeds its hashing per process unless told otherwise; a dictionary's probes would then vary between runs.
export SWIFT_DETERMINISTIC_HASHING=1

# case name | operations that make one unit (nmea.parse feeds an 8-sentence cycle per operation) | operations of
# the long run (each case does ~200 million instructions more than in its short run, a fifth as long: far above the
# few thousand instructions the runtime's idle threads add or take from one run to the next) | unit
cases=(
  "nmea.parse|8|6000|NMEA decode, per sentence"
  "gpsd.parseTPV|1|1500|gpsd TPV parse, per line"
  "gpsd.parseSKY|1|250|gpsd SKY parse (30 satellites), per line"
  "gpsd.writeTPV|1|30000|TPV write, per line"
  "gpsd.writeSKY|1|8000|SKY write (30 satellites), per line"
  "static.read|1|1200000|a static let shared read through a call, the baseline of registry.read"
  "registry.read|1|1200000|registry read (a manager, no scope active)"
  "registry.read.afterScope|1|1200000|the same after a scope entered and left from nonisolated code"
  "registry.scope|1|50000|withSingletons replacing one value, entered and left"
  "registry.scope.nonisolated|1|50000|the same from nonisolated code (hops to RegistryActor)"
  "registry.scope.sync|1|80000|the synchronous withSingletons, entered and left"
  "tasklocal.scope|1|50000|async TaskLocal.withValue, entered and left"
  "registry.hop|1|500000|hop from the pool to RegistryActor and back"
  "location.deliver.noSubscriber|1|120000|deliver(fix) from the pool, no subscriber"
  "location.deliver.observable|1|120000|the same, fixCount read through its getter"
)
# --quick: a quarter of the work.
scale=1
[ "$quick" = 1 ] && scale=4

count() { # case operations -> total instructions of the run
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bench" --operations "$2" --filter "^${1//./\\.}\$" 2>&1 \
    | sed -n 's/^==[0-9]*== Collected : \([0-9]*\)$/\1/p'
}

results=""
printf '%-30s %14s  %s\n' "case" "instr/unit" "unit"
for entry in "${cases[@]}"; do
  IFS='|' read -r name per long unit <<<"$entry"
  large=$((long / scale))
  small=$((large / 5))
  low=$(count "$name" "$small")
  high=$(count "$name" "$large")
  [ -n "$low" ] && [ -n "$high" ] || { echo "instructions.sh: callgrind gave no count for $name" >&2; exit 1; }
  figure=$(awk -v h="$high" -v l="$low" -v n=$((large - small)) -v p="$per" 'BEGIN { printf "%.1f", (h - l) / n / p }')
  printf '%-30s %14s  %s\n' "$name" "$figure" "$unit"
  results+="$name $figure"$'\n'
done
[ -z "$output" ] || printf '%s' "$results" >"$output"

[ -n "$baseline" ] || exit 0
status=0
while read -r name figure; do
  [ -n "$name" ] || continue
  old=$(awk -v n="$name" '$1 == n { print $2 }' "$baseline")
  if [ -z "$old" ]; then echo "$name: not in $baseline"; continue; fi
  verdict=$(awk -v new="$figure" -v old="$old" 'BEGIN { d = (new - old) / old * 100; printf "%+.2f%% %s", d, (d > 2 ? "REGRESSION" : "ok") }')
  echo "$name: $old -> $figure instructions ($verdict)"
  case "$verdict" in *REGRESSION) status=1 ;; esac
done <<<"$results"
exit "$status"
