"""``pegs template``: the 1:1 drilling template (issue 12: "the template's hole count and
spacing for 4, 6 and 8 sides and its agreement with default_layout").

The board itself is seed 003's: 18 track holes a side, the in-spot 3 holes past the corner
with 5 home holes inward from it, 5 start holes beside the come-out hole 8 past the corner,
and an optional colour-marker hole (hardware/layout.py). The SVG is read back with an XML
parser, the way a printer or a builder's CAD program would read it.
"""

from __future__ import annotations

import itertools
import math
import random
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from hardware.layout import Layout, Wire, board_holes, default_layout, layout_from_channels
from referee.table.template import PAPERS, Template

SVG = "{http://www.w3.org/2000/svg}"
DOCS = Path(__file__).parent.parent / "docs"


def _holes(svg: str) -> dict[str, dict[str, str]]:
    """Each drawn hole's data attributes, plus its circle's centre and radius."""
    found = {}
    for group in ET.fromstring(svg).iter(f"{SVG}g"):
        if "data-hole" in group.attrib:
            circle = group.find(f"{SVG}circle")
            assert circle is not None
            found[group.attrib["data-hole"]] = {**group.attrib, **circle.attrib}
    return found


def _centre(hole: dict[str, str]) -> tuple[float, float]:
    return float(hole["cx"]), float(hole["cy"])


@pytest.mark.parametrize(("sides", "markers", "count"), [(4, False, 112), (6, False, 168), (8, False, 224),
                                                        (4, True, 116), (6, True, 174), (8, True, 232)])  # fmt: skip
def test_every_hole_at_its_pitch_and_wired_as_the_daemon_reads_it(sides: int, markers: bool, count: int) -> None:
    layout = default_layout(sides, markers)
    pitch, hole = 25.0, 10.0
    svg = Template(layout, pitch=pitch, hole=hole).svg()
    holes = _holes(svg)
    assert len(holes) == count and set(holes) == set(layout.hole_names)
    # The track: 18 holes a side, each a pitch from the next, round the whole board.
    # (web.geometry keeps 0.01 of its 10-unit pitch: at most 0.02 mm here, far under a drill's play)
    track = [f"T{s}:{k}" for s in range(sides) for k in range(18)]
    for here, there in zip(track, track[1:] + track[:1], strict=True):
        assert math.dist(_centre(holes[here]), _centre(holes[there])) == pytest.approx(pitch, abs=0.02)
    for side in range(sides):  # home from the in-spot inward, start holes side by side
        for row in ([f"T{side}:3"] + [f"H{side}:{d}" for d in range(1, 6)], [f"S{side}:{i}" for i in range(1, 6)]):
            for here, there in itertools.pairwise(row):
                assert math.dist(_centre(holes[here]), _centre(holes[there])) == pytest.approx(pitch, abs=0.02)
    closest = min(math.dist(_centre(a), _centre(b)) for a, b in itertools.combinations(holes.values(), 2))
    assert closest >= hole + 4.0  # wood between any two holes
    assert all(float(h["r"]) == hole / 2 for h in holes.values())
    # What the daemon reads: a layout made from the template's labels is default_layout.
    drawn = Layout(sides, tuple(Wire(name, int(h["data-channel"]), int(h["data-pixel"])) for name, h in holes.items()),
                   layout.active_low, layout.pixels)  # fmt: skip
    assert {w.hole: (w.channel, w.pixel) for w in drawn.wires} == {w.hole: (w.channel, w.pixel) for w in layout.wires}


def test_the_sheet_is_in_millimetres_with_a_true_scale_bar() -> None:
    drawing = Template(default_layout(4), pitch=22.0, hole=8.0)
    root = ET.fromstring(drawing.svg())
    width, height = drawing.size
    assert root.attrib["width"] == f"{width:.2f}mm" and root.attrib["height"] == f"{height:.2f}mm"
    assert root.attrib["viewBox"] == f"0 0 {width:.2f} {height:.2f}"  # one user unit is one mm
    bar = next(p for p in root.iter(f"{SVG}path") if p.attrib.get("class") == "scale-bar")
    assert "h100" in bar.attrib["d"].split("M")[1]
    holes = _holes(drawing.svg())
    assert all(0 < float(h["cx"]) < width and 0 < float(h["cy"]) < height for h in holes.values())


def test_a_calibrated_board_is_drawn_as_it_was_wired() -> None:
    """A board wired in another order (pegs calibrate's layout) gets its own labels and chain."""
    names = list(board_holes(4))
    channels = list(range(len(names)))
    random.Random(3).shuffle(channels)
    layout = layout_from_channels(4, dict(zip(names, channels, strict=True)))
    holes = _holes(Template(layout).svg())
    assert {name: int(h["data-channel"]) for name, h in holes.items()} == dict(zip(names, channels, strict=True))
    chain = next(e for e in ET.fromstring(Template(layout).svg()).iter(f"{SVG}polyline")
                 if e.attrib["class"] == "channel-chain")  # fmt: skip
    first = chain.attrib["points"].split()[0]
    x, y = _centre(holes[layout.hole(0)])
    assert first == f"{x - 1.2:.2f},{y - 1.2:.2f}"  # the sensor chain starts at channel 0's hole


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_sheets_cover_every_hole_and_fit_the_paper(paper: str) -> None:
    drawing = Template(default_layout(6, True))
    sheets = list(drawing.sheets(PAPERS[paper]))
    size = PAPERS[paper]
    covered: set[str] = set()
    for _, svg in sheets:
        root = ET.fromstring(svg)
        page = (float(root.attrib["width"].removesuffix("mm")), float(root.attrib["height"].removesuffix("mm")))
        assert sorted(page) == sorted((size.width, size.height))  # portrait or landscape, whichever takes fewer
        left, top, _, _ = (float(v) for v in root.attrib["viewBox"].split())
        x0, y0 = left + size.margin, top + size.margin  # the printable part of the page
        x1, y1 = x0 + page[0] - 2 * size.margin, y0 + page[1] - 2 * size.margin
        for name, hole in _holes(svg).items():
            (x, y), r = _centre(hole), float(hole["r"])
            if x0 <= x - r and x + r <= x1 and y0 <= y - r and y + r <= y1:
                covered.add(name)
    assert covered == set(drawing.places)
    width, height = drawing.size
    assert len(sheets) <= math.ceil(width / 150) * math.ceil(height / 240)


def test_the_command_writes_the_board_and_its_sheets_and_refuses_bad_sizes(tmp_path: Path) -> None:
    def pegs(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "referee.table.cli", "template", *args],
                              capture_output=True, text=True, timeout=60, check=False, cwd=tmp_path)  # fmt: skip

    done = pegs("--sides", "8", "--out", "board.svg", "--paper", "letter")
    assert done.returncode == 0 and done.stderr == "" and "224 holes" in done.stdout
    assert len(_holes((tmp_path / "board.svg").read_text())) == 224
    assert (tmp_path / "board-sheet-1-1.svg").exists()
    for bad, words in ((["--pitch", "12"], "under 4 mm of wood"), (["--hole", "0"], "from 3 to 40 mm"),
                       (["--layout", "missing.toml"], "pegs: layout:")):  # fmt: skip
        refused = pegs("--out", "x.svg", *bad)
        assert refused.returncode == 2 and refused.stdout == "" and words in refused.stderr
        assert len(refused.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "x.svg").exists()


@pytest.mark.parametrize("sides", [4, 6, 8])
def test_the_guides_wiring_drawings_are_the_templates(sides: int) -> None:
    """docs/building.md shows docs/wiring-N.svg: made by `pegs template --paper none`, never by hand."""
    assert (DOCS / f"wiring-{sides}.svg").read_text() == Template(default_layout(sides)).svg()
