"""The event log's high-water marks: for the games written last, how many events the store
acknowledged and a digest of the last one, kept in a small file beside the store.

SQLite keeps the newest transactions in its write-ahead log until a checkpoint copies them
into the database file. If that log is removed, truncated or overwritten after the daemon
was killed, SQLite opens the database without them and says nothing: the last acknowledged
moves are gone. The marks are written after every acknowledged write (replaced whole, not
fsynced: they survive a killed process, and a power cut cannot make them newer than the
store, whose log is fsynced first), so that ``examine`` can tell at start-up that the store
holds less than it acknowledged, or something else in its place.

    marks = Marks.read(store_path)              # None: no file yet, or not readable
    marks.note(game_id, seq, event_text)        # after each acknowledged write
    marks.missing(db)                           # "lost its last 2 events of game 7 ..." or None
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import sqlite3
from pathlib import Path

log = logging.getLogger("pegs.store")
KEPT = 20  # games remembered: the write-ahead log holds only the newest writes


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


class Marks:
    """Each game's event count and last event's digest, kept beside the store to find a lost log."""

    def __init__(self, path: Path, games: dict[int, tuple[int, str]] | None = None) -> None:
        self.path = path
        self.games: dict[int, tuple[int, str]] = dict(games or {})  # game -> (events, digest of the last)

    @classmethod
    def beside(cls, store: Path) -> Path:
        return store.with_name(f"{store.name}.marks")

    @classmethod
    def read(cls, store: Path) -> Marks | None:
        """The marks kept beside ``store``; None when there are none to go by."""
        path = cls.beside(store)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            games = {int(game): (int(count), str(last)) for game, (count, last) in data.items()}
        except FileNotFoundError:
            return None
        except (OSError, ValueError, TypeError, AttributeError) as error:  # half written by a power cut: no check
            log.warning("store marks not readable: not checked", extra={"error": str(error)})
            return None
        return cls(path, games)

    @classmethod
    def of(cls, store: Path, db: sqlite3.Connection) -> Marks:
        """Marks for what ``db`` holds now (after a salvage, or for a store without marks)."""
        marks = cls(cls.beside(store))
        rows = db.execute(
            "SELECT game_id, seq, event FROM events WHERE (game_id, seq) IN "
            "(SELECT game_id, MAX(seq) FROM events GROUP BY game_id) "
            "ORDER BY game_id DESC LIMIT ?",
            (KEPT,),
        ).fetchall()
        for game, seq, text in reversed(rows):
            marks.games[int(game)] = (int(seq) + 1, digest(str(text)))
        return marks

    def note(self, game: int, seq: int, text: str) -> None:
        """Event ``seq`` of ``game`` (its text as stored) is acknowledged."""
        self.games.pop(game, None)
        self.games[game] = (seq + 1, digest(text))
        while len(self.games) > KEPT:
            del self.games[next(iter(self.games))]

    def write(self) -> None:
        temporary = self.path.with_name(self.path.name + ".tmp")
        temporary.write_text(json.dumps({str(game): list(mark) for game, mark in self.games.items()}), encoding="utf-8")
        os.replace(temporary, self.path)

    def missing(self, db: sqlite3.Connection) -> str | None:
        """What the store lacks of what it acknowledged, in words (None: all there)."""
        for game, (count, last) in self.games.items():
            row = db.execute("SELECT COUNT(*), MAX(seq) FROM events WHERE game_id = ?", (game,)).fetchone()
            held = int(row[0]) if row else 0
            if held < count:
                lost = count - held
                return (
                    f"had lost the last {lost} event{'s' if lost > 1 else ''} of game {game} that it had "
                    "acknowledged (its write-ahead log was missing or damaged)"
                )
            text = db.execute("SELECT event FROM events WHERE game_id = ? AND seq = ?", (game, count - 1)).fetchone()
            if text is None or digest(str(text[0])) != last:
                return f"had event {count - 1} of game {game} changed since it was acknowledged"
        return None
