"""``pegs parts``: the bill of materials for a board, counted from its layout.

    for part in parts_list(default_layout(6)):
        print(part.quantity, part.unit, part.name, part.maker, part.number)
    Path("parts-6.csv").write_text(to_csv(parts_list(default_layout(6))))

Every quantity comes from the layout the daemon and ``pegs template`` use (its holes, its
74HC165 chips, its sides) and every cable length from the template's hole places, so a
parts list cannot drift from the board it is for. Each line names one maker's part that
fits; any part with the same ratings does as well.
"""

from __future__ import annotations

import csv
import io
import itertools
import math
from dataclasses import dataclass

from hardware.chain import INPUTS_PER_CHIP
from hardware.layout import Layout, parse_hole
from hardware.sensors import channels_read
from referee.kit.template import Template

PEGS_PER_COLOUR = 5
SLACK = 1.2  # cable: a fifth more than the straight runs, for going round the chips and the corners
COLUMNS = ("part", "quantity", "unit", "maker", "maker's part number", "what it is for")


@dataclass(frozen=True)
class Part:
    name: str
    quantity: int | float
    unit: str  # "pcs" or "m"
    maker: str
    number: str  # the maker's part number
    why: str


def parts_list(layout: Layout, pitch: float = 25.0) -> list[Part]:
    """One board's parts: the sensing chain, the LEDs, the power, the Pi and its controls."""
    return [
        *_sensing(layout),
        *_leds(layout),
        *_power(layout, pitch),
        *_computers(),
        *_controls(),
        *_cables(layout, pitch),
    ]


def supply_amps(layout: Layout) -> int:
    """The LED supply to buy: the guide's sizes (the daemon caps the LEDs' current at
    ``leds.max_amps``, so a board never needs a supply for full white)."""
    holes = len(layout.hole_names)
    return 6 if holes <= 120 else 10 if holes <= 240 else 14


def to_csv(parts: list[Part]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    for part in parts:
        writer.writerow((part.name, _number(part.quantity), part.unit, part.maker, part.number, part.why))
    return out.getvalue()


def _chips(layout: Layout) -> int:
    return channels_read(layout) // INPUTS_PER_CHIP


def _buffers(layout: Layout) -> int:
    """Clock buffers: one per side on boards of 6 sides or more, whose CLK and SH/LD run metres."""
    return layout.sides if layout.sides >= 6 else 0


def _sensing(layout: Layout) -> list[Part]:
    """The sensors and the chain that reads them: switches, shift registers, what keeps
    their supply and clock clean, and the clock buffers of a big board."""
    chips, buffers = _chips(layout), _buffers(layout)
    return [
        _hall_switches(len(layout.hole_names)),
        *_shift_registers(chips),
        *_supply_and_clock(layout, chips, buffers),
        *_clock_buffers(buffers),
    ]


def _hall_switches(holes: int) -> Part:
    return Part(
        "hall switch A3144, TO-92",
        holes,
        "pcs",
        "Allegro (now made by others, e.g. JSMSEMI)",
        "A3144EUA-T",
        "one under every hole, on the 5 V rail; or a DRV5032 20 Hz omnipolar version on 3.3 V, or reed switches",
    )


def _shift_registers(chips: int) -> list[Part]:
    """The 74HC165s, their sockets and the sensors' pull-ups: one of each per 8 channels."""
    return [
        Part(
            "74HC165 shift register, DIP-16",
            chips,
            "pcs",
            "Texas Instruments",
            "SN74HC165N",
            "reads 8 sensors; whole chips for the layout's channels",
        ),
        Part("DIP-16 socket", chips, "pcs", "On Shore Technology", "ED16DT", "one per 74HC165"),
        Part(
            "10 kohm x 8 bussed resistor network, SIP-9",
            chips,
            "pcs",
            "Bourns",
            "4609X-101-103LF",
            "the sensors' pull-ups to 3.3 V, pin 1 (common) to 3.3 V; or one 10 kohm resistor per hole",
        ),
    ]


def _supply_and_clock(layout: Layout, chips: int, buffers: int) -> list[Part]:
    """Decoupling at every chip and on every side, and the series resistors on the clock lines."""
    return [
        Part(
            "100 nF ceramic capacitor, X7R, 50 V",
            chips + 1 + buffers,
            "pcs",
            "KEMET",
            "C320C104K5R5TA",
            "one at every chip's VCC pin: the 74HC165s, the 74AHCT125 and the clock buffers",
        ),
        Part(
            "10 uF electrolytic capacitor, 16 V",
            layout.sides,
            "pcs",
            "Panasonic",
            "ECA-1CM100",
            "across 3.3 V and GND on each side of the board",
        ),
        Part(
            "47 ohm resistor, 1/4 W",
            2,
            "pcs",
            "Yageo",
            "CFR-25JB-52-47R",
            "in series with CLK and SH/LD at the Pico (33 to 100 ohm)",
        ),
    ]


def _clock_buffers(buffers: int) -> list[Part]:
    """The 74HC125s of a board whose clock lines run metres (none on a small one)."""
    if not buffers:
        return []
    return [
        Part(
            "74HC125 quad buffer, DIP-14",
            buffers,
            "pcs",
            "Texas Instruments",
            "SN74HC125N",
            "buffers CLK and SH/LD once per side, at 3.3 V",
        )
    ]


def _leds(layout: Layout) -> list[Part]:
    return [
        Part(
            "WS2812 pixel, 5 mm through-hole",
            layout.pixels,
            "pcs",
            "Worldsemi",
            "WS2812D-F5",
            'one beside every hole, in one chain; its colour order is RGB: pixel_order = "RGB" (pegs selftest asks)',
        ),
        Part(
            "74AHCT125 quad buffer, DIP-14",
            1,
            "pcs",
            "Texas Instruments",
            "SN74AHCT125N",
            "lifts the Pi's 3.3 V pixel data to 5 V",
        ),
        Part(
            "DIP-14 socket",
            1 + _buffers(layout),
            "pcs",
            "On Shore Technology",
            "ED14DT",
            "for the 74AHCT125 and the clock buffers",
        ),
        Part("330 ohm resistor, 1/4 W", 1, "pcs", "Yageo", "CFR-25JB-52-330R", "between the 74AHCT125 and pixel 0"),
    ]


def _power(layout: Layout, pitch: float) -> list[Part]:
    amps, sides = supply_amps(layout), layout.sides
    supply = {6: ("LRS-35-5", "5 V 7 A"), 10: ("LRS-50-5", "5 V 10 A"), 14: ("LRS-75-5", "5 V 14 A")}[amps]
    return [
        Part(
            f"LED power supply, {supply[1]}",
            1,
            "pcs",
            "Mean Well",
            supply[0],
            f"the pixels and the A3144s; set leds.max_amps to about 80 % of {amps} A less the sensors",
        ),
        Part(
            "1000 uF electrolytic capacitor, 10 V",
            sides,
            "pcs",
            "Panasonic",
            "EEU-FR1A102",
            "across 5 V and GND at every injection point (the start of each side)",
        ),
        Part("ATO blade fuse, 3 A", sides, "pcs", "Littelfuse", "0287003.PXCN", "one on each side's 5 V injection run"),
        Part("inline ATO fuse holder", sides, "pcs", "Littelfuse", "0FHM0001ZXJ", "holds each injection run's fuse"),
        Part(
            "power wire 1.5 mm2 (16 AWG), red and black",
            _metres(_injection_mm(layout, pitch)),
            "m",
            "any",
            "-",
            "5 V and GND from the supply to the first pixel of every side (both wires counted)",
        ),
    ]


def _computers() -> list[Part]:
    return [
        Part(
            "Raspberry Pi 5, 4 GB (or a Pi 4; a Pi 3 or Zero 2 W for 4 sides)",
            1,
            "pcs",
            "Raspberry Pi",
            "SC1111",
            "runs the referee and the page, with its own supply",
        ),
        Part(
            "Raspberry Pi Pico (RP2040)",
            1,
            "pcs",
            "Raspberry Pi",
            "SC0915",
            "scans the sensors (CircuitPython 9), powered from the Pi's USB",
        ),
    ]


def _controls() -> list[Part]:
    return [
        Part(
            "push button, momentary, normally open",
            2,
            "pcs",
            "Omron",
            "B3F-4055",
            "Done (GPIO5, pin 29) and Undo (GPIO6, pin 31), each from the pin to GND",
        ),
        Part(
            "active buzzer, 5 V, internally driven",
            1,
            "pcs",
            "PUI Audio",
            "AI-1223-TWT-5V-R",
            "GPIO13 (pin 33) through the transistor: sounds while the pin is high",
        ),
        Part("NPN transistor, TO-92", 1, "pcs", "onsemi", "2N3904BU", "switches the buzzer (about 30 mA)"),
        Part("1 kohm resistor, 1/4 W", 1, "pcs", "Yageo", "CFR-25JB-52-1K", "GPIO13 to the transistor's base"),
        Part("1N4148 diode", 1, "pcs", "onsemi", "1N4148TR", "across the buzzer's coil, cathode to 5 V"),
    ]


def _cables(layout: Layout, pitch: float) -> list[Part]:
    return [
        Part(
            "10-way flat ribbon cable, 1.27 mm pitch",
            _metres(_chain_mm(layout, pitch)),
            "m",
            "3M",
            "3365/10",
            "CLK, SH/LD, data, 3.3 V, 5 V (A3144s) and GND along the chain, a GND wire beside each signal",
        ),
        Part(
            "neodymium disc magnet, 6 x 3 mm, N35 to N42",
            PEGS_PER_COLOUR * layout.sides + len(layout.colour_markers),
            "pcs",
            "any",
            "-",
            "one in the bottom of every peg (and of each colour-marker peg), south pole down for A3144s",
        ),
    ]


def _chain_mm(layout: Layout, pitch: float) -> float:
    """The sensor chain's run: through the holes in channel order, as the template draws it."""
    places = Template(layout, pitch=pitch).places
    order = sorted(layout.hole_names, key=layout.channel)
    return sum(math.dist(places[a], places[b]) for a, b in itertools.pairwise(order))


def _injection_mm(layout: Layout, pitch: float) -> float:
    """Two wires from the board's middle (where the supply sits) to each side's first pixel."""
    template = Template(layout, pitch=pitch)
    width, height = template.size
    firsts = [
        min((hole for hole in layout.hole_names if parse_hole(hole)[1] == side), key=layout.pixel)
        for side in range(layout.sides)
    ]
    return 2 * sum(math.dist((width / 2, height / 2), template.places[hole]) for hole in firsts)


def _metres(millimetres: float) -> float:
    """Rounded up to the half metre, with slack."""
    return math.ceil(millimetres * SLACK / 500) / 2


def _number(quantity: float) -> str:
    return f"{quantity:g}"
