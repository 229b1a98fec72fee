"""Looking ahead over what a seat cannot see: the other hands and the stock, sampled so that
they agree with every card seen so far, and the next round played out by likely replies.

    hidden = Hidden.of(game, seat)                 # the cards the seat has not seen, and who holds how many
    deals = hidden.sample(rng, 12)                 # 12 ways the other hands may lie
    outcome = play_round(move.result, deals[0], rules, seat)

Each other seat replies with the card and move that win it most of the race (partners
included: their likely moves), a joker only when nothing else moves. What a round costs is
bounded: a card's moves are read lazily and at most ``MOVES_PER_CARD`` of them are weighed.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache
from itertools import islice

from referee.cards import JOKER, build_deck
from referee.coach.race import gain
from referee.game import Game
from referee.movegen import legal_moves
from referee.moves import Move
from referee.position import Position
from referee.rulesets import Ruleset

MOVES_PER_CARD = 40  # a North Carolina 10 may split thousands of ways: a reply weighs the first 40
JOKER_COST = 6  # what a reply's joker is worth kept, in holes of the race


@dataclass(frozen=True)
class Hidden:
    """The cards a seat has not seen (in the other hands and the stock) and the others' hand sizes."""

    unseen: tuple[str, ...]
    hand_sizes: Mapping[int, int]
    own: tuple[str, ...] | None = None  # the seat's own hand, where the referee holds it

    def kept(self, played: str) -> tuple[str, ...] | None:
        """The seat's cards after it plays (or discards) ``played``."""
        if self.own is None:
            return None
        cards = list(self.own)
        if played in cards:
            cards.remove(played)
        return tuple(cards)

    @classmethod
    def of(cls, game: Game, seat: int) -> Hidden:
        rules = game.rules
        deck = Counter(build_deck(rules.decks_for(game.board.players), rules.jokers_for(game.board.players)))
        deck.subtract(game.hand(seat))
        deck.subtract(game.discards)
        unseen = tuple(sorted(card for card, count in deck.items() for _ in range(max(0, count))))
        # At a real table the referee sees no hand: each other seat holds a full one.
        sizes = {
            other: len(game.hand(other)) if game.mode == "digital" else rules.hand_size
            for other in game.board.seats
            if other != seat
        }
        return cls(unseen, sizes, tuple(game.hand(seat)) if game.mode == "digital" else None)

    @classmethod
    def of_hand(cls, position: Position, rules: Ruleset, hand: Sequence[str]) -> Hidden:
        """What the seat to play cannot see when only its hand and the board are known (a
        position file, no cards seen played): every other card, each other seat a full hand."""
        board = position.board
        deck = Counter(build_deck(rules.decks_for(board.players), rules.jokers_for(board.players)))
        deck.subtract(hand)
        unseen = tuple(sorted(card for card, count in deck.items() for _ in range(max(0, count))))
        sizes = {other: rules.hand_size for other in board.seats if other != position.turn}
        return cls(unseen, sizes, tuple(hand))

    def sample(self, rng: random.Random, count: int) -> list[Deal]:
        deals = []
        for _ in range(count):
            cards = list(self.unseen)
            rng.shuffle(cards)
            hands, at = {}, 0
            for other, size in sorted(self.hand_sizes.items()):
                size = min(size, max(0, len(cards) - at))
                hands[other] = tuple(cards[at : at + size])
                at += size
            deals.append(Deal(hands, tuple(cards[at:])))
        return deals


@dataclass(frozen=True)
class Deal:
    """One way the hidden cards may lie: each other seat's hand, and the stock top last."""

    hands: Mapping[int, tuple[str, ...]]
    stock: tuple[str, ...]


@dataclass(frozen=True)
class Reply:
    seat: int
    card: str | None  # None: the seat could not move and discarded
    move: Move | None


@cache
def reply_rules(rules: Ruleset) -> Ruleset:
    """The rules as a reply weighs them: splits a card may do without are left out (a 7 split
    is rarely the likeliest move, and splits cost most of a reply's time)."""
    cards = tuple(
        (card, replace(power, split=None) if power.split and not power.split.required else power)
        for card, power in rules.cards
    )
    return replace(rules, cards=cards)


def reply(position: Position, hand: Sequence[str], rules: Ruleset, jokers: bool = False, splits: bool = False) -> Reply:
    """The move a seat most likely makes with ``hand``: the most race; cards that must split
    only when nothing else moves, and jokers too unless ``jokers`` (then a joker's move counts
    ``JOKER_COST`` holes less: it is played where its bump pays for it). Splits a card may do
    without are weighed only with ``splits`` (after the card's single moves)."""
    if not splits:
        rules = reply_rules(rules)
    board, seat = position.board, position.turn
    team = set(board.team_of[seat])
    best: tuple[float, str, Move] | None = None
    for card in dict.fromkeys(sorted(hand, key=lambda c: (c == JOKER, _must_split(rules, c)))):
        if best is not None and ((card == JOKER and not jokers) or _must_split(rules, card)):
            break
        for move in islice(legal_moves(position, card, rules), MOVES_PER_CARD):
            value = gain(board, team, move) - (JOKER_COST if card == JOKER else 0)
            if best is None or value > best[0]:
                best = (value, card, move)
    if best is None:
        return Reply(seat, None, None)
    return Reply(seat, best[1], best[2])


def _must_split(rules: Ruleset, card: str) -> bool:
    """A card that can only split (North Carolina's 10): the costliest to weigh, so weighed last."""
    split = rules.power(card).split
    return split is not None and split.required


def play_round(
    position: Position, deal: Deal, rules: Ruleset, seat: int, own: Sequence[str] | None = None
) -> Iterator[Reply]:
    """Every other seat's reply in turn, from the position after ``seat``'s move, until ``seat``
    plays again; with ``own`` (the cards the seat keeps), its own next move too. The positions
    after each reply are the replies' ``move.result``."""
    board = position.board
    turn = board.next_seat(seat)
    stock = list(deal.stock)
    if rules.draw == "after" and stock:
        own = [*own, stock.pop()] if own is not None else None
    while True:
        if turn == seat and own is None:
            return
        position = position.with_turn(turn)
        hand = list(deal.hands.get(turn, ())) if turn != seat else list(own or ())
        if rules.draw == "before" and stock:
            hand.append(stock.pop())
        answer = reply(position, hand, rules)
        yield answer
        if answer.move is not None:
            position = answer.move.result
        if turn == seat:
            return
        turn = board.next_seat(turn)
