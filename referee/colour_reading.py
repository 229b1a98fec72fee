"""Which colour stands in which hole, as far as the lifts and places tell, and what to take
off and put where for the board to show a position, colour by colour.

The sensors see occupancy only. Lifting a peg puts its colour "in hand"; placing one takes
any colour from the hand; ``referee.worlds`` keeps every reading this allows. Kept apart from
``referee.tracker`` because it is an idea of its own: the tracker asks it whether some
reading explains a legal result, whether the board's colours agree with a position, and the
fixes that put the board back; it never decides a move.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from referee import fixes
from referee.fixes import Fix
from referee.position import Position
from referee.seen import Colours, Seen
from referee.turns import IndexedResult, Turn
from referee.worlds import World, Worlds


class ColourReading:
    """The colours of one followed board (``Seen``), read hole by hole as asked."""

    def __init__(self, seen: Seen) -> None:
        self.seen = seen

    def base_colour(self, turn: Turn, hole: int) -> int | None:
        """The colour in ``hole`` when ``turn`` began (while restoring: as the board stood)."""
        if self.seen.restoring is not None and turn is self.seen.turn:
            return self.seen.restoring.get(hole)
        seat = self.seen.physical.seat_of_start(hole)
        if seat is not None:
            return seat
        return turn.position.colour_at(hole)

    def known(self) -> Colours:
        """The colour in each occupied hole, when the sensors leave one reading of them (a peg
        placed on its way is then known by its colour, not shown as a stray); else nothing."""
        worlds = self.seen.worlds.worlds
        if worlds is None or len(worlds) != 1 or self.seen.restoring is not None:
            return {}
        return self.colours(self.seen.turn, worlds[0]).snapshot()

    def certain(self) -> bool:
        """Every colour's whereabouts known (one reading left)."""
        return self.seen.worlds.worlds is not None and len(self.seen.worlds.worlds) == 1

    def colours(self, turn: Turn, world: World | None) -> WorldColours:
        """Which colour stands in each occupied hole, in ``world`` (None: colours unknown
        where pegs moved), read hole by hole as asked."""
        return WorldColours(self, turn, world)

    def best_world(self, turn: Turn, worlds: Worlds, target: Position | None = None) -> World | None:
        """The world with the fewest holes off ``target`` (default: the turn's position)."""
        if worlds.worlds is None:
            return None
        goal = target or turn.position
        if len(worlds.worlds) == 1:
            return worlds.worlds[0]

        def distance(world: World) -> int:
            return len(self.colour_fixes(self.colours(turn, world), goal, self.touched(turn, world)))

        return min(self.plausible(worlds.worlds), key=distance)

    def touched(self, turn: Turn, world: World) -> list[int] | None:
        """The board holes that can be off the turn's position: re-coloured ones and those
        whose occupancy changed (None while restoring: any hole may be)."""
        if self.seen.restoring is not None:
            return None
        changed = (self.seen.occupied & self.seen.board_only) ^ turn.mask
        return sorted(
            {*self.seen.physical.holes(changed), *(h for h in world[0] if h < turn.position.board.board_holes)}
        )

    def colour_fixes(
        self, colours: fixes.BoardColours, target: Position, holes: Sequence[int] | None = None
    ) -> tuple[Fix, ...]:
        """What to take off and put where, colour by colour, for the board to show ``target``."""
        return fixes.colour_fixes(self.seen.physical, self.seen.turn_start, colours, target, holes)

    def agree(self, turn: Turn, worlds: Worlds, target: Position) -> Literal["everywhere", "somewhere", "nowhere"]:
        """Whether the board's colours are ``target``'s in every likely reading, in some, or none."""
        if worlds.worlds is None:
            return "everywhere"
        agree = [not self.colour_fixes(self.colours(turn, world), target) for world in self.plausible(worlds.worlds)]
        return "everywhere" if all(agree) else "somewhere" if any(agree) else "nowhere"

    def plausible(self, worlds: list[World]) -> list[World]:
        """The likeliest readings: those with the fewest surprises (``Worlds.likely``)."""
        if len(worlds) == 1:
            return worlds
        return Worlds(worlds).likely(self.seen.following) or worlds

    def explains(self, turn: Turn, worlds: Worlds, candidate: IndexedResult) -> bool:
        """Some world of colours agrees with the candidate on every occupied hole."""
        if worlds.worlds is None:
            return True
        occupancy = candidate.occupancy
        moved = self.seen.physical.holes(candidate.changed & self.seen.occupied)
        for overrides, *_rest in worlds.worlds:
            if any(hole not in overrides for hole in moved):
                continue
            if all(self._agrees(hole, colour, occupancy) for hole, colour in overrides.items()):
                return True
        return False

    def explains_nothing_moved(self, turn: Turn, worlds: Worlds) -> bool:
        if worlds.worlds is None:
            return True
        return any(
            all(colour is None or colour == self.base_colour(turn, hole) for hole, colour in o.items())
            for o, *_rest in worlds.worlds
        )

    def _agrees(self, hole: int, colour: int | None, occupancy: bytes) -> bool:
        if colour is None:
            return True
        seat = self.seen.physical.seat_of_start(hole)
        if seat is not None:
            return colour == seat
        return occupancy[hole] == colour + 1

    def back(self, turn: Turn, worlds: Worlds, board: int, starts: tuple[int, ...]) -> tuple[Fix, ...]:
        """What to do to put the board back as the turn began. Where a colour must go is
        always named; whose peg stands in a hole only when every reading agrees. A peg whose
        colour the lifts left open (two pegs in hand, put down in either order) comes off
        first if any reading has it wrong, unless it was put where the lights asked while
        they were being followed."""
        world = self.best_world(turn, worlds)
        if world is None or worlds.worlds is None:
            return self.occupancy_fixes(board, starts, turn.mask, turn.starts)
        open_holes = self._disputed(turn, worlds.worlds) if len(worlds.worlds) > 1 else []
        readings = [WorldColours(self, turn, reading) for reading in worlds.worlds]
        disputed = [
            hole
            for hole in open_holes
            if hole not in self.seen.trusted
            and any(view[hole] != self._wanted(turn.position, hole) for view in readings)
        ]
        colours = WorldColours(self, turn, world, absent=set(disputed))
        touched = self.touched(turn, world)
        holes = (
            None
            if touched is None
            else sorted({*touched, *(h for h in disputed if h < self.seen.physical.board.board_holes)})
        )
        unsure = {self.seen.physical.name(hole) for hole in open_holes}
        fixes = [
            Fix(f.action, f.hole, None if f.action == "remove" and f.hole in unsure else f.seat, f.at)
            for f in self.colour_fixes(colours, turn.position, holes)
        ]
        removes = [Fix("remove", self.seen.physical.name(hole), at=hole) for hole in disputed]
        return tuple(removes + [f for f in fixes if f.action == "remove"] + [f for f in fixes if f.action == "place"])

    def _wanted(self, target: Position, hole: int) -> int | None:
        seat = self.seen.physical.seat_of_start(hole)
        return seat if seat is not None else target.colour_at(hole)

    def _disputed(self, turn: Turn, worlds: list[World]) -> list[int]:
        """Occupied holes whose colour the worlds disagree on."""
        holes = {hole for world in worlds for hole in world[0] if self.seen.occupied >> (8 * hole) & 1}
        views = [WorldColours(self, turn, world) for world in worlds]
        return sorted(hole for hole in holes if len({view[hole] for view in views}) > 1)

    def occupancy_fixes(
        self, board: int, starts: tuple[int, ...], mask: int, wanted: tuple[int, ...]
    ) -> tuple[Fix, ...]:
        """Occupancy only: what to take off and fill for ``board`` to become ``mask``."""
        return fixes.occupancy_fixes(
            self.seen.physical, self.seen.occupied, self.seen.turn_start, board, starts, mask, wanted
        )


class WorldColours:
    """The colours on the board in one world, worked out only for the holes asked about."""

    def __init__(self, reading: ColourReading, turn: Turn, world: World | None, absent: set[int] | None = None) -> None:
        self._reading, self._turn = reading, turn
        self._known = world is not None
        self._overrides = world[0] if world is not None else {}
        self._absent = absent or set()  # holes to treat as emptied (their pegs come off first)

    def __contains__(self, hole: int) -> bool:
        return bool(self._reading.seen.occupied >> (8 * hole) & 1) and hole not in self._absent

    def __getitem__(self, hole: int) -> int | None:
        if hole in self._overrides:
            return self._overrides[hole]
        if not self._known and not self._reading.seen.turn_start >> (8 * hole) & 1:
            return None  # a peg placed while colours could not be followed
        return self._reading.base_colour(self._turn, hole)

    def snapshot(self) -> Colours:
        return {
            hole: self[hole] for hole in self._reading.seen.physical.holes(self._reading.seen.occupied) if hole in self
        }
