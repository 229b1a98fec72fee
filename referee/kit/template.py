"""``pegs template``: a 1:1 drilling and wiring template for a home-made board.

    drawing = Template(default_layout(4), pitch=25.0, hole=10.0)
    Path("board.svg").write_text(drawing.svg())             # the whole board, sizes in mm
    for name, text in drawing.sheets(PAPERS["a4"]): ...     # the same, cut into printable pages

Hole places come from ``referee.geometry`` (the board the page draws), scaled so that
neighbouring track holes are ``pitch`` mm apart. Each hole is drawn at its place with a
drill cross, its name, and its wiring from the layout the daemon uses: the sensor channel
with its 74HC165 input (``hardware.chain``) and the pixel number. The sensor chain and the
LED chain are drawn as lines in wiring order, so a builder who drills and wires as drawn
gets a board that ``pegs calibrate`` has nothing to fix.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator
from functools import cached_property
from xml.sax.saxutils import escape

import referee.geometry as page
from hardware.chain import chain_input
from hardware.layout import Layout, parse_hole
from hardware.wiring import side_chips
from referee.holes import COME_OUT, IN_SPOT
from referee.kit.clearance import Box, Circle, circle_meets_box, free_spot, route, text_box
from referee.kit.template_index import SheetGrid, registration_ticks, sheet_index
from referee.kit.template_labels import Label, place_labels, place_tag
from referee.kit.template_paper import OVERLAP, PAPERS, SCALE_BAR, Paper, grid, scale_bar, steps, svg_document

__all__ = ["PAPERS", "Paper", "Template", "hole_kind"]  # PAPERS and Paper: what `pegs template --paper` offers
Point = tuple[float, float]
EDGE = 1.0  # the board's edge lies this many pitches outside the track
LED = 5.0  # mm, the pixel hole's mark (a through-hole WS2812B's 5 mm hole)
LED_GAP = 7.0  # mm from the peg hole's edge to the pixel hole's centre: 4.5 mm of wood between them
LEGEND_BAR = 14.0  # mm from the legend's last line to the scale bar under it


# How each kind of hole is drawn: stroke colour, dash pattern, fill (it prints in grey too).
KINDS = {
    "track": ("#000", "", "none"),
    "home": ("#1f4fbf", "", "#dde6fa"),
    "start": ("#2a7a2a", "2 1", "#e3f3e3"),
    "marker": ("#b36b00", "0.6 0.8", "none"),
}
RINGS = {0: "corner", IN_SPOT: "in-spot", COME_OUT: "come-out"}  # track holes drawn with a second ring
HALO = ' stroke="#fff" stroke-width="0.6" paint-order="stroke"'  # a chain line under a label stays readable


def hole_kind(hole: str) -> str:
    kind, _, _ = parse_hole(hole)
    return {"T": "track", "H": "home", "S": "start", "C": "marker"}[kind]


class Template:
    """A board's holes in millimetres, with the layout's wiring, ready to print."""

    def __init__(self, layout: Layout, pitch: float = 25.0, hole: float = 10.0) -> None:
        if not 3.0 <= hole <= 40.0:
            raise ValueError(f"a hole of {hole:g} mm: give --hole from 3 to 40 mm")
        if pitch < hole + 4.0:
            raise ValueError(
                f"holes {hole:g} mm wide, {pitch:g} mm apart leave under 4 mm of wood: "
                f"give --pitch {hole + 4.0:g} or more"
            )
        self.layout, self.pitch, self.hole = layout, pitch, hole
        if (
            min(math.dist(led, place) for led in self.leds.values() for place in self.places.values())
            < hole / 2 + LED / 2
        ):
            raise ValueError(
                f"{LED:g} mm pixel holes do not fit beside {hole:g} mm holes {pitch:g} mm apart: give a larger --pitch"
            )

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
        return svg_document(width, height, f"0 0 {width:.2f} {height:.2f}", self._drawing())

    def sheet_grid(self, paper: Paper) -> SheetGrid:
        """The sheets that cover the board, portrait or landscape (whichever takes fewer), and which
        of them hold a hole or a pixel's mark (the others are the board's empty middle or corners)."""
        width, height = self.size
        paper = min(
            (paper, Paper(paper.name, paper.height, paper.width, paper.margin)),
            key=lambda sheet: math.prod(grid(width, height, sheet)),
        )
        marks = [*self.places.values(), *self.leds.values()]
        return SheetGrid.of(paper, grid(width, height, paper), marks)

    def sheets(self, paper: Paper) -> Iterator[tuple[str, str]]:
        """``(name, svg)`` per printable page that holds a hole: ``sheet-R-C`` (row 1 at the top),
        overlapping by OVERLAP mm so that the crosses of the shared holes line the pages up (``index``
        draws the map of them all, the empty ones grey)."""
        sheets = self.sheet_grid(paper)
        paper, printable = sheets.paper, sheets.printable
        body = self._drawing(with_bar=False)
        for row, column in sheets.used:
            x, y = sheets.origin(row, column)
            label = (
                f"sheet {row + 1}-{column + 1}: row {row + 1}, column {column + 1} of {sheets.rows} x "
                f"{sheets.columns} ({paper.name}, print at 100 %): overlap the next sheet by {OVERLAP:g} mm, "
                "crosses on crosses"
            )
            frame = (
                f'<rect x="{x:.2f}" y="{y:.2f}" width="{printable[0]:.2f}" height="{printable[1]:.2f}" '
                'fill="none" stroke="#999" stroke-width="0.2" stroke-dasharray="3 2"/>'
                f'<text x="{x + 2:.2f}" y="{y + printable[1] - 2:.2f}" font-size="3">{escape(label)}</text>'
            )
            box = f"{x - paper.margin:.2f} {y - paper.margin:.2f} {paper.width:.2f} {paper.height:.2f}"
            clip = (
                f'<clipPath id="printable"><rect x="{x:.2f}" y="{y:.2f}" width="{printable[0]:.2f}" '
                f'height="{printable[1]:.2f}"/></clipPath><g clip-path="url(#printable)">{body}</g>'
            )
            bar = self._sheet_bar((x, y, x + printable[0], y + printable[1] - 6.0))
            ticks = registration_ticks(x, y, printable)
            name = f"sheet-{row + 1}-{column + 1}"
            yield name, svg_document(paper.width, paper.height, box, clip + frame + ticks + bar)

    def index(self, paper: Paper) -> str:
        """The map of the sheets: every one by name over the board's edge, the empty ones grey."""
        return sheet_index(self.sheet_grid(paper), self.outline, self.size, len(self.places))

    def _sheet_bar(self, printable: Box) -> str:
        """A scale bar inside the sheet's printable part, off the holes and labels where it fits
        (nearest the sheet's foot first); else at the foot over whatever is there."""
        size = (SCALE_BAR + 2.0, 11.0)  # the ticks rise 5 mm above the line, the words hang 5 mm below it
        left, top, right, bottom = printable
        near = [
            (x, y) for y in steps(bottom - size[1], top + 1.0, -4.0) for x in steps(left + 1.0, right - size[0], 8.0)
        ]
        legend = [text_box(x, y, 3.0, line) for x, y, line in self.legend]
        tags = [box for _, _, box in self.chain_ends]
        inside = [
            box
            for box in [*self.text_boxes, *legend, *tags]
            if box[2] > left and box[0] < right and box[3] > top and box[1] < bottom
        ]
        circles = [c for c in self.circles if circle_meets_box(c, printable)]
        x, y = free_spot(size, near, inside, circles, printable) or near[0]
        return scale_bar(x + 1.0, y + 6.0, "sheet-scale-bar")

    def _drawing(self, with_bar: bool = True) -> str:
        parts = [self._edge(), self._chain("pixel", "#2a9d2a", "4 2"), self._chain("channel", "#c0392b", "")]
        parts += [self._hole(hole, place) for hole, place in self.places.items()]
        parts += [self._chain_ends(), self._side_starts(), self._legend(with_bar)]
        return "\n".join(parts)

    def _edge(self) -> str:
        points = " ".join(f"{x:.2f},{y:.2f}" for x, y in self.outline)
        return f'<polygon class="edge" points="{points}" fill="none" stroke="#000" stroke-width="0.4"/>'

    def _order(self, by: str) -> list[str]:
        wires = sorted(self.layout.wires, key=lambda wire: getattr(wire, by))
        return [wire.hole for wire in wires if wire.hole in self.places]

    # -- the pixel holes and the labels ------------------------------------------------------

    @cached_property
    def leds(self) -> dict[str, Point]:
        """Each pixel hole's centre: LED_GAP mm outside its peg hole's edge, diagonally towards the
        board's edge and back against the way pegs travel, the same on every side. (Track holes'
        chains run along the side and home rows' across it: a diagonal clears both.)"""
        board = page.geometry(self.layout.sides)
        distance = self.hole / 2 + LED_GAP
        found = {}
        for hole, (x, y) in self.places.items():
            _, side, _ = parse_hole(hole)
            (ax, ay), (nx, ny) = board.along(side), board.inward(side)
            dx, dy = -ax - nx, -ay - ny
            norm = math.hypot(dx, dy)
            found[hole] = (round(x + distance * dx / norm, 3), round(y + distance * dy / norm, 3))
        return found

    def labels(self, hole: str) -> list[Label]:
        """``(x, baseline, size, text, anchor)`` of a hole's name and its sensor input."""
        return self.label_places[hole]

    @cached_property
    def label_places(self) -> dict[str, list[Label]]:
        """Each hole's two labels, off every chain line, pixel mark, hole and other label."""
        lines = [segment for points in self.chains.values() for segment in itertools.pairwise(points)]
        inputs = {hole: chain_input(self.layout.channel(hole)) for hole in self.places}
        words = {hole: f"{wire.label} pin {wire.pin}" for hole, wire in inputs.items()}
        return place_labels(self.places, self.leds, words, self.hole / 2 + 1.5, lines, self.circles)

    @cached_property
    def text_boxes(self) -> list[Box]:
        """Every hole label's box, for keeping other marks off them."""
        return [text_box(*label) for hole in self.places for label in self.labels(hole)]

    @cached_property
    def circles(self) -> list[Circle]:
        """Every peg hole (with its ring) and every pixel hole."""
        return [(place, self.hole / 2 + 1.5) for place in self.places.values()] + [
            (place, LED / 2) for place in self.leds.values()
        ]

    @cached_property
    def chains(self) -> dict[str, list[Point]]:
        """Each chain's line in wiring order, shifted a little so that the two stay apart, and bent
        round every pixel hole so that no line runs over a mark the builder drills."""
        avoid = [(place, LED / 2 + 0.8) for place in self.leds.values()]
        found = {}
        for by, shift in (("pixel", 1.2), ("channel", -1.2)):
            found[by] = route([(x + shift, y + shift) for x, y in (self.places[h] for h in self._order(by))], avoid)
        return found

    def _chain(self, by: str, colour: str, dash: str) -> str:
        points = " ".join(f"{x:.2f},{y:.2f}" for x, y in self.chains[by])
        dashes = f' stroke-dasharray="{dash}"' if dash else ""
        return (
            f'<polyline class="{by}-chain" points="{points}" fill="none" stroke="{colour}" stroke-width="0.5"{dashes}/>'
        )

    @cached_property
    def chain_ends(self) -> list[tuple[str, str, Box]]:
        """``(hole, words, box)`` of the tags that say where the chains start and end: each in the
        first free place near its hole, off every label, hole and pixel mark."""
        sensors, pixels = self._order("channel"), self._order("pixel")
        ends = [(sensors[0], "sensors start"), (sensors[-1], "sensors end"), (pixels[0], "pixels start")]
        width, height = self.size
        taken: list[Box] = list(self.text_boxes)
        found = []
        for hole, words in ends:
            box = place_tag(
                self.places[hole], words, self.hole / 2, taken, self.circles, (1.0, 1.0, width - 1.0, height - 1.0)
            )
            taken.append(box)
            found.append((hole, words, box))
        return found

    def _chain_ends(self) -> str:
        """The tags, each with a leader to the rim of its hole."""
        parts = []
        for hole, words, (left, top, right, bottom) in self.chain_ends:
            colour = "#2a9d2a" if words.startswith("pixels") else "#c0392b"
            (x, y), (cx, cy) = self.places[hole], ((left + right) / 2, (top + bottom) / 2)
            reach = self.hole / 2 + 0.5
            angle = math.atan2(cy - y, cx - x)
            parts.append(
                f'<g class="chain-end" data-end="{hole}"><path d="M{x + reach * math.cos(angle):.2f},'
                f'{y + reach * math.sin(angle):.2f}L{cx:.2f},{cy:.2f}" stroke="{colour}" stroke-width="0.5"/>'
                f'<rect x="{left:.2f}" y="{top:.2f}" width="{right - left:.2f}" height="{bottom - top:.2f}" rx="1" '
                f'fill="#fff" stroke="{colour}" stroke-width="0.5"/><text x="{cx:.2f}" y="{bottom - 1.3:.2f}" '
                f'font-size="2.5" text-anchor="middle" fill="{colour}">{words}</text></g>'
            )
        return "\n".join(parts)

    @cached_property
    def side_starts(self) -> list[tuple[str, str, Box]]:
        """``(hole, words, box)`` of the tags where each side's module starts (after side 0's, which
        starts at the chain's start): its first chip's first hole, and its chips, as the schematic's
        side sheets group them. A module is wired and bench-tested on its own (``pegs watch --side``)."""
        width, height = self.size
        taken = [*self.text_boxes, *(box for _, _, box in self.chain_ends)]
        found = []
        for side, chips in side_chips(self.layout).items():
            first = (
                next(
                    (
                        hole
                        for c in range((chips[0] - 1) * 8, chips[-1] * 8)
                        if (hole := self.layout.holes_by_channel.get(c)) in self.places
                    ),
                    None,
                )
                if side and chips
                else None
            )
            if first is None:
                continue
            words = f"side {side}: U{chips[0]} to U{chips[-1]}"
            box = place_tag(
                self.places[first], words, self.hole / 2, taken, self.circles, (1.0, 1.0, width - 1.0, height - 1.0)
            )
            taken.append(box)
            found.append((first, words, box))
        return found

    def _side_starts(self) -> str:
        return "\n".join(
            self._tag(hole, words, box, "#7d3c98", "side-start", f' data-side="{words.split()[1][:-1]}"')
            for hole, words, box in self.side_starts
        )

    def _tag(self, hole: str, words: str, box: Box, colour: str, kind: str, extra: str = "") -> str:
        """A tag at ``box`` with a leader to the rim of ``hole``."""
        left, top, right, bottom = box
        (x, y), (cx, cy) = self.places[hole], ((left + right) / 2, (top + bottom) / 2)
        reach = self.hole / 2 + 0.5
        angle = math.atan2(cy - y, cx - x)
        return (
            f'<g class="{kind}" data-end="{hole}"{extra}><path d="M{x + reach * math.cos(angle):.2f},'
            f'{y + reach * math.sin(angle):.2f}L{cx:.2f},{cy:.2f}" stroke="{colour}" stroke-width="0.5"/>'
            f'<rect x="{left:.2f}" y="{top:.2f}" width="{right - left:.2f}" height="{bottom - top:.2f}" rx="1" '
            f'fill="#fff" stroke="{colour}" stroke-width="0.5"/><text x="{cx:.2f}" y="{bottom - 1.3:.2f}" '
            f'font-size="2.5" text-anchor="middle" fill="{colour}">{words}</text></g>'
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
            (
                f'<g class="hole {kind}" data-hole="{hole}" data-channel="{channel}" data-pixel="{pixel}" '
                f'data-chip="{wire.chip}" data-input="{wire.input}">'
            ),
            f'<circle cx="{x:.3f}" cy="{y:.3f}" r="{radius:.3f}" fill="{fill}" stroke="{stroke}" stroke-width="0.3"{dashes}/>',
            f'<path d="M{x - 2:.3f},{y:.3f}h4M{x:.3f},{y - 2:.3f}v4" stroke="#000" stroke-width="0.15"/>',
        ]
        parts += [
            f'<text x="{tx:.2f}" y="{ty:.2f}" font-size="{size:g}" text-anchor="{anchor}"{HALO}>{escape(text)}</text>'
            for tx, ty, size, text, anchor in self.labels(hole)
        ]
        _, _, number = parse_hole(hole)
        if kind == "track" and number in RINGS:
            parts.insert(
                2,
                f'<circle class="{RINGS[number]}" cx="{x:.3f}" cy="{y:.3f}" r="{radius + 1.2:.3f}" '
                'fill="none" stroke="#000" stroke-width="0.3"/>',
            )
        lx, ly = self.leds[hole]
        parts.append(
            f'</g><g class="led" data-led="{hole}" data-pixel="{pixel}"><circle cx="{lx:.3f}" cy="{ly:.3f}" '
            f'r="{LED / 2:g}" fill="#fff" stroke="#2a9d2a" stroke-width="0.3"/><text x="{lx:.2f}" '
            f'y="{ly + 0.6:.2f}" font-size="1.7" text-anchor="middle">{pixel}</text></g>'
        )
        return "".join(parts)

    @cached_property
    def legend(self) -> list[tuple[float, float, str]]:
        """``(x, baseline, text)`` of the legend's lines, in the empty middle of the board (the
        edges stay narrow); the scale bar goes LEGEND_BAR mm under the last baseline."""
        sensors, pixels = self._order("channel"), self._order("pixel")
        last = chain_input(self.layout.channel(sensors[-1]))
        lines = [
            f"Pegs and Jokers: {self.layout.sides} sides, {len(self.places)} holes,",
            f"holes {self.hole:g} mm, track pitch {self.pitch:g} mm. Print at 100 % (actual size)",
            "and measure the bar below before you drill.",
            "",
            "By each hole: its name and its sensor's 74HC165 input and pin",
            "(U1 = the chip next to the Pico). Small numbered circle: its pixel's",
            f"{LED:g} mm hole, centre {self.hole / 2 + LED_GAP:g} mm from the peg hole's, always out",
            "towards the edge and back towards the side's first corner (45 degrees).",
            "Double ring: corner, in-spot, come-out.",
            "Blue: home. Green, dashed: start. Orange dots: colour marker.",
            "",
            "Red line: the sensor chain. U1's QH (pin 9) goes to the Pico's GP4;",
            f"U1's input H is {sensors[0]}. The last chip, U{last.chip}, ends at {sensors[-1]}:",
            "tie its SER (pin 10) to GND. Purple tags: where each side's",
            "chips start (a chip goes with the side of its input H's hole).",
            "Green dashes: the LED chain. DIN from the Pi's GPIO10 through",
            f"the 74AHCT125 enters at {pixels[0]}.",
        ]
        cx = sum(x for x, _ in self.outline) / len(self.outline)
        cy = sum(y for _, y in self.outline) / len(self.outline)
        top = cy - 4.2 * len(lines) / 2 - 8
        return [(cx, top + 4.2 * i, line) for i, line in enumerate(lines)]

    def _legend(self, with_bar: bool = True) -> str:
        """The legend, and the whole drawing's scale bar under it. A sheet has its own bar
        (``_sheet_bar``): this one may be cut by the sheet's edge."""
        text = "\n".join(
            f'<text x="{x:.2f}" y="{y:.2f}" font-size="3" text-anchor="middle">{escape(line)}</text>'
            for x, y, line in self.legend
            if line
        )
        if not with_bar:
            return text
        x, y, _ = self.legend[-1]
        return f"{text}\n{scale_bar(x - SCALE_BAR / 2, y + LEGEND_BAR)}"
