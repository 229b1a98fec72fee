"""Where each hole of an n-sided board sits on the page, in SVG user units.

The same board as ``referee/board.py``: a regular polygon, seats 0..n-1 clockwise with
seat 0's side at the bottom, facing the viewer. Side ``s`` runs from its corner
``T<s>:0`` to the next corner (``T<s+1>:0``) in 18 equal steps, the way pegs travel
(clockwise, so right to left along the bottom). Home holes ``H<s>:1..5`` run straight
inward from the in-spot ``T<s>:3``; the start holes ``S<s>:1..5`` lie in a row inside
the track, centred on the come-out hole ``T<s>:8``; the optional colour-marker hole
``C<s>`` sits further in, below the start row.

    >>> board = geometry(4)
    >>> board.holes["T0:8"]  # (x, y)
    (10.0, 90.0)
    >>> board.view_box  # "x y width height" for the <svg> element
    '-99.6 -99.6 199.2 199.2'

The page draws this board (``web/pages.py``) and the drilling template scales it to
millimetres (``referee/kit/template.py``), so a board drilled from the template looks
like the page. It is plain arithmetic in the engine, which both may import.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from referee.holes import COME_OUT, HOME_SIZE, IN_SPOT, SIDE_LENGTH, START_SIZE, home, marker, start, track

PITCH = 10.0  # distance between neighbouring track holes
RADIUS = 3.6  # a hole's radius: leaves a clear gap at PITCH
START_DEPTH = 1.7  # how far inside the track the start row sits, in pitches
MARKER_DEPTH = 3.2
MARGIN = 6.0


@dataclass(frozen=True)
class BoardGeometry:
    """Where each hole sits on a board drawn to scale (mm), for the page and the drilling template."""

    sides: int
    view_box: str
    holes: dict[str, tuple[float, float]]
    radius: float
    pitch: float
    corners: tuple[tuple[float, float], ...]  # T<s>:0 of each side, for drawing the outline

    def inward(self, side: int) -> tuple[float, float]:
        """The unit vector from side ``side`` towards the centre."""
        return _inward(self.sides, side)

    def along(self, side: int) -> tuple[float, float]:
        """The unit vector along side ``side``, the way pegs travel."""
        return _along(self.sides, side)


def geometry(sides: int, markers: bool = False) -> BoardGeometry:
    """Hole coordinates for a board of 4, 6, 8 or 10 sides; ``markers`` adds ``C<s>`` holes."""
    if sides not in (4, 6, 8, 10):
        raise ValueError(f"a board has 4, 6, 8 or 10 sides, not {sides!r}")
    corners = tuple(_corner(sides, side) for side in range(sides))
    holes: dict[str, tuple[float, float]] = {}
    for side in range(sides):
        frame = (corners[side], _along(sides, side), _inward(sides, side))
        for k in range(SIDE_LENGTH):
            holes[track(side, k)] = _at(frame, k, 0)
        for depth in range(1, HOME_SIZE + 1):
            holes[home(side, depth)] = _at(frame, IN_SPOT, depth)
        for i in range(1, START_SIZE + 1):
            holes[start(side, i)] = _at(frame, COME_OUT + i - 3, START_DEPTH)
        if markers:
            holes[marker(side)] = _at(frame, COME_OUT, MARKER_DEPTH)
    xs = [x for x, _ in holes.values()]
    ys = [y for _, y in holes.values()]
    pad = RADIUS + MARGIN
    left, top = min(xs) - pad, min(ys) - pad
    width, height = max(xs) - min(xs) + 2 * pad, max(ys) - min(ys) + 2 * pad
    view_box = f"{left:.1f} {top:.1f} {width:.1f} {height:.1f}"
    return BoardGeometry(sides, view_box, holes, RADIUS, PITCH, corners)


Point = tuple[float, float]


def _at(frame: tuple[Point, Point, Point], k: float, depth: float) -> Point:
    """``k`` pitches along a side from its corner and ``depth`` pitches inside the track."""
    (x0, y0), (ax, ay), (nx, ny) = frame
    return (round(x0 + PITCH * (k * ax + depth * nx), 2), round(y0 + PITCH * (k * ay + depth * ny), 2))


def _normal_angle(sides: int, side: int) -> float:
    """The outward direction of a side's middle. SVG's y points down, so growing angles
    turn clockwise on screen: seat 0 at the bottom (90 degrees), seat 1 to its left."""
    return math.pi / 2 + 2 * math.pi * side / sides


def _corner(sides: int, side: int) -> tuple[float, float]:
    circumradius = SIDE_LENGTH * PITCH / (2 * math.sin(math.pi / sides))
    angle = _normal_angle(sides, side) - math.pi / sides
    return (circumradius * math.cos(angle), circumradius * math.sin(angle))


def _along(sides: int, side: int) -> tuple[float, float]:
    angle = _normal_angle(sides, side) + math.pi / 2
    return (math.cos(angle), math.sin(angle))


def _inward(sides: int, side: int) -> tuple[float, float]:
    angle = _normal_angle(sides, side)
    return (-math.cos(angle), -math.sin(angle))
