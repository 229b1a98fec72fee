"""A game's cards in play (digital mode): the deal, the draw from the stock, the played
cards and their reshuffle when the stock runs out.

Kept apart from ``referee.game`` because it is the one part of a game that is random: the
shuffles are seeded from the game's seed (and how many reshuffles came before), so a record
replays to the same cards; the events carry the cards, and applying one checks them.
"""

from __future__ import annotations

import random

from referee.cards import build_deck, deal, shuffled
from referee.events import Deal, Draw, Reshuffle
from referee.game_state import GameError, Mode, State
from referee.rulesets import Ruleset


def rng(seed: int, reshuffles: int = 0) -> random.Random:
    """The shuffle of a game's seed after ``reshuffles`` reshuffles (0: the first deal)."""
    return random.Random(f"{seed}:{reshuffles}")


def first_deal(rules: Ruleset, players: int, seats: tuple[int, ...], seed: int) -> Deal:
    """The ``deal`` event that begins a digital game: every hand, and the stock left."""
    stock = shuffled(build_deck(rules.decks_for(players), rules.jokers_for(players)), rng(seed))
    hands = deal(stock, seats, rules.hand_size)
    return Deal({s: tuple(h) for s, h in hands.items()}, tuple(stock))


def reshuffle(state: State, seed: int) -> Reshuffle:
    """The rules page does not say; every table reshuffles the played cards when the stock runs out."""
    return Reshuffle(tuple(shuffled(state.discards, rng(seed, state.reshuffles + 1))))


def apply_deal(state: State, event: Deal) -> None:
    if event.stock is None:
        raise GameError("the deal leaves out the stock")
    state.hands = {seat: list(cards) for seat, cards in event.hands.items()}
    state.stock = list(event.stock)


def apply_draw(state: State, seat: int, event: Draw, rules: Ruleset) -> None:
    """The top card of the stock into the hand of ``seat``, the seat to play."""
    if not state.stock or state.stock[-1] != event.card:
        raise GameError(f"the top of the stock is not {event.card}")
    _hand(state, seat).append(state.stock.pop())
    state.acted = True
    state.phase = "play" if rules.draw == "before" else state.phase


def apply_reshuffle(state: State, event: Reshuffle) -> None:
    if event.stock is None or sorted(event.stock) != sorted(state.discards):
        raise GameError("a reshuffle must use exactly the played cards")
    state.stock, state.discards = list(event.stock), []
    state.reshuffles += 1


def take_card(state: State, mode: Mode, seat: int, card: str | None) -> None:
    """A card played or discarded: out of the hand (digital mode), onto the played cards."""
    if mode == "digital":
        hand = _hand(state, seat)
        if card not in hand:
            raise GameError(f"seat {seat} does not hold {card}")
        hand.remove(card)
    if card is not None:
        state.discards.append(card)


def _hand(state: State, seat: int) -> list[str]:
    hand = state.hands.get(seat)
    if hand is None:
        raise GameError(f"seat {seat} was dealt no hand")
    return hand
