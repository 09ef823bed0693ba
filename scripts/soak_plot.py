"""Draws scripts/soak's samples as an SVG: resident memory, open descriptors and fix latency over time.

Python's standard library only; the document is built as text. Three panels share the time axis: RSS in MB, open
file descriptors, and the fast watcher's p50 and p99 fix latency in ms over the window of each sample.
"""

from xml.sax.saxutils import escape

WIDTH, LEFT, RIGHT, PANEL, GAP, TOP = 900, 70, 20, 150, 45, 40


def _ticks(low, high, count=4):
    """Round tick values covering low..high."""
    span = max(high - low, 1e-9)
    raw = span / count
    magnitude = 10 ** len(str(int(raw))) / 10 if raw >= 1 else 10 ** -len(str(int(1 / raw)))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)
    value = (low // step) * step
    ticks = []
    while value <= high + step / 2:
        ticks.append(value)
        value += step
    return ticks


def _panel(index, title, series, times, t_max):
    """One panel: series is [(label, color, values)]."""
    top = TOP + index * (PANEL + GAP)
    values = [v for _, _, vs in series for v in vs]
    low, high = min(values + [0]), max(values + [1e-9])
    ticks = _ticks(low, high)
    low, high = min(low, ticks[0]), max(high, ticks[-1])
    width = WIDTH - LEFT - RIGHT

    def x(t):
        return LEFT + (t / t_max if t_max else 0) * width

    def y(v):
        return top + PANEL - (v - low) / ((high - low) or 1) * PANEL

    out = ['<text x="%d" y="%d" font-weight="bold">%s</text>' % (LEFT, top - 8, escape(title))]
    out.append('<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#444"/>' % (LEFT, top, width, PANEL))
    for tick in ticks:
        out.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#eee"/><text x="%d" y="%.1f" '
                   'text-anchor="end">%g</text>' % (LEFT, y(tick), LEFT + width, y(tick), LEFT - 6, y(tick) + 4, tick))
    for n, (label, color, vs) in enumerate(series):
        points = " L ".join("%.1f,%.1f" % (x(t), y(v)) for t, v in zip(times, vs))
        out.append('<path class="series" data-series="%s" fill="none" stroke="%s" stroke-width="1.5" d="M %s"/>'
                   % (escape(label), color, points))
        out.append('<text x="%d" y="%d" fill="%s">%s</text>' % (LEFT + width - 140 + 70 * n, top - 8, color,
                                                                escape(label)))
    return out


def write_plot(path, samples, caption):
    """samples: [(t seconds, rss MB, fds, p50 ms, p99 ms)]."""
    times = [s[0] for s in samples]
    t_max = max(times + [1])
    height = TOP + 3 * (PANEL + GAP) + 30
    parts = ['<?xml version="1.0" encoding="UTF-8"?>',
             '<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
             'font-family="sans-serif" font-size="11">' % (WIDTH, height, WIDTH, height),
             '<title>singletond soak</title>', '<rect width="100%" height="100%" fill="white"/>']
    parts += _panel(0, "resident memory (MB)", [("RSS", "#1f5fa8", [s[1] for s in samples])], times, t_max)
    parts += _panel(1, "open file descriptors", [("fds", "#2a8a3a", [s[2] for s in samples])], times, t_max)
    parts += _panel(2, "fix latency, source write to watcher (ms)",
                    [("p50", "#7a3fa0", [s[3] for s in samples]), ("p99", "#c0392b", [s[4] for s in samples])],
                    times, t_max)
    axis_y = TOP + 3 * (PANEL + GAP) - GAP + 16
    for tick in _ticks(0, t_max, 6):
        if tick <= t_max:
            parts.append('<text x="%.1f" y="%d" text-anchor="middle">%g s</text>'
                         % (LEFT + tick / t_max * (WIDTH - LEFT - RIGHT), axis_y, tick))
    parts.append('<text class="caption" x="%d" y="%d">%s</text>' % (LEFT, height - 8, escape(caption)))
    parts.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(parts) + "\n")
