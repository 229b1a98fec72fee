"""The coach's benches: a hint over whole games and on the worst board, a bot's decision,
the expert over whole games, the game review (docs/design.md, "Budgets")."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from referee.bench.common import WORST, timings
from referee.coach.bots import BOTS, ExpertBot, RandomBot, StrongBot
from referee.coach.lookahead import Hidden
from referee.coach.review import review
from referee.coach.selfplay import play_one
from referee.game import Game
from referee.moves import Move
from referee.rulesets import Ruleset
from referee.table.teaching import Question

Hook = Callable[[Game, list[tuple[str, Move]]], None]  # a decision's game and the options the bot had


def run_bot(games: int = 20, kind: type[RandomBot] = StrongBot, name: str = "strong") -> dict[str, Any]:
    """A bot's whole decision on the worst board (8 players, North Carolina, the worst case's
    pegs): its hand's legal moves generated and judged (and looked ahead, for the expert)."""
    rules = Ruleset.preset(WORST.rules)
    decisions: list[float] = []
    for seed in range(games):
        game = _worst_game(rules, seed)
        bot = kind(random.Random(seed))
        start = time.perf_counter()
        options = [(card, move) for card, moves in sorted(game.playable().items()) for move in moves]
        if options:
            bot.choose(game, options)
        decisions.append(time.perf_counter() - start)
    return timings(f"bot: {name} move, worst board (8 players, north-carolina)", decisions, "decisions")


def _worst_game(rules: Ruleset, seed: int) -> Game:
    game = Game(rules, 8, mode="digital", seed=seed, pegs=WORST.position["pegs"])
    if game.phase == "draw":
        game.draw()
    return game


def _whole_games(games: int, seen: Hook) -> None:
    """4-player games, basic and North Carolina, expert against strong; ``seen`` at each of the
    expert's decisions, before it is made, with the options it had (a counting turn's free
    come-outs are options too)."""

    class Watched(ExpertBot):
        def choose(self, game: Any, options: Any) -> Any:
            seen(game, options)
            return super().choose(game, options)

    BOTS["watched expert"] = Watched
    try:
        for seed in range(games):
            for rules in ("basic", "north-carolina"):
                play_one(Ruleset.preset(rules), 4, seed, "watched expert", "strong")
    finally:
        del BOTS["watched expert"]


def run_expert(games: int = 4) -> list[dict[str, Any]]:
    """The expert's decisions over whole 4-player games, and on the worst board."""
    decisions: list[float] = []

    def timed(game: Game, options: list[tuple[str, Move]]) -> None:
        start = time.perf_counter()
        ExpertBot(random.Random(len(game.events))).choose(game, options)
        decisions.append(time.perf_counter() - start)

    _whole_games(games, timed)
    whole = timings("bot: expert move, whole 4-player games (basic, north-carolina)", decisions, "decisions")
    return [whole, run_bot(max(5, 5 * games), ExpertBot, "expert")]


def run_hints(games: int = 4) -> list[dict[str, Any]]:
    """A hint as the page asks for it (the hand judged, the best few looked ahead, the threat
    said) at every turn of whole 4-player games, and on the worst board."""
    asked: list[float] = []

    def timed(game: Game, _options: list[tuple[str, Move]]) -> None:
        asked.append(_hint_time(game))

    _whole_games(games, timed)
    rules = Ruleset.preset(WORST.rules)
    worst = [_hint_time(_worst_game(rules, seed)) for seed in range(max(5, 5 * games))]
    return [
        timings("hint: whole 4-player games (basic, north-carolina), looked ahead", asked, "hints"),
        timings("hint: worst board (8 players, north-carolina), looked ahead", worst, "hints"),
    ]


def _hint_time(game: Game) -> float:
    question = Question(
        game.position, game.rules, tuple(dict.fromkeys(game.hand(game.turn))), Hidden.of(game, game.turn), "bench"
    )
    start = time.perf_counter()
    question.answer()
    return time.perf_counter() - start


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
