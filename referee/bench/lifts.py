"""``pegs bench`` rows for the person at the table: every sensor event and commit, the
first lift of a turn above all, on every preset and board size (docs/design.md, "Budgets":
under 15 ms p99 here, under 100 ms on a Pi Zero 2 W).

Each case is a fresh turn on a crowded board (four pegs of every seat on the track),
with no card declared or with one declared; a random legal move of it is made by hand
through the daemon's ``Session`` (a real SQLite file), sensor event by sensor event, then
Done. The first lift rows put beside it the time to list every legal move of the same
position: the lift must not depend on the whole list.
"""

from __future__ import annotations

import random
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from referee.bench.common import WORST, timings
from referee.board import SIDES, Board
from referee.cards import CARDS
from referee.movegen import legal_moves
from referee.physical import by_hand
from referee.position import Position
from referee.protocol_types import NewGame
from referee.rulesets import PRESETS, Ruleset, from_mapping
from referee.table.session import Session
from referee.table.store import Store
from referee.table.table import settle_memory

WORST_HOUSE_RULES = {
    "base": "north-carolina",
    "name": "heaviest house rules accepted",
    "cards": {
        "A": {"swap": True, "joker": True, "split": {"total": 2}},
        "9": {"split": {"total": 9, "directions": "any"}},
    },
}
"""North Carolina with a 9 that splits in any direction and an ace that may split 2,
swap, and jump like a joker: 1,050 of the 1,050 a house rule may weigh."""


def crowded(players: int, seed: int) -> dict[str, Any]:
    """A crowded middle game: four pegs of every seat on the main track, one in start."""
    board = Board.for_players(players)
    rng = random.Random(seed)
    holes = rng.sample(range(board.track_length), 4 * len(board.seats))
    pegs = {
        str(seat): [board.hole_name(h) for h in holes[4 * i : 4 * i + 4]] + ["S"] for i, seat in enumerate(board.seats)
    }
    return {"players": players, "turn": 0, "pegs": pegs}


@contextmanager
def _sessions() -> Iterator[Store]:
    with tempfile.TemporaryDirectory() as data:
        store = Store.open(data)
        try:
            settle_memory()  # as the daemon does once it has started
            yield store
        finally:
            store.close()


def run_first_lift(
    rules: Ruleset, label: str, position: dict[str, Any], turns: int, seed: int = 3
) -> list[dict[str, Any]]:
    """The first lift of a turn (no card declared, nothing generated before it), for a
    random peg on the board, beside listing every legal move of every card there."""
    rng, lifts, listings = random.Random(seed), list[float](), list[float]()
    start = Position.from_json(position)
    with _sessions() as store:
        for _ in range(turns):
            session = Session.new(store, rules, position["players"], pegs=position["pegs"], seed=1)
            physical = session.physical
            hole = physical.name(rng.choice([h for h in range(start.board.board_holes) if start.occupancy[h]]))
            began = time.perf_counter()
            session.sense(0, "lift", hole)
            lifts.append(time.perf_counter() - began)
            began = time.perf_counter()
            for card in CARDS:
                for _move in legal_moves(start, card, rules):
                    pass
            listings.append(time.perf_counter() - began)
    return [
        timings(f"first lift of a turn, {label}, no card", lifts, "turns"),
        timings(f"  beside: every legal move of every card there, {label}", listings, "runs"),
    ]


def run_every_preset(moves_per_case: int = 1, sides: tuple[int, ...] = SIDES, seed: int = 7) -> list[dict[str, Any]]:
    """Every preset x board size x (no card, each card): a move made by hand and Done."""
    rng = random.Random(seed)
    rows = []
    for players in sides:
        events, commits = list[float](), list[float]()
        with _sessions() as store:
            for case, (_name, rules) in enumerate(sorted(PRESETS.items())):
                for declared in (None, *CARDS):
                    for repeat in range(moves_per_case):
                        position = crowded(players, seed=case * 100 + repeat)
                        _one_move(store, rules, position, declared, rng, events, commits)
        label = f"every preset, {players} sides, no card and each card"
        rows += [
            timings(f"sensor event (lift or place), {label}", events, "events"),
            timings(f"Done to move stored, {label}", commits, "commits"),
        ]
    return rows


def _one_move(
    store: Store,
    rules: Ruleset,
    position: dict[str, Any],
    declared: str | None,
    rng: random.Random,
    events: list[float],
    commits: list[float],
) -> None:
    start = Position.from_json(position)
    moves = [m for card in ([declared] if declared else CARDS) for m in legal_moves(start, card, rules)]
    if not moves:
        return
    session = Session.new(store, rules, position["players"], pegs=position["pegs"], seed=1)
    if declared:
        session.declare(0, declared)
    physical = session.physical
    filled = list(physical.holes(session.tracker.occupied))
    for event in by_hand(start, rng.choice(moves), rng, occupied=filled):
        began = time.perf_counter()
        session.sense(event.ms, event.kind, physical.name(event.holes[0]))
        events.append(time.perf_counter() - began)
    began = time.perf_counter()
    session.done(10_000)
    commits.append(time.perf_counter() - began)


def run_memory() -> dict[str, Any]:
    """The daemon's resident memory on the worst board with the heaviest accepted house
    rules, after moves made by hand and pegs juggled, each turn holding its whole list (as
    when colours are lost track of: the most a turn can hold). Measured in a process of
    its own."""
    import subprocess
    import sys

    probe = "from referee.bench.lifts import memory_probe; memory_probe()"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=300)
    return {
        "name": "daemon: resident memory (VmRSS), worst board, heaviest accepted house rules",
        "runs": 1,
        "rss_mb": float(done.stdout.split()[-1]),
    }


def memory_probe(moves: int = 6, seed: int = 11) -> None:
    """Run in a process of its own by ``run_memory``: prints the peak resident memory in MB."""
    import resource

    from referee.physical import PhysicalBoard
    from referee.settings.config import Config
    from referee.table.table import Table

    rng = random.Random(seed)
    house = from_mapping(WORST_HOUSE_RULES)
    with tempfile.TemporaryDirectory() as data:
        running = Table.build(Config.simulated(data, players=8, rules=WORST.rules))
        running.start()
        try:
            running.new_game(NewGame(8, house, pegs=WORST.position["pegs"]))
            for _ in range(moves):
                position = running.session.game.position
                physical = PhysicalBoard(position.board)
                filled = [physical.index(hole) for hole in running.state()["occupied"]]
                pegs = [physical.name(h) for h in filled if h < position.board.track_length]
                juggled = rng.sample(pegs, 4)  # lifted two at a time and put back crosswise
                running.sim_events(
                    [
                        f"lift {juggled[0]}",
                        f"lift {juggled[1]}",
                        f"place {juggled[0]}",
                        f"place {juggled[1]}",
                        f"lift {juggled[2]}",
                        f"lift {juggled[3]}",
                        f"place {juggled[3]}",
                        f"place {juggled[2]}",
                    ]
                )
                moves_now = [m for card in CARDS for m in legal_moves(position, card, house)]
                events = by_hand(position, rng.choice(moves_now), rng, occupied=filled)
                running.sim_events([f"{e.kind} {physical.name(e.holes[0])}" for e in events])
                len(running.session.tracker.turn.every())  # what it holds once colours are lost track of
                running.press_done()
        finally:
            running.stop()
    print(round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1))


def run_all(repeat: int | None) -> list[dict[str, Any]]:
    turns = max(5, min(40, repeat or 40))
    quick = repeat is not None and repeat < 5
    house = from_mapping(WORST_HOUSE_RULES)
    rows = run_first_lift(
        Ruleset.preset(WORST.rules), "worst preset board (8 players, north-carolina)", WORST.position, turns
    )
    rows += run_first_lift(house, "worst accepted house rules, same board", WORST.position, turns)
    rows += run_first_lift(
        Ruleset.preset("north-carolina"), "10 players, north-carolina, crowded", crowded(10, 1), turns
    )
    rows += run_every_preset(1 if quick else 3, sides=(4, 8) if quick else SIDES)
    return [*rows, run_memory()]
