"""``pegs schematic``: the board's circuit on A4 sheets (issue 23, "a schematic").

Each sheet is read back with an XML parser, by the numbers printed beside the pins, and
checked against the parts' datasheets: the 74HC165's DIP-16 pin table (as docs/building.md
gives it), the DIP-14 pin table the 74HC125 and the 74AHCT125 share (1OE 1, 1A 2, 1Y 3,
2OE 4, 2A 5, 2Y 6, GND 7, 3Y 8, 3A 9, 3OE 10, 4Y 11, 4A 12, 4OE 13, VCC 14), the Pico's pins
(GP2 4, GP3 5, GP4 6, 3V3(OUT) 36), the Pi's 40-pin header (GPIO10 19, GPIO5 29, GPIO6 31,
GPIO13 33), the 74HC14's DIP-14 (TI CD74HC14 datasheet, "Pin Functions": 1A 1, 1Y 2, 2A 3,
2Y 4, 3A 5, 3Y 6, GND 7, 4Y 8, 4A 9, 5Y 10, 5A 11, 6Y 12, 6A 13, VCC 14) and the Bourns
4609X bussed SIP-9 (pin 1 common, 2 to 9 one resistor each).
"""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from firmware_bridge.firmware_files import chips_for
from hardware.chain import chain_input
from hardware.layout import Layout, default_layout, parse_hole
from hardware.sensors import channels_needed
from referee.kit.schematic import schematic_sheets
from tests.board_layouts import BOARDS, IDS

SVG = "{http://www.w3.org/2000/svg}"
DOCS = Path(__file__).parent.parent / "docs"
HC165 = {
    "A": 11,
    "B": 12,
    "C": 13,
    "D": 14,
    "E": 3,
    "F": 4,
    "G": 5,
    "H": 6,
    "VCC": 16,
    "GND": 8,
    "SH/LD": 1,
    "CLK": 2,
    "CLK INH": 15,
    "QH": 9,
    "SER": 10,
    "/QH": 7,
}
HC125 = {
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
HC14 = {"1A": 1, "1Y": 2, "2A": 3, "2Y": 4, "3A": 5, "3Y": 6, "GND": 7}
HC14 |= {"4Y": 8, "4A": 9, "5Y": 10, "5A": 11, "6Y": 12, "6A": 13, "VCC": 14}


def _sheets(layout: Layout) -> dict[str, ET.Element]:
    return {name: ET.fromstring(svg) for name, svg in schematic_sheets(layout)}


def _pins(root: ET.Element) -> list[dict[str, str]]:
    return [g.attrib for g in root.iter(f"{SVG}g") if g.attrib.get("class") == "pin"]


def _box(text: ET.Element) -> tuple[float, float, float, float]:
    """A text's box, generously measured (0.6 of the font size a character)."""
    size, words = float(text.attrib["font-size"]), text.text or ""
    width, x, y = 0.6 * size * len(words), float(text.attrib["x"]), float(text.attrib["y"])
    left = {"middle": x - width / 2, "end": x - width}.get(text.attrib.get("text-anchor", ""), x)
    return (left, y - 0.8 * size, left + width, y + 0.25 * size)


@pytest.mark.parametrize("layout", BOARDS, ids=IDS)
def test_every_hole_once_on_the_input_the_pico_reads_it_on(layout: Layout) -> None:
    """A builder solders each sensor where its sheet says: every hole of the layout is on exactly
    one input, the chip and input hardware.chain gives for its channel, beside that input's pin."""
    seen: dict[str, tuple[int, str]] = {}
    for name, root in _sheets(layout).items():
        pins = {(p["data-part"], p["data-name"]): int(p["data-pin"]) for p in _pins(root)}
        for group in root.iter(f"{SVG}g"):
            hole = group.attrib.get("data-hole")
            if group.attrib.get("class") != "input" or not hole:
                continue
            assert hole not in seen, f"{hole} on two inputs"
            chip, letter = int(group.attrib["data-chip"]), group.attrib["data-input"]
            seen[hole] = (chip, letter)
            assert hole in [t.text for t in group.iter(f"{SVG}text")], f"{hole} is not printed on {name}"
            assert pins[(f"U{chip}", letter)] == HC165[letter] == int(group.attrib["data-pin"])
    assert set(seen) == set(layout.hole_names)
    for hole, (chip, letter) in seen.items():
        wire = chain_input(layout.channel(hole))
        assert (wire.chip, wire.input) == (chip, letter)


@pytest.mark.parametrize("layout", BOARDS, ids=IDS)
def test_whole_chips_each_pinned_and_chained_as_the_datasheet_says(layout: Layout) -> None:
    """The chain has the whole chips the firmware reads; each 74HC165's control pins carry their
    DIP-16 numbers; QH goes towards the Pico, CLK INH to GND, and the last chip's SER to GND."""
    pins = [p for root in _sheets(layout).values() for p in _pins(root) if p["data-part"].startswith("U")]
    chips = sorted({int(p["data-part"][1:]) for p in pins})
    count = chips_for(channels_needed(layout))
    assert chips == list(range(1, count + 1))
    for p in pins:
        assert int(p["data-pin"]) == HC165[p["data-name"]], p
    nets = {(int(p["data-part"][1:]), p["data-name"]): p["data-net"] for p in pins}
    assert len(nets) == 16 * count  # every pin of every chip drawn once
    assert nets[(1, "QH")] == "to Pico GP4 (pin 6)" and nets[(count, "SER")] == "GND (last chip)"
    for chip in range(2, count + 1):
        assert nets[(chip, "QH")] == f"to U{chip - 1} SER (pin 10)"
        assert nets[(chip - 1, "SER")] == f"from U{chip} QH (pin 9)"
    assert all(nets[(chip, "CLK INH")] == "GND" and nets[(chip, "VCC")].startswith("3.3 V") for chip in chips)


@pytest.mark.parametrize("layout", BOARDS[:4], ids=IDS[:4])
def test_a_sheet_per_side_with_its_power_and_its_schmitt_clock_buffer(layout: Layout) -> None:
    """Item "a schematic": per side a 10 µF, a fuse and 1000 µF at the side's first pixel. Issue 35
    item 8: on every board each side's CLK and SH/LD come from the trunk through two Schmitt
    inverters of its own 74HC14 (drawn as a chip, every pin numbered), and that side's chips
    clock from its outputs."""
    sheets = _sheets(layout)
    assert list(sheets) == ["hookup"] + [f"side-{side}" for side in range(layout.sides)]
    for side in range(layout.sides):
        words = " ".join(t.text or "" for t in sheets[f"side-{side}"].iter(f"{SVG}text"))
        first = min((w for w in layout.wires if parse_hole(w.hole)[1] == side), key=lambda w: w.pixel)
        assert f"LED power in at pixel {first.pixel} ({first.hole})" in words
        assert "10 µF" in words and "1000 µF" in words and f"F{side + 1} 3 A" in words
        pins = _pins(sheets[f"side-{side}"])
        buffer = {p["data-name"]: (int(p["data-pin"]), p["data-net"]) for p in pins if p["data-part"] == f"B{side}"}
        assert {name: pin for name, (pin, _) in buffer.items()} == HC14  # all 14 pins, the datasheet's numbers
        assert buffer["1A"][1] == "CLOCK trunk" and buffer["3A"][1] == "LATCH trunk"
        assert buffer["1Y"][1] == "to 2A (3)" and buffer["3Y"][1] == "to 4A (9)"
        assert buffer["2Y"][1] == f"CLOCK {side}" and buffer["4Y"][1] == f"LATCH {side}"
        assert buffer["5A"][1] == buffer["6A"][1] == buffer["GND"][1] == "GND"
        for chip in (p for p in pins if p["data-part"].startswith("U")):
            if chip["data-name"] == "CLK":
                assert chip["data-net"] == f"CLOCK {side} (B{side} pin 4)"
            if chip["data-name"] == "SH/LD":
                assert chip["data-net"] == f"LATCH {side} (B{side} pin 8)"


@pytest.mark.parametrize("layout", BOARDS, ids=IDS)
def test_each_pull_up_is_a_pin_of_its_chips_network(layout: Layout) -> None:
    """Item 12: each input's 10 kΩ is a pin 2 to 9 of its chip's SIP-9, pin 1 the common to 3.3 V."""
    for root in _sheets(layout).values():
        words = [t.text or "" for t in root.iter(f"{SVG}text")]
        seen: dict[int, list[str]] = {}
        for group in root.iter(f"{SVG}g"):
            if group.attrib.get("class") == "input" and group.attrib["data-hole"]:
                labels = [t.text or "" for t in group.iter(f"{SVG}text") if (t.text or "").startswith("RN")]
                chip = int(group.attrib["data-chip"])
                assert len(labels) == 1 and labels[0].startswith(f"RN{chip}."), labels
                seen.setdefault(chip, []).append(labels[0])
        for chip, found in seen.items():
            assert {int(label.split(".")[1]) for label in found} <= set(range(2, 10))
            assert len(found) == len(set(found)) and f"RN{chip} pin 1: 3.3 V" in words


def test_the_hookup_sheet_has_the_pins_the_software_uses() -> None:
    """The Pico's clock, latch and data (GP2, GP3, GP4 as the firmware drives them), the Pi's
    SPI MOSI through the 74AHCT125 and 330 Ω, the buttons to GND and the buzzer's transistor."""
    root = _sheets(default_layout(4))["hookup"]
    pins = {(p["data-part"], p["data-name"]): int(p["data-pin"]) for p in _pins(root)}
    assert pins[("Pico", "GP2")] == 4 and pins[("Pico", "GP3")] == 5 and pins[("Pico", "GP4")] == 6
    assert pins[("Pico", "3V3(OUT)")] == 36
    assert pins[("Raspberry Pi", "GPIO10 MOSI")] == 19 and pins[("Raspberry Pi", "GPIO5")] == 29
    assert pins[("Raspberry Pi", "GPIO6")] == 31 and pins[("Raspberry Pi", "GPIO13")] == 33
    shifter = {p["data-name"]: (int(p["data-pin"]), p["data-net"]) for p in _pins(root) if p["data-part"] == "LS1"}
    assert {name: pin for name, (pin, _) in shifter.items()} == HC125  # all 14 pins, the datasheet's numbers
    assert shifter["1OE"][1] == "GND" and shifter["1A"][1] == "Pi GPIO10 (pin 19)"
    assert all(shifter[name][1] == "GND" for name in ("2A", "3A", "4A", "GND"))
    assert all(shifter[name][1] == "5 V" for name in ("2OE", "3OE", "4OE"))
    words = " ".join(t.text or "" for t in root.iter(f"{SVG}text"))
    for part in (
        "330 Ω R4",
        "DIN of pixel 0 (T0:0)",
        "R1 33-100 Ω",
        "R2 33-100 Ω",
        "1 kΩ R3",
        "Q1 2N3904",
        "D1 1N4148",
        "Done",
        "Undo",
        "5 V (Pi pin 2)",
        "F4: side 3, pixel 84",
        "1000 µF",
    ):
        assert part in words, part


@pytest.mark.parametrize("layout", BOARDS, ids=IDS)
def test_the_trunks_are_drawn_with_one_schmitt_tap_a_side(layout: Layout) -> None:
    """Issue 35 item 8: the clock and latch trunks are drawn, each tapped once a side by that
    side's 74HC14 (B0, B1, ...), on the inputs its side sheet wires them to (1A pin 1, 3A pin 5)."""
    root = _sheets(layout)["hookup"]
    words = [t.text or "" for t in root.iter(f"{SVG}text")]
    assert "CLOCK (ribbon wire 2) to each Bn 1A (pin 1)" in words
    assert "LATCH (ribbon wire 4) to each Bn 3A (pin 5)" in words
    assert sorted(w for w in words if w[:1] == "B" and w[1:].isdigit()) == sorted(
        [f"B{side}" for side in range(layout.sides)] * 2
    )


@pytest.mark.parametrize("layout", BOARDS, ids=IDS)
def test_every_sheet_is_a4_with_readable_text_inside_its_margins(layout: Layout) -> None:
    """Readable printed on A4: the sheet is 297 x 210 mm in mm units, no text under 2.5 mm, every
    word inside 10 mm margins, and no two texts on top of each other."""
    for name, root in _sheets(layout).items():
        assert (root.attrib["width"], root.attrib["height"], root.attrib["viewBox"]) == (
            "297mm",
            "210mm",
            "0 0 297 210",
        )
        texts = list(root.iter(f"{SVG}text"))
        assert texts and all(float(t.attrib["font-size"]) >= 2.5 for t in texts)
        boxes = [_box(t) for t in texts]
        for box, text in zip(boxes, texts, strict=True):
            assert box[0] >= 10 and box[2] <= 287 and box[1] >= 10 and box[3] <= 200, (
                f"{name}: {text.text!r} off the sheet"
            )
        for i, a in enumerate(boxes):
            for b in boxes[i + 1 :]:
                assert not (a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]), f"{name}: {a} over {b}"


def test_the_command_writes_the_sheets_and_refuses_bad_input(tmp_path: Path) -> None:
    def pegs(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "referee.cli", "schematic", *args],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
            cwd=tmp_path,
        )

    done = pegs("--sides", "10", "--out", "circuit.svg")
    assert done.returncode == 0 and done.stderr == "" and "11 A4 sheets" in done.stdout
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["circuit-hookup.svg"] + [f"circuit-side-{side}.svg" for side in range(10)]
    )
    for bad, words in (
        (["--layout", "missing.toml"], "pegs: layout:"),
        (["--out", "nowhere/x.svg"], "not a directory"),
        (["--out", "x.pdf"], "not an .svg file name"),
    ):
        refused = pegs("--out", "x.svg", *bad)
        assert refused.returncode == 2 and refused.stdout == "" and words in refused.stderr, refused.stderr
        assert len(refused.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "x-hookup.svg").exists()


def test_the_guides_schematic_is_the_commands() -> None:
    """docs/schematic-4-*.svg: made by `pegs schematic --sides 4 --out docs/schematic-4.svg`, never by hand."""
    made = dict(schematic_sheets(default_layout(4)))
    shipped = {
        path.name.removeprefix("schematic-4-").removesuffix(".svg"): path.read_text()
        for path in DOCS.glob("schematic-4-*.svg")
    }
    assert shipped == made
