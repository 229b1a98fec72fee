"""The simulated board: pegs moved by script or by clicks on the page, kept across restarts
as a wooden board keeps its pegs."""

from __future__ import annotations

import json
import os
from collections.abc import Collection, Iterable
from pathlib import Path

SIM_BOARD = "simulated-board.json"


def parse_events(events: object) -> list[tuple[str, str]]:
    """``["lift T0:8", "place T0:13", "done"]`` as (kind, hole) pairs; bad input: ValueError."""
    if not isinstance(events, list) or not events:
        raise ValueError("'events' must be a non-empty list like [\"lift S0:1\", \"place T0:8\", \"done\"]")
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
