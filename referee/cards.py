"""Card names. A card's power depends on the rule set; its name never does."""

from __future__ import annotations

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
