"""Where the template prints each hole's name and sensor input, so that nothing covers them.

    labels = place_labels(places, leds, {"T0:0": "U1.H pin 6"}, 6.5, chain_segments, circles)
    labels["T0:0"]     # [(x, baseline, 2.8, "T0:0", "middle"), (x, baseline, 2.0, "U1.H pin 6", "middle")]

A label under a drilled mark or another label cannot be read, and one under a chain line
reads badly; a hole has room for its two labels on some side, so each hole tries the places
round it in turn (``_candidates``) and takes the first that meets nothing.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from referee.kit.clearance import (
    Box,
    Circle,
    Point,
    boxes_overlap,
    circle_meets_box,
    crosses,
    free_spot,
    segment_meets_box,
    text_box,
)

Label = tuple[float, float, float, str, str]  # x, baseline, font size, text, anchor
NAME, WIRING = 2.8, 2.0  # font sizes of the hole's name and of its sensor input
FURTHER = (0.0, 2.5, 5.0, 7.5)  # mm further out from the hole's ring, tried in turn


def place_labels(
    places: Mapping[str, Point],
    leds: Mapping[str, Point],
    words: Mapping[str, str],
    ring: float,
    lines: list[tuple[Point, Point]],
    circles: list[Circle],
) -> dict[str, list[Label]]:
    """Each hole's name and ``words`` (its input), in the first place round it (holes ``ring`` mm
    wide) that meets no line, circle or label placed before; else where they meet fewest."""
    placed: list[Box] = []
    found = {}
    for hole, (x, y) in places.items():
        near = (x - 40, y - 40, x + 40, y + 40)
        local = [line for line in lines if segment_meets_box(*line, near)]
        close = [c for c in circles if circle_meets_box(c, near)]
        boxes = [box for box in placed if boxes_overlap(box, near)]
        best: tuple[int, list[Label]] | None = None
        for candidate in _candidates(hole, (x, y), words[hole], ring, leds[hole][1] > y):
            faults = sum(_faults(text_box(*label), local, close, boxes) for label in candidate)
            if best is None or faults < best[0]:
                best = (faults, candidate)
            if faults == 0:
                break
        assert best is not None
        found[hole] = best[1]
        placed += [text_box(*label) for label in best[1]]
    return found


def _candidates(hole: str, place: Point, words: str, ring: float, led_below: bool) -> list[list[Label]]:
    """The name and the input above and below the hole (the name on the pixel's side first),
    then left and right, then both stacked on one side or off a corner; then all that further out."""
    x, y = place
    candidates = []
    for r in (ring + extra for extra in FURTHER):
        name_up, name_down = y - r - 0.25 * NAME - 0.1, y + r + 0.8 * NAME + 0.1
        wiring_up, wiring_down = y - r - 0.25 * WIRING - 0.1, y + r + 0.8 * WIRING + 0.1
        stacked_up = wiring_up - 0.8 * WIRING - 0.25 * NAME - 0.2  # the name over the input, both above
        stacked_down = name_down + 0.25 * NAME + 0.8 * WIRING + 0.2
        pairs = [
            [(x, name_up, NAME, hole, "middle"), (x, wiring_down, WIRING, words, "middle")],
            [(x, name_down, NAME, hole, "middle"), (x, wiring_up, WIRING, words, "middle")],
            [(x - r, y + 0.8, NAME, hole, "end"), (x + r, y + 0.8, WIRING, words, "start")],
            [(x + r, y + 0.8, NAME, hole, "start"), (x - r, y + 0.8, WIRING, words, "end")],
            [(x, stacked_up, NAME, hole, "middle"), (x, wiring_up, WIRING, words, "middle")],
            [(x, name_down, NAME, hole, "middle"), (x, stacked_down, WIRING, words, "middle")],
            [(x - r, y - 0.3, NAME, hole, "end"), (x - r, y + 2.2, WIRING, words, "end")],
            [(x + r, y - 0.3, NAME, hole, "start"), (x + r, y + 2.2, WIRING, words, "start")],
        ]
        if led_below:  # the short name on the pixel's side
            pairs[0], pairs[1] = pairs[1], pairs[0]
        d = r * 0.75
        pairs += [
            [
                (x + sx * d, y + sy * d + (-2.6 if sy < 0 else 2.2), NAME, hole, anchor),
                (x + sx * d, y + sy * d + (0.0 if sy < 0 else 4.8), WIRING, words, anchor),
            ]
            for sx, anchor in ((-1, "end"), (1, "start"))
            for sy in (-1, 1)
        ]
        candidates += pairs
    return candidates


def _faults(box: Box, lines: list[tuple[Point, Point]], circles: list[Circle], boxes: list[Box]) -> int:
    """How badly a label's box sits: a chain line under it still reads (the label has a halo),
    a hole, pixel mark or other label under it does not."""
    return (
        sum(segment_meets_box(a, b, box) for a, b in lines)
        + 10 * sum(circle_meets_box(c, box) for c in circles)
        + 10 * sum(boxes_overlap(box, other, 0.3) for other in boxes)
    )


def place_tag(hole: Point, words: str, radius: float, taken: list[Box], circles: list[Circle], within: Box) -> Box:
    """The box of a tag naming a chain's end at the hole at ``hole`` (``radius`` mm): the nearest
    spot round it, inside ``within``, off ``taken`` and ``circles``, whose leader to the hole's rim
    crosses no label."""
    x, y = hole
    size = (0.6 * 2.5 * len(words) + 2.0, 4.4)
    close = [box for box in taken if boxes_overlap(box, (x - 70, y - 70, x + 70, y + 70))]
    near = [
        (x + r * math.cos(a) - size[0] / 2, y + r * math.sin(a) - size[1] / 2)
        for r in range(12, 60, 2)
        for a in (math.radians(d) for d in range(0, 360, 15))
        if not crosses(hole, (x + r * math.cos(a), y + r * math.sin(a)), radius, close)
    ]
    spot = free_spot(size, near, taken, circles, within) or near[0]
    return (spot[0], spot[1], spot[0] + size[0], spot[1] + size[1])
