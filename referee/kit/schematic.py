"""``pegs schematic``: the board's circuit on A4 sheets, made from the same layout as the template.

    for name, svg in schematic_sheets(default_layout(4)):   # ("hookup", ...), ("side-0", ...), ...
        Path(f"schematic-{name}.svg").write_text(svg)

The first sheet (``hookup``, in ``schematic_hookup``) is the Pi, the Pico, the LED level
shifter, the LED supply, the buttons and the buzzer. Then one sheet per side of the board:
the 74HC165 chips whose input H reads one of that side's holes, every input labelled with
its hole (``hardware.chain.chain_input`` of the layout's channel, as the Pico reads it), the
side's 10 µF, its clock buffer (a 74HC14: two Schmitt inverters in series per line, so the
half-height step a series-terminated trunk shows at its near taps switches it once), and where
the side's LED power goes in. Each pull-up is drawn with its pin of the chip's SIP-9 network,
whose pin 1 (the dotted end) is the common one, to 3.3 V. A side with more than CHIPS_PER_SHEET chips (a board wired in another order) goes on to
``side-N-2`` and on.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from firmware_bridge.firmware_files import chips_for
from hardware.chain import PIN_OF_INPUT, READ_ORDER, chain_channel
from hardware.layout import Layout, parse_hole
from hardware.sensors import channels_needed
from referee.kit.schematic_draw import MARGIN, Pin, Sheet
from referee.kit.schematic_hookup import FUSE, hookup_sheet

CHIPS_PER_SHEET = 4  # two rows of two: what stays readable on A4 with 2.5 mm text
PITCH = 7.5  # mm between a chip's pins
HC165 = {"VCC": 16, "GND": 8, "SH/LD": 1, "CLK": 2, "CLK INH": 15, "QH": 9, "SER": 10, "/QH": 7}  # DIP-16
HC14 = {  # DIP-14, the 74HC14's pins (TI CD74HC14 / SN74HC14 datasheets)
    "1A": 1, "1Y": 2, "2A": 3, "2Y": 4, "3A": 5, "3Y": 6, "GND": 7,
    "4Y": 8, "4A": 9, "5Y": 10, "5A": 11, "6Y": 12, "6A": 13, "VCC": 14,
}  # fmt: skip
BUFFER_PITCH = 3.6  # mm between the buffer's pins: it fits under the chips


def network_pin(letter: str) -> int:
    """The pin of a chip's SIP-9 pull-up network for ``letter``: pin 1 is common, 2..9 in read order."""
    return 2 + READ_ORDER.index(letter)


@dataclass(frozen=True)
class Chip:
    """One 74HC165 of the chain: ``number`` 1 is next to the Pico; ``holes`` by input letter."""

    number: int
    holes: dict[str, str | None]
    last: bool


def chips(layout: Layout) -> list[Chip]:
    """The whole chips the firmware reads for ``layout``, each input with its hole (or None)."""
    count = chips_for(channels_needed(layout))
    found = []
    for number in range(1, count + 1):
        holes = {letter: layout.holes_by_channel.get(chain_channel(number, letter)) for letter in READ_ORDER}
        found.append(Chip(number, holes, number == count))
    return found


def sheets_by_side(layout: Layout) -> dict[int, list[Chip]]:
    """side -> its chips: a chip goes with the side of the first hole it reads (input H first),
    a chip reading no hole with the chip before it."""
    found: dict[int, list[Chip]] = {side: [] for side in range(layout.sides)}
    side = 0
    for chip in chips(layout):
        first = next((hole for hole in chip.holes.values() if hole is not None), None)
        if first is not None:
            side = parse_hole(first)[1]
        found[side].append(chip)
    return found


def schematic_sheets(layout: Layout) -> Iterator[tuple[str, str]]:
    """``(name, svg)`` of every sheet: ``hookup``, then ``side-N`` (``side-N-2`` ... for overflow)."""
    total = chips_for(channels_needed(layout))
    yield "hookup", hookup_sheet(layout, total)
    for side, side_chips in sheets_by_side(layout).items():
        parts = [side_chips[i : i + CHIPS_PER_SHEET] for i in range(0, len(side_chips), CHIPS_PER_SHEET)] or [[]]
        for part, group in enumerate(parts, start=1):
            name = f"side-{side}" + (f"-{part}" if part > 1 else "")
            yield name, side_sheet(layout, side, group, total, part)


def side_sheet(layout: Layout, side: int, group: list[Chip], total: int, part: int = 1) -> str:
    """One side's chips in two rows of two, and under them the side's power and clock."""
    numbers = f"U{group[0].number} to U{group[-1].number}" if group else "no 74HC165 (its holes are read elsewhere)"
    sheet = Sheet(f"Side {side}{f' (part {part})' if part > 1 else ''}: {numbers} of U1 to U{total}, 74HC165 at 3.3 V")
    clock, latch = _clock_nets(layout, side)
    for i, chip in enumerate(group):
        _chip(sheet, MARGIN + 2 + (i % 2) * 140, MARGIN + 14 + (i // 2) * 78, chip, clock, latch)
    if part == 1:
        _side_power(sheet, layout, side)
    footer = (
        "Each sensor: OUT to its input, its RN pin's 10 kΩ to 3.3 V. RN: 8 x 10 kΩ bussed SIP-9, "
        "pin 1 (dot) common. Inputs in the order the Pico reads them."
    )
    return sheet.svg(footer)


def _clock_nets(layout: Layout, side: int) -> tuple[str, str]:
    return f"CLOCK {side} (B{side} pin {HC14['2Y']})", f"LATCH {side} (B{side} pin {HC14['4Y']})"


def _chip(sheet: Sheet, x: float, y: float, chip: Chip, clock: str, latch: str) -> None:
    """A 74HC165 with its sensors and pull-ups on the left, its chain and power on the right."""
    left: list[Pin] = []
    for i, letter in enumerate(READ_ORDER):
        hole = chip.holes[letter]
        row = y + 1.0 + PITCH * (i + 0.5)
        left.append((PIN_OF_INPUT[letter], letter, ""))
        sheet.parts.append(
            f'<g class="input" data-chip="{chip.number}" data-input="{letter}" '
            f'data-pin="{PIN_OF_INPUT[letter]}" data-hole="{hole or ""}">'
        )
        if hole is None:
            sheet.line((x + 38, row), (x + 50, row))
            sheet.text(x + 37, row + 0.9, "unused: to 3.3 V", anchor="end")
        else:
            sheet.box(x, row - 3.0, 20, 4.6)
            sheet.text(x + 10, row + 0.9, hole, size=2.8, anchor="middle")
            sheet.line((x + 20, row), (x + 50, row))
            sheet.dot(x + 34, row)
            sheet.resistor_up(x + 34, row, f"RN{chip.number}.{network_pin(letter)}", "3.3V")
        sheet.parts.append("</g>")
    before = "Pico GP4 (pin 6)" if chip.number == 1 else f"U{chip.number - 1} SER (pin 10)"
    after = "GND (last chip)" if chip.last else f"U{chip.number + 1} QH (pin 9)"
    right: list[Pin] = [
        (HC165["VCC"], "VCC", "3.3 V, 100 nF to GND"),
        (HC165["GND"], "GND", "GND"),
        (HC165["SH/LD"], "SH/LD", latch),
        (HC165["CLK"], "CLK", clock),
        (HC165["CLK INH"], "CLK INH", "GND"),
        (HC165["QH"], "QH", f"to {before}"),
        (HC165["SER"], "SER", f"from {after}" if not chip.last else after),
        (HC165["/QH"], "/QH", "not connected"),
    ]
    sheet.chip(x + 56, y, f"U{chip.number}", "74HC165", left, right, PITCH)
    sheet.text(x, y - 1.2, f"RN{chip.number} pin 1: 3.3 V")


def _side_power(sheet: Sheet, layout: Layout, side: int) -> None:
    """The side's 10 µF, its LED power injection, and its clock buffer (6 sides and more)."""
    y = 174.0
    sheet.text(MARGIN + 2, y, "10 µF across 3.3 V and GND", size=2.8)
    sheet.text(MARGIN + 2, y + 3.8, "at this side's first chip")
    sheet.line((MARGIN + 8, y + 5), (MARGIN + 8, y + 7))
    sheet.capacitor_down(MARGIN + 8, y + 7, "10 µF")
    first = min((wire for wire in layout.wires if parse_hole(wire.hole)[1] == side), key=lambda wire: wire.pixel)
    x = MARGIN + 66
    sheet.text(x, y, f"LED power in at pixel {first.pixel} ({first.hole}), this side's first pixel:", size=2.8)
    sheet.text(x, y + 9.9, "LED supply 5 V")
    sheet.fuse(x + 19, y + 9, f"F{side + 1} {FUSE}")
    sheet.line((x + 31, y + 9), (x + 42, y + 9))
    sheet.dot(x + 36, y + 9)
    sheet.capacitor_down(x + 36, y + 9, "1000 µF")
    sheet.text(x + 43, y + 9.9, f"5 V of pixel {first.pixel}; its GND to the supply's GND")
    _buffer(sheet, 215.0, 168.0, side)


def _buffer(sheet: Sheet, x: float, y: float, side: int) -> None:
    """The side's 74HC14 at 3.3 V: the trunk's CLK and SH/LD in, each through two inverters,
    out to this side's chips; the two spare inputs tied to GND."""
    left: list[Pin] = [
        (HC14["1A"], "1A", "CLOCK trunk"),
        (HC14["1Y"], "1Y", "to 2A (3)"),
        (HC14["3A"], "3A", "LATCH trunk"),
        (HC14["3Y"], "3Y", "to 4A (9)"),
        (HC14["5A"], "5A", "GND"),
        (HC14["6A"], "6A", "GND"),
        (HC14["GND"], "GND", "GND"),
    ]
    right: list[Pin] = [
        (HC14["2A"], "2A", "from 1Y (2)"),
        (HC14["2Y"], "2Y", f"CLOCK {side}"),
        (HC14["4A"], "4A", "from 3Y (6)"),
        (HC14["4Y"], "4Y", f"LATCH {side}"),
        (HC14["5Y"], "5Y", "n.c."),
        (HC14["6Y"], "6Y", "n.c."),
        (HC14["VCC"], "VCC", "3.3 V, 100 nF"),
    ]
    sheet.text(x - 23, y - 5.2, f"Side {side}'s clock buffer, Schmitt inputs:")
    sheet.chip(x, y, f"B{side}", "74HC14", left, right, BUFFER_PITCH)
