"""``pegs template --dxf``: the board's holes as DXF, for a CNC router's or a laser's CAM.

    doc = board_dxf(Template(default_layout(6)))     # an ezdxf document, millimetres
    doc.saveas("board.dxf")

The same places as the SVG template (``Template.places``, from ``hardware/layout.py`` through
``referee.geometry``), seen from the top, y up as DXF has it. Each kind of hole is a layer of
circles whose name says its diameter, so that CAM can give each layer its own tool and depth:
peg holes, pilots (right through, to find each pocket from below), sensor pockets (from below,
the depth in the layer's name: mirror the sheet, or the stock, for that side) and pixel holes;
the board's edge is a closed polyline. ezdxf is the ``kit`` extra (pip install 'pegs-referee[kit]').
"""

from __future__ import annotations

from typing import Any

from referee.kit.mounting import PILOT, POCKET, pocket_depth
from referee.kit.template import LED, Template

INSTALL = "pip install ezdxf (or, in the repository: pip install '.[kit]')"


class DxfUnavailable(RuntimeError):
    """ezdxf is not installed: the DXF needs it, nothing else in the kit does."""


def layers(drawing: Template) -> dict[str, float]:
    """Layer name -> the diameter (mm) of every circle on it."""
    return {
        f"PEG_HOLES_D{drawing.hole:g}": drawing.hole,
        f"PILOTS_D{PILOT:g}_THROUGH": PILOT,
        f"SENSOR_POCKETS_D{POCKET:g}_DEPTH{pocket_depth():g}_FROM_BELOW": POCKET,
        f"PIXEL_HOLES_D{LED:g}": LED,
    }


def board_dxf(drawing: Template) -> Any:
    """The DXF document (ezdxf's ``Drawing``): one circle per hole on its kind's layer."""
    try:
        from ezdxf import units
        from ezdxf.filemanagement import new
    except ImportError:
        raise DxfUnavailable(f"the DXF needs the ezdxf library, which is not installed here: {INSTALL}") from None
    doc = new("R2010", setup=False)
    doc.units = units.MM  # $INSUNITS 4: millimetres
    doc.header["$MEASUREMENT"] = 1  # metric
    height = drawing.size[1]
    names = list(layers(drawing))
    for colour, name in enumerate([*names, "BOARD_EDGE"], start=1):
        doc.layers.add(name, color=colour)
    space = doc.modelspace()
    places = {names[0]: drawing.places, names[1]: drawing.places, names[2]: drawing.places, names[3]: drawing.leds}
    for layer, diameter in layers(drawing).items():
        for x, y in places[layer].values():
            space.add_circle((x, height - y), diameter / 2, dxfattribs={"layer": layer})
    space.add_lwpolyline([(x, height - y) for x, y in drawing.outline], close=True, dxfattribs={"layer": "BOARD_EDGE"})
    return doc
