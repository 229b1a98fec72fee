"""Board geometry: holes, seats, teams and the paths pegs travel.

An n-sided board (n = 4, 6, 8 or 10) has seats 0..n-1 clockwise. Seat ``s`` owns the
main-track holes ``T<s>:0`` .. ``T<s>:17`` (global index ``18*s + k``), five start
holes ``S<s>:1..5`` and five home holes ``H<s>:1..5`` (1 next to the in-spot).
``T<s>:3`` is the seat's in-spot and ``T<s>:8`` its come-out hole (the rules page,
"Players and Equipment": "The 8th hole after the corner is the 'come out' position ... The 3rd
hole after the corner is the 'in-spot'").

Internally a hole is an ``int``: the track first, then every seat's home holes, then
one virtual *start bin* per seat (start holes are interchangeable, so a logical
position only counts how many pegs wait in start). The names and their numbers are
``referee.holes``'s (the hole grammar); this module maps them to indices.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, cached_property
from typing import Literal

from referee import holes
from referee.holes import COME_OUT, HOME_SIZE, IN_SPOT, SIDE_LENGTH, SIDES

__all__ = [
    "COME_OUT",
    "HOME_SIZE",
    "IN_SPOT",
    "PEGS_PER_SEAT",
    "SIDES",
    "SIDE_LENGTH",
    "Board",
    "BoardError",
    "Path",
    "seating",
]

PEGS_PER_SEAT = 5
HomeMode = Literal["may", "must"]


class BoardError(ValueError):
    """A hole name, seat or team layout that does not fit the board."""


def seating(players: int) -> tuple[int, tuple[int, ...]]:
    """The board's sides and the seats taken for a player count: said once, here. Two players
    sit at seats 0 and 2 of a four-sided board, facing each other; otherwise every side has
    its player."""
    if players == 2:
        return 4, (0, 2)
    if players in SIDES:
        return players, tuple(range(players))
    raise BoardError(f"players must be 2, 4, 6, 8 or 10, not {players!r}")


@dataclass(frozen=True)
class Board:
    """The fixed geometry of one game: sides, the seats in play and the teams."""

    sides: int
    seats: tuple[int, ...]
    teams: tuple[tuple[int, ...], ...]

    @classmethod
    def for_players(cls, players: int, teams: list[list[int]] | None = None) -> Board:
        """The board for a player count; two players sit at seats 0 and 2 of a 4-sided board.

        Teams default to two teams of alternating seats (the rules page, "They sit
        alternately"); six, eight or ten players may name teams of 2 with partners opposite (the
        Ukrainian translation, "Players and Equipment").
        """
        sides, seats = seating(players)
        default = (tuple(seats[0::2]), tuple(seats[1::2]))
        if teams is None:
            return cls(sides, seats, default)
        return cls(sides, seats, _check_teams(teams, sides, seats, default))

    # -- sizes ------------------------------------------------------------------

    @property
    def players(self) -> int:
        return len(self.seats)

    @cached_property
    def track_length(self) -> int:
        return SIDE_LENGTH * self.sides

    @cached_property
    def board_holes(self) -> int:
        """Track and home holes: the holes a position's occupancy covers."""
        return self.track_length + HOME_SIZE * self.sides

    # -- special holes ----------------------------------------------------------

    def in_spot(self, seat: int) -> int:
        return SIDE_LENGTH * seat + IN_SPOT

    def come_out(self, seat: int) -> int:
        return SIDE_LENGTH * seat + COME_OUT

    def home(self, seat: int, depth: int) -> int:
        """Home hole ``H<seat>:<depth>``, depth 1 next to the in-spot, 5 deepest."""
        return self.track_length + HOME_SIZE * seat + depth - 1

    def start(self, seat: int) -> int:
        """The virtual start bin of a seat."""
        return self.board_holes + seat

    def is_track(self, hole: int) -> bool:
        return 0 <= hole < self.track_length

    def is_home(self, hole: int) -> bool:
        return self.track_length <= hole < self.board_holes

    def is_start(self, hole: int) -> bool:
        return hole >= self.board_holes

    def owner(self, hole: int) -> int | None:
        """The seat whose home or start this hole is; None for the shared track."""
        if self.is_home(hole):
            return (hole - self.track_length) // HOME_SIZE
        if self.is_start(hole):
            return hole - self.board_holes
        return None

    def depth(self, hole: int) -> int:
        """How deep a home hole is (1..5)."""
        return (hole - self.track_length) % HOME_SIZE + 1

    # -- teams ------------------------------------------------------------------

    @cached_property
    def team_of(self) -> dict[int, tuple[int, ...]]:
        return {seat: team for team in self.teams for seat in team}

    def partners_clockwise(self, seat: int) -> tuple[int, ...]:
        """The seat's team, starting with the seat itself and going clockwise (to its left)."""
        team = self.team_of[seat]
        return tuple(sorted(team, key=lambda other: (other - seat) % self.sides))

    def next_seat(self, seat: int) -> int:
        """The next seat in play clockwise."""
        index = self.seats.index(seat)
        return self.seats[(index + 1) % len(self.seats)]

    # -- names ------------------------------------------------------------------

    def hole_index(self, name: str, seat: int | None = None) -> int:
        """Parse ``T2:5``, ``H1:3``, ``S0:4``, ``S0`` or (with ``seat``) bare ``S``."""
        parts = holes.split(name.strip()) if isinstance(name, str) else None
        if parts is None or parts.kind == "C":
            raise BoardError(f"malformed hole {name!r}: expected {holes.EXPECTED} or S")
        kind, side, number = parts
        if number is None:  # bare S or S<s>
            owner = seat if side is None else side
            if owner is None:
                raise BoardError(f"hole {name!r}: a bare S needs a seat")
            self._check_side(owner, name)
            return self.start(owner)
        assert side is not None
        self._check_side(side, name)
        if number not in holes.numbers(kind):
            if kind == "T":
                raise BoardError(f"hole {name!r}: track holes run T<s>:0 .. T<s>:{SIDE_LENGTH - 1}")
            raise BoardError(f"hole {name!r}: {kind} holes run 1 .. {HOME_SIZE}")
        if kind == "T":
            return SIDE_LENGTH * side + number
        return self.home(side, number) if kind == "H" else self.start(side)

    def hole_name(self, hole: int) -> str:
        names = self._hole_names
        if 0 <= hole < len(names):
            return names[hole]
        raise BoardError(f"no hole {hole} on a {self.sides}-sided board")

    @cached_property
    def _hole_names(self) -> tuple[str, ...]:
        """Every hole's name by index (the grammar's, ``referee.holes``): looked up, not built."""
        sides = range(self.sides)
        track = [holes.track(side, k) for side in sides for k in range(SIDE_LENGTH)]
        home = [holes.home(side, depth) for side in sides for depth in range(1, HOME_SIZE + 1)]
        return (*track, *home, *map(holes.start_area, sides))

    def _check_side(self, side: int, name: str) -> None:
        if not 0 <= side < self.sides:
            raise BoardError(f"hole {name!r}: a {self.sides}-sided board has sides 0..{self.sides - 1}")

    # -- paths ------------------------------------------------------------------

    def forward(self, hole: int, steps: int, colour: int, home: HomeMode = "may") -> tuple[Path, ...]:
        """Every way a peg of ``colour`` on ``hole`` can go ``steps`` holes forward.

        ``home`` is "may" (take the home branch at the in-spot or stay on the track) or
        "must" (Kilpatrick: "A peg cannot be moved forwards along the main track past
        its in-spot"). Blocking by pegs is the caller's business: a path lists the
        holes it passes.
        """
        if home not in ("may", "must"):
            raise ValueError(f"home must be 'may' or 'must', not {home!r}")
        return _forward(self.sides, hole, steps, colour, home)

    def backward(self, hole: int, steps: int) -> Path | None:
        """The way back along the main track; None from home or start ("no backing in")."""
        if not self.is_track(hole):
            return None
        return _backward(self.sides, hole, steps)


@dataclass(frozen=True, slots=True)
class Path:
    """Where a peg lands, the holes it passes on the way, and both as a bit mask."""

    landing: int
    passed: tuple[int, ...]
    mask: int

    @classmethod
    def of(cls, landing: int, passed: tuple[int, ...]) -> Path:
        mask = 1 << landing
        for hole in passed:
            mask |= 1 << hole
        return cls(landing, passed, mask)


@cache
def _forward(sides: int, hole: int, steps: int, colour: int, home: HomeMode) -> tuple[Path, ...]:
    track = SIDE_LENGTH * sides
    home0 = track + HOME_SIZE * colour  # H<colour>:1
    if track <= hole < track + HOME_SIZE * sides:  # inside a home: only deeper
        depth = hole - home0 + 1
        if not 0 < depth <= HOME_SIZE or depth + steps > HOME_SIZE:
            return ()
        return (Path.of(hole + steps, tuple(range(hole + 1, hole + steps))),)
    if hole >= track + HOME_SIZE * sides:  # start: numbers never move a start peg
        return ()
    paths = []
    in_spot = SIDE_LENGTH * colour + IN_SPOT
    to_in_spot = (in_spot - hole) % track
    passes_in_spot = to_in_spot < steps
    if passes_in_spot and steps - to_in_spot <= HOME_SIZE:
        on_track = tuple((hole + k) % track for k in range(1, to_in_spot + 1))
        in_home = tuple(range(home0, home0 + steps - to_in_spot - 1))
        paths.append(Path.of(home0 + steps - to_in_spot - 1, on_track + in_home))
    if not (passes_in_spot and home == "must"):
        passed = tuple((hole + k) % track for k in range(1, steps))
        paths.append(Path.of((hole + steps) % track, passed))
    return tuple(paths)


@cache
def _backward(sides: int, hole: int, steps: int) -> Path:
    track = SIDE_LENGTH * sides
    return Path.of((hole - steps) % track, tuple((hole - k) % track for k in range(1, steps)))


def _check_teams(
    teams: list[list[int]], sides: int, seats: tuple[int, ...], default: tuple[tuple[int, ...], ...]
) -> tuple[tuple[int, ...], ...]:
    """Accept the default layout or, on 6, 8 and 10 sides, partners sitting opposite."""
    if not isinstance(teams, (list, tuple)) or not all(
        isinstance(team, (list, tuple)) and all(type(seat) is int for seat in team) for team in teams
    ):
        raise BoardError(f"teams must be lists of seat numbers, not {str(teams)[:60]}")
    normal = tuple(sorted(tuple(sorted(team)) for team in teams))
    opposite = tuple((s, s + sides // 2) for s in range(sides // 2))
    allowed = [tuple(sorted(default))]
    if sides in (6, 8, 10) and len(seats) == sides:
        allowed.append(opposite)
    if normal not in allowed:
        shown = " or ".join(str([list(t) for t in layout]) for layout in allowed)
        raise BoardError(f"teams {teams!r} do not fit {len(seats)} players: use {shown}")
    return normal
