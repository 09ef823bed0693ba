#!/usr/bin/env bash
# gpsd 3.22 and singletond fed the same NMEA bytes over TCP, sentence by sentence: when each TPV leaves each.
#   Benchmarks/latency-vs-gpsd.sh [LOG ...]
# LOG defaults to every log in ../shared/nmea-samples. Each log's first SENTENCES sentences (default 400) go to both
# daemons GAP_MS apart (default 20). Prints per log and daemon the TPVs that arrived, how many arrived only after a
# sentence of the next cycle (late) or after the log ended (held), and the median delay after the sentence that
# completed each (see latency-vs-gpsd.py). Needs gpsd on PATH (apt-get install gpsd) and builds singletond in release
# mode as Documentation/Singletond.md builds it for installing, in SCRATCH (default .build).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/sbin"
command -v gpsd >/dev/null || { echo "gpsd is not installed (apt-get install gpsd)" >&2; exit 1; }
scratch=${SCRATCH:-.build}
swift build -c release --static-swift-stdlib -Xswiftc -L"$PWD/Packaging/static-libstdc++" --product singletond \
    --scratch-path "$scratch" >&2
if [ "$#" = 0 ]; then set -- ../shared/nmea-samples/*.log; fi
exec python3 Benchmarks/latency-vs-gpsd.py "$scratch/release/singletond" "$@"
