"""A tiny dependency-free SVG line plot: log-scaled axes, panels side by side, a legend per panel.

Enough for the benchmark curves (bench/scale.py writes docs/scale.svg with it) and nothing more:

    svg = render(
        [Panel("latency", "files", "ms", [Series("securemem", [1e3, 1e4], [0.2, 0.3], "#0072B2")])],
        title="...",
        notes=["machine ..."],
    )
    Path("plot.svg").write_text(svg)

Points that are not positive numbers (NaN, 0) cannot sit on a log axis and are left out. The
background is white, so the plot reads the same on light and dark pages.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from xml.sax.saxutils import escape

# Okabe-Ito: tells colours apart with the common colour-vision deficiencies.
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000")
DASHED = "7 4"
FONT = "font-family='Helvetica, Arial, sans-serif'"

PLOT_WIDTH = 430
PLOT_HEIGHT = 300
MARGIN_LEFT = 70  # room for the y tick labels and the y label
MARGIN_RIGHT = 30
PANEL_TOP = 40  # room for the panel title
AXIS_BELOW = 52  # x tick labels and the x label
LEGEND_ROW = 18
TITLE_HEIGHT = 34
NOTE_ROW = 15


@dataclass
class Series:
    label: str
    xs: Sequence[float]
    ys: Sequence[float]
    color: str
    dash: str | None = None  # an SVG stroke-dasharray, such as DASHED; None: solid
    marker: str = "circle"  # "circle", "square" or "none"


@dataclass
class HLine:
    """A horizontal reference line across the panel (a target), labelled at its right end."""

    y: float
    label: str
    color: str = "#C00000"


@dataclass
class Panel:
    title: str
    xlabel: str
    ylabel: str
    series: list[Series]
    xticks: Sequence[float] | None = None  # None: powers of ten
    hlines: list[HLine] = field(default_factory=list)
    legend_columns: int = 1
    xfmt: Callable[[float], str] | None = None
    yfmt: Callable[[float], str] | None = None


def compact(value: float) -> str:
    """1000 -> 1k, 100000 -> 100k, 2.5 -> 2.5, 0.01 -> 0.01."""
    for size, suffix in ((1e6, "M"), (1e3, "k")):
        if abs(value) >= size:
            return f"{value / size:g}{suffix}"
    return f"{value:g}"


def plain(value: float) -> str:
    """1000 -> 1,000; 0.05 -> 0.05."""
    return f"{value:,.0f}" if abs(value) >= 1 and value == round(value) else f"{value:g}"


def _positive(values: Sequence[float]) -> list[float]:
    return [v for v in values if isinstance(v, int | float) and math.isfinite(v) and v > 0]


def _log_range(values: Sequence[float]) -> tuple[float, float]:
    """Whole decades around the values (at least one)."""
    good = _positive(values)
    if not good:
        return 0.0, 1.0
    low, high = math.floor(math.log10(min(good))), math.ceil(math.log10(max(good)))
    if high - low < 1:
        high = low + 1
    return float(low), float(high)


def _span(values: Sequence[float]) -> tuple[float, float]:
    """The exact log span of the values (explicit ticks: no whole decades added)."""
    good = _positive(values)
    if not good:
        return 0.0, 1.0
    low, high = math.log10(min(good)), math.log10(max(good))
    return (low, high) if high > low else (low - 0.5, high + 0.5)


def _padded(span: tuple[float, float], share: float = 0.08) -> tuple[float, float]:
    """Room on both sides, so that the first and last points do not sit on the frame."""
    pad = (span[1] - span[0]) * share
    return span[0] - pad, span[1] + pad


def _ticks(low: float, high: float) -> list[float]:
    """Powers of ten from 10**low to 10**high, with 2 and 5 between them when the span is short."""
    steps = (1, 2, 5) if high - low <= 2 else (1,)
    out = []
    for exponent in range(int(low), int(high) + 1):
        for step in steps:
            value = step * 10.0**exponent
            if value <= 10**high * 1.0001:
                out.append(value)
    return out


class _Axes:
    def __init__(self, left: float, top: float, xr: tuple[float, float], yr: tuple[float, float]) -> None:
        self.left, self.top, self.xr, self.yr = left, top, xr, yr

    def x(self, value: float) -> float:
        return self.left + (math.log10(value) - self.xr[0]) / (self.xr[1] - self.xr[0]) * PLOT_WIDTH

    def y(self, value: float) -> float:
        return self.top + PLOT_HEIGHT - (math.log10(value) - self.yr[0]) / (self.yr[1] - self.yr[0]) * PLOT_HEIGHT


def _text(x: float, y: float, text: str, *, size: int = 12, anchor: str = "start", extra: str = "") -> str:
    return (
        f"<text x='{x:.1f}' y='{y:.1f}' font-size='{size}' text-anchor='{anchor}' {FONT} fill='#222'{extra}>"
        f"{escape(text)}</text>"
    )


def _marker(kind: str, x: float, y: float, color: str) -> str:
    if kind == "square":
        return (
            f"<rect x='{x - 3.5:.1f}' y='{y - 3.5:.1f}' width='7' height='7' fill='white' "
            f"stroke='{color}' stroke-width='2'/>"
        )
    if kind == "circle":
        return f"<circle cx='{x:.1f}' cy='{y:.1f}' r='3.5' fill='{color}' stroke='{color}'/>"
    return ""


def _legend_height(panel: Panel) -> int:
    rows = math.ceil((len(panel.series) + len(panel.hlines)) / max(1, panel.legend_columns))
    return 10 + rows * LEGEND_ROW


def _panel(panel: Panel, left: float, top: float) -> list[str]:
    xs = [x for s in panel.series for x, y in zip(s.xs, s.ys, strict=True) if _positive([x]) and _positive([y])]
    ys = [y for s in panel.series for x, y in zip(s.xs, s.ys, strict=True) if _positive([x]) and _positive([y])]
    ys += [h.y for h in panel.hlines]
    xr = _padded(_span(list(panel.xticks or []) + xs) if panel.xticks else _log_range(xs))
    yr = _log_range(ys)
    axes = _Axes(left + MARGIN_LEFT, top + PANEL_TOP, xr, yr)
    xfmt, yfmt = panel.xfmt or compact, panel.yfmt or plain
    x0, x1 = axes.left, axes.left + PLOT_WIDTH
    y0, y1 = axes.top, axes.top + PLOT_HEIGHT
    out = [_text((x0 + x1) / 2, top + 22, panel.title, size=14, anchor="middle", extra=" font-weight='bold'")]
    out.append(f"<rect x='{x0}' y='{y0}' width='{PLOT_WIDTH}' height='{PLOT_HEIGHT}' fill='white' stroke='#888'/>")
    for value in _ticks(*yr):
        y = axes.y(value)
        major = math.isclose(math.log10(value), round(math.log10(value)))
        out.append(
            f"<line x1='{x0}' y1='{y:.1f}' x2='{x1}' y2='{y:.1f}' stroke='{'#d0d0d0' if major else '#ececec'}'/>"
        )
        out.append(_text(x0 - 6, y + 4, yfmt(value), size=11, anchor="end"))
    xticks = (
        list(panel.xticks)
        if panel.xticks
        else [v for v in _ticks(math.floor(xr[0]), math.ceil(xr[1])) if xr[0] <= math.log10(v) <= xr[1]]
    )
    for value in xticks:
        x = axes.x(value)
        out.append(f"<line x1='{x:.1f}' y1='{y0}' x2='{x:.1f}' y2='{y1}' stroke='#e4e4e4'/>")
        out.append(_text(x, y1 + 16, xfmt(value), size=11, anchor="middle"))
    out.append(_text((x0 + x1) / 2, y1 + 38, panel.xlabel, size=12, anchor="middle"))
    ymid = (y0 + y1) / 2
    out.append(
        _text(
            left + 16,
            ymid,
            panel.ylabel,
            size=12,
            anchor="middle",
            extra=f" transform='rotate(-90 {left + 16} {ymid})'",
        )
    )
    for hline in panel.hlines:
        y = axes.y(hline.y)
        out.append(
            f"<line x1='{x0}' y1='{y:.1f}' x2='{x1}' y2='{y:.1f}' stroke='{hline.color}' stroke-width='1.5' "
            f"stroke-dasharray='2 3'/>"
        )
    for series in panel.series:
        points = [
            (axes.x(x), axes.y(y))
            for x, y in zip(series.xs, series.ys, strict=True)
            if _positive([x]) and _positive([y])
        ]
        if not points:
            continue
        dash = f" stroke-dasharray='{series.dash}'" if series.dash else ""
        line = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
        out.append(f"<polyline points='{line}' fill='none' stroke='{series.color}' stroke-width='2'{dash}/>")
        out.extend(_marker(series.marker, x, y, series.color) for x, y in points)
    out.extend(_legend(panel, left + 20, y1 + AXIS_BELOW, MARGIN_LEFT + PLOT_WIDTH - 20))
    return out


def _legend(panel: Panel, left: float, top: float, width: float) -> list[str]:
    entries: list[tuple[str, str, str | None, str]] = [(s.label, s.color, s.dash, s.marker) for s in panel.series]
    entries += [(h.label, h.color, "2 3", "none") for h in panel.hlines]
    columns = max(1, panel.legend_columns)
    rows = math.ceil(len(entries) / columns)
    column = width / columns
    out = []
    for n, (label, color, dash, marker) in enumerate(entries):
        x = left + (n // rows) * column
        y = top + 10 + (n % rows) * LEGEND_ROW
        dash_attr = f" stroke-dasharray='{dash}'" if dash else ""
        out.append(
            f"<line x1='{x:.1f}' y1='{y:.1f}' x2='{x + 28:.1f}' y2='{y:.1f}' stroke='{color}' "
            f"stroke-width='2'{dash_attr}/>"
        )
        out.append(_marker(marker, x + 14, y, color))
        out.append(_text(x + 34, y + 4, label, size=12))
    return out


def render(panels: Sequence[Panel], *, title: str, notes: Sequence[str] = ()) -> str:
    """The SVG document: ``title`` on top, the panels side by side, ``notes`` in small print below."""
    panel_width = MARGIN_LEFT + PLOT_WIDTH + MARGIN_RIGHT
    legend = max((_legend_height(p) for p in panels), default=0)
    panel_height = PANEL_TOP + PLOT_HEIGHT + AXIS_BELOW + legend
    width = panel_width * max(1, len(panels)) + 10
    height = TITLE_HEIGHT + panel_height + 8 + NOTE_ROW * len(notes)
    out = [
        "<?xml version='1.0' encoding='UTF-8'?>",
        f"<svg xmlns='http://www.w3.org/2000/svg' width='{width}' height='{height}' viewBox='0 0 {width} {height}'>",
        f"<rect width='{width}' height='{height}' fill='white'/>",
        _text(width / 2, 24, title, size=16, anchor="middle", extra=" font-weight='bold'"),
    ]
    for n, panel in enumerate(panels):
        out.extend(_panel(panel, 5 + n * panel_width, TITLE_HEIGHT))
    for n, note in enumerate(notes):
        out.append(_text(12, TITLE_HEIGHT + panel_height + NOTE_ROW * (n + 1) - 4, note, size=10))
    out.append("</svg>")
    return "\n".join(line for line in out if line) + "\n"
