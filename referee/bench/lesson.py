"""``pegs bench``: the first lesson at the table, on the simulated board with a real SQLite file.

Each step is a game of its own: "Next" stores it, sets the board up and lights it; "Done"
stores the learner's move and judges it (a wrong one is taken back, also stored). Both wait
on an fsync, as a move does, and the page answers when they return.
"""

from __future__ import annotations

import random
import tempfile
import time
from typing import Any

from referee.bench.common import timings
from referee.coach.lesson import lesson
from referee.physical import PhysicalBoard, by_hand
from referee.rulesets import Ruleset
from referee.settings.config import Config
from referee.table.table import Table


def run_lesson(
    rounds: int = 2, presets: tuple[str, ...] = ("basic", "north-carolina"), players: int = 8
) -> list[dict[str, Any]]:
    """Whole lessons, ``rounds`` times per preset: the time from Next to the step shown, and
    from Done to the move judged, a wrong try and a right one in every step."""
    rng = random.Random(1)
    nexts: list[float] = []
    dones: list[float] = []
    with tempfile.TemporaryDirectory() as data:
        running = Table.build(Config.simulated(data, players=players))
        running.start()
        try:
            for preset in presets * rounds:
                rules = Ruleset.preset(preset)
                steps = {step.key: step for step in lesson(rules, players)}
                taught = running.start_lesson(rules, players)["lesson"]
                while taught is not None and taught["key"] != "practice":
                    step = steps[taught["key"]]
                    if step.passes:
                        dones += _wrong_then_right(running, step.passes[0], rng)
                    start = time.perf_counter()
                    taught = running.lesson_action("skip")["lesson"]
                    nexts.append(time.perf_counter() - start)
            latencies = list(running.latencies)
        finally:
            running.stop()
    return [
        timings(f"lesson ({players} players): Next to the step stored, set up and lit", nexts, "steps"),
        timings("lesson: Done to the move stored and judged (wrong: taken back)", dones, "tries"),
        timings("lesson: sensor change to LED frame written", latencies, "events"),
    ]


def _wrong_then_right(running: Table, answer: Any, rng: random.Random) -> list[float]:
    position = answer.before
    physical = PhysicalBoard(position.board)
    occupied = running.state()["occupied"]
    source = next(hole for hole in occupied if hole.startswith((f"S{position.turn}:", "T")))
    wrong = f"H{(position.turn + 1) % position.board.sides}:1"
    took = []
    for events, back in (
        ([f"lift {source}", f"place {wrong}"], [f"lift {wrong}", f"place {source}"]),
        (
            [
                f"{e.kind} {physical.name(e.holes[0])}"
                for e in by_hand(position, answer, rng, occupied=[physical.index(h) for h in occupied])
            ],
            [],
        ),
    ):
        running.sim_events(events)
        start = time.perf_counter()
        state = running.press_done()
        took.append(time.perf_counter() - start)
        if state["status"] == "ambiguous":  # a swap: every hole still filled, the page asks which
            running.resolve(answer.text)
        if back:
            running.sim_events(back)
    return took
