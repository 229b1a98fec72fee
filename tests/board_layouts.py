"""The boards the builder's kit is tested on: each size, with and without colour-marker holes,
and a calibrated board whose sensors were wired in a shuffled order."""

from __future__ import annotations

import random

from hardware.layout import Layout, board_holes, default_layout, layout_from_channels


def calibrated(sides: int) -> Layout:
    """A board wired in its own order, as ``pegs calibrate`` writes it (a fixed shuffle)."""
    names = list(board_holes(sides))
    channels = list(range(len(names)))
    random.Random(sides).shuffle(channels)
    return layout_from_channels(sides, dict(zip(names, channels, strict=True)))


BOARDS = [default_layout(4), default_layout(6, True), default_layout(8), default_layout(10, True), calibrated(4)]
IDS = ["4", "6+markers", "8", "10+markers", "4-calibrated"]
