"""A damaged game store is never silently replaced: it is kept, and every game and move
that can still be read is carried into a new one.

SD cards do get damaged. At start-up ``examine`` says what is wrong with the store file,
if anything: empty (0 bytes), read-only, not a database, pages that fail SQLite's check,
rows that are not JSON, or the game to resume holding a move that does not replay. Then
``salvage`` reads what it can, moves the file aside (``pegs.sqlite3.damaged-<time>``,
with its journal files), writes a new store holding every game up to its last event that
reads and replays, and says exactly what happened.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from referee.events import event_from_json
from referee.file_reading import excerpt
from referee.game import Game
from referee.table.marks import Marks

Row = tuple[Any, ...]
BROKEN = (ValueError, RecursionError)
"""What reading and replaying a damaged event can raise: a row may hold any JSON at all, which
``referee.events`` refuses (EventError) or the game does (GameError), both ValueErrors."""
DAMAGED = (ArithmeticError, LookupError, TypeError, ValueError, RecursionError)
"""What anything read from the card can raise once one bit of it has flipped: a number too big
(OverflowError), a seat or step that is not there (IndexError, KeyError), a value of another
type, a colour or a hole that does not parse. The table's start-up and pages catch these where
they read a stored thing (``Table._open_session``, ``Store.listed``), set it aside and go on."""
# A lesson's steps are small games of their own, marked so in their start event's table: not
# games played. Neither they nor its practice game are the game to resume when the daemon
# starts or a lesson is left: the lesson knows its own.
LESSON_STEPS = "SELECT game_id FROM events WHERE seq = 0 AND json_extract(event, '$.table.lesson_step') IS NOT NULL"
LESSON_GAMES = (
    "SELECT game_id FROM events WHERE seq = 0 AND (json_extract(event, '$.table.lesson_step') IS NOT NULL "
    "OR json_extract(event, '$.table.lesson') IS NOT NULL)"
)
ORPHANS = "SELECT DISTINCT game_id FROM events WHERE game_id NOT IN (SELECT id FROM games)"
"""Games whose events are stored without their games row (its id damaged): carried over."""
TO_RESUME = f"SELECT id FROM games WHERE winner IS NULL AND id NOT IN ({LESSON_GAMES}) ORDER BY id DESC"
"""The unfinished games, newest first: the first whose events are whole is the one resumed."""


@dataclass
class Salvaged:
    """What could be read out of a damaged store, to be carried into a new one."""

    games: list[Row] = field(default_factory=list)  # id, created, rules, players, mode, winner
    events: dict[int, list[str]] = field(default_factory=dict)  # game id -> event texts, from seq 0
    turns: list[Row] = field(default_factory=list)
    lessons: list[Row] = field(default_factory=list)
    lost: list[str] = field(default_factory=list)


def examine(path: Path, marks: Marks | None = None) -> str | None:
    """What is wrong with the store at ``path``, in words (None: nothing, or no file yet);
    ``marks``: what it acknowledged last, to find events lost with its write-ahead log."""
    if not path.exists():
        return None
    if path.stat().st_size == 0:
        return "was empty (0 bytes)"
    if not os.access(path, os.W_OK):
        return "was read-only"
    try:
        with _reading(path) as db:
            check = db.execute("PRAGMA quick_check").fetchone()
            if check is None or check[0] != "ok":
                return f"failed SQLite's check ({excerpt(check[0] if check else 'no answer')})"
            tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            if tables and not {"games", "events"} <= tables:
                return "is a SQLite file without the games in it"
            if not tables:  # a new store, or one whose tables were still in its lost write-ahead log
                if marks is None or not marks.games:
                    return None
                games = ", ".join(str(game) for game in sorted(marks.games))
                return f"had lost every game it had acknowledged, game {games} among them (its write-ahead log was missing or damaged)"
            for game_id, seq, text in db.execute("SELECT game_id, seq, event FROM events ORDER BY game_id, seq"):
                if _event(text) is None:
                    return f"had event {seq} of game {game_id} that is not JSON"
            gap = db.execute(
                "SELECT game_id, COUNT(*), MAX(seq) FROM events GROUP BY game_id "
                "HAVING COUNT(*) != MAX(seq) + 1 OR MIN(seq) != 0 LIMIT 1"
            ).fetchone()
            if gap is not None:
                return f"had game {gap[0]} with events missing between its first and its last ({gap[2] + 1 - gap[1]} of {gap[2] + 1})"
            orphan = db.execute(f"{ORPHANS} LIMIT 1").fetchone()
            if orphan is not None:
                return f"had the events of game {orphan[0]} without the game's own row"
            lost = marks.missing(db) if marks is not None else None
            if lost:
                return lost
            row = db.execute(f"{TO_RESUME} LIMIT 1").fetchone()  # the game the table resumes
            if row is not None:
                texts = [r[0] for r in db.execute("SELECT event FROM events WHERE game_id = ? ORDER BY seq", row)]
                kept, problem = _replayable([_event(text) or {} for text in texts])
                if problem:
                    return f"had game {row[0]} stop at event {kept}: {problem}"
    except sqlite3.DatabaseError as error:
        return f"could not be read as a SQLite database ({excerpt(error)})"
    return None


def salvage(path: Path, problem: str, create: Any) -> str:
    """Keep the damaged store aside, write what can be read into a new one at ``path``
    (``create(connection)`` makes its tables), and say what happened.

    The new store is written whole beside the old one first, and only then do the files
    change places, so a power cut in between loses nothing: ``finish_salvage`` completes
    the swap at the next start."""
    found = _read_what_can_be_read(path)
    fresh = _recovering(path)
    fresh.unlink(missing_ok=True)
    db = sqlite3.connect(fresh, isolation_level=None)
    try:
        create(db)
        db.execute("BEGIN IMMEDIATE")
        db.executemany(
            "INSERT INTO games (id, created, rules, players, mode, winner) VALUES (?, ?, ?, ?, ?, ?)", found.games
        )
        db.executemany(
            "INSERT INTO events (game_id, seq, event) VALUES (?, ?, ?)",
            [(game, seq, text) for game, texts in found.events.items() for seq, text in enumerate(texts)],
        )
        db.executemany("INSERT INTO turns (game_id, state) VALUES (?, ?)", found.turns)
        db.executemany("INSERT INTO lessons (id, state) VALUES (?, ?)", found.lessons)
        db.execute("COMMIT")
        Marks.of(path, db).write()  # what the new store holds is what it acknowledges now
    finally:
        db.close()
    _fsync(fresh)
    kept = path.with_name(f"{path.name}.damaged-{time.strftime('%Y%m%d-%H%M%S')}")
    for suffix in ("", "-wal", "-shm"):
        companion = Path(f"{path}{suffix}")
        if companion.exists():
            companion.rename(f"{kept}{suffix}")
    finish_salvage(path)
    moves = sum(len(texts) for texts in found.events.values())
    said = (
        f"The game store {path.name} {problem}. It is kept as {kept.name}; {len(found.games)} games and "
        f"{moves} events were recovered into a new store"
    )
    return said + (f"; lost: {'; '.join(found.lost)}." if found.lost else ".")


def finish_salvage(path: Path) -> bool:
    """A recovered store written but not yet in place (the power went between): put it
    there. Whether there was one."""
    fresh = _recovering(path)
    if path.exists() or not fresh.exists():
        return False
    fresh.rename(path)
    _fsync(path.parent)
    return True


def _recovering(path: Path) -> Path:
    return path.with_name(f"{path.name}.recovering")


def _fsync(path: Path) -> None:
    handle = os.open(path, os.O_RDONLY)
    try:
        os.fsync(handle)
    finally:
        os.close(handle)


def _read_what_can_be_read(path: Path) -> Salvaged:
    found = Salvaged()
    try:
        with _reading(path) as db:
            if not db.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall():
                return found  # nothing was ever stored here, or it was all in a lost write-ahead log
            games = _rows(db, "SELECT id, created, rules, players, mode, winner FROM games ORDER BY id", found, "games")
            for game in games:
                texts = _game_events(db, game[0], found)
                if not texts:
                    found.lost.append(f"game {game[0]} (no event could be read)")
                    continue
                found.games.append(game)
                found.events[game[0]] = texts
            for game_id, start in _rows(
                db,
                f"SELECT e.game_id, e.event FROM events e WHERE e.seq = 0 AND e.game_id IN ({ORPHANS})",
                found,
                "events",
            ):
                texts = _game_events(db, game_id, found)  # its games row was damaged: made again from its start
                if texts:
                    found.games.append(_row_of(game_id, _event(start) or {}))
                    found.events[game_id] = texts
            for turn in _rows(db, "SELECT game_id, state FROM turns", found, "turns"):
                if turn[0] in found.events and _event(turn[1]) is not None:
                    found.turns.append(turn)
            tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            if "lessons" in tables:
                found.lessons = _rows(db, "SELECT id, state FROM lessons", found, "lessons")
    except sqlite3.DatabaseError as error:
        found.lost.append(f"everything ({excerpt(error)})")
    return found


def _row_of(game_id: int, start: dict[str, Any]) -> Row:
    """A games row made again from the game's start event (its own row was lost)."""
    rules = start.get("rules")
    name = rules.get("name") if isinstance(rules, dict) else None
    players, mode = start.get("players"), start.get("mode")
    return (
        game_id,
        time.time(),
        str(name or "?"),
        players if isinstance(players, int) else 4,
        str(mode or "table"),
        None,
    )


def _game_events(db: sqlite3.Connection, game_id: int, found: Salvaged) -> list[str]:
    """The game's events from the first, up to the last that reads and replays."""
    texts: list[str] = []
    try:
        rows = db.execute("SELECT seq, event FROM events WHERE game_id = ? ORDER BY seq", (game_id,)).fetchall()
    except sqlite3.DatabaseError as error:
        found.lost.append(f"game {game_id} ({excerpt(error)})")
        return texts
    events = []
    for seq, text in rows:
        event = _event(text)
        if seq != len(texts) or event is None:
            break
        texts.append(text)
        events.append(event)
    kept, problem = _replayable(events)
    if kept < len(rows):
        found.lost.append(f"game {game_id} from event {kept} on ({problem or 'not readable'})")
    return texts[:kept]


def _replayable(events: list[dict[str, Any]]) -> tuple[int, str | None]:
    """How many events from the first replay, and why the next does not."""
    if not events:
        return 0, "no start event"
    try:
        game = Game.from_events(events[:1])
    except BROKEN as error:
        return 0, excerpt(error)
    for index, event in enumerate(events[1:], 1):
        try:
            game.replay_event(event_from_json(event))
        except BROKEN as error:  # the game stops at the last event that replays
            return index, excerpt(error)
    return len(events), None


def _rows(db: sqlite3.Connection, query: str, found: Salvaged, what: str) -> list[Row]:
    try:
        return list(db.execute(query).fetchall())
    except sqlite3.DatabaseError as error:
        found.lost.append(f"the {what} table ({excerpt(error)})")
        return []


def _event(text: Any) -> dict[str, Any] | None:
    try:
        value = json.loads(text)
    except (TypeError, ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) and isinstance(value.get("event"), str) else None


def _reading(path: Path) -> closing[sqlite3.Connection]:
    """The store opened for reading only (it may be read-only or damaged)."""
    return closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True, isolation_level=None))
