"""Cards: names, decks, seeded shuffles and deals. A card's power depends on the rule set."""

from __future__ import annotations

import random

CARDS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "JOKER")
RANKS: tuple[str, ...] = CARDS[:-1]
JOKER = "JOKER"

_ALIASES = {"1": "A", "ACE": "A", "JACK": "J", "QUEEN": "Q", "KING": "K", "T": "10", "JK": "JOKER"}


class CardError(ValueError):
    """A card name that is not one of A 2 3 4 5 6 7 8 9 10 J Q K JOKER."""


def parse_card(text: str) -> str:
    """The canonical name of a card: ``"a"`` -> ``"A"``, ``"joker"`` -> ``"JOKER"``."""
    if not isinstance(text, str):
        raise CardError(f"unknown card {text!r}: use one of {' '.join(CARDS)}")
    name = text.strip().upper()
    name = _ALIASES.get(name, name)
    if name not in CARDS:
        raise CardError(f"unknown card {text!r}: use one of {' '.join(CARDS)}")
    return name


def build_deck(decks: int, jokers: int) -> list[str]:
    """``decks`` standard 52-card decks (suits do not matter here) plus ``jokers``."""
    return [rank for _ in range(decks) for rank in RANKS for _suit in range(4)] + [JOKER] * jokers


def shuffled(cards: list[str], rng: random.Random) -> list[str]:
    """A shuffled copy; the end of the list is the top of the stock."""
    deck = list(cards)
    rng.shuffle(deck)
    return deck


def deal(stock: list[str], seats: tuple[int, ...], hand_size: int) -> dict[int, list[str]]:
    """Deal ``hand_size`` cards to each seat one at a time, clockwise, from the top of ``stock``."""
    hands: dict[int, list[str]] = {seat: [] for seat in seats}
    for _ in range(hand_size):
        for seat in seats:
            hands[seat].append(stock.pop())
    return hands
