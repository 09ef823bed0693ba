#!/usr/bin/env python3
"""When each TPV leaves gpsd 3.22 and singletond, fed the same NMEA bytes over TCP at the same moments.

    Benchmarks/latency-vs-gpsd.py SINGLETOND LOG [LOG ...]

One feeder listens on a loopback port; gpsd (`gpsd -N -n -S PORT tcp://127.0.0.1:FEED`) and singletond
(`--nmea-tcp 127.0.0.1:FEED --listen PORT`) each connect to it, and one watcher on each sends
`?WATCH={"enable":true,"json":true}`. The feeder then sends both connections each sentence of the log (the first
SENTENCES of it, default 400) at once, GAP_MS apart (default 20). The watchers' reader notes when each TPV arrives
and how many sentences had been sent by then.

Per log and daemon it prints:
- TPVs: the TPVs with a time that arrived;
- late: those that arrived only after a sentence of the next cycle (the first sentence stamped with another time
  after the last one stamped with the TPV's) had been sent;
- held: those that arrived only after the log ended (the source's last fix, held until it closed);
- median ms: the median time from the last sentence sent before the TPV arrived (the one that completed it) to its
  arrival.
"""
import os, re, selectors, socket, statistics, subprocess, sys, tempfile, time

singletond, logs = sys.argv[1], sys.argv[2:]
gap = float(os.environ.get("GAP_MS", "20")) / 1000
limit = int(os.environ.get("SENTENCES", "400"))
TIME_FIELD = {"GGA": 1, "RMC": 1, "GLL": 5, "GNS": 1, "ZDA": 1, "GBS": 1, "GST": 1}


def time_of_day(sentence):
    """The sentence's time of day in milliseconds, or None."""
    fields = sentence.split(b"*")[0].split(b",")
    index = TIME_FIELD.get(fields[0][3:6].decode("ascii", "replace"))
    if index is None or len(fields) <= index:
        return None
    m = re.match(rb"^(\d\d)(\d\d)(\d\d(?:\.\d+)?)$", fields[index])
    if not m:
        return None
    return round(((int(m.group(1)) * 60 + int(m.group(2))) * 60 + float(m.group(3))) * 1000)


def tpv_time_of_day(line):
    m = re.search(rb'"time":"\d{4}-\d\d-\d\dT(\d\d):(\d\d):(\d\d(?:\.\d+)?)Z"', line)
    if not m:
        return None
    return round(((int(m.group(1)) * 60 + int(m.group(2))) * 60 + float(m.group(3))) * 1000)


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


def run(log):
    sentences = [l + b"\r\n" for l in open(log, "rb").read().splitlines() if l.startswith(b"$")][:limit]
    times = [time_of_day(s) for s in sentences]
    feed = socket.socket()
    feed.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    feed.bind(("127.0.0.1", 0))
    feed.listen(8)
    gpsd_port, sd_port = free_port(), free_port()
    tmp = tempfile.mkdtemp()
    procs = [
        subprocess.Popen(["gpsd", "-N", "-n", "-S", str(gpsd_port), f"tcp://127.0.0.1:{feed.getsockname()[1]}"],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL),
        subprocess.Popen([singletond, "--nmea-tcp", f"127.0.0.1:{feed.getsockname()[1]}", "--listen", str(sd_port),
                          "--control", f"{tmp}/c.sock", "--output", "/dev/null", "--log-level", "warning"],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL),
    ]
    feed.settimeout(30)
    feeds = [feed.accept()[0] for _ in range(2)]
    sel = selectors.DefaultSelector()
    arrivals = {"gpsd": [], "singletond": []}
    pending = {}
    for name, port in (("gpsd", gpsd_port), ("singletond", sd_port)):
        for _ in range(200):
            try:
                s = socket.create_connection(("127.0.0.1", port))
                break
            except OSError:
                time.sleep(0.05)
        s.sendall(b'?WATCH={"enable":true,"json":true}\n')
        s.setblocking(False)
        sel.register(s, selectors.EVENT_READ, name)
        pending[name] = b""
    sent = [0]
    sent_at = []

    def pump(timeout):
        for key, _ in sel.select(timeout):
            now = time.monotonic()
            data = key.fileobj.recv(1 << 16)
            if not data:
                sel.unregister(key.fileobj)
                continue
            lines = (pending[key.data] + data).split(b"\n")
            pending[key.data] = lines.pop()
            for line in lines:
                if b'"class":"TPV"' in line:
                    t = tpv_time_of_day(line)
                    if t is not None:
                        arrivals[key.data].append((t, now, sent[0]))

    end = time.monotonic() + 1.0
    while time.monotonic() < end:
        pump(0.05)
    for sentence in sentences:
        for f in feeds:
            f.sendall(sentence)
        sent_at.append(time.monotonic())
        sent[0] += 1
        due = time.monotonic() + gap
        while time.monotonic() < due:
            pump(max(0, due - time.monotonic()))
    ended = sent[0]
    for f in feeds:
        f.close()
    end = time.monotonic() + 2.0
    while time.monotonic() < end:
        pump(0.05)
    for p in procs:
        p.terminate()
        p.wait()
    # The index of the first sentence of the cycle after each time: the first sentence stamped with another time
    # after the last sentence stamped with this one.
    last_index = {}
    for i, t in enumerate(times):
        if t is not None:
            last_index[t] = i
    next_cycle = {}
    for t, i in last_index.items():
        later = [j for j in range(i + 1, len(times)) if times[j] is not None and times[j] != t]
        next_cycle[t] = later[0] if later else None
    rows = []
    for name in ("gpsd", "singletond"):
        late = held = 0
        delays = []
        seen = set()
        for t, at, count in arrivals[name]:
            if t in seen or t not in last_index:
                continue
            seen.add(t)
            if count >= ended:
                held += 1
            elif next_cycle[t] is not None and count > next_cycle[t]:
                late += 1
            if 0 < count <= len(sent_at):
                delays.append((at - sent_at[count - 1]) * 1000)
        median = statistics.median(delays) if delays else float("nan")
        rows.append((name, len(seen), late, held, median))
    return rows


print(f"{'log':32} {'daemon':11} {'TPVs':>5} {'late':>5} {'held':>5} {'median ms':>10}")
for log in logs:
    for name, count, late, held, median in run(log):
        print(f"{os.path.basename(log):32} {name:11} {count:5} {late:5} {held:5} {median:10.2f}")
