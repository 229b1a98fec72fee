"""The coach's benches: a bot's decision, the expert over whole games, the game review."""

from __future__ import annotations

import random
import time
from typing import Any

from referee.bench.common import WORST, timings
from referee.coach.bots import BOTS, ExpertBot, StrategicBot
from referee.coach.review import review
from referee.coach.selfplay import play_one
from referee.game import Game
from referee.rulesets import Ruleset


def run_bot(games: int = 20, kind: type[StrategicBot] | None = None, name: str = "strategic") -> dict[str, Any]:
    """A bot's whole decision on the worst board (8 players, North Carolina, the worst case's
    pegs): its hand's legal moves generated, ranked by the hints, looked ahead."""
    worst = WORST
    rules = Ruleset.preset(worst.rules)
    decisions: list[float] = []
    for seed in range(games):
        game = Game(rules, 8, mode="digital", seed=seed, pegs=worst.position["pegs"])
        if game.phase == "draw":
            game.draw()
        bot = (kind or StrategicBot)(random.Random(seed))
        start = time.perf_counter()
        options = [(card, move) for card, moves in sorted(game.playable().items()) for move in moves]
        if options:
            bot.choose(game, options)
        decisions.append(time.perf_counter() - start)
    return timings(f"bot: {name} move, worst board (8 players, north-carolina)", decisions, "decisions")


def run_expert(games: int = 4) -> list[dict[str, Any]]:
    """The expert's decisions over whole 4-player games (basic and North Carolina, against
    the strategic bot), and on the worst board (8 players, North Carolina, a crowded track)."""
    decisions: list[float] = []

    class Timed(ExpertBot):
        def choose(self, game: Any, options: Any) -> Any:
            start = time.perf_counter()
            chosen = super().choose(game, options)
            decisions.append(time.perf_counter() - start)
            return chosen

    BOTS["timed expert"] = Timed
    try:
        for seed in range(games):
            for rules in ("basic", "north-carolina"):
                play_one(Ruleset.preset(rules), 4, seed, "timed expert", "strategic")
    finally:
        del BOTS["timed expert"]
    whole = timings("bot: expert move, whole 4-player games (basic, north-carolina)", decisions, "decisions")
    return [whole, run_bot(max(5, 5 * games), ExpertBot, "expert")]


def run_review(games: int = 6) -> list[dict[str, Any]]:
    """The game review of whole 4-player games (greedy bots, every hand known), basic and North
    Carolina (its 7s and 10s split): the budget (docs/design.md, "Budgets") is 5 s a game here, in the background."""
    rows = []
    for rules in ("basic", "north-carolina"):
        seconds = []
        for seed in range(games):
            game, _stats = play_one(Ruleset.preset(rules), 4, seed, "greedy")
            start = time.perf_counter()
            review(game.events)
            seconds.append(time.perf_counter() - start)
        rows.append(timings(f"review: a whole 4-player game, {rules}", seconds, "games"))
    return rows
