"""One flipped bit anywhere the daemon keeps things never stops the table, and loses no move
acknowledged outside what it flipped (issue 34, "1. A damaged SD card must never stop the
table": "flip random single bits in every file and table the daemon keeps, thousands of
times, and count starts that fail (goal 0) and acknowledged moves lost (goal 0)").

A data dir is played once: a game left unfinished with moves in it and a half-made move, a game
won and reviewed, a lesson started and left, a log-in. Then, many times over, one bit of one
thing in a copy of it is flipped (a row's value in each table of the store, a byte of the store
file itself, the turn file, the simulated board's file, logins.json, the store's marks) and the
table is started on it as ``pegs serve --simulate`` does; the state, the health and the list of
past games must answer. ``PEGS_FLIPS`` sets how many (the default fits in about a minute); the
figures are printed.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import sqlite3
from collections import Counter
from pathlib import Path

import pytest

from referee import events as ev
from referee.protocol_types import NewGame
from referee.table.store import StoreError
from tests.simulated import BASIC, HOME, PIN, WIN, running

DAMAGING_MOVES = ("events.", "pegs.sqlite3")
"""A flip in a move's own row, or in the store file (a page may hold moves), damages moves
themselves: the moves before it are kept (``salvage``), the ones it holds cannot be."""
FLIPS = int(os.environ.get("PEGS_FLIPS", "1000"))
TABLES = {"games": ("id", "created", "rules", "players", "mode", "winner"), "events": ("game_id", "seq", "event")}
TABLES |= {"turns": ("game_id", "state"), "lessons": ("id", "state"), "reviews": ("game_id", "version", "json")}


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    data = tmp_path_factory.mktemp("played")
    with running(data) as (table, client):
        table.new_game(NewGame(4, BASIC, pegs=HOME))  # game 2: won
        table.sim_events(WIN)
        table.new_game(NewGame(4, BASIC))  # game 3: the game in play
        for events in (["lift S0:1", "place T0:8", "done"], ["lift S1:1", "place T1:8", "done"]):
            table.sim_events(events)
        table.start_lesson(BASIC, 4)
        table.lesson_action("leave")  # back to game 3
        table.sim_events(["lift S2:1"])  # a move half made: the turn file
        assert client.post("/api/login", json={"pin": PIN}, headers={"Origin": "http://localhost"}).status_code == 200
        table.reviews.status(2)
        table.reviews.close(10)
    return data


def moves(data: Path, game_id: int) -> list[str]:
    with sqlite3.connect(data / "pegs.sqlite3") as db:
        rows = db.execute("SELECT event FROM events WHERE game_id = ? ORDER BY seq", (game_id,)).fetchall()
    return [json.loads(row[0])["text"] for row in rows if json.loads(row[0])["event"] == "move"]


def flip_bytes(data: bytes, rng: random.Random) -> bytes:
    if not data:
        return data
    at = rng.randrange(len(data))
    return data[:at] + bytes([data[at] ^ (1 << rng.randrange(8))]) + data[at + 1 :]


def flip_row(db: Path, rng: random.Random) -> str:
    """One bit of one value of one row of one table; what was flipped, in words."""
    table = rng.choice(sorted(TABLES))
    with sqlite3.connect(db) as connection:
        rows = connection.execute(f"SELECT rowid, * FROM {table}").fetchall()
        if not rows:
            return f"{table}: empty"
        row = rng.choice(rows)
        column = rng.randrange(len(TABLES[table]))
        value = row[column + 1]
        if isinstance(value, int):
            flipped: object = value ^ (1 << rng.randrange(16))
        elif isinstance(value, float):
            flipped = value * 2 ** rng.choice((-30, 30))
        elif value is None:
            flipped = "[0]"
        else:
            raw = flip_bytes(str(value).encode(), rng)
            try:
                flipped = raw.decode()
            except UnicodeDecodeError:
                flipped = raw  # not text any more: kept as the bytes a card would hold
        name = TABLES[table][column]
        try:
            connection.execute(f"UPDATE {table} SET {name} = ? WHERE rowid = ?", (flipped, row[0]))
        except sqlite3.IntegrityError:  # a key flipped onto another row's: SQLite itself refuses it
            return f"{table}.{name} (refused by SQLite)"
    return f"{table}.{name}"


def flip_file(path: Path, rng: random.Random) -> str:
    if path.exists():
        path.write_bytes(flip_bytes(path.read_bytes(), rng))
    return path.name


def flip_one(data: Path, rng: random.Random) -> str:
    files = sorted(path for path in data.iterdir() if path.is_file() and not path.name.endswith(("-wal", "-shm")))
    if rng.random() < 0.5:
        return flip_row(data / "pegs.sqlite3", rng)
    return flip_file(rng.choice(files), rng)


def test_one_flipped_bit_never_stops_the_table(played: Path, tmp_path: Path) -> None:
    rng = random.Random(34)
    acknowledged = {game: moves(played, game) for game in (2, 3)}
    failed: Counter[str] = Counter()
    lost: Counter[str] = Counter()
    own: Counter[str] = Counter()  # moves whose own rows (or the file's pages) were flipped
    flipped: Counter[str] = Counter()
    for n in range(FLIPS):
        data = tmp_path / str(n)
        shutil.copytree(played, data)
        what = flip_one(data, rng)
        flipped[what] += 1
        try:
            with running(data) as (table, client):
                answers = [client.get(path).status_code for path in ("/api/state", "/api/health", "/games")]
                if any(code >= 500 for code in answers):
                    failed[f"{what}: {answers}"] += 1
                for game, made in acknowledged.items():
                    kept = [e.text for e in _events(table, game) if isinstance(e, ev.Move)]
                    if kept[: len(made)] != made:
                        counted = own if what.startswith(DAMAGING_MOVES) else lost
                        counted[f"{what}: game {game}"] += len(made) - len(kept)
        except Exception as error:  # noqa: BLE001 (a start that fails: counted, with what was flipped)
            failed[f"{what}: {type(error).__name__}: {error}"] += 1
        shutil.rmtree(data, ignore_errors=True)  # a review worker may still be closing its files
    print(
        f"\n{FLIPS} flips over {dict(flipped)}: {sum(failed.values())} failed starts, {sum(lost.values())} moves lost"
    )
    print(f"moves lost with their own flipped rows or store pages: {sum(own.values())} {dict(own)}")
    assert not failed, failed.most_common(5)
    assert not lost, lost.most_common(5)


def _events(table: object, game: int) -> list[ev.Event]:
    try:
        return list(table.store.events(game))  # type: ignore[attr-defined]
    except StoreError:  # the game is gone from the store: every move of it lost
        return []
