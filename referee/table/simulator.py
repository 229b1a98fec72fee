"""The simulated board: pegs moved by script or by clicks on the page, kept across restarts
as a wooden board keeps its pegs.

    pegs = SimulatedPegs(hardware, data_dir)    # the table's side of it
    pegs.make(pegs.steps(["lift S0:1", "place T0:8"]), press_done)
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Collection, Iterable
from pathlib import Path

from hardware.sensors import SimulatedSensors
from referee.table.board_hardware import BoardHardware

SIM_BOARD = "simulated-board.json"


class SimulatedPegs:
    """What the table does with a simulated board: its pegs jump to a game's places, they are
    saved after every change and put back at a restart, and a script or the page moves them.
    Each change comes back to the table on the caller's own thread (the sensors' callback)."""

    def __init__(self, hardware: BoardHardware, data_dir: str) -> None:
        self._hardware = hardware
        self._data_dir = data_dir

    def restore(self) -> bool:
        """The pegs the board held when the daemon stopped, if known and of this board: whether
        they were (the file may be another size's, saved by the game played last, or damaged)."""
        saved = load(self._data_dir)
        holes = self._hardware.layout.pixel_of
        if saved is None or not all(hole in holes for hole in saved):
            return False
        self._board().set(saved)
        return True

    def put(self, holes: Iterable[str]) -> None:
        """The pegs jump to ``holes`` (the board's names), and are saved there."""
        self._board().set(holes)
        self.save()

    def save(self) -> None:
        save(self._data_dir, self._hardware.sensors.snapshot())

    def steps(self, events: object) -> list[tuple[str, str]]:
        """The events a script or the page sends, read (``parse_events``); refused at a wooden board."""
        if not self._hardware.simulated:
            raise PermissionError("simulated sensor events are only accepted with --simulate")
        return parse_events(events)

    def make(self, steps: list[tuple[str, str]], press_done: Callable[[], object]) -> None:
        """All of them are checked before any is made: a refused request moves no peg."""
        board = self._board()
        check_events(steps, board.snapshot(), self._hardware.layout.pixel_of)
        for kind, hole in steps:
            if kind == "done":
                press_done()
            else:
                (board.lift if kind == "lift" else board.place)(hole)  # each change is stored as it is seen

    def _board(self) -> SimulatedSensors:
        sensors = self._hardware.sensors
        if not isinstance(sensors, SimulatedSensors):
            raise PermissionError("only a simulated board's pegs move by themselves")
        return sensors


def parse_events(events: object) -> list[tuple[str, str]]:
    """``["lift T0:8", "place T0:13", "done"]`` as (kind, hole) pairs; bad input: ValueError."""
    if not isinstance(events, list) or not events:
        raise ValueError('\'events\' must be a non-empty list like ["lift S0:1", "place T0:8", "done"]')
    return [_parse(text) for text in events]


def _parse(text: object) -> tuple[str, str]:
    words = text.split() if isinstance(text, str) else []
    if words == ["done"]:
        return "done", ""
    if len(words) == 2 and words[0] in ("lift", "place"):
        return words[0], words[1]
    raise ValueError(f"bad simulated event {text!r}: use 'lift HOLE', 'place HOLE' or 'done'")


def check_events(steps: list[tuple[str, str]], occupied: Iterable[str], holes: Collection[str]) -> None:
    """Every step possible in turn on a board showing ``occupied`` (checked before any is made)."""
    board = set(occupied)
    for kind, hole in steps:
        if kind == "done":
            continue
        if hole not in holes:
            raise ValueError(f"no hole {hole!r} on this board")
        if kind == "lift" and hole not in board:
            raise ValueError(f"cannot lift from {hole}: it is empty")
        if kind == "place" and hole in board:
            raise ValueError(f"cannot place in {hole}: it already holds a peg")
        (board.discard if kind == "lift" else board.add)(hole)


def load(data_dir: str) -> list[str] | None:
    """The pegs the simulated board held when the daemon stopped, if known."""
    try:
        saved = json.loads((Path(data_dir) / SIM_BOARD).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return saved if isinstance(saved, list) and all(isinstance(h, str) for h in saved) else None


def save(data_dir: str, occupied: Iterable[str]) -> None:
    path = Path(data_dir) / SIM_BOARD
    temporary = path.with_suffix(".tmp")
    try:
        temporary.write_text(json.dumps(sorted(occupied)), encoding="utf-8")
        os.replace(temporary, path)
    except OSError:
        pass  # a full disk: the simulated pegs are then as lost as a knocked-over board's
