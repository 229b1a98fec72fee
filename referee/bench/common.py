"""What every bench shares: the frozen positions and how a list of timings is reported.

The positions are frozen here so that figures from different machines and commits
compare. The worst case is the board of docs/design.md, "Budgets": 8 players, North Carolina rules,
a ten (which must be split over any two pegs), 32 pegs on the track.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from typing import Any

from referee.cards import CARDS


@dataclass(frozen=True)
class BenchCase:
    name: str
    rules: str
    cards: tuple[str, ...]
    position: dict[str, Any]
    repeat: int


CASES = (
    BenchCase(
        name="4-player basic opening, every card",
        rules="basic",
        cards=CARDS,
        position={
            "players": 4,
            "turn": 0,
            "pegs": {"0": ["T0:8", "S", "S", "S", "S"], "1": ["T1:11", "S", "S", "S", "S"]},
        },
        repeat=300,
    ),
    BenchCase(
        name="6-player Arizona middle game, every card",
        rules="arizona",
        cards=CARDS,
        position={
            "players": 6,
            "turn": 0,
            "pegs": {
                "0": ["T0:7", "T0:11", "T0:10", "H0:5", "S"],
                "1": ["T2:10", "T1:3", "T5:4", "H1:5", "S"],
                "2": ["T4:13", "T2:3", "T1:14", "H2:5", "S"],
                "3": ["T4:5", "T1:9", "T5:8", "H3:5", "S"],
                "4": ["T0:4", "T4:2", "T4:15", "H4:5", "S"],
                "5": ["T1:2", "T3:1", "T4:9", "H5:5", "S"],
            },
        },
        repeat=100,
    ),
    BenchCase(
        name="worst case: 8 players, north-carolina, 10, 32 pegs on the track",
        rules="north-carolina",
        cards=("10",),
        position={
            "players": 8,
            "turn": 0,
            "pegs": {
                "0": ["T1:16", "T0:16", "T3:11", "T1:12", "S"],
                "1": ["T7:0", "T6:7", "T6:12", "T5:7", "S"],
                "2": ["T2:17", "T1:6", "T6:16", "T0:7", "S"],
                "3": ["T5:9", "T6:2", "T0:0", "T6:6", "S"],
                "4": ["T3:14", "T5:2", "T5:12", "T1:11", "S"],
                "5": ["T4:3", "T7:11", "T0:13", "T7:12", "S"],
                "6": ["T2:4", "T0:3", "T0:2", "T6:10", "S"],
                "7": ["T4:11", "T3:15", "T0:1", "T6:4", "S"],
            },
        },
        repeat=40,
    ),
    BenchCase(
        name="worst case: 10 players, north-carolina, 10, 40 pegs on the track",
        rules="north-carolina",
        cards=("10",),
        position={
            "players": 10,
            "turn": 0,
            "pegs": {
                "0": ["T0:2", "T0:16", "T5:0", "T8:13", "H0:5"],
                "1": ["T0:4", "T3:3", "T4:4", "T8:12", "H1:5"],
                "2": ["T1:5", "T2:6", "T5:5", "T7:9", "S"],
                "3": ["T2:5", "T5:9", "T6:6", "T9:4", "S"],
                "4": ["T2:1", "T5:1", "T8:11", "T9:14", "H4:5"],
                "5": ["T0:5", "T0:10", "T3:4", "T5:4", "H5:5"],
                "6": ["T3:7", "T5:3", "T8:6", "T8:9", "H6:5"],
                "7": ["T3:9", "T4:1", "T6:0", "T9:1", "S"],
                "8": ["T1:2", "T2:9", "T4:14", "T7:4", "H8:5"],
                "9": ["T0:9", "T1:0", "T4:3", "T9:11", "S"],
            },
        },
        repeat=20,
    ),
)


WORST = CASES[2]  # docs/design.md's worst board ("Budgets"): 8 players, North Carolina, the ten


def timings(name: str, timings: list[float], unit: str) -> dict[str, Any]:
    timings = sorted(timings)
    p99 = timings[min(len(timings) - 1, round(0.99 * (len(timings) - 1)))]
    return {
        "name": name,
        unit: len(timings),
        "runs": len(timings),
        "median_ms": round(statistics.median(timings) * 1000, 3),
        "p99_ms": round(p99 * 1000, 3),
    }
