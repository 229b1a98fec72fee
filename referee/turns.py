"""One turn's legal results, generated for what each moment needs.

A turn's results come from ``Candidates`` (data: which cards, free come-outs or not), so a
turn can be stored and rebuilt. A sensor event never needs every result: a lifted peg
needs the results that change its hole, a board that shows a move needs those that change
one of the holes it differs in. ``Turn.changing`` asks the move generator for exactly
those (a :class:`~referee.movegen.Focus`) and remembers the answer, so the first lift of a
turn costs what that peg's moves cost, not what the whole list costs.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from referee.board import PEGS_PER_SEAT, Board
from referee.cards import CARDS, parse_card
from referee.movegen import Focus, Result, free_come_outs, legal_moves, results_touching
from referee.moves import Move, Step
from referee.physical import PhysicalBoard
from referee.position import Position
from referee.rulesets import Ruleset


@dataclass(frozen=True)
class Candidates:
    """Which moves the tracker may accept in a turn, as data (so a turn can be stored and
    rebuilt): every card's (``cards`` None) or those cards' moves, plus the counting turn's
    free come-outs when ``free``."""

    cards: tuple[str, ...] | None = None
    free: bool = False

    def moves(self, position: Position, rules: Ruleset, touching: Focus | None = None) -> Iterator[Move]:
        cards = self.cards if self.cards is not None else CARDS
        for card in cards:
            yield from legal_moves(position, card, rules, touching)
        if self.free:
            for card in cards:
                yield from free_come_outs(position, card, rules, touching)

    def results(self, position: Position, rules: Ruleset, touching: Focus | None) -> Iterator[tuple[str, Result]]:
        """``moves`` as (card, (result key, steps)), results possibly repeated."""
        cards = [parse_card(card) for card in (self.cards if self.cards is not None else CARDS)]
        for card in cards:
            for result in results_touching(position, card, rules, touching):
                yield card, result
        if self.free:
            for card in cards:
                for result in results_touching(position, card, rules, touching, free=True):
                    yield card, result

    def to_json(self) -> dict[str, Any]:
        return {"cards": list(self.cards) if self.cards is not None else None, "free": self.free}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Candidates:
        cards = data.get("cards")
        return cls(tuple(cards) if cards is not None else None, bool(data.get("free")))


class IndexedResult:
    """A legal result, with what the tracker compares a board against (byte masks: one
    byte per board hole, 1 where set). Its :class:`Move` is made when first asked for."""

    __slots__ = ("_move", "before", "bumped", "card", "changed", "key", "mask", "start_sides", "starts", "steps")

    def __init__(self, before: Position, card: str, key: int, steps: tuple[Step, ...], mask: int,
                 starts: tuple[int, ...], changed: int, bumped: int, start_sides: int) -> None:  # fmt: skip
        self.before, self.card, self.key, self.steps = before, card, key, steps
        self.mask = mask  # board pegs after the move
        self.starts = starts
        self.changed = changed  # board holes whose colour the move changes
        self.bumped = bumped  # board holes where bumped pegs land (in-spots)
        self.start_sides = start_sides  # sides whose start count the move changes (a bit per side)
        self._move: Move | None = None

    @property
    def move(self) -> Move:
        if self._move is None:
            self._move = Move(self.card, self.steps, self.before, self.key)
        return self._move

    @property
    def occupancy(self) -> bytes:
        return self.move.result.occupancy


class Turn:
    """The seat to play's legal results, generated a focus at a time.

    Each answer is kept for the rest of the turn, and a result found under two foci is
    one object, so a turn never holds more than its whole list.
    """

    def __init__(self, physical: PhysicalBoard, position: Position, rules: Ruleset, allowed: Candidates) -> None:
        self.position = position
        self.rules = rules
        self.allowed = allowed
        self.physical = physical
        self.mask = physical.board_mask(position.occupancy)
        self.starts = start_counts(position.board, position.occupancy)
        self._pools: dict[Focus | None, list[IndexedResult]] = {}
        self._results: dict[int, IndexedResult] = {}  # by result key

    def changing(self, holes: Iterable[int] = (), starts: Iterable[int] = ()) -> list[IndexedResult]:
        """The results that change one of these board holes, or the count in one of these
        sides' start areas."""
        return self._pool(Focus.of(holes, starts))

    def every(self) -> list[IndexedResult]:
        """Every result (only when nothing narrower can be said: colours lost track of)."""
        return self._pool(None)

    def _pool(self, focus: Focus | None) -> list[IndexedResult]:
        pool = self._pools.get(focus)
        if pool is None:
            pool = self._pools[focus] = self._generate(focus)
        return pool

    def _generate(self, focus: Focus | None) -> list[IndexedResult]:
        pool: list[IndexedResult] = []
        seen: set[int] = set()
        base, size = self.position.key, self.position.board.board_holes
        ones = _ones(size)
        holes = 0 if focus is None else sum(1 << (8 * hole) for hole in range(size) if focus.holes >> hole & 1)
        for card, (key, steps) in self.allowed.results(self.position, self.rules, focus):
            if key in seen:
                continue
            seen.add(key)
            result = self._results.get(key)
            if result is None:
                result = self._results[key] = self._index(card, key, steps, base ^ key, size, ones)
            if focus is None or result.changed & holes or result.start_sides & focus.starts:
                pool.append(result)
        return pool

    def _index(self, card: str, key: int, steps: tuple[Step, ...], difference: int, size: int,
               ones: int) -> IndexedResult:  # fmt: skip
        starts, counts, bumped = self.starts, None, 0
        for step in steps:
            if step.source >= size:  # out of start
                counts = counts or list(starts)
                counts[step.source - size] -= 1
            for bump in step.bumps:
                if bump.target < size:
                    bumped |= 1 << (8 * bump.target)
                else:  # back to start
                    counts = counts or list(starts)
                    counts[bump.seat] += 1
        sides = 0
        if counts is not None:
            sides = sum(1 << side for side, (now, before) in enumerate(zip(counts, starts)) if now != before)
            starts = tuple(counts)
        return IndexedResult(self.position, card, key, steps, _occupied(key, ones), starts, _occupied(difference, ones),
                             bumped, sides)  # fmt: skip

    def to_json(self) -> dict[str, Any]:
        return {"position": self.position.to_json(), **self.allowed.to_json()}


def _ones(size: int) -> int:
    return int.from_bytes(b"\x01" * size, "little")


def _occupied(key: int, ones: int) -> int:
    """A byte per hole, 1 where ``key``'s byte is not 0 (colours take 4 bits: 1 to 10)."""
    return (key | key >> 1 | key >> 2 | key >> 3) & ones


def start_counts(board: Board, occupancy: bytes) -> tuple[int, ...]:
    """Pegs in start per side (0 for sides nobody plays)."""
    return tuple(PEGS_PER_SEAT - occupancy.count(side + 1) if side in board.seats else 0 for side in range(board.sides))


def extends(move: Move, committed: Move) -> bool:
    """``move`` is ``committed`` with more added: the rest of a split (every step of the
    committed move is one of its steps), never another move instead of it."""
    steps = {(step.source, step.target) for step in move.steps}
    return move.key != committed.key and all((step.source, step.target) in steps for step in committed.steps)
