"""``pegs template``: the 1:1 drilling template (issue 12: "the template's hole count and
spacing for 4, 6 and 8 sides and its agreement with default_layout").

The board itself is the Ukrainian translation's ("Players and Equipment"): 18 track holes a
side, the in-spot 3 holes past the corner with 5 home holes inward from it, 5 start holes
beside the come-out hole 8 past the corner, and an optional colour-marker hole
(hardware/layout.py). The SVG is read back with an XML
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

from hardware.layout import Layout, Wire, board_holes, default_layout, layout_from_channels, parse_hole
from referee import geometry as page
from referee.kit.template import PAPERS, Template
from tests.board_layouts import BOARDS, IDS

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


@pytest.mark.parametrize(
    ("sides", "markers", "count"),
    [(4, False, 112), (6, False, 168), (8, False, 224), (4, True, 116), (6, True, 174), (8, True, 232)],
)
def test_every_hole_at_its_pitch_and_wired_as_the_daemon_reads_it(sides: int, markers: bool, count: int) -> None:
    layout = default_layout(sides, markers)
    pitch, hole = 25.0, 10.0
    svg = Template(layout, pitch=pitch, hole=hole).svg()
    holes = _holes(svg)
    assert len(holes) == count and set(holes) == set(layout.hole_names)
    # The track: 18 holes a side, each a pitch from the next, round the whole board.
    # (referee.geometry keeps 0.01 of its 10-unit pitch: at most 0.02 mm here, far under a drill's play)
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
    drawn = Layout(
        sides,
        tuple(Wire(name, int(h["data-channel"]), int(h["data-pixel"])) for name, h in holes.items()),
        layout.active_low,
        layout.pixels,
    )
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
    chain = next(
        e for e in ET.fromstring(Template(layout).svg()).iter(f"{SVG}polyline") if e.attrib["class"] == "channel-chain"
    )
    first = chain.attrib["points"].split()[0]
    x, y = _centre(holes[layout.hole(0)])
    assert first == f"{x - 1.2:.2f},{y - 1.2:.2f}"  # the sensor chain starts at channel 0's hole


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_sheets_cover_every_hole_and_fit_the_paper(paper: str) -> None:
    """Issue 23 items 5 and 6: the printed sheets together hold every hole and every pixel's mark
    whole, inside a sheet's printable part, so nothing is drilled from a mark cut by an edge."""
    drawing = Template(default_layout(6, True))
    sheets = list(drawing.sheets(PAPERS[paper]))
    size = PAPERS[paper]
    covered: set[str] = set()
    marked: set[str] = set()
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
        for name, (x, y, r, _) in _leds(root).items():
            if x0 <= x - r and x + r <= x1 and y0 <= y - r and y + r <= y1:
                marked.add(name)
    assert covered == set(drawing.places) == marked
    width, height = drawing.size
    assert len(sheets) <= math.ceil(width / 150) * math.ceil(height / 240)


def test_the_command_writes_the_board_and_its_sheets_and_refuses_bad_sizes(tmp_path: Path) -> None:
    def pegs(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "referee.cli", "template", *args],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
            cwd=tmp_path,
        )

    done = pegs("--sides", "8", "--out", "board.svg", "--paper", "letter")
    assert done.returncode == 0 and done.stderr == "" and "224 holes" in done.stdout
    assert len(_holes((tmp_path / "board.svg").read_text())) == 224
    assert (tmp_path / "board-sheet-1-1.svg").exists()
    for bad, words in (
        (["--pitch", "12"], "under 4 mm of wood"),
        (["--hole", "0"], "from 3 to 40 mm"),
        (["--layout", "missing.toml"], "pegs: layout:"),
        (["--pitch", "7", "--hole", "3"], "5 mm pixel holes do not fit"),
    ):
        refused = pegs("--out", "x.svg", *bad)
        assert refused.returncode == 2 and refused.stdout == "" and words in refused.stderr
        assert len(refused.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "x.svg").exists()


def _text_boxes(root: ET.Element) -> list[tuple[float, float, float, float]]:
    """Each text's box, measured generously (0.6 of the font size a character), the way
    docs/building.md's readers see it: left, top, right, bottom."""
    boxes = []
    for text in root.iter(f"{SVG}text"):
        size, words = float(text.attrib["font-size"]), text.text or ""
        width, x, y = 0.6 * size * len(words), float(text.attrib["x"]), float(text.attrib["y"])
        left = {"middle": x - width / 2, "end": x - width}.get(text.attrib.get("text-anchor", ""), x)
        boxes.append((left, y - 0.8 * size, left + width, y + 0.25 * size))
    return boxes


def _leds(root: ET.Element) -> dict[str, tuple[float, float, float, int]]:
    """hole -> (x, y, radius, pixel) of its LED mark; fails on a hole marked twice."""
    found: dict[str, tuple[float, float, float, int]] = {}
    for group in root.iter(f"{SVG}g"):
        if "data-led" in group.attrib:
            assert group.attrib["data-led"] not in found, f"two LED marks for {group.attrib['data-led']}"
            circle = group.find(f"{SVG}circle")
            assert circle is not None
            found[group.attrib["data-led"]] = (
                float(circle.attrib["cx"]),
                float(circle.attrib["cy"]),
                float(circle.attrib["r"]),
                int(group.attrib["data-pixel"]),
            )
    return found


def _segments(points: str) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    xy = [tuple(float(v) for v in point.split(",")) for point in points.split()]
    return [((a[0], a[1]), (b[0], b[1])) for a, b in itertools.pairwise(xy)]


def _near(point: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> float:
    (px, py), (ax, ay), (bx, by) = point, a, b
    length = (bx - ax) ** 2 + (by - ay) ** 2
    t = 0.0 if length == 0 else max(0.0, min(1.0, ((px - ax) * (bx - ax) + (py - ay) * (by - ay)) / length))
    return math.dist(point, (ax + t * (bx - ax), ay + t * (by - ay)))


@pytest.mark.parametrize("layout", BOARDS, ids=IDS)
def test_every_pixel_has_one_mark_clear_of_the_chains_holes_and_labels(layout: Layout) -> None:
    """Issue 23 item 5: the guide says to drill each pixel where the template shows it, so each
    wired hole has one LED mark with its pixel number, the same offset from its peg hole on every
    side (in the side's own directions), and no chain line, peg hole, label or other mark on it;
    on the standard chain no chain line crosses a hole's label either."""
    drawing = Template(layout)
    root = ET.fromstring(drawing.svg())
    holes, leds = _holes(drawing.svg()), _leds(root)
    assert set(leds) == set(holes) == set(layout.hole_names)
    board = page.geometry(layout.sides)
    offsets = set()
    for name, (x, y, radius, pixel) in leds.items():
        assert radius == 2.5 and pixel == layout.pixel(name)
        (hx, hy), (ax, ay), (nx, ny) = (
            _centre(holes[name]),
            *(f(parse_hole(name)[1]) for f in (board.along, board.inward)),
        )
        offsets.add((round((x - hx) * ax + (y - hy) * ay, 1), round((x - hx) * nx + (y - hy) * ny, 1)))
    assert offsets == {(-8.5, -8.5)}  # 12 mm: back against play and out towards the edge, 45 degrees
    lines = [
        s
        for e in root.iter(f"{SVG}polyline")
        if e.attrib["class"].endswith("-chain")
        for s in _segments(e.attrib["points"])
    ]
    assert len(lines) >= 2 * (len(holes) - 1)
    for name, (x, y, radius, _) in leds.items():
        assert all(_near((x, y), a, b) > radius + 0.25 for a, b in lines), f"a chain line runs over {name}'s LED mark"
        assert all(math.dist((x, y), _centre(h)) > radius + float(h["r"]) + 1.2 for h in holes.values())
        assert all(math.dist((x, y), other[:2]) > 2 * radius for other in leds.values() if other != leds[name])
    labels = [box for g in root.iter(f"{SVG}g") if "data-hole" in g.attrib for box in _text_boxes(g)]
    assert len(labels) == 2 * len(holes)  # each hole's name and its sensor's input
    for name, (x, y, radius, _) in leds.items():
        for left, top, right, bottom in labels:
            nearest = (min(max(x, left), right), min(max(y, top), bottom))
            assert math.dist((x, y), nearest) > radius, f"{name}'s LED mark covers a label"
    if layout.wires == default_layout(layout.sides, bool(layout.colour_markers)).wires:
        for a, b in lines:  # the standard chain leaves room for every label beside its line
            for box in labels:
                steps = [(a[0] + (b[0] - a[0]) * t / 200, a[1] + (b[1] - a[1]) * t / 200) for t in range(201)]
                assert not any(box[0] < x < box[2] and box[1] < y < box[3] for x, y in steps), (
                    f"a chain line runs over {box}"
                )


@pytest.mark.parametrize("sides", [4, 6, 8, 10])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_sheet_has_its_own_true_scale_bar_inside_the_margins(sides: int, paper: str) -> None:
    """Issue 23 item 6: a builder checks the printer's scale on the sheet in hand, so each sheet
    has a bar 100 mm long in the sheet's own millimetres, printable (inside the margins), and off
    every hole, pixel mark and label."""
    drawing = Template(default_layout(sides))
    size = PAPERS[paper]
    for name, svg in drawing.sheets(size):
        root = ET.fromstring(svg)
        width = float(root.attrib["width"].removesuffix("mm"))
        left, top, view_width, view_height = (float(v) for v in root.attrib["viewBox"].split())
        assert view_width == width  # one user unit is one printed mm
        bars = [p for p in root.iter(f"{SVG}path") if p.attrib.get("class") == "sheet-scale-bar"]
        assert len(bars) == 1, name
        move, rest = bars[0].attrib["d"].removeprefix("M").split("h", 1)
        x, y = (float(v) for v in move.split(","))
        assert rest.startswith("100M")
        ticks = [float(t.split(",")[0]) for t in rest.split("M")[1:]]
        assert min(ticks) == pytest.approx(x, abs=0.01) and max(ticks) == pytest.approx(x + 100, abs=0.01)
        bar = (x - 1, y - 6, x + 101, y + 5)  # the ticks above, "100 mm" below
        assert left + size.margin <= bar[0] and bar[2] <= left + view_width - size.margin, name
        assert top + size.margin <= bar[1] and bar[3] <= top + view_height - size.margin, name
        for hole in [*drawing.places.values(), *drawing.leds.values()]:
            nearest = (min(max(hole[0], bar[0]), bar[2]), min(max(hole[1], bar[1]), bar[3]))
            assert math.dist(hole, nearest) > 2.5, f"{name}'s scale bar covers a hole"


@pytest.mark.parametrize("layout", BOARDS[:4], ids=IDS[:4])
def test_the_chain_ends_are_tagged_off_every_label(layout: Layout) -> None:
    """Issue 23 item 10: the rings that marked where the chains start and end printed over the
    names of T0:0 and T3:17; now each end is a tag with a leader, and no text box meets a tag."""
    root = ET.fromstring(Template(layout).svg())
    tags = [g for g in root.iter(f"{SVG}g") if g.attrib.get("class") == "chain-end"]
    ends = [layout.hole(0), layout.hole(max(layout.channels.values())), layout.hole_names[0]]
    assert sorted(g.attrib["data-end"] for g in tags) == sorted(ends)
    words = {text.text for g in tags for text in g.iter(f"{SVG}text")}
    assert words == {"sensors start", "sensors end", "pixels start"}
    boxes = []
    for g in tags:
        rect = g.find(f"{SVG}rect")
        assert rect is not None
        x, y = float(rect.attrib["x"]), float(rect.attrib["y"])
        boxes.append((x, y, x + float(rect.attrib["width"]), y + float(rect.attrib["height"])))
    tag_words = {id(t) for g in tags for t in g.iter(f"{SVG}text")}
    others = [
        box for box, text in zip(_text_boxes(root), root.iter(f"{SVG}text"), strict=True) if id(text) not in tag_words
    ]
    for a in boxes:
        assert not any(
            a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3] for b in others + [t for t in boxes if t != a]
        )
    holes = _holes(Template(layout).svg())
    for a in boxes:
        for hole in holes.values():
            (x, y), r = _centre(hole), float(hole["r"]) + 1.2
            assert math.dist((x, y), (min(max(x, a[0]), a[2]), min(max(y, a[1]), a[3]))) > r


@pytest.mark.parametrize("sides", [4, 6, 8, 10])
def test_the_guides_wiring_drawings_are_the_templates(sides: int) -> None:
    """docs/building.md shows docs/wiring-N.svg: made by `pegs template --paper none`, never by hand."""
    assert (DOCS / f"wiring-{sides}.svg").read_text() == Template(default_layout(sides)).svg()


def test_a_ten_sided_boards_index_says_which_sheets_hold_holes(tmp_path: Path) -> None:
    """Issue 35, item 12: 23 of the 54 A4 sheets of a 10-sided board hold no hole. Only the 31
    that do are written; board-index.svg draws all 54 by name, the empty ones grey, and every
    written sheet holds a hole (its printable part: the page less its margins)."""
    done = subprocess.run(
        [sys.executable, "-m", "referee.cli", "template", "--sides", "10", "--out", "board.svg", "--config", "none"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert "31 A4 sheets board-sheet-R-C.svg (of 6 x 9: the other 23 hold no hole" in done.stdout
    written = sorted(path.name for path in tmp_path.glob("board-sheet-*.svg"))
    index = ET.fromstring((tmp_path / "board-index.svg").read_text())
    cells = {g.attrib["data-sheet"]: g.attrib["data-holes"] for g in index.iter(f"{SVG}g")}
    assert len(cells) == 54 and sorted(f"{name}.svg" for name, holds in cells.items() if holds == "true") == sorted(
        name.removeprefix("board-") for name in written
    )
    assert len(written) == 31
    texts = {text.text for text in index.iter(f"{SVG}text")}
    assert "1-1 empty" in texts and any(t and "31 of them hold the 280 holes" in t for t in texts)
    drawing, size = Template(default_layout(10)), PAPERS["a4"]
    for name in written:
        root = ET.fromstring((tmp_path / name).read_text())
        left, top, width, height = (float(v) for v in root.attrib["viewBox"].split())
        box = (left + size.margin, top + size.margin, left + width - size.margin, top + height - size.margin)
        assert any(box[0] <= x <= box[2] and box[1] <= y <= box[3] for x, y in drawing.places.values()), name


def test_registration_targets_lie_on_their_neighbours() -> None:
    """Issue 35, item 12: each sheet has a target in each corner, in the band it shares with its
    neighbours (template_paper.OVERLAP), so a target lies on the neighbouring sheet's target."""
    drawing = Template(default_layout(6))
    targets: dict[str, set[tuple[float, float]]] = {}
    for name, svg in drawing.sheets(PAPERS["a4"]):
        circles = [
            g.find(f"{SVG}circle") for g in ET.fromstring(svg).iter(f"{SVG}g") if g.get("class") == "registration"
        ]
        targets[name] = {(float(c.attrib["cx"]), float(c.attrib["cy"])) for c in circles if c is not None}
        assert len(targets[name]) == 4, name
    grid = drawing.sheet_grid(PAPERS["a4"])
    shared = 0
    for (row, column), (other_row, other_column) in itertools.permutations(grid.used, 2):
        if (other_row - row, other_column - column) in ((0, 1), (1, 0)):
            common = targets[f"sheet-{row + 1}-{column + 1}"] & targets[f"sheet-{other_row + 1}-{other_column + 1}"]
            assert len(common) == 2
            shared += 1
    assert shared > 10


def test_each_sides_chips_are_tagged_where_they_start() -> None:
    """Issue 35, item 10: chips straddle sides (on 4 sides U4 reads T0:14 to T1:3), so each side's
    module is tagged at its first chip's first hole with its chips, grouped as the schematic's side
    sheets group them (referee.kit.schematic.sheets_by_side)."""
    from referee.kit.schematic import sheets_by_side

    for sides in (4, 10):
        layout = default_layout(sides)
        root = ET.fromstring(Template(layout).svg())
        tags = {g.attrib["data-side"]: g for g in root.iter(f"{SVG}g") if g.get("class") == "side-start"}
        assert sorted(tags, key=int) == [str(side) for side in range(1, sides)]
        for side, chips in sheets_by_side(layout).items():
            if side:
                first = chips[0].number
                words = {text.text for text in tags[str(side)].iter(f"{SVG}text")}
                assert words == {f"side {side}: U{first} to U{chips[-1].number}"}
                assert tags[str(side)].attrib["data-end"] == layout.hole((first - 1) * 8)
