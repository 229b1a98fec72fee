"""A damaged game store is kept, reported and recovered, never silently replaced (issue
"Hardening": "A 0-byte `pegs.sqlite3` starts a new game without a word; a row that is not
JSON or holds an illegal move stops the daemon with a traceback ...; a read-only database
file in a writable data dir starts fine and then refuses every move ... Whatever the
damage, the daemon keeps what it found (move it aside, never delete or overwrite it), says
exactly what happened at start-up, in `/api/health` and on the page, and starts in a state
the family can play from; recover every game and move that can be read.")

Each test plays a few moves through the real daemon (``pegs serve`` in its own process),
stops it, damages the file as an SD card would, and starts it again.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from referee.table.salvage import examine
from referee.table.store import Store
from tests.real_daemon import Daemon

MOVES = [["lift S0:1", "place T0:8", "done"], ["lift S1:1", "place T1:8", "done"], ["lift S2:1", "place T2:8", "done"]]


def played(tmp_path: Path) -> Path:
    """A data dir whose game has three moves: Red, Blue and Green come out."""
    daemon = Daemon(tmp_path)
    daemon.start()
    try:
        for events in MOVES:
            daemon.post("/api/sim/events", {"events": events})
        assert len(daemon.get("/api/state")["history"]) == 3
    finally:
        daemon.stop()
    return tmp_path / "pegs.sqlite3"


def rows(path: Path, query: str, *args: object) -> list[tuple[Any, ...]]:  # as sqlite3 gives them
    with sqlite3.connect(path) as db:
        return db.execute(query, args).fetchall()


def set_event(path: Path, seq_from_end: int, text: str) -> None:
    with sqlite3.connect(path) as db:
        (last,) = db.execute("SELECT max(seq) FROM events WHERE game_id = 1").fetchone()
        db.execute("UPDATE events SET event = ? WHERE game_id = 1 AND seq = ?", (text, last - seq_from_end))


def restart(data: Path) -> tuple[Daemon, dict[str, Any]]:
    daemon = Daemon(data)
    daemon.start()
    return daemon, daemon.get("/api/state")


def moves_after(data: Path, damage: Callable[[Path], object]) -> tuple[list[str], dict[str, Any], str, list[Path]]:
    db = played(data)
    damage(db)
    daemon, state = restart(data)
    try:
        health = daemon.get("/api/health")["store"]
        page = daemon.get("/api/state")
        assert page["store_recovered"] == health["recovered"]
        daemon.post("/api/sim/events", {"events": ["lift S3:2"]})  # the family plays on
        assert daemon.get("/api/state")["status"] in ("move", "moving", "illegal", "ambiguous", "synced")
    finally:
        daemon.stop()
    kept = sorted(data.glob("pegs.sqlite3.damaged-*"))
    return list(state["history"]), health, str(health["recovered"]), kept


def test_an_empty_store_is_kept_and_said(tmp_path: Path) -> None:
    history, health, said, kept = moves_after(tmp_path, lambda db: db.write_bytes(b""))
    assert "was empty (0 bytes)" in said and "0 games" in said
    assert [path.stat().st_size for path in kept if path.name.endswith(tuple("0123456789"))] == [0]
    assert history == [] and health["ok"] is True


def test_an_event_that_is_not_json_keeps_the_moves_before_it(tmp_path: Path) -> None:
    def damage(db: Path) -> None:
        set_event(db, 0, '{"event": "dra')  # the last event, cut short

    history, _health, said, kept = moves_after(tmp_path, damage)
    assert "not JSON" in said and "1 games" in said and "lost: game 1 from event" in said
    assert len(history) >= 2 and kept  # the first moves are back; the file is kept as it was
    assert rows(kept[0], "SELECT count(*) FROM events")[0][0] > 0


def test_an_illegal_move_keeps_the_moves_before_it(tmp_path: Path) -> None:
    def damage(db: Path) -> None:
        texts = [json.loads(str(r[0])) for r in rows(db, "SELECT event FROM events WHERE game_id = 1 ORDER BY seq")]
        last_move = max(i for i, event in enumerate(texts) if event["event"] == "move")
        with sqlite3.connect(db) as connection:
            connection.execute(
                "UPDATE events SET event = ? WHERE game_id = 1 AND seq = ?",
                (json.dumps({**texts[last_move], "text": "A T0:8-T3:3"}), last_move),
            )

    history, _health, said, _kept = moves_after(tmp_path, damage)
    assert "had game 1 stop at event" in said
    assert [entry["move"] for entry in history] == ["A S0-T0:8", "A S1-T1:8"]  # type: ignore[index]


def test_a_damaged_file_is_not_a_database(tmp_path: Path) -> None:
    def damage(db: Path) -> None:
        data = bytearray(db.read_bytes())
        data[:16] = b"this is not it!!"
        db.write_bytes(bytes(data))

    history, _health, said, kept = moves_after(tmp_path, damage)
    assert "could not be read as a SQLite database" in said and kept and history == []


def test_a_read_only_store_is_copied_into_a_writable_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """(As root every file is writable, so the check is told the file is read-only.)"""
    db = played(tmp_path)
    monkeypatch.setattr("referee.table.salvage.os.access", lambda path, mode: False)
    assert examine(db) == "was read-only"
    store = Store.open(tmp_path)
    try:
        assert store.recovered is not None and "was read-only" in store.recovered and "1 games" in store.recovered
        assert len([e for e in store.events(1) if e.kind == "move"]) == 3  # every move recovered
        store.append(1, [], 0, {"seq": 1})  # and the new store takes writes
    finally:
        store.close()


def test_a_sound_store_is_left_alone(tmp_path: Path) -> None:
    db = played(tmp_path)
    assert examine(db) is None
    store = Store.open(tmp_path)
    try:
        assert store.recovered is None and not list(tmp_path.glob("*.damaged-*"))
    finally:
        store.close()


def test_a_store_left_by_a_killed_daemon_is_sound(tmp_path: Path) -> None:
    """kill -9 leaves the write-ahead log beside the database: that is not damage."""
    daemon = Daemon(tmp_path)
    daemon.start()
    daemon.post("/api/sim/events", {"events": MOVES[0]})
    daemon.kill()
    assert (tmp_path / "pegs.sqlite3-wal").exists()
    assert examine(tmp_path / "pegs.sqlite3") is None
    daemon, state = restart(tmp_path)
    try:
        assert state["store_recovered"] is None and len(state["history"]) == 1
    finally:
        daemon.stop()


def test_a_power_cut_during_recovery_loses_nothing(tmp_path: Path) -> None:
    """The recovered store is written whole beside the damaged one before they change
    places: if the power goes between the damaged file moving aside and the new one moving
    in, the next start puts the new one in place."""
    db = played(tmp_path)
    recovering = tmp_path / "pegs.sqlite3.recovering"
    db.rename(recovering)  # as after the damaged file moved aside, before the swap finished
    store = Store.open(tmp_path)
    try:
        assert store.recovered is not None and "now in use" in store.recovered
        assert len([e for e in store.events(1) if e.kind == "move"]) == 3 and not recovering.exists()
    finally:
        store.close()
