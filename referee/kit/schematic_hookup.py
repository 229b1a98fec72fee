"""The schematic's first sheet: the Pi, the Pico, the LED data and power, the buttons and the buzzer.

Pin numbers are the parts' own: the Raspberry Pi's 40-pin header, the Pico's 40 pins
(Raspberry Pi Pico datasheet pinout), the 74AHCT125's DIP-14 (as docs/building.md, checked
against its datasheet), the 2N3904's TO-92 (flat face, leads down: E, B, C). The buttons and
the buzzer are on the pins ``hardware.controls`` and the daemon's config use by default.
"""

from __future__ import annotations

from hardware.layout import Layout, Wire, parse_hole
from referee.kit.parts import supply_amps
from referee.kit.schematic_draw import MARGIN, Pin, Sheet

PI = {"GPIO10": 19, "GPIO5": 29, "GPIO6": 31, "GPIO13": 33, "5V": 2, "GND": 20}  # 40-pin header
PICO = {"GP2": 4, "GP3": 5, "GP4": 6, "3V3(OUT)": 36, "GND": 38}  # Pico's pins
QUAD_BUFFER = {  # the DIP-14 pins of the 74HC125 and the 74AHCT125 alike
    "1OE": 1,
    "1A": 2,
    "1Y": 3,
    "2OE": 4,
    "2A": 5,
    "2Y": 6,
    "GND": 7,
    "3Y": 8,
    "3A": 9,
    "3OE": 10,
    "4Y": 11,
    "4A": 12,
    "4OE": 13,
    "VCC": 14,
}
AHCT125 = QUAD_BUFFER
FUSE = "3 A"  # a side's 29 pixels draw at most 1.74 A (60 mA each at full white)
SENSOR_FUSE = "1 A"  # a side's 29 A3144s draw about 0.13 A; 1 A keeps its 28 AWG ribbon wire safe


def hookup_sheet(layout: Layout, chips: int) -> str:
    """The sheet: the Pi's pins on the left with what hangs off them, the Pico top right with
    its clock and latch trunks below it, the level shifter in the middle, the LED supply and
    its fuses bottom right."""
    sheet = Sheet(
        f"Pi, Pico, LEDs, buttons and buzzer: a {layout.sides}-sided board, "
        f"{len(layout.hole_names)} holes, {chips} 74HC165"
    )
    _pi(sheet)
    _pico(sheet)
    _level_shifter(sheet, layout)
    _trunks(sheet, layout)
    _supply(sheet, layout)
    notes = [
        "One ground, a star at the LED supply's -V: each side's GND, the Pi's GND (pin 20), the Pico's (USB).",
        "Never join the LED supply's 5 V to the Pi's 5 V. The Pi runs from its own supply.",
        "The A3144s' 5 V: from each side's injection point (F1S..), never the Pico's VBUS or 3V3.",
        "R5 10 kΩ: LS1 1A (pin 2) to GND, so a Pi that is off leaves the pixels' data low.",
        "R4 at pixel 0's end of the data wire. Power up: LED supply first, then the Pi; off: the Pi first.",
        "USB: the Pi's USB port to the Pico's micro-USB: the Pico's power and its serial data.",
        "Q1: 2N3904 (TO-92, flat face, leads down: E B C); a BC337 works too, but its leads are C B E.",
        "D1 only for a magnetic buzzer (a coil); a piezo buzzer needs none.",
    ]
    for i, words in enumerate(notes):
        sheet.text(MARGIN + 2, 169 + 3.9 * i, words)
    return sheet.svg()


def _pi(sheet: Sheet) -> None:
    """The Pi's header, with the buttons to GND and the buzzer's transistor off its pins."""
    x, y, pitch = MARGIN + 4, 24.0, 12.0
    pins: list[Pin] = [
        (PI["GPIO10"], "GPIO10 MOSI", "to LS1 1A (pin 2)"),
        (PI["GPIO5"], "GPIO5", ""),
        (PI["GPIO6"], "GPIO6", ""),
        (PI["5V"], "5V", "buzzer + (BZ1)"),
        (PI["GND"], "GND", "one ground"),
        (PI["GPIO13"], "GPIO13", ""),
    ]
    width = sheet.chip(x, y, "Raspberry Pi", "header", [], pins, pitch)
    edge = x + width + 6.0
    row = [y + 1.0 + pitch * (i + 0.5) for i in range(len(pins))]
    for i, name in ((1, "Done"), (2, "Undo")):
        sheet.line((edge, row[i]), (edge + 14, row[i]))
        sheet.button(edge + 14, row[i], f"{name} (pull-up in the Pi)")
        sheet.line((edge + 24, row[i]), (edge + 30, row[i]), (edge + 30, row[i] + 2))
        sheet.ground(edge + 30, row[i] + 2)
    sheet.resistor(edge, row[5], "1 kΩ R3", 14)
    sheet.line((edge + 14, row[5]), (edge + 86, row[5]))
    collector, emitter = sheet.npn(edge + 86, row[5], "Q1 2N3904")
    sheet.line(emitter, (emitter[0], emitter[1] + 2))
    sheet.ground(emitter[0], emitter[1] + 2)
    cx, cy = collector
    sheet.line(collector, (cx, cy - 3), (cx + 10, cy - 3))  # the collector to the buzzer's minus and D1's anode
    sheet.box(cx - 3, cy - 13, 6, 6)
    sheet.line((cx, cy - 7), (cx, cy - 3))
    sheet.text(cx - 3.8, cy - 9, "BZ1 −", anchor="end")
    sheet.text(cx - 3.8, cy - 12.6, "active buzzer +", anchor="end")
    sheet.diode_up(cx + 10, cy - 3, "D1 1N4148")
    sheet.line((cx, cy - 13), (cx, cy - 16), (cx + 10, cy - 16), (cx + 10, cy - 11))
    sheet.text(cx + 1, cy - 17, "5 V (Pi pin 2)")


def _pico(sheet: Sheet) -> None:
    """The Pico: the chain's clock and latch through series resistors, its data from U1."""
    x, y, pitch = 196.0, 24.0, 9.0
    pins: list[Pin] = [
        (PICO["GP2"], "GP2", ""),
        (PICO["GP3"], "GP3", ""),
        (PICO["GP4"], "GP4", "from U1 QH (pin 9)"),
        (PICO["3V3(OUT)"], "3V3(OUT)", "3.3 V: chips, pull-ups"),
        (PICO["GND"], "GND", "one ground"),
    ]
    width = sheet.chip(x, y, "Pico", "(RP2040)", [], pins, pitch)
    for i, (name, net) in enumerate((("R1", "CLOCK trunk"), ("R2", "LATCH trunk"))):
        row = y + 1.0 + pitch * (i + 0.5)
        sheet.resistor(x + width + 6, row, f"{name} 33-100 Ω", 18)
        sheet.text(x + width + 25, row + 0.9, net)
    sheet.text(x, y + pitch * 5 + 7, "micro-USB: to the Pi's USB (power, data)")


def _level_shifter(sheet: Sheet, layout: Layout) -> None:
    """The 74AHCT125 lifting the Pi's 3.3 V data to 5 V, then 330 Ω to pixel 0's DIN."""
    x, y, pitch = 118.0, 112.0, 7.5
    left: list[Pin] = [
        (AHCT125["1OE"], "1OE", "GND"),
        (AHCT125["1A"], "1A", "Pi GPIO10 (pin 19)"),
        (AHCT125["2OE"], "2OE", "5 V"),
        (AHCT125["2A"], "2A", "GND"),
        (AHCT125["3A"], "3A", "GND"),
        (AHCT125["3OE"], "3OE", "5 V"),
        (AHCT125["GND"], "GND", "GND"),
    ]
    right: list[Pin] = [
        (AHCT125["1Y"], "1Y", ""),
        (AHCT125["VCC"], "VCC", "LED 5 V, 100 nF to GND"),
        (AHCT125["2Y"], "2Y", "n.c."),
        (AHCT125["4A"], "4A", "GND"),
        (AHCT125["4OE"], "4OE", "5 V"),
        (AHCT125["3Y"], "3Y", "n.c."),
        (AHCT125["4Y"], "4Y", "n.c."),
    ]
    width = sheet.chip(x, y, "LS1", "74AHCT125", left, right, pitch)
    first = layout.wires[0]  # the chain's first pixel (wires are in pixel order)
    row = y + 1.0 + pitch / 2
    sheet.resistor(x + width + 6, row, "330 Ω R4", 14)
    sheet.text(x + width + 21, row + 0.9, f"DIN of pixel {first.pixel} ({first.hole})")


def _trunks(sheet: Sheet, layout: Layout) -> None:
    """The clock and latch trunks: each runs from its series resistor at the Pico along the
    ribbon, and every side's chip board takes it once, on a Schmitt input of its own 74HC14
    (a series-terminated line's near taps see a half-height step: hysteresis rides it out)."""
    x, right = 188.0, 284.0
    sheet.text(x, 80, "The trunks: one Schmitt tap a side (74HC14 Bn)")
    first, step = x + 8, (right - x - 12) / max(1, layout.sides - 1)
    for y, words in (
        (85.0, "CLOCK (ribbon wire 2) to each Bn 1A (pin 1)"),
        (98.0, "LATCH (ribbon wire 4) to each Bn 3A (pin 5)"),
    ):
        sheet.text(x, y, words)
        sheet.line((x, y + 3), (right, y + 3))
        for side in range(layout.sides):
            tap = first + step * side
            sheet.dot(tap, y + 3)
            sheet.line((tap, y + 3), (tap, y + 5.5))
            sheet.text(tap, y + 8, f"B{side}", anchor="middle")


def _supply(sheet: Sheet, layout: Layout) -> None:
    """The LED supply: a fuse per side's injection run, 1000 µF where each run enters the chain."""
    x, y = 200.0, 112.0
    amps = supply_amps(layout)  # the parts list's supply
    sheet.box(x, y, 18, 12)
    sheet.text(x + 9, y + 5, "5 V", anchor="middle")
    sheet.text(x + 9, y + 9, f"{amps:g} A", anchor="middle")
    sheet.text(x, y - 1.5, "LED supply")
    sheet.line((x + 18, y + 3), (x + 24, y + 3))
    sheet.line((x + 9, y + 12), (x + 9, y + 14))
    sheet.ground(x + 9, y + 14)
    firsts: dict[int, Wire] = {}
    for wire in layout.wires:
        side = parse_hole(wire.hole)[1]
        if side not in firsts or wire.pixel < firsts[side].pixel:
            firsts[side] = wire
    step = min(6.0, 52.0 / max(1, layout.sides - 1))
    sheet.line((x + 24, y + 3), (x + 24, y + 3 + step * (layout.sides - 1)))
    for side in range(layout.sides):
        row = y + 3 + step * side
        sheet.fuse(x + 24, row, "", 10)
        sheet.text(x + 35, row + 0.9, f"F{side + 1}: side {side}, pixel {firsts[side].pixel}; F{side + 1}S")
    bottom = y + 3 + step * (layout.sides - 1)
    for i, words in enumerate(
        (
            f"Fuses {FUSE}, 1.5 mm² wires to each",
            "side's first pixel, 1000 µF across 5 V",
            "and GND there (see the side's sheet).",
            f"FnS {SENSOR_FUSE}: after Fn, the side's A3144s'",
            "5 V to its chip board, GND back to the",
            "star; >= 4.5 V at the side's last sensor.",
        )
    ):
        sheet.text(x, bottom + 6 + 3.6 * i, words)
