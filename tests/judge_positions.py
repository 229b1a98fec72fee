"""Contested positions from self-played games, for measuring a ranker against the reference.

A position is contested when the seat to play has at least two options that leave the board
differently (a move's result, or keeping a joker and discarding); the move the bot actually
played there is kept too, so a game review's label of it can be checked.

    spots = contested_spots(72, players=(4, 6), rules=("basic", "north-carolina"), seed=1)
    game = spots[0].game()                # Game.from_events of the record up to that turn
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from referee import events as ev
from referee.events import Event, event_to_json
from referee.game import Game
from referee.rulesets import Ruleset
from tests.reference_judge import Option, options_of

MAX_ACTIONS = 20_000  # a self-played game that long is a bug
PER_GAME = 3  # spots kept from one game, so that the set spans many games


@dataclass(frozen=True)
class Spot:
    """A contested position: the record up to it (JSON events), and what was played there."""

    rules: str
    players: int
    seed: int
    events: tuple[dict[str, Any], ...]
    played: tuple[str, str | None, bool]  # (card, move text or None for a discard, free)

    @property
    def key(self) -> str:
        """The position's identity, for a cache: a hash of its record."""
        return hashlib.sha256(json.dumps(self.events, sort_keys=True).encode()).hexdigest()[:32]

    def game(self) -> Game:
        return Game.from_events(self.events)


def contested(game: Game) -> bool:
    """At least two of the seat's options leave the board differently."""
    results = {option.key[1] for option in options_of(game, per_card=None)}
    return len(results) >= 2


def waiting_on(game: Game) -> int:
    """The seat whose bot must act now."""
    if game.phase == "doubt" and game.doubter_to_answer is not None:
        return game.doubter_to_answer
    if game.phase == "penalty" and game.penalty is not None:
        return game.penalty[0]
    return game.turn


def played_option(new: Sequence[Event]) -> tuple[str, str | None, bool]:
    """What the seat did in the events of its turn: the card and move played, or the card
    discarded."""
    for event in new:
        if isinstance(event, ev.Discard) and event.card is not None:
            return event.card, None, False
        if isinstance(event, ev.Move):
            play = next(e for e in new if isinstance(e, ev.Play))
            assert play.card is not None
            return play.card, event.text, event.free
    raise ValueError("the turn made no move and discarded nothing")


def default_bots(seed: int) -> dict[int, Any]:
    """Greedy bots on even seats and strategic ones on odd seats (``referee.coach.bots``)."""
    from referee.coach.bots import BOTS

    rng = random.Random(seed)
    return {seat: BOTS["greedy" if seat % 2 == 0 else "strategic"](rng) for seat in range(10)}


def game_spots(rules: str, players: int, seed: int, bots: Callable[[int], dict[int, Any]]) -> list[Spot]:
    """Every contested position of one self-played game."""
    game, seats = Game(Ruleset.preset(rules), players, seed=seed), bots(seed)
    spots: list[Spot] = []
    for _ in range(MAX_ACTIONS):
        if game.phase == "over":
            return spots
        seat = waiting_on(game)
        if game.phase != "play" or not contested(game):
            seats[seat].act(game)
            continue
        events = tuple(event_to_json(event) for event in game.events)
        before = len(game.events)
        seats[seat].act(game)
        spots.append(Spot(rules, players, seed, events, played_option(game.events[before:])))
    raise RuntimeError(f"seed {seed}: no winner after {MAX_ACTIONS} actions")


def contested_spots(
    count: int,
    players: Sequence[int] = (4, 6),
    rules: Sequence[str] = ("basic", "north-carolina"),
    seed: int = 1,
    bots: Callable[[int], dict[int, Any]] = default_bots,
) -> list[Spot]:
    """``count`` contested positions, ``PER_GAME`` drawn from each self-played game, the
    games cycling through every (rules, players) pair."""
    kinds = [(name, n) for name in rules for n in players]
    rng, game_number = random.Random(seed), 0
    spots: list[Spot] = []
    while len(spots) < count:
        name, n = kinds[game_number % len(kinds)]
        found = game_spots(name, n, seed * 10_000 + game_number, bots)
        spots += rng.sample(found, min(PER_GAME, len(found), count - len(spots)))
        game_number += 1
    return spots


def option_of(game: Game, played: tuple[str, str | None, bool]) -> Option:
    """The played option as the reference names it, in the spot's game."""
    card, text, free = played
    if text is None:
        return Option(card, None)
    moves = game.free_come_outs(card) if free else game.playable().get(card, [])
    for move in moves:
        if move.text == text:
            return Option(card, move, free)
    from referee.movegen import parse_move

    return Option(card, parse_move(game.position, text, game.rules), free)
