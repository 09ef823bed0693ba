#!/usr/bin/env bash
# gpsd 3.22 and singletond side by side on one loopback NMEA flood, 50 gpsd-protocol watchers each:
#   Benchmarks/flood-vs-gpsd.sh [LOG]
# LOG (default ../shared/nmea-samples/mt3339.log, on which both daemons make the same TPVs) is repeated at RATE
# sentences a second (default 4300) for SECONDS_ seconds (default 15), to WATCHERS watchers per daemon (default 50),
# each sending ?WATCH={"enable":true,"json":true}. Prints, per daemon, the fewest and most TPVs a watcher read
# and the daemon's peak RSS (VmHWM). Needs gpsd on PATH (apt-get install gpsd) and builds singletond in release
# mode as Documentation/Singletond.md builds it for installing (static Swift runtime), in SCRATCH (default .build).
set -euo pipefail
cd "$(dirname "$0")/.."
log=${1:-../shared/nmea-samples/mt3339.log}
export PATH="$PATH:/usr/sbin"
command -v gpsd >/dev/null || { echo "gpsd is not installed (apt-get install gpsd)" >&2; exit 1; }
scratch=${SCRATCH:-.build}
swift build -c release --static-swift-stdlib -Xswiftc -L"$PWD/Packaging/static-libstdc++" --product singletond \
    --scratch-path "$scratch" >&2
exec python3 Benchmarks/flood-vs-gpsd.py "$log" "$scratch/release/singletond"
