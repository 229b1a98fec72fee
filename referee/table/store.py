"""The game store: every accepted event in SQLite, committed before anyone is told.

The embedded default is one SQLite file in the data dir, in WAL mode with
``synchronous=FULL``: a committed event survives a power cut, so a game resumes
exactly where it stopped. Games can be listed and resumed; a game's events are the
JSON-lines record that ``pegs replay`` reads (the daemon's ``Table.record`` writes it):
the game's own events (``referee.events``) go in and come out, their JSON is kept here.

    store = Store.open("data")
    game_id = store.create(game.events)
    store.append(game_id, new_events)        # returns only once the events are on disk
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import shutil
import sqlite3
import threading
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee import events as ev
from referee.events import Event, event_from_json, event_to_json
from referee.file_reading import excerpt
from referee.protocol_types import Unavailable
from referee.table import listing
from referee.table.marks import Marks
from referee.table.salvage import DAMAGED, LESSON_STEPS, TO_RESUME, examine, finish_salvage, salvage
from referee.table.session import StoreFailure

log = logging.getLogger("pegs.store")
DB_NAME = "pegs.sqlite3"
MIN_FREE_BYTES = 5 * 1024 * 1024

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    created REAL NOT NULL,
    rules TEXT NOT NULL,
    players INTEGER NOT NULL,
    mode TEXT NOT NULL,
    winner TEXT
);
CREATE TABLE IF NOT EXISTS events (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    event TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS turns (
    game_id INTEGER PRIMARY KEY REFERENCES games(id),
    state TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS lessons (
    id INTEGER PRIMARY KEY,
    state TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS reviews (
    game_id INTEGER PRIMARY KEY REFERENCES games(id),
    version INTEGER NOT NULL,
    json TEXT NOT NULL
);
"""


class StoreError(StoreFailure, Unavailable):
    """The data dir cannot hold games: missing, read-only, full, or not our database.
    Nothing was saved; the session falls back to what is on disk, the page answers 503."""


@dataclass(frozen=True)
class GameInfo:
    """A stored game's row: when it began, its rules and players, its mode and winner."""

    id: int
    created: float
    rules: str
    players: int
    mode: str
    winner: list[int] | None
    events: int


class Store:
    """The table's SQLite file: every game's events, the turn in play, lessons and reviews."""

    def __init__(self, connection: sqlite3.Connection, path: Path) -> None:
        self._db = connection
        self.path = path
        self._lock = threading.Lock()
        self._turn_lock = threading.Lock()  # the turn file: written from the sensor and ticker threads
        self._turn_seq: dict[int, int] = {}
        self._turn_aside: set[int] = set()  # games whose stored turn was damaged: not read again this run
        self.salvaged: str | None = None  # what was found damaged at start-up, and what was kept
        self._aside: dict[str, str] = {}  # what else was read and found damaged: set aside, named
        self._listed: dict[int, tuple[tuple[int, str | None], dict[str, Any]]] = {}  # a game's row, by its version
        self._marks = Marks(Marks.beside(path))  # what was acknowledged last (``referee.table.marks``)
        self._acknowledged: tuple[int, int, str] | None = None  # the last event row written, till committed

    @classmethod
    def open(cls, data_dir: str | Path) -> Store:
        """Open (creating if need be) the store in ``data_dir``, or say clearly why not."""
        folder = Path(data_dir)
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise StoreError(f"cannot create data dir {str(folder)!r}: {error.strerror}") from None
        _check_writable(folder)
        path = folder / DB_NAME
        recovered = None
        if finish_salvage(path):
            recovered = f"The game store was being recovered when the daemon stopped; the recovered store is now in use ({path.name})."
        problem = examine(path, Marks.read(path))
        if problem is not None:  # kept aside, never replaced: what can be read goes on
            try:
                recovered = salvage(path, problem, lambda db: db.executescript(SCHEMA))
            except (OSError, sqlite3.Error) as error:
                raise StoreError(
                    f"the game store {str(path)!r} {problem}, and could not be set aside: {error}"
                ) from None
        try:
            connection = sqlite3.connect(path, check_same_thread=False, isolation_level=None, timeout=10)
            connection.text_factory = _text
            connection.execute("PRAGMA journal_mode=WAL")
            connection.execute("PRAGMA synchronous=FULL")
            connection.executescript(SCHEMA)
        except sqlite3.DatabaseError as error:
            raise StoreError(f"cannot use {str(path)!r} as the game store: {error}") from None
        store = cls(connection, path)
        store.salvaged = recovered
        store._marks = Marks.read(path) or Marks.of(path, connection)
        return store

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # -- what was found damaged ---------------------------------------------------------

    @property
    def recovered(self) -> str | None:
        """Everything found damaged since the start, in words (None: nothing): the store
        recovered at start-up, and each thing read since and set aside (``set_aside``). The
        page shows it (``store_recovered``), ``/api/health`` says it, ``pegs doctor`` reads it."""
        said = [self.salvaged] if self.salvaged else []
        said += [f"{what} was damaged and is set aside: {why}." for what, why in self._aside.items()]
        return " ".join(said) or None

    def set_aside(self, what: str, why: object) -> None:
        """``what`` (a game, the lesson left, a file) read damaged: named, kept as it is on disk,
        and not used; the table goes on with everything else."""
        if what not in self._aside:
            log.error("damaged and set aside", extra={"what": what, "error": str(why)})
        self._aside[what] = excerpt(str(why))

    # -- writing ----------------------------------------------------------------------

    def create(self, events: list[Event]) -> int:
        """A new game from its first events (start, deal, ...); returns its id."""
        start = events[0] if events else None
        if not isinstance(start, ev.Start):
            raise TypeError("a game is stored from its start event")
        with self._acknowledging():
            cursor = self._db.execute(
                "INSERT INTO games (created, rules, players, mode) VALUES (?, ?, ?, ?)",
                (time.time(), start.rules.get("name", "?"), start.players, start.mode),
            )
            game_id = int(cursor.lastrowid or 0)
            self._insert(game_id, 0, events)
            self._won(game_id, events)  # a whole game stored at once (an import, a test) has its winner too
        return game_id

    def append(self, game_id: int, events: Iterable[Event], first_seq: int, turn: dict[str, Any] | None = None) -> None:
        """Add events numbered from ``first_seq``, with the turn as it now stands; on disk
        when this returns."""
        events = list(events)
        if not events and turn is None:
            return
        with self._acknowledging():
            self._insert(game_id, first_seq, events)
            self._won(game_id, events)
            if turn is not None:
                self._put_turn(game_id, turn)

    def _won(self, game_id: int, events: list[Event]) -> None:
        """The games row's winner follows the record: set by a win, cleared by an undo (only the
        win can be undone once a game is won; an undo before it clears what was not set)."""
        for event in events:
            if isinstance(event, ev.Win):
                self._db.execute("UPDATE games SET winner = ? WHERE id = ?", (json.dumps(list(event.team)), game_id))
            elif isinstance(event, ev.Undo):
                self._db.execute("UPDATE games SET winner = NULL WHERE id = ? AND winner IS NOT NULL", (game_id,))

    def save_turn(self, game_id: int, turn: dict[str, Any], durable: bool) -> None:
        """What the tracker knows of the turn so far, after every sensor event: a file of its
        own beside the database (replaced whole, never half written), so that the moves'
        fsyncs do not carry it. Not ``durable``: it survives the daemon being killed; a power
        cut loses what was not yet made durable (the owner does that every half second)."""
        seq = turn.get("seq")
        with self._turn_lock:
            if isinstance(seq, int):
                newest = self._turn_seq.get(game_id, -1)
                if seq < newest or seq == newest and not durable:
                    return  # written late by another thread: the newer state stays
                self._turn_seq[game_id] = seq
            self._write_turn(game_id, turn, durable)

    def _write_turn(self, game_id: int, turn: dict[str, Any], durable: bool) -> None:
        path = self._turn_path(game_id)
        temporary = path.with_suffix(".tmp")
        try:
            with open(temporary, "w", encoding="utf-8") as handle:
                handle.write(json.dumps(turn, separators=(",", ":")))
                if durable:
                    handle.flush()
                    os.fsync(handle.fileno())
            os.replace(temporary, path)
            if durable:
                directory = os.open(path.parent, os.O_RDONLY)
                try:
                    os.fsync(directory)
                finally:
                    os.close(directory)
        except OSError as error:
            raise StoreError(f"the game store could not save the turn: {error.strerror or error}") from None

    def _turn_path(self, game_id: int) -> Path:
        return self.path.parent / f"turn-{game_id}.json"

    def _put_turn(self, game_id: int, turn: dict[str, Any]) -> None:
        self._db.execute(
            "INSERT OR REPLACE INTO turns (game_id, state) VALUES (?, ?)",
            (game_id, json.dumps(turn, separators=(",", ":"))),
        )

    def _insert(self, game_id: int, first_seq: int, events: list[Event]) -> None:
        rows = [
            (game_id, first_seq + n, json.dumps(event_to_json(event), separators=(",", ":")))
            for n, event in enumerate(events)
        ]
        self._db.executemany("INSERT INTO events (game_id, seq, event) VALUES (?, ?, ?)", rows)
        if rows:
            self._acknowledged = rows[-1]

    @contextmanager
    def _acknowledging(self) -> Iterator[None]:
        """A transaction, and once it is committed the marks say what the store now
        acknowledges. A mark not written costs only the check at the next start, never the move."""
        with self._lock:
            try:
                with self._transaction():
                    yield
            except BaseException:
                self._acknowledged = None
                raise
            row, self._acknowledged = self._acknowledged, None
            if row is not None:
                self._mark(row)

    def _mark(self, row: tuple[int, int, str]) -> None:
        self._marks.note(*row)
        try:
            self._marks.write()
        except OSError as error:
            log.warning("store marks not written", extra={"error": str(error)})

    def _transaction(self) -> _Transaction:
        return _Transaction(self._db)

    # -- reading ----------------------------------------------------------------------

    def games(self) -> list[GameInfo]:
        """The games played, without a lesson's small set-up positions (its practice game is one)."""
        with self._lock:
            rows = self._db.execute(
                "SELECT g.id, g.created, g.rules, g.players, g.mode, g.winner, COUNT(e.seq) FROM games g "
                f"LEFT JOIN events e ON e.game_id = g.id WHERE g.id NOT IN ({LESSON_STEPS}) "
                "GROUP BY g.id ORDER BY g.id"
            ).fetchall()
        return [GameInfo(r[0], r[1], r[2], r[3], r[4], _winner(r[5]), r[6]) for r in rows]

    def events(self, game_id: int) -> list[Event]:
        try:
            with self._lock:
                rows = self._db.execute(
                    "SELECT event FROM events WHERE game_id = ? ORDER BY seq", (game_id,)
                ).fetchall()
            if not rows:
                raise StoreError(f"no game {game_id} is stored here")
            return [event_from_json(json.loads(row[0])) for row in rows]
        except DAMAGED as error:  # EventError, not JSON, nested too deep: the game is damaged
            raise StoreError(f"game {game_id}'s record is damaged ({excerpt(error)})") from None

    def won(self, game_id: int) -> bool:
        """Whether the game is won now (an undone win is not: ``_won`` clears the mark)."""
        with self._lock:
            row = self._db.execute("SELECT winner FROM games WHERE id = ?", (game_id,)).fetchone()
        return row is not None and _winner(row[0]) is not None

    def last_unfinished(self) -> int | None:
        """The newest game not won, a lesson's games aside (the lesson itself knows its step)."""
        found = self.unfinished(1)
        return found[0] if found else None

    def unfinished(self, most: int) -> list[int]:
        """The newest ``most`` games not won, newest first, a lesson's games aside: the table
        resumes the first whose events are whole."""
        with self._lock:
            rows = self._db.execute(f"{TO_RESUME} LIMIT ?", (most,)).fetchall()
        return [int(row[0]) for row in rows]

    def listed(self) -> list[dict[str, Any]]:
        """Each game played as the list of past games shows it (``listing.row``), oldest first.
        A row is made once per version of its game (its events counted, its winner) and kept:
        the list is asked for by anyone, and must not read every game each time."""
        rows = []
        for info in self.games():
            key = (info.events, json.dumps(info.winner))
            cached = self._listed.get(info.id)
            if cached is None or cached[0] != key:
                cached = key, {**info.__dict__, **self._summary(info)}
                self._listed[info.id] = cached
            rows.append(cached[1])
        return rows

    def _summary(self, info: GameInfo) -> dict[str, Any]:
        """What the list needs of a game's events, read once; a damaged game is said so."""
        try:
            return listing.row(self.events(info.id), info.winner)
        except (StoreError, *DAMAGED) as error:
            return listing.damaged(error)

    # -- lessons ----------------------------------------------------------------------

    def create_lesson(self, state: dict[str, Any]) -> int:
        with self._lock, self._transaction():
            cursor = self._db.execute("INSERT INTO lessons (state) VALUES (?)", (json.dumps(state),))
            return int(cursor.lastrowid or 0)

    def save_lesson(self, lesson_id: int, state: dict[str, Any]) -> None:
        """A lesson's progress, on disk when this returns."""
        with self._lock, self._transaction():
            self._db.execute("UPDATE lessons SET state = ? WHERE id = ?", (json.dumps(state), lesson_id))

    def last_lesson(self) -> tuple[int, dict[str, Any]] | None:
        """The newest lesson, whatever its state (a damaged row reads as none)."""
        try:
            with self._lock:
                row = self._db.execute("SELECT id, state FROM lessons ORDER BY id DESC LIMIT 1").fetchone()
        except UnicodeDecodeError as error:  # bytes a flipped bit left (``_text``)
            self.set_aside("the newest lesson's row", error)
            return None
        state = _json_object(row[1]) if row else None
        return (int(row[0]), state) if row and state is not None else None

    def set_turn_aside(self, game_id: int, why: object) -> None:
        """The game's stored turn (its half-made move) does not fit the game: named, kept as it
        is (the file is copied aside before the next save replaces it), and not read again; the
        game resumes from its last move, which the turn never holds."""
        path = self._turn_path(game_id)
        with contextlib.suppress(OSError):
            shutil.copyfile(path, path.with_name(f"{path.name}.damaged"))
        self.set_aside(f"the move being made in game {game_id} ({path.name})", why)
        self._turn_aside.add(game_id)

    def turn(self, game_id: int) -> dict[str, Any] | None:
        """The turn as last stored: with the last move in the database, or newer beside it."""
        if game_id in self._turn_aside:
            return None
        with self._lock:
            try:
                row = self._db.execute("SELECT state FROM turns WHERE game_id = ?", (game_id,)).fetchone()
            except sqlite3.Error as error:
                raise StoreError(f"the game store could not be read: {error}") from None
        found = [_json_object(row[0]) if row else None]
        with contextlib.suppress(OSError):
            found.append(_json_object(self._turn_path(game_id).read_text(encoding="utf-8")))
        states = [state for state in found if state is not None]
        return max(states, key=_turn_order) if states else None

    def save_review(self, game_id: int, version: int, text: str) -> None:
        """A finished game's review (JSON text), kept so that opening it again is instant."""
        with self._lock, self._transaction():
            self._db.execute(
                "INSERT OR REPLACE INTO reviews (game_id, version, json) VALUES (?, ?, ?)", (game_id, version, text)
            )

    def review(self, game_id: int, version: int) -> str | None:
        """The stored review of a game, if one of ``version`` was made (None: make it again)."""
        with self._lock:
            try:
                row = self._db.execute(
                    "SELECT json FROM reviews WHERE game_id = ? AND version = ?", (game_id, version)
                ).fetchone()
            except sqlite3.Error as error:
                raise StoreError(f"the game store could not be read: {error}") from None
        return str(row[0]) if row else None


class _Transaction:
    """BEGIN IMMEDIATE ... COMMIT; a failure rolls back and says so in plain words."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> None:
        try:
            self.db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as error:
            raise StoreError(f"the game store could not save: {error}") from error

    def __exit__(self, kind: object, error: BaseException | None, _tb: object) -> None:
        if error is None:
            try:
                self.db.execute("COMMIT")
                return
            except sqlite3.Error as failure:
                error = failure
        with contextlib.suppress(sqlite3.Error):  # SQLite may have rolled back already (a full disk does)
            self.db.execute("ROLLBACK")
        if isinstance(error, sqlite3.Error):
            raise StoreError(f"the game store could not save: {error}") from error


def _winner(text: str | None) -> list[int] | None:
    """The winning team as stored (a damaged value reads as not known)."""
    try:
        team = json.loads(text) if text else None
    except ValueError:
        return None
    return team if isinstance(team, list) and all(isinstance(seat, int) for seat in team) else None


def _json_object(text: str) -> dict[str, Any] | None:
    try:
        value = json.loads(text)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _turn_order(turn: dict[str, Any]) -> tuple[int, int]:
    """Newer turn states have more game events, then a higher save number."""
    events, seq = turn.get("events"), turn.get("seq")
    return (events if isinstance(events, int) else -1, seq if isinstance(seq, int) else -1)


def _check_writable(folder: Path) -> None:
    probe = folder / ".pegs-write-test"
    try:
        with open(probe, "wb") as handle:
            handle.write(b"ok")
            handle.flush()
            os.fsync(handle.fileno())
        probe.unlink()
    except OSError as error:
        raise StoreError(f"data dir {str(folder)!r} is not writable: {error.strerror}") from None
    free = shutil.disk_usage(folder).free
    if free < MIN_FREE_BYTES:
        raise StoreError(f"data dir {str(folder)!r} has only {free // 1024} KiB free; the game store needs 5 MiB")


def _text(data: bytes) -> str:
    """A stored text as Python's own decoding reads it: bytes a flipped bit left that are not
    UTF-8 raise UnicodeDecodeError, one of ``DAMAGED`` (SQLite's own OperationalError was not,
    and stopped the start on a lesson's row)."""
    return data.decode("utf-8")
