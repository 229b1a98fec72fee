"""The template's paper: sheet sizes, the scale bar, the grid of sheets and the SVG wrapper.

columns, rows = grid(516, 516, PAPERS["a4"])    # the sheets that cover a 516 mm board
scale_bar(10, 20)                                # a 100 mm bar from (10, 20), in SVG
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from xml.sax.saxutils import quoteattr

SCALE_BAR = 100.0  # mm
OVERLAP = 15.0  # mm that neighbouring sheets share, to line them up on the drill crosses


@dataclass(frozen=True)
class Paper:
    name: str
    width: float  # mm, portrait
    height: float
    margin: float = 10.0  # what most printers cannot print on


PAPERS = {"a4": Paper("A4", 210.0, 297.0), "letter": Paper("Letter", 215.9, 279.4)}


def scale_bar(x: float, y: float, kind: str = "scale-bar") -> str:
    """A bar SCALE_BAR mm long from ``(x, y)``, ticks every 10 mm above it, its length below."""
    ticks = "".join(f"M{x + i * 10:.2f},{y:.2f}v-{3 if i % 5 else 5}" for i in range(11))
    return (
        f'<path class="{kind}" d="M{x:.2f},{y:.2f}h{SCALE_BAR:g}{ticks}" stroke="#000" stroke-width="0.3" '
        f'fill="none"/><text x="{x + SCALE_BAR / 2:.2f}" y="{y + 5:.2f}" font-size="3" '
        f'text-anchor="middle">{SCALE_BAR:g} mm</text>'
    )


def steps(first: float, last: float, step: float) -> list[float]:
    """``first``, ``first + step``, ... up to ``last`` (``step`` may be negative); at least ``first``."""
    count = max(0, math.floor((last - first) / step))
    return [first + i * step for i in range(count + 1)]


def grid(width: float, height: float, paper: Paper) -> tuple[int, int]:
    """Columns and rows of ``paper`` that cover ``width`` x ``height`` mm, OVERLAP mm shared."""
    steps = (paper.width - 2 * paper.margin - OVERLAP, paper.height - 2 * paper.margin - OVERLAP)
    return (max(1, math.ceil((width - OVERLAP) / steps[0])), max(1, math.ceil((height - OVERLAP) / steps[1])))


def svg_document(width: float, height: float, view_box: str, body: str) -> str:
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.2f}mm" height="{height:.2f}mm" '
        f'viewBox={quoteattr(view_box)} font-family="sans-serif">\n'
        f'<rect x="-10000" y="-10000" width="20000" height="20000" fill="#fff"/>\n{body}\n</svg>\n'
    )
