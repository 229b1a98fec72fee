"""The printed sensor carrier (``pegs carrier``), as an ASCII STL in millimetres.

    Path("carrier.stl").write_text(carrier_stl())

The carrier is a few boxes, solid and cut (``SOLIDS``, ``CUTS``, from ``mounting``'s numbers);
it is meshed on the grid their faces make, one square per grid cell face between solid and
empty, so every edge is shared by exactly two triangles (a closed, printable solid) with no
library. Print it flange down, 0.2 mm layers, no supports: the recess and the notch open
upwards and sideways.
"""

from __future__ import annotations

import itertools

from referee.kit.mounting import FLANGE, FLANGE_THICK, NOTCH, RECESS, SIDE, pocket_depth

Box = tuple[tuple[float, float, float], tuple[float, float, float]]  # low corner, high corner
Triangle = tuple[tuple[float, float, float], tuple[float, float, float], tuple[float, float, float]]

HEIGHT = FLANGE_THICK + pocket_depth()  # the body stands the pocket's depth above the flange
SOLIDS: tuple[Box, ...] = (
    ((-FLANGE / 2, -FLANGE / 2, 0.0), (FLANGE / 2, FLANGE / 2, FLANGE_THICK)),
    ((-SIDE / 2, -SIDE / 2, FLANGE_THICK), (SIDE / 2, SIDE / 2, HEIGHT)),
)
CUTS: tuple[Box, ...] = (
    ((-RECESS[0] / 2, -RECESS[1] / 2, HEIGHT - RECESS[2]), (RECESS[0] / 2, RECESS[1] / 2, HEIGHT)),
    ((-NOTCH / 2, RECESS[1] / 2, 0.0), (NOTCH / 2, SIDE / 2, HEIGHT)),  # the leads, down and out
)


def _inside(point: tuple[float, float, float], box: Box) -> bool:
    low, high = box
    return all(low[i] < point[i] < high[i] for i in range(3))


def triangles() -> list[Triangle]:
    """The carrier's surface, each triangle wound counter-clockwise seen from outside."""
    axes = [sorted({corner[i] for box in SOLIDS + CUTS for corner in box}) for i in range(3)]

    def solid(cell: tuple[int, int, int]) -> bool:
        if any(not 0 <= cell[i] < len(axes[i]) - 1 for i in range(3)):
            return False
        centre = tuple((axes[i][cell[i]] + axes[i][cell[i] + 1]) / 2 for i in range(3))
        point = (centre[0], centre[1], centre[2])
        return any(_inside(point, box) for box in SOLIDS) and not any(_inside(point, box) for box in CUTS)

    found: list[Triangle] = []
    for i, j, k in itertools.product(*(range(len(axis) - 1) for axis in axes)):
        cell = (i, j, k)
        if not solid(cell):
            continue
        for axis, step in itertools.product(range(3), (-1, 1)):
            neighbour = list(cell)
            neighbour[axis] += step
            if not solid((neighbour[0], neighbour[1], neighbour[2])):
                found.extend(_face(axes, cell, axis, step))
    return found


def _face(axes: list[list[float]], cell: tuple[int, int, int], axis: int, step: int) -> list[Triangle]:
    """The cell's face on ``axis`` towards ``step``, as two triangles facing outwards."""
    u, v = (axis + 1) % 3, (axis + 2) % 3
    level = axes[axis][cell[axis] + (1 if step > 0 else 0)]
    corners = []
    for du, dv in ((0, 0), (1, 0), (1, 1), (0, 1)):  # counter-clockwise around +axis
        point = [0.0, 0.0, 0.0]
        point[axis] = level
        point[u] = axes[u][cell[u] + du]
        point[v] = axes[v][cell[v] + dv]
        corners.append((point[0], point[1], point[2]))
    if step < 0:
        corners.reverse()
    a, b, c, d = corners
    return [(a, b, c), (a, c, d)]


def carrier_stl() -> str:
    """The carrier as ASCII STL (mm), one facet per triangle with its outward normal."""
    lines = ["solid pegs_sensor_carrier"]
    for triangle in triangles():
        nx, ny, nz = _normal(triangle)
        lines.append(f"  facet normal {nx:g} {ny:g} {nz:g}")
        lines.append("    outer loop")
        lines.extend(f"      vertex {x:g} {y:g} {z:g}" for x, y, z in triangle)
        lines.append("    endloop")
        lines.append("  endfacet")
    lines.append("endsolid pegs_sensor_carrier")
    return "\n".join(lines) + "\n"


def _normal(triangle: Triangle) -> tuple[float, float, float]:
    (ax, ay, az), (bx, by, bz), (cx, cy, cz) = triangle
    ux, uy, uz, vx, vy, vz = bx - ax, by - ay, bz - az, cx - ax, cy - ay, cz - az
    n = (uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx)
    length = max(abs(part) for part in n)
    return (n[0] / length, n[1] / length, n[2] / length)  # axis-aligned: one of them is +-1
