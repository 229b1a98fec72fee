"""An events file: a board's sensor events as text, one a line (``[ms] lift|place HOLE``,
``[ms] snapshot HOLE ...``, ``[ms] done``), for ``pegs track`` and the tests.

Its own module because it is a file format, not the tracker's reasoning: it reads hole
names (the physical board's) and times, and refuses a wrong line with its number.
"""

from __future__ import annotations

from referee.physical import PhysicalBoard, SensorEvent


class EventsError(ValueError):
    """An events file line that is not ``[ms] lift|place HOLE``, ``[ms] snapshot HOLE ...`` or ``[ms] done``."""


def parse_events(text: str, physical: PhysicalBoard) -> list[SensorEvent]:
    """Read an events file: one event a line, an optional time in ms first; ``#`` comments."""
    events: list[SensorEvent] = []
    last_ms = 0
    for number, line in enumerate(text.splitlines(), 1):
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        ms = last_ms
        if words[0].isdigit():
            ms, words = int(words[0]), words[1:]
        if ms < last_ms:
            raise EventsError(f"events line {number}: time {ms} ms goes backwards (after {last_ms} ms)")
        if not words or words[0] not in ("lift", "place", "snapshot", "done"):
            raise EventsError(
                f"events line {number}: expected '[ms] lift HOLE', '[ms] place HOLE', "
                f"'[ms] snapshot HOLE ...' or '[ms] done', not {line.strip()!r}"
            )
        kind, names = words[0], words[1:]
        if kind in ("lift", "place") and len(names) != 1:
            raise EventsError(f"events line {number}: {kind} takes exactly one hole")
        if kind == "done" and names:
            raise EventsError(f"events line {number}: done takes no hole")
        try:
            holes = tuple(physical.index(name) for name in names)
        except ValueError as error:
            raise EventsError(f"events line {number}: {error}") from None
        events.append(SensorEvent(ms, kind, holes))  # type: ignore[arg-type]
        last_ms = ms
    return events
