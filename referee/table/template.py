"""``pegs template``: a 1:1 drilling and wiring template for a home-made board.

    drawing = Template(default_layout(4), pitch=25.0, hole=10.0)
    Path("board.svg").write_text(drawing.svg())             # the whole board, sizes in mm
    for name, text in drawing.sheets(PAPERS["a4"]): ...     # the same, cut into printable pages

Hole places come from ``web.geometry`` (the board the page draws), scaled so that
neighbouring track holes are ``pitch`` mm apart. Each hole is drawn at its place with a
drill cross, its name, and its wiring from the layout the daemon uses: the sensor channel
with its 74HC165 input (``hardware.chain``) and the pixel number. The sensor chain and the
LED chain are drawn as lines in wiring order, so a builder who drills and wires as drawn
gets a board that ``pegs calibrate`` has nothing to fix.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property
from xml.sax.saxutils import escape, quoteattr

from hardware.chain import chain_input
from hardware.layout import COME_OUT, IN_SPOT, Layout, parse_hole
from web import geometry as page

Point = tuple[float, float]
EDGE = 1.0  # the board's edge lies this many pitches outside the track
SCALE_BAR = 100.0  # mm
OVERLAP = 15.0  # mm that neighbouring sheets share, to line them up on the drill crosses


@dataclass(frozen=True)
class Paper:
    name: str
    width: float  # mm, portrait
    height: float
    margin: float = 10.0  # what most printers cannot print on


PAPERS = {"a4": Paper("A4", 210.0, 297.0), "letter": Paper("Letter", 215.9, 279.4)}
# How each kind of hole is drawn: stroke colour, dash pattern, fill (it prints in grey too).
KINDS = {
    "track": ("#000", "", "none"),
    "home": ("#1f4fbf", "", "#dde6fa"),
    "start": ("#2a7a2a", "2 1", "#e3f3e3"),
    "marker": ("#b36b00", "0.6 0.8", "none"),
}
RINGS = {0: "corner", IN_SPOT: "in-spot", COME_OUT: "come-out"}  # track holes drawn with a second ring


def hole_kind(hole: str) -> str:
    kind, _, _ = parse_hole(hole)
    return {"T": "track", "H": "home", "S": "start", "C": "marker"}[kind]


class Template:
    """A board's holes in millimetres, with the layout's wiring, ready to print."""

    def __init__(self, layout: Layout, pitch: float = 25.0, hole: float = 10.0) -> None:
        if not 3.0 <= hole <= 40.0:
            raise ValueError(f"a hole of {hole:g} mm: give --hole from 3 to 40 mm")
        if pitch < hole + 4.0:
            raise ValueError(f"holes {hole:g} mm wide, {pitch:g} mm apart leave under 4 mm of wood: "
                             f"give --pitch {hole + 4.0:g} or more")  # fmt: skip
        self.layout, self.pitch, self.hole = layout, pitch, hole

    @cached_property
    def places(self) -> dict[str, Point]:
        """Each wired hole's centre, in mm from the top left of the drawing."""
        board = page.geometry(self.layout.sides, markers=bool(self.layout.colour_markers))
        scale = self.pitch / page.PITCH
        left, top = (coordinate - self.border for coordinate in self._outline_min(board.corners, scale))
        return {
            hole: (round(x * scale - left, 3), round(y * scale - top, 3))
            for hole, (x, y) in board.holes.items()
            if hole in self.layout.channels
        }

    @property
    def border(self) -> float:
        """Paper around the board's edge."""
        return 8.0

    def _outline_min(self, corners: tuple[Point, ...], scale: float) -> Point:
        outline = self._outline_at(corners, scale)
        return min(x for x, _ in outline), min(y for _, y in outline)

    def _outline_at(self, corners: tuple[Point, ...], scale: float) -> list[Point]:
        """The board's edge: the track's polygon pushed out by EDGE pitches (centre at 0, 0)."""
        grow = EDGE * self.pitch / math.cos(math.pi / self.layout.sides)
        points = []
        for x, y in corners:
            radius = math.hypot(x, y) * scale
            points.append((x * scale * (radius + grow) / radius, y * scale * (radius + grow) / radius))
        return points

    @cached_property
    def outline(self) -> list[Point]:
        board = page.geometry(self.layout.sides)
        scale = self.pitch / page.PITCH
        left, top = (coordinate - self.border for coordinate in self._outline_min(board.corners, scale))
        return [(x - left, y - top) for x, y in self._outline_at(board.corners, scale)]

    @property
    def size(self) -> Point:
        """The drawing's width and height in mm."""
        return (max(x for x, _ in self.outline) + self.border, max(y for _, y in self.outline) + self.border)

    # -- drawing ---------------------------------------------------------------------------

    def svg(self) -> str:
        """The whole board as one SVG at 1:1 (width and height in mm)."""
        width, height = self.size
        return _svg(width, height, f"0 0 {width:.2f} {height:.2f}", self._drawing())

    def sheets(self, paper: Paper) -> Iterator[tuple[str, str]]:
        """``(name, svg)`` per printable page: ``sheet-R-C`` (row 1 at the top), overlapping by
        OVERLAP mm so that the crosses of the shared holes line the pages up."""
        width, height = self.size
        paper = min((paper, Paper(paper.name, paper.height, paper.width, paper.margin)),
                    key=lambda sheet: math.prod(_grid(width, height, sheet)))  # portrait or landscape: fewer sheets
        printable = (paper.width - 2 * paper.margin, paper.height - 2 * paper.margin)
        step = (printable[0] - OVERLAP, printable[1] - OVERLAP)
        columns, rows = _grid(width, height, paper)
        body = self._drawing()
        for row in range(rows):
            for column in range(columns):
                x, y = column * step[0], row * step[1]
                label = (f"sheet row {row + 1}, column {column + 1} of {rows} x {columns} ({paper.name}, "
                         f"print at 100 %): overlap the next sheet by {OVERLAP:g} mm, crosses on crosses")  # fmt: skip
                frame = (f'<rect x="{x:.2f}" y="{y:.2f}" width="{printable[0]:.2f}" height="{printable[1]:.2f}" '
                         'fill="none" stroke="#999" stroke-width="0.2" stroke-dasharray="3 2"/>'
                         f'<text x="{x + 2:.2f}" y="{y + printable[1] - 2:.2f}" font-size="3">{escape(label)}</text>')  # fmt: skip
                box = f"{x - paper.margin:.2f} {y - paper.margin:.2f} {paper.width:.2f} {paper.height:.2f}"
                clip = (f'<clipPath id="printable"><rect x="{x:.2f}" y="{y:.2f}" width="{printable[0]:.2f}" '
                        f'height="{printable[1]:.2f}"/></clipPath><g clip-path="url(#printable)">{body}</g>')  # fmt: skip
                yield f"sheet-{row + 1}-{column + 1}", _svg(paper.width, paper.height, box, clip + frame)

    def _drawing(self) -> str:
        parts = [self._edge(), self._chain("pixel", "#2a9d2a", "4 2", 1.2), self._chain("channel", "#c0392b", "", -1.2)]
        parts += [self._hole(hole, place) for hole, place in self.places.items()]
        parts += [self._chain_ends(), self._legend()]
        return "\n".join(parts)

    def _edge(self) -> str:
        points = " ".join(f"{x:.2f},{y:.2f}" for x, y in self.outline)
        return f'<polygon class="edge" points="{points}" fill="none" stroke="#000" stroke-width="0.4"/>'

    def _order(self, by: str) -> list[str]:
        wires = sorted(self.layout.wires, key=lambda wire: getattr(wire, by))
        return [wire.hole for wire in wires if wire.hole in self.places]

    def _chain(self, by: str, colour: str, dash: str, shift: float) -> str:
        """The chain in wiring order, shifted a little so that the two chains stay apart."""
        points = " ".join(f"{x + shift:.2f},{y + shift:.2f}" for x, y in (self.places[h] for h in self._order(by)))
        dashes = f' stroke-dasharray="{dash}"' if dash else ""
        return (f'<polyline class="{by}-chain" points="{points}" fill="none" stroke="{colour}" '
                f'stroke-width="0.5"{dashes}/>')  # fmt: skip

    def _chain_ends(self) -> str:
        """A thick ring on the holes where the chains start and end (the legend says which)."""
        ends = {self._order("channel")[0]: "#c0392b", self._order("channel")[-1]: "#c0392b", self._order("pixel")[0]: "#2a9d2a"}
        radius = self.hole / 2 + 2.2
        return "\n".join(
            f'<circle class="chain-end" cx="{self.places[hole][0]:.3f}" cy="{self.places[hole][1]:.3f}" '
            f'r="{radius:.3f}" fill="none" stroke="{colour}" stroke-width="0.8"/>'
            for hole, colour in ends.items()
        )

    def _hole(self, hole: str, place: Point) -> str:
        x, y = place
        kind = hole_kind(hole)
        stroke, dash, fill = KINDS[kind]
        channel, pixel = self.layout.channel(hole), self.layout.pixel(hole)
        wire = chain_input(channel)
        radius = self.hole / 2
        dashes = f' stroke-dasharray="{dash}"' if dash else ""
        parts = [
            (f'<g class="hole {kind}" data-hole="{hole}" data-channel="{channel}" data-pixel="{pixel}" '
            f'data-chip="{wire.chip}" data-input="{wire.input}">'),
            f'<circle cx="{x:.3f}" cy="{y:.3f}" r="{radius:.3f}" fill="{fill}" stroke="{stroke}" stroke-width="0.3"{dashes}/>',
            f'<path d="M{x - 2:.3f},{y:.3f}h4M{x:.3f},{y - 2:.3f}v4" stroke="#000" stroke-width="0.15"/>',
            f'<text x="{x:.2f}" y="{y - radius - 1:.2f}" font-size="2.8" text-anchor="middle">{hole}</text>',
            (f'<text x="{x:.2f}" y="{y + radius + 2.4:.2f}" font-size="2" text-anchor="middle">'
            f"{wire.label} pin {wire.pin} · px {pixel}</text>"),
        ]
        _, _, number = parse_hole(hole)
        if kind == "track" and number in RINGS:
            parts.insert(2, f'<circle class="{RINGS[number]}" cx="{x:.3f}" cy="{y:.3f}" r="{radius + 1.2:.3f}" '
                         'fill="none" stroke="#000" stroke-width="0.3"/>')  # fmt: skip
        parts.append("</g>")
        return "".join(parts)

    def _legend(self) -> str:
        """The legend and the scale bar, in the empty middle of the board (the edges stay narrow)."""
        sensors, pixels = self._order("channel"), self._order("pixel")
        last = chain_input(self.layout.channel(sensors[-1]))
        lines = [
            f"Pegs and Jokers: {self.layout.sides} sides, {len(self.places)} holes,",
            f"holes {self.hole:g} mm, track pitch {self.pitch:g} mm. Print at 100 % (actual size)",
            "and measure the bar below before you drill.",
            "",
            "Under each hole: its sensor's 74HC165 input and pin (U1 = the chip",
            "next to the Pico), then its pixel. Double ring: corner, in-spot, come-out.",
            "Blue: home. Green, dashed: start. Orange dots: colour marker.",
            "",
            "Red line: the sensor chain. U1's QH (pin 9) goes to the Pico's GP4;",
            f"U1's input H is {sensors[0]}. The last chip, U{last.chip}, ends at {sensors[-1]}:",
            "tie its SER (pin 10) to GND.",
            "Green dashes: the LED chain. DIN from the Pi's GPIO10 through",
            f"the 74AHCT125 enters at {pixels[0]}.",
        ]
        cx = sum(x for x, _ in self.outline) / len(self.outline)
        cy = sum(y for _, y in self.outline) / len(self.outline)
        top = cy - 4.2 * len(lines) / 2 - 8
        text = "\n".join(
            f'<text x="{cx:.2f}" y="{top + 4.2 * i:.2f}" font-size="3" text-anchor="middle">{escape(line)}</text>'
            for i, line in enumerate(lines) if line
        )
        x, y = cx - SCALE_BAR / 2, top + 4.2 * len(lines) + 10
        ticks = "".join(f"M{x + i * 10:.2f},{y:.2f}v-{3 if i % 5 else 5}" for i in range(11))
        return (f'{text}\n<path class="scale-bar" d="M{x:.2f},{y:.2f}h{SCALE_BAR:g}{ticks}" stroke="#000" '
                f'stroke-width="0.3" fill="none"/><text x="{cx:.2f}" y="{y + 5:.2f}" font-size="3" '
                f'text-anchor="middle">{SCALE_BAR:g} mm</text>')  # fmt: skip


def _grid(width: float, height: float, paper: Paper) -> tuple[int, int]:
    """Columns and rows of ``paper`` that cover ``width`` x ``height`` mm, OVERLAP mm shared."""
    steps = (paper.width - 2 * paper.margin - OVERLAP, paper.height - 2 * paper.margin - OVERLAP)
    return (max(1, math.ceil((width - OVERLAP) / steps[0])), max(1, math.ceil((height - OVERLAP) / steps[1])))


def _svg(width: float, height: float, view_box: str, body: str) -> str:
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.2f}mm" height="{height:.2f}mm" '
        f"viewBox={quoteattr(view_box)} font-family=\"sans-serif\">\n"
        f'<rect x="-10000" y="-10000" width="20000" height="20000" fill="#fff"/>\n{body}\n</svg>\n'
    )
