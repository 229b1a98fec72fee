"""The bill of materials (``pegs parts``) counts what the board needs from its layout.

Issue 23: "a bill of materials per size (4, 6, 8, 10 sides) with quantities and a maker's
part number for each line, as CSV beside the guide, generated from the layout so that it
cannot drift", and the parts the guide's text asks for that the old list left out: "the
10 uF capacitor per side, the clock buffers for 6- to 10-sided boards, ribbon cable, fuses
on the injection runs, a 1000 uF capacitor per injection point".
"""

from __future__ import annotations

import csv
import io
import subprocess
import sys
from pathlib import Path

import pytest

from hardware.layout import default_layout
from referee.kit.parts import COLUMNS, parts_list, to_csv

DOCS = Path(__file__).parent.parent / "docs"
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
    buffers = sides if sides >= 6 else 0
    got = quantities(sides, markers)
    assert got["A3144EUA-T"] == holes and got["WS2812D-F5"] == holes
    assert got["SN74HC165N"] == chips == got["ED16DT"] == got["4609X-101-103LF"]
    assert got["C320C104K5R5TA"] == chips + 1 + buffers  # a 100 nF at every chip
    assert got["ECA-1CM100"] == sides  # 10 uF per side
    assert got.get("SN74HC125N", 0) == buffers  # clock buffers on 6 to 10 sides only
    assert got["EEU-FR1A102"] == got["0287003.PXCN"] == got["0FHM0001ZXJ"] == sides  # per injection point
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
                assert part.maker == "any" and ("magnet" in part.name or "wire" in part.name)
            else:
                assert part.maker and part.maker != "any"


def test_supply_grows_with_the_board() -> None:
    supplies = [
        next(part.number for part in parts_list(default_layout(n)) if "supply" in part.name) for n in (4, 6, 8, 10)
    ]
    assert supplies == ["LRS-35-5", "LRS-50-5", "LRS-50-5", "LRS-75-5"]


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
