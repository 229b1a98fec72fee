"""The engine's benches: legal move generation on the frozen positions, and the tracker
fed every sensor event of moves carried out by hand on the worst board."""

from __future__ import annotations

import random
import time
from typing import Any

from referee.bench.common import WORST, BenchCase, timings
from referee.movegen import legal_moves
from referee.physical import by_hand
from referee.position import Position
from referee.rulesets import Ruleset
from referee.tracker import Tracker


def run_case(case: BenchCase, repeat: int | None = None) -> dict[str, Any]:
    """Time generating (and consuming) every legal move of the case's cards."""
    position = Position.from_json(case.position)
    rules = Ruleset.preset(case.rules)
    runs: list[float] = []
    moves = 0
    for _ in range(repeat or case.repeat):
        start = time.perf_counter()
        moves = sum(1 for card in case.cards for _ in legal_moves(position, card, rules))
        runs.append(time.perf_counter() - start)
    return {**timings(case.name, runs, "runs"), "rules": case.rules, "cards": list(case.cards), "moves": moves}


def run_tracker(card: str | None, moves: int = 40, seed: int = 1) -> list[dict[str, Any]]:
    """The tracker on the worst position: every sensor event of ``moves`` random legal
    moves carried out by hand, the first lift of each turn (nothing generated before it)
    among them, and the set-up of each turn."""
    worst = WORST
    position = Position.from_json(worst.position)
    rules = Ruleset.preset(worst.rules)
    rng = random.Random(seed)
    choices = list(legal_moves(position, "10", rules))
    setups: list[float] = []
    events: list[float] = []
    for _ in range(moves):
        move = rng.choice(choices)
        start = time.perf_counter()
        tracker = Tracker(position, rules, card=card)
        setups.append(time.perf_counter() - start)
        for event in by_hand(position, move, rng, bounces=2):
            start = time.perf_counter()
            tracker.feed(event)
            events.append(time.perf_counter() - start)
    label = f"card {card}" if card else "no card declared"
    return [
        timings(f"tracker: one sensor event, worst case, {label}", events, "events"),
        timings(f"tracker: turn set-up, worst case, {label}", setups, "turns"),
    ]
