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
from referee.kit.mounting import BOARD, PILOT, POCKET
from referee.kit.power import BUS, INJECTION, max_amps, side_runs, supply_for
from referee.kit.template import LED, Template

PEGS_PER_COLOUR = 5
HEAT_SHRINK_MM = 20.0  # a piece over each soldered joint
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
        *_mains(),
        *_computers(),
        *_controls(),
        *_cables(layout, pitch),
        *_harness(layout, pitch),
        *_woodwork(layout, pitch),
    ]


def supply_amps(layout: Layout) -> int:
    """The LED supply to buy (``referee.kit.power``: the daemon caps the LEDs' current at
    ``leds.max_amps``, so a board never needs a supply for full white)."""
    return int(supply_for(layout.sides).amps)


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
    """Clock buffers: one 74HC14 on every side's chip board, on every size (issue 35, item 8)."""
    return layout.sides


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
            chips + 1 + buffers + layout.pixels,
            "pcs",
            "KEMET",
            "C320C104K5R5TA",
            "one at every chip's VCC pin (74HC165s, 74AHCT125, 74HC14s) and one across each pixel's VDD and GND",
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
            "74HC14 hex Schmitt-trigger inverter, DIP-14",
            buffers,
            "pcs",
            "Texas Instruments",
            "CD74HC14E",
            "each side's CLK and SH/LD off the trunk, two inverters in series per line, at 3.3 V",
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
        Part(
            "330 ohm resistor, 1/4 W",
            1,
            "pcs",
            "Yageo",
            "CFR-25JB-52-330R",
            "in pixel 0's DIN, at the pixel's end of the data wire (Adafruit's Uberguide)",
        ),
        Part(
            "10 kohm resistor, 1/4 W",
            1,
            "pcs",
            "Yageo",
            "CFR-25JB-52-10K",
            "74AHCT125 1A (pin 2) to GND: a Pi that is off leaves the data low, never floating",
        ),
    ]


def _power(layout: Layout, pitch: float) -> list[Part]:
    supply, sides = supply_for(layout.sides), layout.sides
    runs = side_runs(layout, pitch)
    return [
        Part(
            f"LED power supply, 5 V {supply.amps:g} A, screw terminals",
            1,
            "pcs",
            supply.maker,
            supply.number,
            f"the pixels and the A3144s, inside the mains box; leds.max_amps = {max_amps(sides):g}",
        ),
        Part(
            "1000 uF electrolytic capacitor, 10 V",
            sides,
            "pcs",
            "Panasonic",
            "EEU-FR1A102",
            "across 5 V and GND at every injection point (the start of each side)",
        ),
        *_fuses(sides),
        Part(
            f"power wire {INJECTION} (16 AWG), red and black",
            _metres(_injection_mm(layout, pitch)),
            "m",
            "any",
            "-",
            "5 V and GND from the supply to the first pixel of every side (both wires counted)",
        ),
        Part(
            f"bus wire {BUS} (20 AWG), red and black",
            math.ceil(sum(2 * run.bus_m for run in runs) * 2) / 2,
            "m",
            "any",
            "-",
            "each side's 5 V and GND from pixel to pixel (up to 1.7 A a side; both wires counted)",
        ),
    ]


def _fuses(sides: int) -> list[Part]:
    """Each side's two ATO fuses, its LEDs' 3 A and its sensors' 1 A, each in an ATO holder."""
    return [
        Part("ATO blade fuse, 3 A", sides, "pcs", "Littelfuse", "0287003.PXCN", "one on each side's 5 V injection run"),
        Part(
            "ATO blade fuse, 1 A",
            sides,
            "pcs",
            "Littelfuse",
            "0287001.PXCN",
            "each side's sensor 5 V, tapped after the side's 3 A fuse (it protects the 28 AWG ribbon wire)",
        ),
        Part(
            "inline ATO fuse holder",
            2 * sides,
            "pcs",
            "Littelfuse",
            "FHAC0001ZXJ",
            "holds the 3 A and the 1 A fuse of each side (ATO; not the MINI 0FHM holder)",
        ),
    ]


def _mains() -> list[Part]:
    """The LED supply's mains side, all in a closed box (docs/building.md, "Mains")."""
    return [
        Part(
            "IEC C14 inlet with 2-pole switch and fuse drawer",
            1,
            "pcs",
            "Schurter",
            "DD11.0114.1111",
            "the mains into the box: switched and fused; its earth pin to the supply's FG terminal",
        ),
        Part(
            "fuse 5 x 20 mm, time-lag, 2 A, 250 V",
            2,
            "pcs",
            "Littelfuse",
            "0218002.MXP",
            "in the inlet's drawer, and a spare",
        ),
        Part("mains lead, IEC C13 to your wall plug", 1, "pcs", "any", "-", "3-core, earthed, for your country"),
        Part(
            "closed box for the supply and the inlet",
            1,
            "pcs",
            "any",
            "-",
            "plastic, no mains screw reachable; or metal, earthed to the inlet's earth",
        ),
        Part("cable gland, M16", 2, "pcs", "any", "-", "strain relief where the 5 V wires leave the box"),
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
            "Raspberry Pi 27 W USB-C power supply (Pi 5)",
            1,
            "pcs",
            "Raspberry Pi",
            "SC1153",
            "the Pi's own supply (the number is one plug and colour); Pi 4: the 15 W USB-C SC0218;"
            " Pi 3 and Zero 2 W: the 12.5 W micro-USB supply",
        ),
        Part("microSD card, 16 GB or more, A1", 1, "pcs", "any", "-", "Raspberry Pi OS and the games"),
        Part(
            "Raspberry Pi Pico (RP2040)",
            1,
            "pcs",
            "Raspberry Pi",
            "SC0915",
            "scans the sensors (CircuitPython 9), powered from the Pi's USB",
        ),
        Part(
            "USB cable, USB-A to micro-USB, with data",
            1,
            "pcs",
            "any",
            "-",
            "the Pi to the Pico (a charge-only cable shows no board); a Zero 2 W needs a micro-USB OTG adapter too",
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
            "CLK, SH/LD, data, 3.3 V and GND from the Pico to side 0 and from side to side (section 3a)",
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


def _harness(layout: Layout, pitch: float) -> list[Part]:
    """What joins the parts (the guide's section 3a): a chip board per side with its two box
    headers and one at the Pico, a ribbon length per side with an IDC socket at each end, three
    wires from every sensor to its side's board, the pixels' data wire, heat-shrink on every
    joint, and a printed carrier under every sensor."""
    sides, holes = layout.sides, len(layout.hole_names)
    joints = 3 * holes + 4 * layout.pixels  # three wires a sensor, four leads a pixel
    hookup = 3 * _to_boards_mm(layout, pitch) + sum(run.bus_m for run in side_runs(layout, pitch)) * 1000
    return [
        Part("stripboard, 100 x 160 mm", sides, "pcs", "any", "-", "a chip board per side, under its holes"),
        *_connectors(sides),
        Part(
            "hookup wire, 24 AWG stranded",
            _metres(hookup),
            "m",
            "any",
            "-",
            "three from every sensor to its side's board, and the data wire from pixel to pixel",
        ),
        Part(
            "heat-shrink tube, 2.4 mm",
            _metres(joints * HEAT_SHRINK_MM),
            "m",
            "any",
            "-",
            f"a {HEAT_SHRINK_MM:g} mm piece over every joint: three a sensor, four a pixel",
        ),
        Part(
            "sensor carrier, 3D-printed",
            holes,
            "pcs",
            "any",
            "-",
            "pegs carrier writes its STL: it holds the sensor flat, branded face up, in its pocket",
        ),
    ]


def _connectors(sides: int) -> list[Part]:
    """IN and OUT on every side's board and one at the Pico; a ribbon length per side."""
    return [
        Part(
            "box header, 2 x 5, 2.54 mm, straight",
            2 * sides + 1,
            "pcs",
            "Würth Elektronik",
            "61201021621",
            "IN and OUT on every side's board, and one at the Pico",
        ),
        Part(
            "IDC socket, 2 x 5, 2.54 mm, for 1.27 mm ribbon",
            2 * sides,
            "pcs",
            "3M",
            "89110-0101",
            "one at each end of every ribbon length (the Pico to side 0, each side to the next)",
        ),
    ]


def _woodwork(layout: Layout, pitch: float) -> list[Part]:
    """The pegs, the plank (the template's size) and the drill bits: one flat-bottomed bit for the
    peg holes and the sensor pockets (a brad-point's spur would thin the wood over the sensor),
    the pilot through every drill cross, the pixel holes."""
    template = Template(layout, pitch=pitch)
    width, height = (math.ceil(size / 10) * 10 for size in template.size)
    return [
        Part(
            "peg, wood or plastic, to fit the peg hole with a magnet in its foot",
            PEGS_PER_COLOUR * layout.sides + len(layout.colour_markers),
            "pcs",
            "any",
            "-",
            f"five per colour (and a colour-marker peg per side with --markers); they fit {template.hole:g} mm holes",
        ),
        Part(
            f"plank or plywood, {BOARD:g} mm, at least {width} x {height} mm",
            1,
            "pcs",
            "any",
            "-",
            "the board: the template's size (pegs template prints it)",
        ),
        Part(
            f"drill bit, Forstner, {POCKET:g} mm",
            1,
            "pcs",
            "any",
            "-",
            "the peg holes from the top and the sensor pockets from below (section 1a gives the depths)",
        ),
        Part(f"drill bit, twist, {PILOT:g} mm", 1, "pcs", "any", "-", "a pilot right through every drill cross"),
        Part(f"drill bit, brad-point, {LED:g} mm", 1, "pcs", "any", "-", "the pixel holes"),
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


def _to_boards_mm(layout: Layout, pitch: float) -> float:
    """Every hole to its side's chip board, which sits under the middle of the side's holes."""
    places = Template(layout, pitch=pitch).places
    total = 0.0
    for side in range(layout.sides):
        holes = [places[hole] for hole in layout.hole_names if parse_hole(hole)[1] == side]
        middle = (sum(x for x, _ in holes) / len(holes), sum(y for _, y in holes) / len(holes))
        total += sum(math.dist(middle, place) for place in holes)
    return total


def _metres(millimetres: float) -> float:
    """Rounded up to the half metre, with slack."""
    return math.ceil(millimetres * SLACK / 500) / 2


def _number(quantity: float) -> str:
    return f"{quantity:g}"
