"""Move values and their text notation.

A move is the card played and one or two *steps*, applied in order. The notation
is the card, then each step as ``FROM-TO`` (``x`` when it lands on a peg and bumps
it) or ``A<>B`` for a swap, with start pegs written ``S<seat>``::

    K S0-T0:8            come out with a king
    7 T0:8-T0:11 T2:5-T2:9x
    JOKER S1-T3:4x       a joker from start onto a peg
    2 T0:5<>T2:7         North Carolina's swap

Text names holes only, so ``parse_notation`` needs just the board; which moves are
legal is the move generator's business (:func:`referee.movegen.parse_move`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from referee.board import Board, BoardError
from referee.cards import CardError, parse_card
from referee.position import Position


class NotationError(ValueError):
    """Move text that does not parse, or names no legal move."""


@dataclass(frozen=True, slots=True)
class Bump:
    """A peg of ``seat`` knocked from ``source`` to its in-spot or start bin ``target``."""

    seat: int
    source: int
    target: int


@dataclass(frozen=True, slots=True)
class Step:
    """One peg moving from ``source`` to ``target``, or two pegs exchanging holes."""

    source: int
    target: int
    bumps: tuple[Bump, ...] = ()
    swap: bool = False

    def text(self, board: Board) -> str:
        if self.swap:
            return f"{board.hole_name(self.source)}<>{board.hole_name(self.target)}"
        return f"{board.hole_name(self.source)}-{board.hole_name(self.target)}{'x' if self.bumps else ''}"


class Move:
    """A legal move: its card, its steps, its bumps and the position it leads to."""

    __slots__ = ("_key", "_result", "before", "card", "steps")

    def __init__(self, card: str, steps: tuple[Step, ...], before: Position, key: int) -> None:
        self.card = card
        self.steps = steps
        self.before = before
        self._key = key
        self._result: Position | None = None

    @property
    def key(self) -> int:
        """The resulting occupancy as one integer (``Position.key`` of the result)."""
        return self._key

    @property
    def bumps(self) -> tuple[Bump, ...]:
        return tuple(bump for step in self.steps for bump in step.bumps)

    @property
    def result(self) -> Position:
        """The position after the move; the turn is unchanged (the game decides who is next)."""
        if self._result is None:
            size = self.before.board.board_holes
            self._result = self.before._derived(self._key.to_bytes(size, "little"))
        return self._result

    @property
    def text(self) -> str:
        board = self.before.board
        return " ".join([self.card, *(step.text(board) for step in self.steps)])

    def describe_bumps(self) -> list[str]:
        board = self.before.board
        return [
            f"seat {bump.seat} bumped from {board.hole_name(bump.source)} to "
            + ("start" if board.is_start(bump.target) else f"its in-spot {board.hole_name(bump.target)}")
            for bump in self.bumps
        ]

    def to_json(self) -> dict[str, object]:
        return {"text": self.text, "result": self.result.pegs_json()}

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"<Move {self.text}>"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Move):
            return NotImplemented
        return (self.card, self.steps, self.before, self._key) == (other.card, other.steps, other.before, other._key)

    def __hash__(self) -> int:
        return hash((self.card, self.steps, self._key))


_STEP_RE = re.compile(r"^(?P<a>[A-Z0-9:]+)(?:(?P<swap><>)|-)(?P<b>[A-Z0-9:]+?)(?P<x>x?)$")


def parse_notation(text: str, board: Board) -> tuple[str, tuple[tuple[int, int, bool], ...]]:
    """Split move text into its card and ``(source, target, swap)`` steps."""
    if not isinstance(text, str) or not text.split():
        raise NotationError("empty move text")
    card_text, *step_texts = text.split()
    try:
        card = parse_card(card_text)
    except CardError as error:
        raise NotationError(str(error)) from None
    if not 1 <= len(step_texts) <= 2:
        raise NotationError(f"move {text!r} needs one or two steps after the card")
    steps = []
    for step_text in step_texts:
        match = _STEP_RE.match(step_text)
        if not match:
            raise NotationError(f"malformed step {step_text!r}: expected FROM-TO or A<>B, e.g. T0:8-T0:15")
        if match["swap"] and match["x"]:
            raise NotationError(f"malformed step {step_text!r}: a swap never bumps")
        try:
            source, target = board.hole_index(match["a"]), board.hole_index(match["b"])
        except BoardError as error:
            raise NotationError(str(error)) from None
        steps.append((source, target, bool(match["swap"])))
    return card, tuple(steps)
