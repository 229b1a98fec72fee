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
from typing import Protocol

from referee.cards import JOKER, RANKS
from referee.coach.hints import spare_card
from referee.coach.judge import Choice, Verdict, judge
from referee.coach.lookahead import Hidden
from referee.coach.race import gain, progress
from referee.game import Game
from referee.moves import Move


class Bot(Protocol):
    def act(self, game: Game) -> None: ...


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

    def choose(self, game: Game, options: list[tuple[str, Move]]) -> tuple[str, Move | None]:
        """The card and move to play; a move of None: discard that card instead."""
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

    def choose(self, game: Game, options: list[tuple[str, Move]]) -> tuple[str, Move | None]:
        team = set(game.board.team_of[game.turn])
        scored = [
            (gain(game.board, team, move) - (4 if card == JOKER else 0), self.rng.random(), card, move)
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

    look_ahead = False
    slips = 0.0  # how often it takes the second or third best instead (a family player's slip)

    def choose(self, game: Game, options: list[tuple[str, Move]]) -> tuple[str, Move | None]:
        verdicts = self.judged(game, options)
        if self.slips and len(verdicts) > 1 and self.rng.random() < self.slips:
            chosen = self.rng.choice(verdicts[1:3])
        else:
            chosen = verdicts[0]
        return chosen.card, chosen.move

    def judged(self, game: Game, options: list[tuple[str, Move]]) -> list[Verdict]:
        choices = [Choice(card, move) for card, move in options]
        hand = game.hand(game.turn) if game.mode == "digital" else []
        if hand and not (game.must_move() or game.free_come_out_due()) and all(c == JOKER for c, _ in options):
            choices.append(Choice(spare_card(hand), None))
        if not self.look_ahead:
            return judge(game.position, game.rules, choices)
        return judge(game.position, game.rules, choices, Hidden.of(game, game.turn), self.rng)

    def choose_discard(self, game: Game, hand: list[str]) -> str:
        return spare_card(hand)


class BeginnerBot(GreedyBot):
    """The race alone, as a newcomer counts it: the greedy bot under a friendlier name."""


class FamilyBot(StrongBot):
    """The judge's choice, but one move in four the second or third best."""

    slips = 0.25


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
