"""How a sensor sits under its hole: the numbers the guide, the section drawing and the carrier share.

    pocket_depth()                 # 5.5: mm to drill from below with the 10 mm bit
    Path("sensor-mount.svg").write_text(section_svg())

A hall switch answers to the field through its branded face, so it lies FLAT in a pocket
under the peg hole, branded face up towards the magnet: pushed in upright (leads down, the way
a TO-92 goes into a hole) its face looks sideways, the magnet's field runs along the face
instead of through it, and the switch barely sees the peg. One 10 mm Forstner bit makes the
peg hole from the top and the pocket from below; a 2 mm pilot drilled right through at each
drill cross first tells where the pocket goes. The printed carrier (``carrier.py``) holds the
sensor flat and face up, and its flange stops it at the pocket's depth.
"""

from __future__ import annotations

from dataclasses import dataclass
from xml.sax.saxutils import escape

BOARD = 18.0  # mm: the plank (plywood or MDF)
HOLE = 10.0  # mm: the peg hole, as `pegs template --hole` draws it by default
PEG_DEPTH = 10.0  # mm: the peg hole's depth from the top, flat-bottomed (Forstner bit)
COVER = 2.5  # mm of wood between the peg's magnet and the sensor's face (the guide: 2 to 3)
POCKET = 10.0  # mm: the sensor's pocket from below, the same bit
PILOT = 2.0  # mm: the pilot drilled right through at each drill cross, from the top

# The printed carrier (carrier.py): a square body that fits the round pocket, on a flange that
# stops it at the pocket's depth, with a recess for the sensor on top and a notch for its leads.
SIDE = 7.0  # mm: the body's side; its diagonal (9.9) just fits the 10 mm pocket, so it sits centred
FLANGE = 12.0  # mm: the flange's side, on the board's underside (clear of the 5 mm pixel hole)
FLANGE_THICK = 1.2  # mm
RECESS = (4.3, 3.4, 1.7)  # mm: the sensor's bed, across the leads x lead edge to top x deep
NOTCH = 3.6  # mm: the leads' notch, as wide as three leads at 1.27 mm pitch with room


def pocket_depth() -> float:
    """How deep to drill the pocket from below: what is left of the board under the peg hole
    once the cover stays."""
    return BOARD - PEG_DEPTH - COVER


@dataclass(frozen=True)
class Sensor:
    """A hall switch as it lies in the carrier: body across the leads, lead edge to top, and
    branded face to back (mm); its pins 1, 2, 3 seen from the branded face, leads down."""

    name: str
    body: tuple[float, float, float]
    pins: tuple[str, str, str]
    source: str


SENSORS = (
    Sensor(
        "A3144 (UA package)",
        (4.0, 3.0, 1.5),
        ("VCC", "GND", "OUT"),
        "Allegro A3141-A3144 datasheet: 1 supply, 2 ground, 3 output, 'pinning is shown viewed "
        "from branded side'; UA is the 3-lead ultra-mini SIP, about 4 x 3 x 1.5 mm",
    ),
    Sensor(
        "DRV5032 (TO-92, LPG package)",
        (4.0, 3.15, 1.6),
        ("VCC", "GND", "OUT"),
        "TI's TO-92 (LPG) hall sensors: VCC 1, GND 2, OUT 3 (DRV5055 pin table), body 4.00 x 3.15 mm "
        "(DRV5053); the DRV5032 datasheet offers SOT-23, X2SON and TO-92",
    ),
)


def section_svg() -> str:
    """One hole in section at 5:1 on A4 landscape, with both sensors' pinouts and the wrong way."""
    drawing = _Drawing()
    drawing.section(40.0, 40.0)
    drawing.pinouts(215.0, 44.0)
    drawing.wrong_way(200.0, 160.0)
    return drawing.svg()


SCALE = 5.0  # the section is drawn 5:1
WOOD = "#e8d2a8"


class _Drawing:
    """The section sheet's SVG elements, in drawing millimetres."""

    def __init__(self) -> None:
        self.parts: list[str] = []

    def rect(self, x: float, y: float, w: float, h: float, cls: str, fill: str = "none") -> None:
        self.parts.append(
            f'<rect class="{cls}" x="{x:.2f}" y="{y:.2f}" width="{w:.2f}" height="{h:.2f}" '
            f'fill="{fill}" stroke="#000" stroke-width="0.3"/>'
        )

    def line(self, *points: tuple[float, float], dashed: bool = False) -> None:
        path = " ".join(f"{x:.2f},{y:.2f}" for x, y in points)
        dash = ' stroke-dasharray="1.5,1"' if dashed else ""
        self.parts.append(f'<polyline points="{path}" fill="none" stroke="#000" stroke-width="0.3"{dash}/>')

    def text(self, x: float, y: float, words: str, size: float = 2.8, anchor: str = "start") -> None:
        self.parts.append(
            f'<text x="{x:.2f}" y="{y:.2f}" font-size="{size:g}" text-anchor="{anchor}">{escape(words)}</text>'
        )

    def dimension(self, x: float, top: float, bottom: float, label: str) -> None:
        """A vertical dimension at ``x`` from ``top`` to ``bottom`` (drawing mm), its label on the right."""
        self.line((x - 1.5, top), (x + 1.5, top))
        self.line((x - 1.5, bottom), (x + 1.5, bottom))
        self.line((x, top), (x, bottom))
        self.text(x + 2.5, (top + bottom) / 2 + 1.0, label)

    def section(self, left: float, top: float) -> None:
        """The board, the peg with its magnet, the cover, the pocket, the carrier and the sensor."""
        width = 22.0 * SCALE
        centre = left + width / 2
        self.text(left, top - 16, "One hole in section, 5:1 (mm)", size=4.5)
        self.text(left, top - 9, "Sensor FLAT, branded face UP, under the peg's magnet")
        wood_h = BOARD * SCALE
        self.rect(left, top, width, wood_h, "board", WOOD)
        peg = HOLE * SCALE
        self.rect(centre - peg / 2, top, peg, PEG_DEPTH * SCALE, "peg-hole", "#fff")
        magnet_w, magnet_h = 6.0 * SCALE, 3.0 * SCALE
        magnet_y = top + PEG_DEPTH * SCALE - magnet_h
        self.rect(centre - magnet_w / 2, magnet_y, magnet_w, magnet_h, "magnet", "#9ab")
        self.text(centre, magnet_y + magnet_h / 2 + 1.0, "magnet, S down", anchor="middle")
        self.rect(centre - 9.0 * SCALE / 2, top - 8, 9.0 * SCALE, magnet_y - top + 8, "peg", "none")
        self.text(centre, top - 2, "peg", anchor="middle")
        pocket_top = top + (PEG_DEPTH + COVER) * SCALE
        pocket_w = POCKET * SCALE
        self.rect(centre - pocket_w / 2, pocket_top, pocket_w, pocket_depth() * SCALE, "pocket", "#fff")
        self._carrier(centre, pocket_top)
        self.line((centre, top + PEG_DEPTH * SCALE), (centre, pocket_top), dashed=True)  # the pilot's trace
        bottom = top + wood_h
        right = left + width + 4
        self.dimension(right, top, top + PEG_DEPTH * SCALE, f"peg hole {PEG_DEPTH:g} deep, {HOLE:g} mm bit")
        self.dimension(right, top + PEG_DEPTH * SCALE, pocket_top, f"{COVER:g} wood (2 to 3)")
        self.dimension(right, pocket_top, bottom, f"pocket {pocket_depth():g} deep, {POCKET:g} mm bit")
        self.dimension(left - 6, top, bottom, "")
        self.text(left - 7, top + wood_h / 2, f"{BOARD:g}", anchor="end")
        self.text(left, bottom + 26, f"Board {BOARD:g} mm. Drill a {PILOT:g} mm pilot right through at every drill")
        self.text(left, bottom + 30, "cross first (square to the board): its exit below is the pocket's centre.")
        self.text(left, bottom + 36, "The leads bend down the carrier's notch and out under the board.")

    def _carrier(self, centre: float, pocket_top: float) -> None:
        body_h = pocket_depth() * SCALE
        side = SIDE * SCALE
        self.rect(centre - side / 2, pocket_top, side, body_h, "carrier", "#cde")
        flange = FLANGE * SCALE
        self.rect(centre - flange / 2, pocket_top + body_h, flange, FLANGE_THICK * SCALE, "flange", "#cde")
        sensor_w, _, sensor_t = SENSORS[0].body
        self.rect(centre - sensor_w * SCALE / 2, pocket_top, sensor_w * SCALE, sensor_t * SCALE, "sensor", "#333")
        recess_t = RECESS[2] * SCALE
        self.text(centre + side / 2 + 2, pocket_top + 3, "branded face UP")
        self.text(centre - flange / 2, pocket_top + body_h + FLANGE_THICK * SCALE + 5, "printed carrier")
        lead_x = centre + sensor_w * SCALE / 2 - 2
        self.line((lead_x, pocket_top + recess_t), (lead_x, pocket_top + body_h + FLANGE_THICK * SCALE + 10))

    def pinouts(self, left: float, top: float) -> None:
        """Each sensor seen from its branded face, leads down, pins numbered."""
        self.text(left, top - 18, "Pinouts, seen from the branded", size=3.2)
        self.text(left, top - 13, "face (lettering), leads down", size=3.2)
        for i, sensor in enumerate(SENSORS):
            y = top + i * 56
            self.text(left, y - 4, sensor.name)
            width, height, _ = sensor.body
            w, h = width * 6, height * 6
            self.rect(left + 10, y, w, h, "package", "#333")
            for pin, name in enumerate(sensor.pins, start=1):
                x = left + 10 + w / 2 + (pin - 2) * 1.27 * 6
                self.line((x, y + h), (x, y + h + 16))
                self.text(x, y + h + 20, str(pin), anchor="middle")
                self.text(x, y + h + 24, name, anchor="middle")

    def wrong_way(self, left: float, top: float) -> None:
        self.text(left, top, "NOT upright: its face then looks sideways,", size=2.8)
        self.text(left, top + 4, "the field runs along it and it barely switches;", size=2.8)
        self.text(left, top + 8, "nor face down: an A3144 then sees a north pole.", size=2.8)
        self.text(left, top + 14, "Every sensor face up, every magnet south down.", size=2.8)

    def svg(self) -> str:
        body = "\n".join(self.parts)
        return (
            '<?xml version="1.0" encoding="UTF-8"?>\n'
            '<svg xmlns="http://www.w3.org/2000/svg" width="297mm" height="210mm" viewBox="0 0 297 210" '
            f'font-family="sans-serif" data-board="{BOARD:g}" data-peg-depth="{PEG_DEPTH:g}" '
            f'data-cover="{COVER:g}" data-pocket="{POCKET:g}" data-pocket-depth="{pocket_depth():g}" '
            f'data-scale="{SCALE:g}">\n'
            f'<rect x="0" y="0" width="297" height="210" fill="#fff"/>\n{body}\n</svg>\n'
        )
