"""How a sensor is mounted (issue 35, item 5): the section drawing and the printed carrier.

The carrier's STL is read back as a slicer would: a closed surface (every edge shared by exactly
two triangles, each once in each direction), outward normals (positive volume), and the sizes
the pocket asks for. The pinouts are the datasheets': Allegro A3141-A3144 ("pinning is shown
viewed from branded side": 1 supply, 2 ground, 3 output) and TI's TO-92 (LPG) hall sensors
(VCC 1, GND 2, OUT 3, as the DRV5055's pin table gives them).
"""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

from referee.kit import mounting
from referee.kit.carrier import HEIGHT, carrier_stl
from referee.kit.mounting import SENSORS, section_svg

SVG = "{http://www.w3.org/2000/svg}"
DOCS = Path(__file__).parent.parent / "docs"
Point = tuple[float, float, float]


def _read_stl(text: str) -> list[tuple[Point, Point, Point]]:
    lines = [line.split() for line in text.splitlines()]
    assert lines[0][0] == "solid" and lines[-1][0] == "endsolid"
    vertices = [(float(x), float(y), float(z)) for word, x, y, z in (line for line in lines if line[0] == "vertex")]
    assert len(vertices) % 3 == 0 and sum(line[0] == "facet" for line in lines) == len(vertices) // 3
    return [(vertices[i], vertices[i + 1], vertices[i + 2]) for i in range(0, len(vertices), 3)]


def test_the_carrier_is_a_closed_solid_of_the_pockets_size() -> None:
    triangles = _read_stl(carrier_stl())
    directed = Counter((a, b) for t in triangles for a, b in ((t[0], t[1]), (t[1], t[2]), (t[2], t[0])))
    assert max(directed.values()) == 1 and all(directed[(b, a)] == 1 for a, b in directed)  # watertight, manifold
    volume = sum(
        (a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) + a[2] * (b[0] * c[1] - b[1] * c[0]))
        / 6
        for a, b, c in triangles
    )
    points = [p for t in triangles for p in t]
    spans = [max(p[i] for p in points) - min(p[i] for p in points) for i in range(3)]
    assert spans == [mounting.FLANGE, mounting.FLANGE, HEIGHT]
    assert HEIGHT == mounting.FLANGE_THICK + mounting.pocket_depth() == 6.7
    solid = mounting.FLANGE**2 * mounting.FLANGE_THICK + mounting.SIDE**2 * mounting.pocket_depth()
    bed = mounting.RECESS[0] * mounting.RECESS[1] * mounting.RECESS[2]
    notch = mounting.NOTCH * (mounting.SIDE / 2 - mounting.RECESS[1] / 2) * HEIGHT
    assert abs(volume - (solid - bed - notch)) < 1e-6  # positive: the normals face out


def test_the_carrier_fits_the_pocket_and_holds_either_sensor_flat() -> None:
    """The body's diagonal fits the 10 mm pocket; each sensor's body fits its bed, face flush or
    under the top; the notch passes three leads at 1.27 mm pitch (0.5 mm wide at most)."""
    assert mounting.SIDE * 2**0.5 < mounting.POCKET < mounting.FLANGE
    assert mounting.FLANGE / 2 * 2**0.5 < mounting.HOLE / 2 + 7.0 - 2.5  # clear of the 5 mm pixel hole
    for sensor in SENSORS:
        width, height, thick = sensor.body
        assert width < mounting.RECESS[0] and height < mounting.RECESS[1] and thick <= mounting.RECESS[2]
    assert 2 * 1.27 + 0.5 < mounting.NOTCH < mounting.RECESS[0]
    assert mounting.pocket_depth() + mounting.COVER + mounting.PEG_DEPTH == mounting.BOARD
    assert 2.0 <= mounting.COVER <= 3.0  # the guide's "2 to 3 mm of wood"


def test_the_pinouts_are_the_datasheets() -> None:
    assert [sensor.pins for sensor in SENSORS] == [("VCC", "GND", "OUT"), ("VCC", "GND", "OUT")]
    assert "viewed from branded side" in SENSORS[0].source


def test_the_section_is_drawn_from_the_same_numbers() -> None:
    root = ET.fromstring(section_svg())
    assert (root.attrib["width"], root.attrib["height"]) == ("297mm", "210mm")
    scale = float(root.attrib["data-scale"])
    rects = {r.attrib["class"]: r.attrib for r in root.iter(f"{SVG}rect") if "class" in r.attrib}

    def mm(name: str, key: str) -> float:
        return float(rects[name][key]) / scale

    assert mm("board", "height") == mounting.BOARD
    assert mm("peg-hole", "height") == mounting.PEG_DEPTH and mm("peg-hole", "width") == mounting.HOLE
    assert round(mm("pocket", "y") - mm("peg-hole", "y") - mounting.PEG_DEPTH, 6) == mounting.COVER
    assert mm("pocket", "height") == mounting.pocket_depth() and mm("pocket", "width") == mounting.POCKET
    assert round(mm("sensor", "y"), 6) == round(mm("pocket", "y"), 6)  # the face against the pocket's roof
    assert mm("carrier", "width") == mounting.SIDE and mm("flange", "width") == mounting.FLANGE
    words = [t.text or "" for t in root.iter(f"{SVG}text")]
    assert "branded face UP" in words and "magnet, S down" in words
    assert all(float(t.attrib["font-size"]) >= 2.5 for t in root.iter(f"{SVG}text"))
    for pin, name in enumerate(("VCC", "GND", "OUT"), start=1):
        assert words.count(str(pin)) == 2 and words.count(name) == 2  # on both sensors


def test_the_shipped_drawing_and_carrier_are_the_codes() -> None:
    """docs/sensor-mount.svg and docs/sensor-carrier.stl: made by the code, never by hand."""
    assert (DOCS / "sensor-mount.svg").read_text() == section_svg()
    assert (DOCS / "sensor-carrier.stl").read_text() == carrier_stl()


def test_pegs_carrier_writes_the_stl(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "referee.cli", "carrier", "--out", "c.stl"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        cwd=tmp_path,
    )
    assert done.returncode == 0 and done.stderr == "" and "12 x 12 x 6.7 mm" in done.stdout
    assert (tmp_path / "c.stl").read_text() == carrier_stl()
    refused = subprocess.run(
        [sys.executable, "-m", "referee.cli", "carrier", "--out", "nowhere/c.stl"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        cwd=tmp_path,
    )
    assert refused.returncode == 2 and "pegs: cannot write the carrier" in refused.stderr


def test_the_section_reads_on_a4() -> None:
    """No two texts on top of each other, all inside 10 mm margins (0.6 of the size a character)."""
    boxes = []
    for text in ET.fromstring(section_svg()).iter(f"{SVG}text"):
        size, words = float(text.attrib["font-size"]), text.text or ""
        width, x, y = 0.6 * size * len(words), float(text.attrib["x"]), float(text.attrib["y"])
        left = {"middle": x - width / 2, "end": x - width}.get(text.attrib.get("text-anchor", ""), x)
        boxes.append((left, y - 0.8 * size, left + width, y + 0.25 * size, words))
    for i, a in enumerate(boxes):
        assert a[0] >= 10 and a[2] <= 287 and a[1] >= 10 and a[3] <= 200, a
        for b in boxes[i + 1 :]:
            assert not (a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]), (a, b)
