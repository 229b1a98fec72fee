"""Damage a killed daemon's store in the ways the hardening issue found unreported (issue:
"Hardening, second round", item 4): the write-ahead log removed, truncated or overwritten
with garbage after a kill -9, and an event row deleted. Each is found at the next start,
the damaged files are kept aside, and the page and /api/health say so, as for a damaged
database. A real daemon (``pegs serve --simulate``), a real SQLite file, real sockets.
"""

from __future__ import annotations

import os
import random
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from referee.physical import PhysicalBoard, by_hand
from referee.position import Position
from referee.rulesets import Ruleset
from referee.table.store import DB_NAME, Store
from tests.real_daemon import Daemon

MOVES = ["A S0-T0:8", "K S1-T1:8", "A S2-T2:8", "Q S3-T3:8"]


def play_and_kill(tmp_path: Path) -> Daemon:
    """Four acknowledged moves, then the daemon is killed: they are in the write-ahead log."""
    daemon = Daemon(tmp_path)
    daemon.start()
    rng = random.Random(1)
    rules = Ruleset.preset("basic")
    for text in MOVES:
        position = Position.from_json(daemon.get("/api/state")["position"])
        from referee.movegen import parse_move

        move = parse_move(position, text, rules)
        physical = PhysicalBoard(position.board)
        filled = [physical.index(hole) for hole in daemon.get("/api/state")["occupied"]]
        events = [f"{e.kind} {physical.name(e.holes[0])}" for e in by_hand(position, move, rng, occupied=filled)]
        daemon.post("/api/sim/events", {"events": [*events, "done"]})
    assert len(daemon.get("/api/state")["moves"]) == len(MOVES)
    daemon.kill()
    assert (tmp_path / f"{DB_NAME}-wal").stat().st_size > 0, "the moves should still be in the log"
    return daemon


def remove(wal: Path) -> None:
    wal.unlink()


def truncate(wal: Path) -> None:
    with open(wal, "r+b") as handle:
        handle.truncate(wal.stat().st_size // 2)


def garble(wal: Path) -> None:
    size = wal.stat().st_size
    with open(wal, "r+b") as handle:
        handle.seek(32)  # past the header: the frames' checksums no longer hold
        handle.write(os.urandom(size - 32))


@pytest.mark.parametrize("damage", [remove, truncate, garble], ids=["removed", "truncated", "garbage"])
def test_a_damaged_write_ahead_log_is_found_kept_and_said(tmp_path: Path, damage: Callable[[Path], None]) -> None:
    daemon = play_and_kill(tmp_path)
    damage(tmp_path / f"{DB_NAME}-wal")
    daemon.start()
    try:
        health = daemon.get("/api/health")["store"]
        said = health["recovered"]
        assert said and "write-ahead log was missing or damaged" in said and "game 1" in said, health
        assert "lost: the games table" not in said  # a store whose tables were all in the log: nothing to list
        state = daemon.get("/api/state")
        assert state["store_recovered"] == said  # the page says it too
        kept = [path.name for path in tmp_path.iterdir() if path.name.startswith(f"{DB_NAME}.damaged-")]
        assert kept and min(kept, key=len) in said, (kept, said)  # the damaged files are kept, and the words say where
        assert len(state["moves"]) < len(MOVES)  # what the log held is gone: said, never silent
    finally:
        daemon.stop()
    daemon.start()  # the next start finds the recovered store sound
    try:
        assert daemon.get("/api/health")["store"]["recovered"] is None
    finally:
        daemon.stop()


def test_a_deleted_event_row_is_found_and_the_game_resumes_before_it(tmp_path: Path) -> None:
    daemon = play_and_kill(tmp_path)
    with sqlite3.connect(tmp_path / DB_NAME) as db:  # someone edits the store by hand
        db.execute(
            "DELETE FROM events WHERE game_id = 1 AND seq = (SELECT MIN(seq) FROM events WHERE game_id = 1 "
            'AND event LIKE \'%"event":"move"%\')'
        )
    daemon.start()
    try:
        said = daemon.get("/api/health")["store"]["recovered"]
        assert said and "game 1 with events missing" in said
        state = daemon.get("/api/state")
        assert state["moves"] == [] and state["status"] in ("synced", "illegal")  # resumed before the gap
        assert not any(word in (state["notice"] or "") for word in ("undo", "Undo"))
        assert any(".damaged-" in path.name for path in tmp_path.iterdir())
    finally:
        daemon.stop()


def test_an_acknowledged_event_changed_by_hand_is_found(tmp_path: Path) -> None:
    play_and_kill(tmp_path)
    with sqlite3.connect(tmp_path / DB_NAME) as db:
        last = db.execute("SELECT MAX(seq) FROM events WHERE game_id = 1").fetchone()[0]
        db.execute("UPDATE events SET event = json_set(event, '$.by_hand', 1) WHERE game_id = 1 AND seq = ?", (last,))
    store = Store.open(tmp_path)
    try:
        assert store.recovered is not None and "changed since it was acknowledged" in store.recovered
    finally:
        store.close()


def test_marks_that_cannot_be_read_do_not_stop_the_table(tmp_path: Path) -> None:
    """A power cut may leave the marks half written: the store opens, unchecked, and says nothing."""
    daemon = play_and_kill(tmp_path)
    (tmp_path / f"{DB_NAME}.marks").write_text("{not json", encoding="utf-8")
    daemon.start()
    try:
        assert daemon.get("/api/health")["store"]["recovered"] is None
        assert [move.split()[1] for move in daemon.get("/api/state")["moves"]] == [move.split()[1] for move in MOVES]
    finally:
        daemon.stop()
