"""Position: where every peg is and whose turn it is.

The sensors see occupancy only, and pegs of one colour are interchangeable, so a
position *is* its occupancy: for every track and home hole, which colour (if any)
sits there. Start pegs are whatever a seat has left over. That makes equal
positions equal bytes, cheap to copy, hash and compare when the move generator
builds thousands of results.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from referee.board import PEGS_PER_SEAT, Board, BoardError
from referee.file_reading import TextError, load_json
from referee.holes import OWN_START


class PositionError(ValueError):
    """A position that cannot be on a real board."""


@dataclass(frozen=True)
class Position:
    """A board, the seat to play, and the colour in each hole (0 empty, seat + 1)."""

    board: Board
    turn: int
    occupancy: bytes = field(repr=False)

    def __post_init__(self) -> None:
        if len(self.occupancy) != self.board.board_holes:
            raise PositionError("occupancy does not cover the board")
        if self.turn not in self.board.seats:
            raise PositionError(f"turn {self.turn!r} is not a seat in play {list(self.board.seats)}")
        counts = dict.fromkeys(self.board.seats, 0)
        for hole, colour in enumerate(self.occupancy):
            if colour:
                seat = colour - 1
                if seat not in counts:
                    raise PositionError(
                        f"a peg of seat {seat} in {self.board.hole_name(hole)}, but that seat is not in play"
                    )
                owner = self.board.owner(hole)
                if owner is not None and owner != seat:
                    raise PositionError(f"a peg of seat {seat} in another seat's home {self.board.hole_name(hole)}")
                counts[seat] += 1
        crowded = [seat for seat, count in counts.items() if count > PEGS_PER_SEAT]
        if crowded:
            raise PositionError(f"seat {crowded[0]} has more than {PEGS_PER_SEAT} pegs")

    # -- building -----------------------------------------------------------------

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | str) -> Position:
        """Read the position format of docs/design.md, "Position file" (a dict, or its JSON text)."""
        if isinstance(data, str):
            try:
                data = load_json(data, "position")
            except TextError as error:
                raise PositionError(str(error)) from None
        if not isinstance(data, Mapping):
            raise PositionError("position must be a JSON object")
        unknown = set(data) - {"players", "turn", "teams", "pegs"}
        if unknown:
            raise PositionError(f"unknown position keys: {', '.join(sorted(unknown))}")
        players = data.get("players")
        if not isinstance(players, int) or isinstance(players, bool):
            raise PositionError("position needs 'players': 2, 4, 6, 8 or 10")
        teams = data.get("teams")
        if teams is not None and not isinstance(teams, list):
            raise PositionError("'teams' must be a list of lists of seats")
        try:
            board = Board.for_players(players, teams)
        except BoardError as error:
            raise PositionError(str(error)) from None
        turn = data.get("turn", board.seats[0])
        if not isinstance(turn, int) or isinstance(turn, bool) or turn not in board.seats:
            raise PositionError(f"'turn' must be a seat in play {list(board.seats)}, not {turn!r}")
        pegs = data.get("pegs", {})
        if not isinstance(pegs, Mapping):
            raise PositionError("'pegs' must map seats to lists of five holes")
        return cls.from_pegs(board, turn, {_seat_key(key): holes for key, holes in pegs.items()})

    @classmethod
    def from_pegs(cls, board: Board, turn: int, pegs: Mapping[int, Any]) -> Position:
        """Build from seat -> five hole names; a seat left out has all pegs in start."""
        occupancy = bytearray(board.board_holes)
        for seat, holes in pegs.items():
            if seat not in board.seats:
                raise PositionError(f"seat {seat} is not in play (seats {list(board.seats)})")
            if not isinstance(holes, list) or len(holes) != PEGS_PER_SEAT:
                raise PositionError(f"seat {seat} must list exactly {PEGS_PER_SEAT} holes")
            for name in holes:
                if not isinstance(name, str):
                    raise PositionError(f"seat {seat}: hole {name!r} is not a string")
                try:
                    hole = board.hole_index(name, seat)
                except BoardError as error:
                    raise PositionError(f"seat {seat}: {error}") from None
                owner = board.owner(hole)
                if owner is not None and owner != seat:
                    raise PositionError(f"seat {seat}: peg cannot be in {name}, another seat's start or home")
                if board.is_start(hole):
                    continue
                if occupancy[hole]:
                    raise PositionError(f"two pegs in {name}")
                occupancy[hole] = seat + 1
        return cls(board, turn, bytes(occupancy))

    def with_occupancy(self, occupancy: bytes) -> Position:
        return Position(self.board, self.turn, occupancy)

    def _derived(self, occupancy: bytes) -> Position:
        """The same board and turn with other occupancy, unchecked: for results the move
        generator has already proven legal, where checking every hole again costs more
        than generating the move."""
        derived = object.__new__(Position)
        object.__setattr__(derived, "board", self.board)
        object.__setattr__(derived, "turn", self.turn)
        object.__setattr__(derived, "occupancy", occupancy)
        return derived

    def with_turn(self, turn: int) -> Position:
        if turn not in self.board.seats:
            raise PositionError(f"turn {turn!r} is not a seat in play {list(self.board.seats)}")
        moved = self._derived(self.occupancy)
        object.__setattr__(moved, "turn", turn)
        return moved

    # -- reading ------------------------------------------------------------------

    @cached_property
    def key(self) -> int:
        """The occupancy as one integer: results of a move differ from it by small sums."""
        return int.from_bytes(self.occupancy, "little")

    @cached_property
    def holes_by_seat(self) -> dict[int, tuple[int, ...]]:
        by_seat: dict[int, list[int]] = {seat: [] for seat in self.board.seats}
        for hole, colour in enumerate(self.occupancy):
            if colour:
                by_seat[colour - 1].append(hole)
        return {seat: tuple(holes) for seat, holes in by_seat.items()}

    def pegs(self, seat: int) -> tuple[int, ...]:
        """The seat's five holes: track and home holes in board order, then start bins."""
        on_board = self.holes_by_seat[seat]
        return on_board + (self.board.start(seat),) * (PEGS_PER_SEAT - len(on_board))

    def on_board(self, seat: int) -> tuple[int, ...]:
        return self.holes_by_seat[seat]

    def in_start(self, seat: int) -> int:
        return PEGS_PER_SEAT - len(self.holes_by_seat[seat])

    def in_home(self, seat: int) -> int:
        return self._home_counts[seat]

    @cached_property
    def _home_counts(self) -> dict[int, int]:
        first_home = self.board.track_length
        return {seat: sum(1 for hole in holes if hole >= first_home) for seat, holes in self.holes_by_seat.items()}

    @cached_property
    def colour_masks(self) -> tuple[int, ...]:
        """For each colour (seat), a bit mask of the holes its pegs occupy."""
        masks = [0] * self.board.sides
        for seat, holes in self.holes_by_seat.items():
            for hole in holes:
                masks[seat] |= 1 << hole
        return tuple(masks)

    def all_home(self, seat: int) -> bool:
        return self.in_home(seat) == PEGS_PER_SEAT

    def colour_at(self, hole: int) -> int | None:
        colour = self.occupancy[hole]
        return colour - 1 if colour else None

    def winner(self) -> tuple[int, ...] | None:
        """The team with every peg home, if any (the rules page, Endgame: "The first team that manages ...")."""
        for team in self.board.teams:
            if all(self.all_home(seat) for seat in team):
                return team
        return None

    def seat_pegs(self) -> Iterator[tuple[int, tuple[str, ...]]]:
        for seat in self.board.seats:
            yield seat, tuple(self._peg_name(hole) for hole in self.pegs(seat))

    def _peg_name(self, hole: int) -> str:
        return OWN_START if self.board.is_start(hole) else self.board.hole_name(hole)

    def pegs_json(self) -> dict[str, list[str]]:
        """``{"0": [5 holes], ...}`` with start pegs as ``S``, as ``pegs moves`` prints."""
        return {str(seat): list(names) for seat, names in self.seat_pegs()}

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"players": self.board.players, "turn": self.turn}
        if self.board != Board.for_players(self.board.players):
            data["teams"] = [list(team) for team in self.board.teams]
        data["pegs"] = self.pegs_json()
        return data


def _seat_key(key: object) -> int:
    try:
        return int(str(key))
    except ValueError:
        raise PositionError(f"'pegs' keys must be seat numbers, not {key!r}") from None
