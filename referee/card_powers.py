"""What one card may do (``CardPower``) and how a count is shared (``Split``).

Each field is a house-rules key of a ``[cards.X]`` table, declared once with its check,
its meaning and its words in the rules summary (``referee.rule_fields``). A new card
option is one field here, plus its use in ``referee.movegen``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from referee.rule_fields import RulesetError, described, read_table, rule, said, stored, true_or_false, whole

SplitDirections = Literal["forward", "forward-backward", "any"]
SPLIT_DIRECTIONS: tuple[SplitDirections, ...] = ("forward", "forward-backward", "any")
MAX_STEPS = 17


def _total(where: str, value: object) -> int:
    return whole(where, value, 2, MAX_STEPS)


def _directions(where: str, value: object) -> SplitDirections:
    for directions in SPLIT_DIRECTIONS:
        if value == directions:
            return directions
    raise RulesetError(f"{where} must be one of {', '.join(SPLIT_DIRECTIONS)}")


@dataclass(frozen=True)
class Split:
    """How a card's count may be shared between two different pegs.

    ``directions``: "forward" (both parts forward: the 7), "forward-backward" (one part
    each way: the Arizona 9) or "any" (each part either way: the North Carolina 10).
    ``required``: the card cannot move one peg its whole count. ``any_peg``: parts may
    move any peg on the board, opponents' only along the main track (North Carolina 10).
    """

    total: int = field(metadata=rule("the count shared between two pegs, 2 to 17", _total))
    directions: SplitDirections = field(
        default="forward",
        metadata=rule(
            '"forward" (both parts), "forward-backward" (one each way) or "any" (each part either way)', _directions
        ),
    )
    required: bool = field(default=False, metadata=rule("the card cannot move one peg its whole count", true_or_false))
    any_peg: bool = field(
        default=False,
        metadata=rule("parts may move any peg on the board, opponents' on the main track only", true_or_false),
    )

    def parts(self) -> list[tuple[tuple[bool, int], tuple[bool, int]]]:
        """Unordered pairs of (forward?, count) parts that add up to the total."""
        pairs = []
        for a in range(1, self.total // 2 + 1):
            b = self.total - a
            if self.directions in ("forward", "any"):
                pairs.append(((True, a), (True, b)))
            if self.directions == "any":
                pairs.append(((False, a), (False, b)))
            if self.directions in ("forward-backward", "any"):
                pairs.append(((True, a), (False, b)))
                if a != b:
                    pairs.append(((True, b), (False, a)))
        return pairs

    def words(self) -> list[str]:
        kind = {"forward": "both forward", "forward-backward": "one forward, one back", "any": "any direction"}
        needed = "must be split" if self.required else "or split"
        whose = " (any pegs; opponents' on the main track)" if self.any_peg else ""
        return [f"{needed} between two pegs, {kind[self.directions]}{whose}"]


def _counts(where: str, value: object) -> tuple[int, ...]:
    if not isinstance(value, list):
        raise RulesetError(f"{where} must be a list of hole counts, e.g. [10]")
    return tuple(whole(where, n, 1, MAX_STEPS) for n in value)


def _split(where: str, value: object) -> Split | None:
    if value is False:
        return None
    if not isinstance(value, Mapping):
        raise RulesetError(f'{where} must be a table like {{total = 7, directions = "forward"}} or false')
    return Split(**read_table(Split, where, value))  # type: ignore[arg-type]  # checked by Split's declarations


def _split_stored(split: Split | None) -> object:
    return stored(split) if split is not None else False


@dataclass(frozen=True)
class CardPower:
    """What one card may do. Each option is a separate legal move."""

    forward: tuple[int, ...] = field(
        default=(),
        metadata=rule(
            "hole counts the card moves one peg forward, e.g. [10]",
            _counts,
            words=lambda counts: [f"{n} forward" for n in counts],
            said_at=1,
        ),
    )
    backward: tuple[int, ...] = field(
        default=(),
        metadata=rule(
            "hole counts the card moves one peg back, e.g. [8]",
            _counts,
            words=lambda counts: [f"{n} back" for n in counts],
            said_at=2,
        ),
    )
    come_out: bool = field(
        default=False,
        metadata=rule(
            "the card brings a peg out of its start",
            true_or_false,
            words=lambda on: ["come out"] if on else [],
            said_at=0,
        ),
    )
    swap: bool = field(
        default=False,
        metadata=rule(
            "the card swaps two pegs of different colours on the main track",
            true_or_false,
            words=lambda on: ["swap two pegs of different colours on the main track"] if on else [],
            said_at=4,
        ),
    )
    joker: bool = field(
        default=False,
        metadata=rule(
            "the card jumps a peg onto any other colour's peg on the main track",
            true_or_false,
            words=lambda on: ["jump a peg onto any other colour's peg on the main track"] if on else [],
            said_at=5,
        ),
    )
    split: Split | None = field(
        default=None,
        metadata=rule(
            "how the count may be shared between two pegs: a table of total, directions, required and any_peg, "
            "or false",
            _split,
            words=lambda split: split.words() if split else [],
            store=_split_stored,
            said_at=3,
        ),
    )

    def describe(self) -> str:
        """One line for the rules summary on the page and in the CLI."""
        return ", ".join(said(self)) or "does not move"


def card_changes(card: str, table: Mapping[str, object]) -> dict[str, object]:
    """The checked values of a house-rules ``[cards.X]`` table, by field."""
    return read_table(CardPower, f"cards.{card}", table)


def power_mapping(power: CardPower) -> dict[str, object]:
    """``power`` as a house-rules ``[cards.X]`` table: ``card_changes`` takes it back."""
    return stored(power)


def card_keys() -> list[str]:
    """Every key of a ``[cards.X]`` table and of its split, with what it means."""
    return described(CardPower, "cards.X") + described(Split, "cards.X.split")
