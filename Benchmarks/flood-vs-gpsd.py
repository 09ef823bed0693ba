#!/usr/bin/env python3
"""gpsd 3.22 and singletond side by side on one loopback NMEA flood, with watchers on each.

One feeder listens on a loopback port; gpsd (`gpsd -N -n -S PORT tcp://127.0.0.1:FEED`) and singletond
(`--nmea-tcp 127.0.0.1:FEED --listen PORT`) each connect to it. Once both are connected and every watcher has
sent `?WATCH={"enable":true,"json":true}`, the feeder sends both connections the same bytes: a log repeated, at
RATE sentences a second for SECONDS. Each watcher counts the TPVs it reads; the peak RSS of each daemon is its
VmHWM in /proc at the end. Prints one line per daemon.
"""
import os, selectors, socket, subprocess, sys, tempfile, time

log, singletond = sys.argv[1], sys.argv[2]
rate = int(os.environ.get("RATE", "4300"))
seconds = float(os.environ.get("SECONDS_", "15"))
watchers = int(os.environ.get("WATCHERS", "50"))

sentences = [l + b"\r\n" for l in open(log, "rb").read().splitlines() if l.startswith(b"$")]

def free_port():
    s = socket.socket(); s.bind(("127.0.0.1", 0)); p = s.getsockname()[1]; s.close(); return p

feed = socket.socket(); feed.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
feed.bind(("127.0.0.1", 0)); feed.listen(8); feed_port = feed.getsockname()[1]
gpsd_port, sd_port = free_port(), free_port()
tmp = tempfile.mkdtemp()
procs = {
    "gpsd": subprocess.Popen(["gpsd", "-N", "-n", "-S", str(gpsd_port), f"tcp://127.0.0.1:{feed_port}"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL),
    "singletond": subprocess.Popen([singletond, "--nmea-tcp", f"127.0.0.1:{feed_port}", "--listen", str(sd_port),
                                    "--control", f"{tmp}/c.sock", "--output", "/dev/null", "--log-level", "warning"],
                                   stdout=subprocess.DEVNULL, stderr=open(f"{tmp}/singletond.log", "wb")),
}
ports = {"gpsd": gpsd_port, "singletond": sd_port}
feeds = []
feed.settimeout(10)
while len(feeds) < 2:
    c, _ = feed.accept(); c.setblocking(True); feeds.append(c)

sel = selectors.DefaultSelector()
counts = {}
pending = {}
def connect(name, i):
    for _ in range(100):
        try:
            s = socket.create_connection(("127.0.0.1", ports[name])); break
        except OSError:
            time.sleep(0.05)
    s.sendall(b'?WATCH={"enable":true,"json":true}\n')
    s.setblocking(False)
    sel.register(s, selectors.EVENT_READ, (name, i))
    counts[(name, i)] = 0; pending[(name, i)] = b""
for name in ports:
    for i in range(watchers):
        connect(name, i)

def pump(timeout):
    for key, _ in sel.select(timeout):
        try:
            data = key.fileobj.recv(1 << 16)
        except BlockingIOError:
            continue
        if not data:
            sel.unregister(key.fileobj); continue
        k = key.data
        buf = pending[k] + data
        counts[k] += buf.count(b'"class":"TPV"')
        cut = buf.rfind(b"\n")
        # A TPV split across two reads is counted in the read that completes it.
        counts[k] -= buf[cut + 1:].count(b'"class":"TPV"')
        pending[k] = buf[cut + 1:]

# Let every watch be taken (DEVICES, WATCH) before the flood.
end = time.monotonic() + 1.0
while time.monotonic() < end:
    pump(0.05)

per_tick = max(1, rate // 100)
start = time.monotonic(); sent = 0; i = 0
while time.monotonic() - start < seconds:
    chunk = b"".join(sentences[(i + j) % len(sentences)] for j in range(per_tick))
    i += per_tick; sent += per_tick
    for f in feeds:
        f.sendall(chunk)
    target = start + sent / rate
    while time.monotonic() < target:
        pump(max(0, target - time.monotonic()))
elapsed = time.monotonic() - start
# Drain: until no watcher has read for 3 s.
last = time.monotonic()
while time.monotonic() - last < 3:
    before = sum(counts.values()); pump(0.2)
    if sum(counts.values()) != before: last = time.monotonic()

def hwm(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmHWM:"): return int(line.split()[1])
print(f"flood: {sent} sentences in {elapsed:.1f} s ({sent/elapsed:.0f}/s) from {os.path.basename(log)}, "
      f"{watchers} watchers per daemon")
for name, p in procs.items():
    c = [counts[(name, i)] for i in range(watchers)]
    print(f"{name:10s} TPVs per watcher: min {min(c)} max {max(c)}  peak RSS {hwm(p.pid)/1024:.1f} MB")
for p in procs.values():
    p.terminate()
for p in procs.values():
    p.wait(10)
sys.stdout.write(open(f"{tmp}/singletond.log").read())
