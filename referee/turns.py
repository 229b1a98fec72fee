"""One turn's legal results, generated for what each moment needs.

A turn's results come from ``Candidates`` (data: which cards, free come-outs or not), so a
turn can be stored and rebuilt. A sensor event never needs every result: a lifted peg
needs the results that change its hole, a board that shows a move needs those that change
one of the holes it differs in. ``Turn.changing`` asks the move generator for exactly
those (a :class:`~referee.movegen.Focus`) and remembers the answer, so the first lift of a
turn costs what that peg's moves cost, not what the whole list costs.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Protocol

from referee.board import PEGS_PER_SEAT, Board
from referee.cards import CARDS, parse_card
from referee.movegen import Focus, Result, free_come_outs, parse_move, results_touching
from referee.moves import Move, NotationError, Step
from referee.physical import PhysicalBoard
from referee.position import Position
from referee.rulesets import Ruleset


@dataclass(frozen=True)
class Candidates:
    """Which moves the tracker may accept in a turn, as data (so a turn can be stored and
    rebuilt): every card's (``cards`` None) or those cards' moves, plus the counting turn's
    free come-outs when ``free``; with ``only``, just the one move of that notation (a move
    chosen away from the board, on a phone: any other is not the one the lights show)."""

    cards: tuple[str, ...] | None = None
    free: bool = False
    only: str | None = None

    def results(
        self, position: Position, rules: Ruleset, touching: Focus | None
    ) -> Iterator[tuple[str, Iterator[Result]]]:
        """The moves allowed, as bare results card by card: (card, its (result key, steps)
        pairs), results possibly repeated."""
        cards = [parse_card(card) for card in (self.cards if self.cards is not None else CARDS)]
        key = None if self.only is None else _result_of(position, rules, self.only, self.free)
        for card in cards:
            yield card, _keeping(results_touching(position, card, rules, touching), key)
        if self.free:
            for card in cards:
                yield card, _keeping(results_touching(position, card, rules, touching, free=True), key)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"cards": list(self.cards) if self.cards is not None else None, "free": self.free}
        return data if self.only is None else {**data, "only": self.only}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Candidates:
        cards, only = data.get("cards"), data.get("only")
        return cls(
            tuple(cards) if cards is not None else None, bool(data.get("free")), only if isinstance(only, str) else None
        )


def _keeping(results: Iterator[Result], key: int | None) -> Iterator[Result]:
    """The results, or only those that leave the board as ``key`` does."""
    return results if key is None else (result for result in results if result[0] == key)


@functools.lru_cache(maxsize=64)
def _result_of(position: Position, rules: Ruleset, text: str, free: bool) -> int:
    """The result key of the move ``text`` names (a free come-out too), or -1: no such move now,
    so nothing is allowed (never every move)."""
    try:
        return parse_move(position, text, rules).key
    except (NotationError, ValueError):
        pass
    if free and text.split():
        for move in free_come_outs(position, text.split()[0], rules):
            if move.text == text:
                return move.key
    return -1


class IndexedResult:
    """A legal result, read the way the tracker compares boards: byte masks, one byte per
    board hole, 1 where set. A lift may bring a few thousand of them, and most are never
    looked at closely, so only what is cheap (the bumps, the start areas touched) is
    worked out at once; the rest, and the :class:`Move`, when first asked for."""

    __slots__ = (
        "_changed",
        "_mask",
        "_move",
        "_starts",
        "before",
        "bumped",
        "card",
        "key",
        "starts_down",
        "starts_up",
        "steps",
    )

    def __init__(self, before: Before, card: str, key: int, steps: tuple[Step, ...]) -> None:
        self.before, self.card, self.key, self.steps = before, card, key, steps
        size = before.size
        bumped = up = down = 0
        for step in steps:
            if step.source >= size:
                down |= 1 << (step.source - size)
            if step.bumps:
                for bump in step.bumps:
                    if bump.target < size:
                        bumped |= 1 << (8 * bump.target)
                    else:
                        up |= 1 << bump.seat
        self.bumped = bumped  # board holes where bumped pegs land (in-spots)
        self.starts_up, self.starts_down = up, down  # sides whose start areas gain or lose pegs
        self._mask: int | None = None
        self._changed: int | None = None
        self._starts: tuple[int, ...] | None = None
        self._move: Move | None = None

    @property
    def start_sides(self) -> int:
        return self.starts_up | self.starts_down

    @property
    def mask(self) -> int:
        """Board pegs after the move."""
        if self._mask is None:
            self._mask = _occupied(self.key, self.before.ones)
        return self._mask

    @property
    def changed(self) -> int:
        """Board holes whose colour the move changes."""
        if self._changed is None:
            self._changed = _occupied(self.key ^ self.before.position.key, self.before.ones)
        return self._changed

    @property
    def starts(self) -> tuple[int, ...]:
        """Pegs in start per side after the move."""
        if self._starts is None:
            self._starts = self.before.starts
            if self.start_sides:
                counts = list(self._starts)
                for step in self.steps:
                    if step.source >= self.before.size:
                        counts[step.source - self.before.size] -= 1
                    for bump in step.bumps:
                        if bump.target >= self.before.size:
                            counts[bump.seat] += 1
                self._starts = tuple(counts)
        return self._starts

    def fills(self, holes: Iterable[int]) -> bool:
        """Whether the result has a peg in each of these board holes."""
        key = self.key
        return all(key >> (8 * hole) & 0xFF for hole in holes)

    def changes(self, holes: Iterable[int]) -> bool:
        """Whether the result changes each of these board holes."""
        difference = self.key ^ self.before.position.key
        return all(difference >> (8 * hole) & 0xFF for hole in holes)

    @property
    def move(self) -> Move:
        if self._move is None:
            self._move = Move(self.card, self.steps, self.before.position, self.key)
        return self._move

    @property
    def occupancy(self) -> bytes:
        return self.move.result.occupancy


@dataclass(frozen=True, slots=True)
class Before:
    """The position a turn's results start from, as they read it. Results refer to this,
    not to their ``Turn`` (which refers to them): no reference cycle, so a finished turn is
    freed at once, never left for a garbage collection to find in the middle of a lift."""

    position: Position
    size: int  # board holes
    ones: int  # a 1 byte per board hole
    starts: tuple[int, ...]  # pegs in start per side


class Pool(list[IndexedResult]):
    """The results of one focus, and what all of them together would fill (so a lift's
    lights need no pass over its results)."""

    def __init__(self, focus: Focus | None, results: list[IndexedResult], ones: int) -> None:
        super().__init__(results)
        self.focus = focus
        self.reach = Reach.of(results, ones)


@dataclass(frozen=True, slots=True)
class Reach:
    """What some result of a set fills: board holes (a byte mask), in-spots a bump sends a
    team peg to, and the sides whose start areas a bump sends a peg to (a bit per side)."""

    fills: int
    bumps: int
    starts_up: int

    @classmethod
    def of(cls, results: Iterable[IndexedResult], ones: int) -> Reach:
        keys = bumped = up = 0
        for result in results:
            keys |= result.key
            bumped |= result.bumped
            up |= result.starts_up
        return cls(_occupied(keys, ones), bumped, up)


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
        size = position.board.board_holes
        self.before = Before(position, size, _ones(size), self.starts)  # what its results read
        self._pools: dict[Focus | None, Pool] = {}
        self._results: dict[int, IndexedResult] = {}  # by result key

    def changing(self, holes: Iterable[int] = (), starts: Iterable[int] = ()) -> Pool:
        """The results that change one of these board holes, or the count in one of these
        sides' start areas."""
        return self._pool(Focus.of(holes, starts))

    def every(self) -> Pool:
        """Every result (only when nothing narrower can be said: colours lost track of)."""
        return self._pool(None)

    def _pool(self, focus: Focus | None) -> Pool:
        pool = self._pools.get(focus)
        if pool is None:
            pool = self._pools[focus] = Pool(focus, self._generate(focus), self.before.ones)
        return pool

    def _generate(self, focus: Focus | None) -> list[IndexedResult]:
        found: list[IndexedResult] = []
        seen: set[int] = set()
        base, known = self.position.key, self._results
        # Bytes of the focus holes, the result's differing from the turn's where it changes them.
        holes = (
            0
            if focus is None
            else sum(0xFF << (8 * hole) for hole in range(self.before.size) if focus.holes >> hole & 1)
        )
        starts = -1 if focus is None else focus.starts
        for card, results in self.allowed.results(self.position, self.rules, focus):
            for key, steps in results:
                if key in seen:
                    continue
                seen.add(key)
                result = known.get(key)
                if result is None:
                    result = known[key] = IndexedResult(self.before, card, key, steps)
                if starts == -1 or (base ^ key) & holes or result.start_sides & starts:
                    found.append(result)
        return found

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


class Stepped(Protocol):
    """Anything with a move's key and steps: a legal move, or a result listed for a turn."""

    @property
    def key(self) -> int: ...
    @property
    def steps(self) -> tuple[Step, ...]: ...


def extends(move: Stepped, committed: Stepped) -> bool:
    """``move`` is ``committed`` with more added: the rest of a split (every step of the
    committed move is one of its steps), never another move instead of it."""
    steps = {(step.source, step.target) for step in move.steps}
    return move.key != committed.key and all((step.source, step.target) in steps for step in committed.steps)
