"""Bots that can fill an empty seat, by level: ``beginner`` (the race alone), ``family`` (the
judge, with a slip now and then), ``strong`` (the judge) and ``expert`` (the judge looking
ahead over sampled deals of the hidden cards); ``random`` and ``greedy`` are the yardsticks
they are measured against. Each level's win rates are published with their intervals
(README, "Bots").

A bot is asked to ``act`` whenever the game waits on its seat: to draw, play or discard,
doubt a declaration, or choose a peg to send back to start.

    bot = BOTS["strong"](random.Random(1))
    while game.phase != "over":
        bot.act(game)          # one bot playing every seat
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Protocol

from referee.cards import JOKER, RANKS
from referee.coach.hints import spare_card
from referee.coach.judge import Choice, Verdict, judge
from referee.coach.lookahead import Hidden
from referee.coach.race import gain, progress
from referee.game import Game
from referee.moves import Move
from referee.position import Position
from referee.rulesets import Ruleset


class Bot(Protocol):
    def act(self, game: Game) -> None: ...


@dataclass(frozen=True)
class Situation:
    """What a bot may know when it chooses, taken from the game in one look: the board, the
    rules, its hand (where the referee holds it) and the cards it cannot see. A table hands it
    to a bot thinking on another thread while the game goes on being refereed."""

    position: Position
    rules: Ruleset
    hand: tuple[str, ...]
    hidden: Hidden
    may_keep_joker: bool  # only jokers move and nothing forces one: keeping it is a choice

    @classmethod
    def of(cls, game: Game) -> Situation:
        digital = game.mode == "digital"
        hand = tuple(game.hand(game.turn)) if digital else ()
        free = digital and not (game.must_move() or game.free_come_out_due())
        return cls(game.position, game.rules, hand, Hidden.of(game, game.turn), free)


class RandomBot:
    """Plays a random legal card and move; bluffs and doubts now and then."""

    def __init__(self, rng: random.Random, bluff_rate: float = 0.2, doubt_rate: float = 0.2) -> None:
        self.rng = rng
        self.bluff_rate = bluff_rate
        self.doubt_rate = doubt_rate

    def act(self, game: Game) -> None:
        if game.phase == "draw":
            game.draw()
        elif game.phase == "doubt":
            seat = game.doubter_to_answer
            assert seat is not None
            game.respond(seat, self.rng.random() < self.doubt_rate)
        elif game.phase == "penalty":
            _send_back(game, self.rng)
        elif game.phase == "play":
            self._play(game)

    quick = True  # decides in a moment: a table asks it under its lock (else on another thread)

    def choose(self, game: Game, options: list[tuple[str, Move]]) -> tuple[str, Move | None]:
        """The card and move to play; a move of None: discard that card instead."""
        return self.pick(Situation.of(game), options)

    def pick(self, situation: Situation, options: list[tuple[str, Move]]) -> tuple[str, Move | None]:
        """``choose`` from what one look at the game saw."""
        return self.rng.choice(options)

    def _play(self, game: Game) -> None:
        hand = game.hand(game.turn)
        playable = game.playable()
        free = [(card, move) for card in sorted(set(hand)) for move in game.free_come_outs(card)]
        options = [(card, move) for card, moves in sorted(playable.items()) for move in moves]
        if not options and not free:
            game.discard(self.choose_discard(game, hand))
            return
        if free and (not options or self.rng.random() < 0.5):
            card, come_out = self.choose(game, free)
            game.play(card, come_out or free[0][1], free=True)
            return
        card, chosen = self.choose(game, options)
        if chosen is None:  # keep the joker: the rules page, Basic Game: "a player is never forced to play a joker"
            game.discard(card)
            return
        move = chosen
        if game.rules.bluffing and self.rng.random() < self.bluff_rate:
            card, move = self._bluff(game, hand) or (card, move)
            declared = move.card
            game.play(card, move, declared=declared)
            return
        game.play(card, move)

    def _bluff(self, game: Game, hand: list[str]) -> tuple[str, Move] | None:
        declared = self.rng.choice(RANKS)
        moves = game.legal(declared)
        if not moves:
            return None
        return self.rng.choice(hand), self.rng.choice(moves)

    def choose_discard(self, game: Game, hand: list[str]) -> str:
        return self.rng.choice(hand)


class GreedyBot(RandomBot):
    """Takes the move that most improves its team's race against the others, keeps jokers
    for when they pay, and never bluffs."""

    def __init__(self, rng: random.Random) -> None:
        super().__init__(rng, bluff_rate=0.0, doubt_rate=0.1)

    def pick(self, situation: Situation, options: list[tuple[str, Move]]) -> tuple[str, Move | None]:
        board = situation.position.board
        team = set(board.team_of[situation.position.turn])
        scored = [
            (gain(board, team, move) - (4 if card == JOKER else 0), self.rng.random(), card, move)
            for card, move in options
        ]
        best = max(scored, key=lambda entry: entry[:2])
        return best[2], best[3]

    def choose_discard(self, game: Game, hand: list[str]) -> str:
        keep = {JOKER, "A", "K", "Q", "J"}
        spare = [card for card in hand if card not in keep]
        return self.rng.choice(spare or hand)


def _send_back(game: Game, rng: random.Random) -> None:
    """Choose the victim's peg that has come furthest."""
    penalty = game.penalty
    assert penalty is not None
    chooser, victim = penalty
    board = game.board
    holes = [hole for hole in game.position.on_board(victim) if board.is_track(hole)]
    hole = max(holes, key=lambda h: (progress(board, victim, h), rng.random()))
    game.send_to_start(chooser, board.hole_name(hole))


class StrongBot(GreedyBot):
    """Plays the judge's best choice (``referee.coach.judge``): the learned chance to win
    after each move, keeping a joker where only jokers move and nothing forces one."""

    quick = False
    look_ahead = False
    slips = 0.0  # how often it takes the second or third best instead (a family player's slip)

    def pick(self, situation: Situation, options: list[tuple[str, Move]]) -> tuple[str, Move | None]:
        verdicts = self.judged(situation, options)
        if self.slips and len(verdicts) > 1 and self.rng.random() < self.slips:
            chosen = self.rng.choice(verdicts[1:3])
        else:
            chosen = verdicts[0]
        return chosen.card, chosen.move

    def judged(self, situation: Situation, options: list[tuple[str, Move]]) -> list[Verdict]:
        choices = [Choice(card, move) for card, move in options]
        if situation.may_keep_joker and situation.hand and all(card == JOKER for card, _ in options):
            choices.append(Choice(spare_card(situation.hand), None))
        position, rules = situation.position, situation.rules
        if not self.look_ahead:
            return judge(position, rules, choices)
        return judge(position, rules, choices, situation.hidden, self.rng)

    def choose_discard(self, game: Game, hand: list[str]) -> str:
        return spare_card(hand)


class BeginnerBot(GreedyBot):
    """The race alone, as a newcomer counts it: the greedy bot under a friendlier name."""


class FamilyBot(StrongBot):
    """The judge's choice, but one move in ten the second or third best. One in four made it
    no better than the race at 4 players and worse at 8 (README, "Bots"); one in ten keeps it
    between the beginner and the strong bot (basic, 4 players, 200 games each: 61.5% against
    the beginner, 35% against the strong bot)."""

    slips = 0.10


class ExpertBot(StrongBot):
    """The judge's best few choices played on over sampled deals of the hidden cards."""

    look_ahead = True


LEVELS = ("beginner", "family", "strong", "expert")
BOTS: dict[str, type[RandomBot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "beginner": BeginnerBot,
    "family": FamilyBot,
    "strong": StrongBot,
    "expert": ExpertBot,
    "strategic": StrongBot,  # the old name of the strong bot, in games stored before the levels
}
