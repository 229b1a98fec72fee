"""Keeping a printed drawing's marks apart: text boxes, circles, detours and free spots.

    box = text_box(10, 20, 2.8, "T0:17")                 # (left, top, right, bottom) in mm
    route([(0, 0), (50, 0)], [((25, 1), 3.5)])           # the line, bent round the circle
    free_spot((40, 8), [(20, 20)], boxes, circles)        # where a 40 x 8 mm box fits

The template prints hole names, sensor inputs, LED marks and two chains on the same
paper; a builder who cannot read a label drills or solders the wrong thing. These helpers
are plain geometry, so the tests can check the same things a builder's eye would.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence

Point = tuple[float, float]
Box = tuple[float, float, float, float]  # left, top, right, bottom
Circle = tuple[Point, float]  # centre, radius
WIDTH = 0.6  # a sans-serif character's width, in font sizes (generous: digits are about 0.56)


def text_box(x: float, y: float, size: float, text: str, anchor: str = "middle") -> Box:
    """The space a line of text takes: ``y`` is its baseline, ``anchor`` as SVG's text-anchor."""
    width = WIDTH * size * len(text)
    left = {"start": x, "middle": x - width / 2, "end": x - width}[anchor]
    return (left, y - 0.8 * size, left + width, y + 0.25 * size)


def boxes_overlap(a: Box, b: Box, gap: float = 0.0) -> bool:
    return a[0] < b[2] + gap and b[0] < a[2] + gap and a[1] < b[3] + gap and b[1] < a[3] + gap


def circle_meets_box(circle: Circle, box: Box, gap: float = 0.0) -> bool:
    (x, y), radius = circle
    nearest = (min(max(x, box[0]), box[2]), min(max(y, box[1]), box[3]))
    return math.dist((x, y), nearest) < radius + gap


def segment_distance(point: Point, a: Point, b: Point) -> float:
    """How close the segment ``a``-``b`` comes to ``point``."""
    return math.dist(point, _foot(point, a, b))


def _foot(point: Point, a: Point, b: Point) -> Point:
    (ax, ay), (bx, by) = a, b
    length = (bx - ax) ** 2 + (by - ay) ** 2
    t = 0.0 if length == 0 else max(0.0, min(1.0, ((point[0] - ax) * (bx - ax) + (point[1] - ay) * (by - ay)) / length))
    return (ax + t * (bx - ax), ay + t * (by - ay))


def route(points: Sequence[Point], avoid: Sequence[Circle]) -> list[Point]:
    """The polyline through ``points``, with corners added so that it passes round every circle."""
    routed = [points[0]]
    for a, b in itertools.pairwise(points):
        routed += _detour(a, b, avoid, 8)[1:]
    return routed


def _detour(a: Point, b: Point, avoid: Sequence[Circle], depth: int) -> list[Point]:
    """``[a, ..., b]``: a corner beside the nearest circle the segment cuts, then the same for each half."""
    hits = [(segment_distance(centre, a, b) - radius, centre, radius) for centre, radius in avoid]
    cut = min((hit for hit in hits if hit[0] < 0), default=None)
    if cut is None or depth == 0:
        return [a, b]
    _, centre, radius = cut
    foot = _foot(centre, a, b)
    away = (foot[0] - centre[0], foot[1] - centre[1])
    if math.hypot(*away) < 1e-6:  # straight through the middle: go round on the left
        away = (a[1] - b[1], b[0] - a[0])
    scale = (radius + 1.0) / math.hypot(*away)
    corner = (round(centre[0] + away[0] * scale, 3), round(centre[1] + away[1] * scale, 3))
    return _detour(a, corner, avoid, depth - 1) + _detour(corner, b, avoid, depth - 1)[1:]


def free_spot(
    size: Point, near: Iterable[Point], boxes: Sequence[Box], circles: Sequence[Circle], within: Box
) -> Point | None:
    """The top left of the first place from ``near`` (tried in order) where a ``size`` box
    meets none of ``boxes`` and ``circles`` and stays inside ``within``; None if there is none."""
    width, height = size
    for x, y in near:
        box = (x, y, x + width, y + height)
        if not (within[0] <= box[0] and box[2] <= within[2] and within[1] <= box[1] and box[3] <= within[3]):
            continue
        if any(boxes_overlap(box, other, 0.5) for other in boxes) or any(
            circle_meets_box(c, box, 0.5) for c in circles
        ):
            continue
        return (x, y)
    return None


def crosses(hole: Point, tag: Point, radius: float, boxes: list[Box]) -> bool:
    """Whether the leader from the rim of the hole at ``hole`` to ``tag`` runs over a label."""
    length = math.dist(hole, tag)
    rim = (hole[0] + (tag[0] - hole[0]) * radius / length, hole[1] + (tag[1] - hole[1]) * radius / length)
    return any(segment_meets_box(rim, tag, box) for box in boxes)


def segment_meets_box(a: Point, b: Point, box: Box) -> bool:
    """Whether the segment ``a``-``b`` runs through ``box`` (Liang-Barsky clipping)."""
    (ax, ay), (dx, dy) = a, (b[0] - a[0], b[1] - a[1])
    low, high = 0.0, 1.0
    for p, q in ((-dx, ax - box[0]), (dx, box[2] - ax), (-dy, ay - box[1]), (dy, box[3] - ay)):
        if p == 0:
            if q < 0:
                return False
            continue
        t = q / p
        if p < 0:
            low = max(low, t)
        else:
            high = min(high, t)
        if low > high:
            return False
    return True
