"""``pegs template --dxf``: the holes for CAM, read back with ezdxf (the library that wrote them:
ezdxf.readfile, modelspace().query("CIRCLE"), doc.units; ezdxf's documentation, "DXF units":
$INSUNITS 4 is millimetres)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from hardware.layout import default_layout
from referee.kit.mounting import PILOT, POCKET
from referee.kit.template import LED, Template

ezdxf = pytest.importorskip("ezdxf")  # the kit extra: make setup installs it (.[test,kit])
PEGS = [sys.executable, "-m", "referee.cli"]


@pytest.mark.parametrize(("sides", "markers"), [(4, False), (10, True)])
def test_every_hole_is_at_its_place_and_size_on_its_layer(tmp_path: Path, sides: int, markers: bool) -> None:
    """Each kind of hole on its own layer, named with its diameter; every circle where the SVG
    template puts its hole (y up in DXF: the drawing's height less the SVG's y), in millimetres."""
    from ezdxf.filemanagement import readfile

    out = tmp_path / "board.dxf"
    done = subprocess.run(
        [
            *PEGS,
            "template",
            "--sides",
            str(sides),
            *(["--markers"] if markers else []),
            "--out",
            str(tmp_path / "board.svg"),
            "--paper",
            "none",
            "--dxf",
            str(out),
            "--hole",
            "9",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    doc = readfile(str(out))
    assert doc.units == 4 and doc.header["$MEASUREMENT"] == 1  # millimetres, metric
    drawing = Template(default_layout(sides, markers), hole=9.0)
    height = drawing.size[1]
    expected = {
        "PEG_HOLES_D9": (drawing.places, 9.0),
        f"PILOTS_D{PILOT:g}_THROUGH": (drawing.places, PILOT),
        f"PIXEL_HOLES_D{LED:g}": (drawing.leds, LED),
    }
    pockets = [layer.dxf.name for layer in doc.layers if layer.dxf.name.startswith(f"SENSOR_POCKETS_D{POCKET:g}_")]
    assert len(pockets) == 1
    expected[pockets[0]] = (drawing.places, POCKET)
    space = doc.modelspace()
    for layer, (places, diameter) in expected.items():
        circles = space.query(f'CIRCLE[layer=="{layer}"]')
        assert len(circles) == len(places) == len(drawing.places)
        found = sorted((round(c.dxf.center.x, 3), round(c.dxf.center.y, 3)) for c in circles)
        assert found == sorted((round(x, 3), round(height - y, 3)) for x, y in places.values()), layer
        assert {round(c.dxf.radius * 2, 6) for c in circles} == {diameter}
    edge = space.query('LWPOLYLINE[layer=="BOARD_EDGE"]')
    assert len(edge) == 1 and edge[0].closed and len(space.query("CIRCLE")) == 4 * len(drawing.places)


def test_without_ezdxf_the_command_says_how_to_install_it(tmp_path: Path) -> None:
    """The Pi does not need ezdxf; where it is missing the DXF is one line with the install
    command, no traceback, and nothing is written."""
    blocker = tmp_path / "blocker"
    blocker.mkdir()
    (blocker / "ezdxf.py").write_text("raise ImportError('no ezdxf here')\n")
    done = subprocess.run(
        [*PEGS, "template", "--out", str(tmp_path / "b.svg"), "--paper", "none", "--dxf", str(tmp_path / "b.dxf")],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={"PYTHONPATH": f"{blocker}:{Path(__file__).parent.parent}", "PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.strip() == (
        "pegs: template --dxf: the DXF needs the ezdxf library, which is not installed here: "
        "pip install ezdxf (or, in the repository: pip install '.[kit]')"
    )
    assert not (tmp_path / "b.svg").exists() and not (tmp_path / "b.dxf").exists()
    wrong = subprocess.run(
        [*PEGS, "template", "--out", str(tmp_path / "b.svg"), "--dxf", str(tmp_path / "b.svg")],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert wrong.returncode == 2 and "is not a .dxf file name" in wrong.stderr
