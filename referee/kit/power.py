"""The board's 5 V: which supply, ``leds.max_amps``, and the voltage at the far end of every run.

    supply_for(6).number                  # "LRS-50-5"
    max_amps(6)                           # 7.0, what install.sh --players 6 writes
    [side.last_sensor_volts for side in side_runs(default_layout(10))]

One place for the numbers the guide, the parts list, the schematic and ``install.sh`` give:
the supply per board size, the LED current cap, and the voltage drops computed from the run
lengths of the template (the same hole places ``pegs template`` draws). Sources: Allegro's
A3141-A3144 datasheet (27621.6, "supply voltages of 4.5 to 24 volts"; about 4.4 mA each),
Adafruit's NeoPixel Uberguide (60 mA a pixel at full white), IEC 60228 (class 5 flexible
copper, the largest resistance at 20 °C) and the AWG diameter formula of ASTM B258 with
annealed copper's 1.7241e-8 ohm m (IEC 60028).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

from hardware.layout import Layout, parse_hole
from referee.kit.template import Template

SUPPLY_VOLTS = 5.0
PIXEL_AMPS = 0.060  # a WS2812 at full white: 20 mA a colour (Adafruit's NeoPixel Uberguide)
A3144_AMPS = 0.0044  # an A3144's supply current, about 4.4 mA, drawn all the time
A3144_MIN_VOLTS = 4.5  # Allegro A3141-A3144 datasheet: "supply voltages of 4.5 to 24 volts"
SENSOR_MARGIN = 2.0  # the drop check counts each sensor twice: a margin over the typical 4.4 mA
BUDGET = 0.8  # leds.max_amps is about 80 % of the supply, less what the sensors draw
CONTACTS_VOLTS = 0.1  # fuses, holders and joints on a run: an allowance, not a datasheet figure
SLACK = 1.2  # wire: a fifth more than the straight runs (as the parts list counts it)
COPPER = 1.7241e-8  # ohm m, annealed copper at 20 °C (IEC 60028)


def awg_ohms_per_m(gauge: int) -> float:
    """A solid copper wire of this AWG: d = 0.127 mm x 92 ** ((36 - n) / 39) (ASTM B258)."""
    diameter = 0.127e-3 * math.pow(92.0, (36 - gauge) / 39)
    return COPPER / (math.pi * diameter**2 / 4)


# Ohms per metre of one conductor. The mm² sizes are IEC 60228's class 5 (flexible) maxima at 20 °C.
WIRES: dict[str, float] = {
    "28 AWG (one ribbon wire)": awg_ohms_per_m(28),
    "20 AWG": awg_ohms_per_m(20),
    "16 AWG": awg_ohms_per_m(16),
    "0.5 mm²": 0.0390,
    "1.5 mm²": 0.0133,
}
RIBBON = "28 AWG (one ribbon wire)"
INJECTION = "1.5 mm²"  # the supply to each side's first pixel
BUS = "0.5 mm²"  # a side's 5 V and GND from pixel to pixel (up to 1.7 A; its 3 A fuse protects it)


@dataclass(frozen=True)
class Supply:
    maker: str
    number: str
    amps: float


SUPPLIES: dict[int, Supply] = {  # sides -> the LED supply to buy (enclosed, screw terminals, mains in)
    4: Supply("Mean Well", "LRS-35-5", 7.0),
    6: Supply("Mean Well", "LRS-50-5", 10.0),
    8: Supply("Mean Well", "LRS-50-5", 10.0),
    10: Supply("Mean Well", "LRS-75-5", 14.0),
}
HOLES_WITH_MARKERS = 29  # a side's holes, with a colour marker: the most a side's sensors and pixels can be


def supply_for(sides: int) -> Supply:
    return SUPPLIES[sides]


def sensor_amps(sides: int) -> float:
    """Every A3144 of a board of this size (with colour markers), at the typical 4.4 mA."""
    return sides * HOLES_WITH_MARKERS * A3144_AMPS


def max_amps(sides: int) -> float:
    """``leds.max_amps`` for this size: 80 % of its supply less the sensors, down to the half ampere."""
    return math.floor((BUDGET * supply_for(sides).amps - sensor_amps(sides)) * 2) / 2


def players_max_amps() -> dict[int, float]:
    """``install.sh --players N`` -> the max_amps it writes (2 and 4 players share the 4-sided board)."""
    return {players: max_amps(max(players, 4)) for players in (2, 4, 6, 8, 10)}


@dataclass(frozen=True)
class SideRun:
    """One side's power: the injection run from the supply, its pixel bus and its sensors' 5 V."""

    side: int
    injection_m: float  # one wire, supply to the side's first pixel
    bus_m: float  # along the side's pixels
    ribbon_m: float  # along the side's sensors
    amps: float  # the side's pixels at full white and its sensors
    last_pixel_volts: float
    last_sensor_volts: float


def side_runs(layout: Layout, pitch: float = 25.0) -> list[SideRun]:
    """Every side at its worst: all its pixels at full white (the cap allows it on one side), each
    sensor at twice its typical current. The sensors' 5 V is taken at the side's injection point,
    after its fuse, and is counted as one 28 AWG wire through the side's sensors in chain order:
    a bound, since the harness (the guide's section 3a) runs a thicker 24 AWG wire from each
    sensor to its side's chip board, a shorter path."""
    template = Template(layout, pitch=pitch)
    centre = (template.size[0] / 2, template.size[1] / 2)
    runs = []
    for side in range(layout.sides):
        holes = [hole for hole in layout.hole_names if parse_hole(hole)[1] == side]
        by_pixel = sorted(holes, key=layout.pixel)
        by_channel = sorted(holes, key=layout.channel)
        tap = by_pixel[0]
        injection = math.dist(centre, template.places[tap]) / 1000 * SLACK
        pixels, sensors = len(by_pixel), len(by_channel)
        amps = pixels * PIXEL_AMPS + sensors * A3144_AMPS * SENSOR_MARGIN
        at_tap = SUPPLY_VOLTS - 2 * amps * injection * WIRES[INJECTION] - CONTACTS_VOLTS
        bus = _path_m(template, by_pixel)
        ribbon = _path_m(template, by_channel)
        runs.append(
            SideRun(
                side,
                injection,
                sum(bus),
                sum(ribbon),
                amps,
                at_tap - _far_drop(bus, 0, PIXEL_AMPS, WIRES[BUS]),
                at_tap - _far_drop(ribbon, by_channel.index(tap), A3144_AMPS * SENSOR_MARGIN, WIRES[RIBBON]),
            )
        )
    return runs


def one_ribbon_wire_volts(layout: Layout, pitch: float = 25.0) -> float:
    """The design this replaces: every sensor fed along one ribbon wire from the chain's start."""
    template = Template(layout, pitch=pitch)
    order = sorted(layout.hole_names, key=layout.channel)
    return SUPPLY_VOLTS - _far_drop(_path_m(template, order), 0, A3144_AMPS, WIRES[RIBBON])


def _path_m(template: Template, holes: list[str]) -> list[float]:
    """The lengths between neighbours along a run, in metres with slack."""
    return [math.dist(template.places[a], template.places[b]) / 1000 * SLACK for a, b in itertools.pairwise(holes)]


def _far_drop(steps: list[float], feed: int, load_amps: float, ohms_per_m: float) -> float:
    """The worst drop along a run of equal loads fed at position ``feed``: out and back (5 V and
    GND), each stretch carrying the loads beyond it."""
    loads = len(steps) + 1
    right = sum((loads - 1 - i) * load_amps * steps[i] for i in range(feed, len(steps)))
    left = sum((i + 1) * load_amps * steps[i] for i in range(feed))
    return 2 * ohms_per_m * max(left, right)
