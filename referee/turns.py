"""One turn's legal results, indexed for matching sensor states.

A turn's results come from ``Candidates`` (data: which cards, free come-outs or not), so a
turn can be stored and rebuilt. The index maps a board's occupancy signature, each changed
hole and each start area's change to the results that fit, so the tracker answers a
sensor event without scanning every result.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from referee.board import PEGS_PER_SEAT, Board
from referee.cards import CARDS
from referee.movegen import free_come_outs, legal_moves
from referee.moves import Move
from referee.physical import ANY_PEG, PhysicalBoard
from referee.position import Position
from referee.rulesets import Ruleset

Schedule = Callable[[Callable[[], None]], Callable[[], None]]
"""Takes a job to run ahead of need (e.g. on a worker thread) and returns a ``wait`` that,
when the result is needed, returns once the job has run (running it then if nobody has
started it). The tracker never starts threads itself."""


@dataclass(frozen=True)
class Candidates:
    """Which moves the tracker may accept in a turn, as data (so a turn can be stored and
    rebuilt): every card's (``cards`` None) or those cards' moves, plus the counting turn's
    free come-outs when ``free``."""

    cards: tuple[str, ...] | None = None
    free: bool = False

    def moves(self, position: Position, rules: Ruleset) -> Iterator[Move]:
        cards = self.cards if self.cards is not None else CARDS
        for card in cards:
            yield from legal_moves(position, card, rules)
        if self.free:
            for card in cards:
                yield from free_come_outs(position, card, rules)

    def to_json(self) -> dict[str, Any]:
        return {"cards": list(self.cards) if self.cards is not None else None, "free": self.free}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Candidates:
        cards = data.get("cards")
        return cls(tuple(cards) if cards is not None else None, bool(data.get("free")))


@dataclass(slots=True)
class IndexedResult:
    move: Move
    occupancy: bytes  # the result's
    mask: int  # board pegs after the move (byte mask)
    starts: tuple[int, ...]
    changed: int  # board holes whose colour the move changes
    bumped: int  # board holes where bumped pegs land (in-spots)


@dataclass
class TurnIndex:
    candidates: list[IndexedResult] = field(default_factory=list)
    by_signature: dict[tuple[int, tuple[int, ...]], list[IndexedResult]] = field(default_factory=dict)
    by_changed: dict[int, list[IndexedResult]] = field(default_factory=dict)
    by_start: dict[tuple[int, int], list[IndexedResult]] = field(default_factory=dict)  # (side, +1/-1) -> results


class Turn:
    """The seat to play's legal results, indexed for matching sensor states.

    The worst case takes a tenth of a second here, more on a Pi Zero, so the owner may
    ``schedule`` the indexing as soon as the turn begins (on a worker thread); whatever
    needs the index before then waits for that job, or runs it. The index is published in
    one assignment, so a build on another thread never shows half an index.
    """

    def __init__(self, physical: PhysicalBoard, position: Position, rules: Ruleset, allowed: Candidates,
                 schedule: Schedule | None = None) -> None:  # fmt: skip
        self.position = position
        self.rules = rules
        self.allowed = allowed
        self.physical = physical
        self.mask = physical.board_mask(position.occupancy)
        self.starts = start_counts(position.board, position.occupancy)
        self._index: TurnIndex | None = None
        self._wait = schedule(self._fill) if schedule is not None else None

    def _fill(self) -> None:
        if self._index is None:
            self._index = self._make_index()

    def build(self) -> TurnIndex:
        if self._index is None and self._wait is not None:
            self._wait()
        if self._index is None:
            self._fill()
        self._wait = None  # the job refers back to this turn: no cycle left for the garbage collector
        assert self._index is not None
        return self._index

    def _make_index(self) -> TurnIndex:
        index = TurnIndex()
        base, size = self.position.key, self.position.board.board_holes
        seen: set[int] = set()
        for move in self.allowed.moves(self.position, self.rules):
            key = move.key
            if key in seen:
                continue
            seen.add(key)
            occupancy = key.to_bytes(size, "little")
            difference = base ^ key
            changed = int.from_bytes(difference.to_bytes(size, "little").translate(ANY_PEG), "little")
            starts, bumped = list(self.starts), 0
            for step in move.steps:
                if step.source >= size:
                    starts[step.source - size] -= 1
                for bump in step.bumps:
                    if bump.target >= size:
                        starts[bump.seat] += 1
                    else:
                        bumped |= 1 << (8 * bump.target)
            candidate = IndexedResult(move, occupancy, int.from_bytes(occupancy.translate(ANY_PEG), "little"),
                                   tuple(starts), changed, bumped)  # fmt: skip
            index.candidates.append(candidate)
            index.by_signature.setdefault((candidate.mask, candidate.starts), []).append(candidate)
            while difference:  # index by each hole whose colour the move changes
                hole = ((difference & -difference).bit_length() - 1) // 8
                difference &= ~(0xFF << (8 * hole))
                index.by_changed.setdefault(hole, []).append(candidate)
            for side, (before, after) in enumerate(zip(self.starts, starts)):
                if before != after:
                    index.by_start.setdefault((side, 1 if after > before else -1), []).append(candidate)
        return index

    def to_json(self) -> dict[str, Any]:
        return {"position": self.position.to_json(), **self.allowed.to_json()}


def start_counts(board: Board, occupancy: bytes) -> tuple[int, ...]:
    """Pegs in start per side (0 for sides nobody plays)."""
    return tuple(PEGS_PER_SEAT - occupancy.count(side + 1) if side in board.seats else 0 for side in range(board.sides))


def extends(move: Move, committed: Move) -> bool:
    """``move`` is ``committed`` with more added: the rest of a split (every step of the
    committed move is one of its steps), never another move instead of it."""
    steps = {(step.source, step.target) for step in move.steps}
    return move.key != committed.key and all((step.source, step.target) in steps for step in committed.steps)
