"""The bill of materials (``pegs parts``) counts what the board needs from its layout.

Issue 23: "a bill of materials per size (4, 6, 8, 10 sides) with quantities and a maker's
part number for each line, as CSV beside the guide, generated from the layout so that it
cannot drift", and the parts the guide's text asks for that the old list left out: "the
10 uF capacitor per side, the clock buffers for 6- to 10-sided boards, ribbon cable, fuses
on the injection runs, a 1000 uF capacitor per injection point". Issue 35: the fuse holder
that takes the fuse (Littelfuse's FHAC is the ATO holder), one supply per size, the mains
parts, and the kit beyond the boards.
"""

from __future__ import annotations

import csv
import io
import subprocess
import sys
from pathlib import Path

import pytest

from hardware.layout import default_layout
from referee.kit.costs import PRICED, approximate_cost
from referee.kit.parts import COLUMNS, parts_list, supply_amps, to_csv
from referee.kit.schematic import schematic_sheets

DOCS = Path(__file__).parent.parent / "docs"
COMMODITY = (
    *("neodymium", "power", "bus", "mains", "closed", "cable", "microSD", "USB", "peg", "plank", "drill"),
    *("stripboard", "hookup", "heat-shrink", "sensor"),
)
# Counted here by hand from the guide's tables: holes per side 28 (29 with a colour marker).
HOLES = {4: 112, 6: 168, 8: 224, 10: 280}


def quantities(sides: int, markers: bool = False) -> dict[str, float]:
    """Maker's part number -> quantity."""
    return {part.number: part.quantity for part in parts_list(default_layout(sides, markers)) if part.number != "-"}


@pytest.mark.parametrize("sides", [4, 6, 8, 10])
@pytest.mark.parametrize("markers", [False, True])
def test_counts_follow_the_board(sides: int, markers: bool) -> None:
    holes = HOLES[sides] + (sides if markers else 0)
    chips = -(-holes // 8)  # whole 74HC165s, 8 inputs each
    buffers = sides  # a 74HC14 on every side's chip board (issue 35, item 8)
    got = quantities(sides, markers)
    assert got["A3144EUA-T"] == holes and got["WS2812D-F5"] == holes
    assert got["SN74HC165N"] == chips == got["ED16DT"] == got["4609X-101-103LF"]
    assert got["C320C104K5R5TA"] == chips + 1 + buffers + holes  # every chip, and every pixel (Adafruit)
    assert got["ECA-1CM100"] == sides  # 10 uF per side
    assert got["CD74HC14E"] == buffers and "SN74HC125N" not in got  # Schmitt-input clock buffers
    assert got["EEU-FR1A102"] == got["0287003.PXCN"] == got["0287001.PXCN"] == sides  # per injection point
    # issue 35 item 3: the ATO holder (FHAC) for both ATO fuses of a side, never the MINI holder 0FHM0001ZXJ
    assert got["FHAC0001ZXJ"] == 2 * sides and "0FHM0001ZXJ" not in got
    assert got["CFR-25JB-52-10K"] == 1  # the level shifter's input pull-down
    assert got["DD11.0114.1111"] == 1 and got["0218002.MXP"] == 2  # the mains inlet and its fuse, a spare
    assert got["SN74AHCT125N"] == 1 and got["SC0915"] == 1
    magnets = next(part for part in parts_list(default_layout(sides, markers)) if "magnet" in part.name)
    assert magnets.quantity == 5 * sides + (sides if markers else 0)


def test_cable_lengths_grow_with_the_board() -> None:
    def metres(sides: int, what: str) -> float:
        return next(part.quantity for part in parts_list(default_layout(sides)) if what in part.name)

    ribbon = [metres(n, "ribbon") for n in (4, 6, 8, 10)]
    power = [metres(n, "power wire") for n in (4, 6, 8, 10)]
    assert ribbon == sorted(ribbon) and power == sorted(power) and ribbon[0] >= 2.0
    # A 4-sided board's sensor chain runs round 112 holes 25 mm apart: at least 112 x 25 mm.
    assert ribbon[0] >= 112 * 0.025


def test_every_line_names_a_part_that_can_be_ordered() -> None:
    for sides in (4, 6, 8, 10):
        for part in parts_list(default_layout(sides)):
            assert part.quantity > 0 and part.unit in ("pcs", "m") and part.why
            if part.number == "-":  # only commodity goods have no single maker
                assert part.maker == "any" and part.name.split(",")[0].split(" ")[0] in COMMODITY
            else:
                assert part.maker and part.maker != "any"


def test_supply_grows_with_the_board() -> None:
    supplies = [
        next(part.number for part in parts_list(default_layout(n)) if "supply" in part.name) for n in (4, 6, 8, 10)
    ]
    assert supplies == ["LRS-35-5", "LRS-50-5", "LRS-50-5", "LRS-75-5"]


def test_one_supply_per_size_the_same_in_the_list_the_schematic_and_the_guide() -> None:
    """Issue 35 item 4: the 4-sided board's supply was 6 A in one place and 7 A in another. Mean Well's
    LRS-35-5 gives 7 A, the LRS-50-5 10 A, the LRS-75-5 14 A (their LRS datasheets); the parts line
    names the size's max_amps, and the guide's power table says the same supply and max_amps."""
    guide = (DOCS / "building.md").read_text(encoding="utf-8")
    for sides, (number, amps, cap) in {
        4: ("LRS-35-5", 7, 5.0),
        6: ("LRS-50-5", 10, 7.0),
        8: ("LRS-50-5", 10, 6.5),
        10: ("LRS-75-5", 14, 9.5),
    }.items():
        layout = default_layout(sides)
        supply = next(part for part in parts_list(layout) if part.name.startswith("LED power supply"))
        assert (supply.number, supply_amps(layout)) == (number, amps) and f"5 V {amps} A" in supply.name
        assert f"leds.max_amps = {cap:g}" in supply.why
        hookup = dict(schematic_sheets(layout))["hookup"]
        assert f">{amps} A<" in hookup
    assert "| LED supply, Mean Well (5 V) | LRS-35-5, 7 A | LRS-50-5, 10 A | LRS-50-5, 10 A | LRS-75-5, 14 A |" in guide
    assert "| `leds.max_amps` | 5.0 | 7.0 | 6.5 | 9.5 |" in guide


def test_the_kit_beyond_the_boards() -> None:
    """Issue 35 item 11: the Pi's own supply (Raspberry Pi's 27 W USB-C for a Pi 5), a microSD card,
    the Pico's data cable (an OTG adapter named for a Zero 2 W), a peg per magnet, a plank the
    template's size, and a bit for each hole the template draws (peg 10 mm, pixel 5 mm, the pocket)."""
    for sides, plank in {4: "520 x 520", 6: "980 x 850", 8: "1160 x 1160", 10: "1530 x 1460"}.items():
        parts = parts_list(default_layout(sides))
        names = [part.name for part in parts]
        assert any(part.number == "SC1153" for part in parts) and any(n.startswith("microSD") for n in names)
        cable = next(part for part in parts if part.name.startswith("USB cable"))
        assert "micro-USB" in cable.name and "OTG" in cable.why
        pegs = next(part for part in parts if part.name.startswith("peg"))
        magnets = next(part for part in parts if "magnet" in part.name)
        assert pegs.quantity == magnets.quantity == 5 * sides
        assert f"plank or plywood, 18 mm, at least {plank} mm" in names
        bits = [name for name in names if name.startswith("drill bit")]
        # one flat-bottomed bit for the peg hole and the pocket (section 1a), the pilot, the pixel
        assert bits == ["drill bit, Forstner, 10 mm", "drill bit, twist, 2 mm", "drill bit, brad-point, 5 mm"]


def test_the_harness_is_counted_from_the_layout() -> None:
    """Issue 35 item 7 and the guide's section 3a: a chip board per side with IN and OUT box
    headers (and one at the Pico), an IDC socket at each end of every ribbon length (one length
    per side), three wires from every sensor to its side's board, heat-shrink over every joint
    (three a sensor, four a pixel) and a printed carrier per sensor."""
    for sides in (4, 6, 8, 10):
        for markers in (False, True):
            layout = default_layout(sides, colour_markers=markers)
            got = {part.name.split(",")[0]: part for part in parts_list(layout)}
            holes = len(layout.hole_names)
            assert got["stripboard"].quantity == sides
            assert got["box header"].quantity == 2 * sides + 1 and got["box header"].number == "61201021621"
            assert got["IDC socket"].quantity == 2 * sides and got["IDC socket"].number == "89110-0101"
            assert got["sensor carrier"].quantity == holes
            joints = 3 * holes + 4 * layout.pixels
            assert joints * 0.020 <= got["heat-shrink tube"].quantity <= joints * 0.020 * 1.2 + 0.5
            # each sensor is at least one pitch from its side's middle save a few; three wires each
            assert got["hookup wire"].quantity >= 3 * holes * 0.025


def test_an_approximate_dated_cost_per_size() -> None:
    """Issue 35 item 11: every line has a price (one table, dated), the cost grows with the board, and
    the guide gives each size's cost as the code sums it, saying it is approximate and when."""
    guide = (DOCS / "building.md").read_text(encoding="utf-8")
    costs = [approximate_cost(parts_list(default_layout(sides))) for sides in (4, 6, 8, 10)]
    assert costs == sorted(costs) and 150 < costs[0] < costs[-1] < 1000
    row = " | ".join(f"about {round(cost, -1):.0f} €" for cost in costs)
    assert f"| approximate cost ({PRICED}) | {row} |" in guide


@pytest.mark.parametrize("sides", [4, 6, 8, 10])
def test_the_csv_files_beside_the_guide_are_what_pegs_parts_makes(sides: int) -> None:
    shipped = (DOCS / f"parts-{sides}.csv").read_text(encoding="utf-8")
    assert shipped == to_csv(parts_list(default_layout(sides))), (
        f"run: pegs parts --sides {sides} --out docs/parts-{sides}.csv"
    )
    rows = list(csv.reader(io.StringIO(shipped)))
    assert tuple(rows[0]) == COLUMNS and all(len(row) == len(COLUMNS) for row in rows)


def test_the_command_writes_and_prints_and_refuses_bad_input(tmp_path: Path) -> None:
    """``pegs parts`` as a builder runs it: to a file, to the screen, and a clear line for a bad
    folder or a bad layout (exit 2, no traceback)."""
    pegs = [sys.executable, "-m", "referee.cli", "parts"]
    out = tmp_path / "parts.csv"
    done = subprocess.run(
        [*pegs, "--sides", "8", "--markers", "--out", str(out)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0 and "for a board of 8 sides" in done.stdout
    assert out.read_text(encoding="utf-8") == to_csv(parts_list(default_layout(8, colour_markers=True)))
    shown = subprocess.run([*pegs, "--sides", "4"], capture_output=True, text=True, check=False)
    assert shown.returncode == 0 and shown.stdout == (DOCS / "parts-4.csv").read_text(encoding="utf-8")
    (tmp_path / "bad.toml").write_text("sides = 5\n")
    for argv in (["--out", str(tmp_path / "missing" / "parts.csv")], ["--layout", str(tmp_path / "bad.toml")]):
        refused = subprocess.run([*pegs, *argv], capture_output=True, text=True, check=False)
        assert refused.returncode == 2 and refused.stderr.count("\n") == 1 and "Traceback" not in refused.stderr
