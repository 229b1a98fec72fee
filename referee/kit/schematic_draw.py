"""Schematic symbols on an A4 sheet in millimetres, in plain SVG.

    sheet = Sheet("Side 0")
    sheet.resistor(20, 30, "10 kΩ")                 # a horizontal resistor from (20, 30)
    sheet.chip(60, 40, "U1", "74HC165", left, right)  # a box with numbered pins
    Path("side-0.svg").write_text(sheet.svg())

Every word is at least MIN_TEXT mm tall, the size that stays readable printed on A4, and
every pin carries ``data-part``/``data-pin`` so that a test reads the sheet the way a
builder does: by the numbers printed beside the pins.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from xml.sax.saxutils import escape, quoteattr

A4 = (297.0, 210.0)  # mm, landscape
MARGIN = 10.0
MIN_TEXT = 2.5  # mm
PIN = 6.0  # mm of wire from a chip's edge to its pin number
Pin = tuple[int, str, str]  # number, name on the chip, what it connects to


@dataclass
class Sheet:
    """One A4 sheet: a title, then whatever the caller draws on it."""

    title: str
    parts: list[str] = field(default_factory=list)

    def text(
        self, x: float, y: float, words: str, size: float = MIN_TEXT, anchor: str = "start", extra: str = ""
    ) -> None:
        if not words:
            return
        if size < MIN_TEXT:
            raise ValueError(f"{size} mm text does not read on A4")
        self.parts.append(
            f'<text x="{x:.2f}" y="{y:.2f}" font-size="{size:g}" text-anchor="{anchor}"{extra}>{escape(words)}</text>'
        )

    def line(self, *points: tuple[float, float], colour: str = "#000") -> None:
        path = " ".join(f"{x:.2f},{y:.2f}" for x, y in points)
        self.parts.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="0.35"/>')

    def dot(self, x: float, y: float) -> None:
        self.parts.append(f'<circle cx="{x:.2f}" cy="{y:.2f}" r="0.7" fill="#000"/>')

    def box(self, x: float, y: float, width: float, height: float, extra: str = "") -> None:
        self.parts.append(
            f'<rect x="{x:.2f}" y="{y:.2f}" width="{width:.2f}" height="{height:.2f}" '
            f'fill="none" stroke="#000" stroke-width="0.35"{extra}/>'
        )

    def resistor(self, x: float, y: float, value: str, length: float = 12.0) -> None:
        """From ``(x, y)`` rightwards: lead, body, lead; the value above."""
        self.line((x, y), (x + length / 2 - 3, y))
        self.box(x + length / 2 - 3, y - 1.1, 6, 2.2)
        self.line((x + length / 2 + 3, y), (x + length, y))
        self.text(x + length / 2, y - 1.8, value, anchor="middle")

    def resistor_up(self, x: float, y: float, value: str, to: str) -> None:
        """From ``(x, y)`` up 6 mm to a rail named ``to`` (a pull-up); the value on the left."""
        self.line((x, y), (x, y - 1.2))
        self.box(x - 0.9, y - 5.0, 1.8, 3.8)
        self.line((x, y - 5.0), (x, y - 6.0))
        self.line((x - 1.5, y - 6.0), (x + 1.5, y - 6.0))
        self.text(x - 1.6, y - 2.0, value, anchor="end")
        self.text(x + 2.0, y - 4.3, to)

    def capacitor_down(self, x: float, y: float, value: str) -> None:
        """From ``(x, y)`` down to a ground symbol; the value on the right."""
        self.line((x, y), (x, y + 2.0))
        self.line((x - 2, y + 2.0), (x + 2, y + 2.0))
        self.line((x - 2, y + 2.9), (x + 2, y + 2.9))
        self.line((x, y + 2.9), (x, y + 4.5))
        self.ground(x, y + 4.5)
        self.text(x + 2.6, y + 4.2, value)

    def ground(self, x: float, y: float) -> None:
        self.line((x - 2, y), (x + 2, y))
        self.line((x - 1.2, y + 0.8), (x + 1.2, y + 0.8))
        self.line((x - 0.4, y + 1.6), (x + 0.4, y + 1.6))

    def fuse(self, x: float, y: float, name: str, length: float = 12.0) -> None:
        self.line((x, y), (x + length / 2 - 3, y))
        self.box(x + length / 2 - 3, y - 1.1, 6, 2.2)
        self.line((x + length / 2 - 3, y), (x + length / 2 + 3, y))
        self.line((x + length / 2 + 3, y), (x + length, y))
        self.text(x + length / 2, y - 1.8, name, anchor="middle")

    def button(self, x: float, y: float, name: str) -> None:
        """A push button from ``(x, y)`` rightwards, 10 mm: two contacts and the plunger over them."""
        self.line((x, y), (x + 3, y))
        self.parts.append(
            f'<circle cx="{x + 3.6:.2f}" cy="{y:.2f}" r="0.6" fill="none" stroke="#000" stroke-width="0.3"/>'
            f'<circle cx="{x + 6.4:.2f}" cy="{y:.2f}" r="0.6" fill="none" stroke="#000" stroke-width="0.3"/>'
        )
        self.line((x + 2.6, y - 2.0), (x + 7.4, y - 2.0))
        self.line((x + 5, y - 2.0), (x + 5, y - 3.5))
        self.line((x + 7, y), (x + 10, y))
        self.text(x + 5, y - 4.2, name, anchor="middle")

    def npn(self, x: float, y: float, name: str) -> tuple[tuple[float, float], tuple[float, float]]:
        """An NPN transistor with its base wire ending at ``(x, y)``; returns its collector and
        emitter ends (up and down)."""
        self.parts.append(
            f'<circle cx="{x + 4:.2f}" cy="{y:.2f}" r="4.5" fill="none" stroke="#000" stroke-width="0.35"/>'
        )
        self.line((x + 2.5, y - 2.5), (x + 2.5, y + 2.5))
        self.line((x + 2.5, y - 1.0), (x + 5.5, y - 3.5), (x + 5.5, y - 6.0))
        self.line((x + 2.5, y + 1.0), (x + 5.5, y + 3.5), (x + 5.5, y + 6.0))
        self.parts.append(
            f'<path d="M{x + 5.3:.2f},{y + 3.3:.2f}l-1.6,-0.1l0.8,-1.2z" fill="#000"/>'
        )  # the emitter's arrow
        self.text(x + 9.5, y + 0.9, name)
        self.text(x + 6.5, y - 4.5, "C")
        self.text(x + 6.5, y + 6.2, "E")
        self.text(x - 0.5, y - 1.2, "B", anchor="end")
        return (x + 5.5, y - 6.0), (x + 5.5, y + 6.0)

    def diode_up(self, x: float, y: float, name: str) -> None:
        """A diode from ``(x, y)`` (anode) up 8 mm to its cathode; ``name`` on the right."""
        self.line((x, y), (x, y - 2.5))
        self.parts.append(
            f'<path d="M{x - 1.6:.2f},{y - 2.5:.2f}h3.2l-1.6,-2.6z" fill="none" stroke="#000" stroke-width="0.35"/>'
        )
        self.line((x - 1.6, y - 5.1), (x + 1.6, y - 5.1))
        self.line((x, y - 5.1), (x, y - 8.0))
        self.text(x + 2.2, y - 3.2, name)

    def chip(
        self, x: float, y: float, name: str, kind: str, left: list[Pin], right: list[Pin], pitch: float = 7.5
    ) -> float:
        """A chip's box at ``(x, y)`` (its top left), pins ``pitch`` mm apart down each side, each
        with its number, its name inside, and what it connects to outside. Returns the box's width."""
        width, rows = 34.0, max(len(left), len(right))
        height = pitch * rows + 2.0
        self.box(x, y, width, height)
        self.text(x + width / 2, y - 1.2, f"{name} {kind}", size=3.0, anchor="middle", extra=' font-weight="bold"')
        for side, pins in ((-1, left), (1, right)):
            for i, (number, pin_name, net) in enumerate(pins):
                self._pin(
                    x if side < 0 else x + width, y + 1.0 + pitch * (i + 0.5), side, name, (number, pin_name, net)
                )
        return width

    def _pin(self, edge: float, y: float, side: int, part: str, pin: Pin) -> None:
        number, pin_name, net = pin
        outer = edge + side * PIN
        self.parts.append(
            f'<g class="pin" data-part={quoteattr(part)} data-pin="{number}" data-name={quoteattr(pin_name)} '
            f"data-net={quoteattr(net)}>"
        )
        self.line((edge, y), (outer, y))
        self.text(edge + side * PIN / 2, y - 0.8, str(number), anchor="middle")
        self.text(edge - side * 1.2, y + 0.9, pin_name, anchor="start" if side < 0 else "end")
        if net:
            self.text(outer + side * 1.0, y + 0.9, net, anchor="end" if side < 0 else "start")
        self.parts.append("</g>")

    def svg(self, footer: str = "") -> str:
        """The sheet: A4 landscape in mm, the title at the top, ``footer`` at the bottom."""
        width, height = A4
        self.text(MARGIN, MARGIN + 4, self.title, size=4.5, extra=' font-weight="bold"')
        if footer:
            self.text(MARGIN, height - MARGIN - 1, footer)
        body = "\n".join(self.parts)
        return (
            '<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}mm" height="{height:g}mm" '
            f'viewBox="0 0 {width:g} {height:g}" font-family="sans-serif">\n'
            f'<rect x="0" y="0" width="{width:g}" height="{height:g}" fill="#fff"/>\n{body}\n</svg>\n'
        )
