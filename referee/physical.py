"""The physical board: every hole a sensor can see, start holes included.

Logical positions count start pegs; a real board has five start holes per side,
``S<s>:1`` .. ``S<s>:5``, and a peg may sit in any of them. Physical hole indices are
the board's track and home indices, then five start holes per side.

Occupancy sets are kept as *byte masks*: one byte per hole, 1 if a peg is there, read
as a little-endian integer. The same layout as a Position's occupancy, so a result's
mask is one ``translate`` away, and set algebra is integer algebra.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache, cached_property
from typing import Literal

from referee import holes as grammar
from referee.board import Board, BoardError
from referee.holes import START_SIZE
from referee.moves import Move
from referee.position import Position, PositionError

ANY_PEG = bytes([0] + [1] * 255)  # bytes.translate table: occupied -> 1


@dataclass(frozen=True, slots=True)
class SensorEvent:
    """What the sensor layer reports: a lift or place of a hole, a full snapshot of the
    occupied holes, or the "done" button. Holes are physical indices (PhysicalBoard)."""

    ms: int
    kind: Literal["lift", "place", "snapshot", "done"]
    holes: tuple[int, ...] = ()


@dataclass(frozen=True)
class PhysicalBoard:
    """Every hole of a board a sensor can see, start holes by number, by index and by name."""

    board: Board

    @cached_property
    def size(self) -> int:
        return self.board.board_holes + START_SIZE * self.board.sides

    def start_hole(self, seat: int, index: int) -> int:
        return self.board.board_holes + START_SIZE * seat + index - 1

    def start_holes(self, seat: int) -> range:
        first = self.start_hole(seat, 1)
        return range(first, first + START_SIZE)

    def seat_of_start(self, hole: int) -> int | None:
        if hole < self.board.board_holes:
            return None
        return (hole - self.board.board_holes) // START_SIZE

    def index(self, name: str) -> int:
        """``T2:5``, ``H1:3`` or ``S0:4`` (a start hole must name its number). A name of this
        board is looked up, not parsed (every sensor event comes in by its hole's name); only
        a name it does not know is read, to say what is wrong with it."""
        hole = self._index_of.get(name) if isinstance(name, str) else None
        if hole is not None:
            return hole
        named = _start_hole(name)
        if named is not None:
            seat, number = named
            if not 0 <= seat < self.board.sides or number not in grammar.numbers("S"):
                raise BoardError(f"no start hole {name!r} on a {self.board.sides}-sided board")
            return self.start_hole(seat, number)
        hole = self.board.hole_index(name)
        if self.board.is_start(hole):
            raise BoardError(f"hole {name!r}: name the start hole, e.g. S0:1")
        return hole

    def name(self, hole: int) -> str:
        names = self._names
        if 0 <= hole < len(names):
            return names[hole]
        seat = self.seat_of_start(hole)
        if seat is None:
            return self.board.hole_name(hole)  # raises: no such hole
        return grammar.start(seat, hole - self.start_hole(seat, 1) + 1)

    @cached_property
    def _names(self) -> tuple[str, ...]:
        """Every physical hole's name by index, looked up rather than built (the tracker names
        holes on every sensor event)."""
        return _names_of(self.board)

    @cached_property
    def _index_of(self) -> dict[str, int]:
        """Every physical hole's index by its name, looked up rather than parsed (every sensor
        event comes in by its hole's name)."""
        return _indices_of(self.board)

    def mask(self, holes: Iterable[int]) -> int:
        mask = 0
        for hole in holes:
            mask |= 1 << (8 * hole)
        return mask

    def holes(self, mask: int) -> list[int]:
        raw = mask.to_bytes(self.size, "little")
        return [hole for hole, value in enumerate(raw) if value]

    def board_mask(self, occupancy: bytes) -> int:
        """The byte mask of a position's track and home pegs."""
        return int.from_bytes(occupancy.translate(ANY_PEG), "little")

    def start_counts(self, mask: int) -> tuple[int, ...]:
        raw = mask.to_bytes(self.size, "little")
        return tuple(sum(raw[hole] for hole in self.start_holes(seat)) for seat in range(self.board.sides))

    def arrange(self, position: Position, sensed: Iterable[int]) -> list[int]:
        """The physical holes showing ``position``, start pegs where the sensors see start
        pegs (any start hole will do), the rest in free start holes from 1 up."""
        sensed = set(sensed)
        holes = self.holes(self.board_mask(position.occupancy))
        for seat in position.board.seats:
            own = self.start_holes(seat)
            ordered = [h for h in own if h in sensed] + [h for h in own if h not in sensed]
            holes += ordered[: position.in_start(seat)]
        return holes

    def fill(self, position: Position) -> int:
        """A physical board showing ``position``, start pegs in holes 1 up."""
        return self.mask(self.arrange(position, ()))


@cache
def _names_of(board: Board) -> tuple[str, ...]:
    """The physical holes' names by index, made once per board (not per game: a game's first
    lift does not wait for them)."""
    starts = (grammar.start(side, number) for side in range(board.sides) for number in grammar.numbers("S"))
    return (*map(board.hole_name, range(board.board_holes)), *starts)


@cache
def _indices_of(board: Board) -> dict[str, int]:
    """``_names_of`` the other way round: each physical hole's index by its name."""
    return {name: hole for hole, name in enumerate(_names_of(board))}


def physical_holes(position: Position, pegs: Mapping[str, object]) -> tuple[int, ...]:
    """The physical holes a position file fills (docs/design.md, "Position file"), sorted.

    ``position`` is the file read by ``Position.from_json``; ``pegs`` is the file's own
    ``"pegs"`` object, which still names start holes. A named start hole (``"S1:2"``) is
    taken as named and must be one of that seat's ``S<seat>:1..5``, no two pegs naming
    the same hole; each bare ``S`` (or ``S<seat>``) takes that seat's lowest free start
    hole. A seat left out fills its start holes from 1 up. Raises ``PositionError``."""
    physical = PhysicalBoard(position.board)
    named: dict[int, set[int]] = {seat: set() for seat in position.board.seats}
    for key, names in pegs.items():
        try:
            seat = int(str(key))
        except ValueError:
            raise PositionError(f"'pegs' keys must be seat numbers, not {key!r}") from None
        if seat not in named or not isinstance(names, list):
            raise PositionError(f"seat {seat}: not a seat in play with a list of holes")
        for name in names:
            start = _start_hole(name)
            if start is None:
                continue
            if start[0] != seat:
                raise PositionError(f"seat {seat}: peg cannot be in {name}, another seat's start hole")
            try:
                hole = physical.index(name)
            except BoardError as error:
                raise PositionError(f"seat {seat}: {error}") from None
            if hole in named[seat]:
                raise PositionError(f"seat {seat}: two pegs in start hole {name.strip()}")
            named[seat].add(hole)
    for seat, taken in named.items():
        if len(taken) > position.in_start(seat):  # only if ``pegs`` is not the file ``position`` was read from
            raise PositionError(f"seat {seat}: more start holes named than pegs in start")
    return tuple(sorted(physical.arrange(position, set().union(*named.values()))))


def _start_hole(name: object) -> tuple[int, int] | None:
    """(side, number) of a start hole's name (``S0:4``, spaces round it allowed), else None."""
    parts = grammar.split(name.strip()) if isinstance(name, str) else None
    if parts is None or parts.kind != "S" or parts.number is None:
        return None
    assert parts.side is not None
    return parts.side, parts.number


# -- carrying out a move by hand ---------------------------------------------------------


def transfers(
    position: Position, move: Move, physical: PhysicalBoard, rng: random.Random, occupied: Iterable[int] | None = None
) -> list[tuple[int, int]]:
    """(from, to) physical holes of every peg the move displaces, net of chains: a peg
    from start comes out of any filled start hole of its seat, a peg bumped to start goes
    into any free one."""
    board = position.board
    occupied = set(physical.holes(physical.fill(position))) if occupied is None else set(occupied)
    # Which physical peg (named by the hole it started in) sits where, as the steps apply.
    where: dict[int, int] = {hole: hole for hole in occupied}  # current hole -> peg
    start_full = {seat: [h for h in physical.start_holes(seat) if h in occupied] for seat in board.seats}
    start_free = {seat: [h for h in physical.start_holes(seat) if h not in occupied] for seat in board.seats}

    def out_of_start(seat: int) -> int:
        hole = start_full[seat].pop(rng.randrange(len(start_full[seat])))
        start_free[seat].append(hole)
        return hole

    def into_start(seat: int) -> int:
        hole = start_free[seat].pop(rng.randrange(len(start_free[seat])))
        start_full[seat].append(hole)
        return hole

    for step in move.steps:
        if step.swap:
            where[step.source], where[step.target] = where[step.target], where[step.source]
            continue
        owner = board.owner(step.source)
        source = out_of_start(owner) if owner is not None and board.is_start(step.source) else step.source
        peg = where.pop(source)
        carried = where.pop(step.target, None)
        where[step.target] = peg
        for bump in step.bumps:  # the chain, in order: each bumped peg knocks on the next
            assert carried is not None
            target = into_start(bump.seat) if board.is_start(bump.target) else bump.target
            victim, carried = carried, where.pop(target, None)
            where[target] = victim
    return [(peg, hole) for hole, peg in where.items() if peg != hole]


def by_hand(
    position: Position, move: Move, rng: random.Random, bounces: int = 0, occupied: Iterable[int] | None = None
) -> list[SensorEvent]:
    """A plausible sequence of sensor events carrying out ``move``: lifts and places in a
    random order a person could follow (a hole holds one peg), with ``bounces`` random
    bounces of other pegs. ``occupied``: the physical holes filled now, if start pegs do not
    sit in holes 1 up. Tests, benchmarks and the simulated board use it."""
    physical = PhysicalBoard(position.board)
    filled = set(physical.holes(physical.fill(position))) if occupied is None else set(occupied)
    pending = dict(transfers(position, move, physical, rng, filled))  # peg (its first hole) -> destination
    occupied = filled
    in_hand: set[int] = set()
    events: list[SensorEvent] = []
    ms = 0
    bounces_left = bounces
    while pending or in_hand:
        ms += rng.randint(20, 400)
        lifts = [peg for peg in pending if peg not in in_hand and peg in occupied]
        places = [peg for peg in in_hand if pending[peg] not in occupied]
        if bounces_left and rng.random() < 0.15:
            bounces_left -= 1
            still = sorted(occupied - set(pending))
            if still:
                hole = rng.choice(still)
                events += [SensorEvent(ms, "lift", (hole,)), SensorEvent(ms + 3, "place", (hole,))]
                continue
        if places and (not lifts or rng.random() < 0.5):
            peg = rng.choice(sorted(places))
            hole = pending.pop(peg)
            in_hand.discard(peg)
            occupied.add(hole)
            events.append(SensorEvent(ms, "place", (hole,)))
        else:
            peg = rng.choice(sorted(lifts))
            in_hand.add(peg)
            occupied.discard(peg)
            events.append(SensorEvent(ms, "lift", (peg,)))
    return events
