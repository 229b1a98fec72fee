"""A damaged SD card never stops the table (issue 34, "1. A damaged SD card must never stop the
table"): one flipped bit in any file or table the daemon keeps is found where it is read, kept
aside and named (the page's ``store_recovered``, ``/api/health``), and the table starts with
everything else; the game in play resumes if its own events are whole, else the newest whole
game does; a damaged past game is listed as damaged and the others stay readable.

Each case is the one the issue found, played through the running table (``Table``, as
``pegs serve --simulate`` builds it) and the page's Flask app.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from flask.testing import FlaskClient

from referee.protocol_types import NewGame
from tests.fake_pi import answering, by_what, ready_pi4, systemd
from tests.simulated import BASIC, HOME, PIN, WIN, running


def looked_at(client: FlaskClient) -> dict[str, Any]:
    """The page's state and health, each answered without an error; what was set aside."""
    state, health = client.get("/api/state"), client.get("/api/health")
    assert state.status_code == 200, state.get_data(as_text=True)
    assert health.status_code == 200, health.get_data(as_text=True)
    said = state.get_json()["store_recovered"]
    assert said == health.get_json()["store"]["recovered"]
    return {"state": state.get_json(), "said": said or ""}


def event_rows(data: Path, game_id: int) -> list[dict[str, Any]]:
    with sqlite3.connect(data / "pegs.sqlite3") as db:
        rows = db.execute("SELECT event FROM events WHERE game_id = ? ORDER BY seq", (game_id,)).fetchall()
    return [json.loads(row[0]) for row in rows]


def set_row(data: Path, query: str, *args: object) -> None:
    with sqlite3.connect(data / "pegs.sqlite3") as db:
        db.execute(query, args)


def test_an_older_game_damaged_after_a_lesson_was_left(tmp_path: Path) -> None:
    with running(tmp_path) as (table, _client):
        table.sim_events(["lift S0:1", "place T0:8", "done"])
        table.sim_events(["lift S1:1", "place T1:8", "done"])
        table.start_lesson(BASIC, 4)
        table.lesson_action("leave")
        assert table.session.game_id == 1
    moves = [n for n, event in enumerate(event_rows(tmp_path, 1)) if event["event"] == "move"]
    bad = {**event_rows(tmp_path, 1)[moves[-1]], "text": "A T1:8-T3:3"}
    set_row(tmp_path, "UPDATE events SET event = ? WHERE game_id = 1 AND seq = ?", json.dumps(bad), moves[-1])
    with running(tmp_path) as (table, client):
        seen = looked_at(client)
        assert "game 1" in seen["said"]
        assert table.session.game_id == 1 and [h["move"] for h in seen["state"]["history"]] == ["A S0-T0:8"]


def test_a_seat_colour_damaged_in_the_start_event(tmp_path: Path) -> None:
    with running(tmp_path) as (table, _client):
        table.sim_events(["lift S0:1", "place T0:8", "done"])
    start = event_rows(tmp_path, 1)[0]
    text = json.dumps(start).replace("#56b4e9", "#56b4ey")
    assert "#56b4ey" in text
    set_row(tmp_path, "UPDATE events SET event = ? WHERE game_id = 1 AND seq = 0", text)
    with running(tmp_path) as (table, client):
        seen = looked_at(client)
        assert "game 1" in seen["said"] and table.session.game_id == 2  # a new game: game 1 is kept as it is
        assert client.get("/games").status_code == 200


def test_a_hole_number_damaged_in_the_turn_file(tmp_path: Path) -> None:
    with running(tmp_path) as (table, _client):
        table.sim_events(["lift S0:1", "place T0:8", "done"])
        table.sim_events(["lift S1:1"])
    turn = tmp_path / "turn-1.json"
    text = turn.read_text()
    assert "100" in text or "10" in text
    turn.write_text(text.replace("10", "90", 1) if "100" not in text else text.replace("100", "900", 1))
    with running(tmp_path) as (table, client):
        seen = looked_at(client)
        assert table.session.game_id == 1 and [h["move"] for h in seen["state"]["history"]] == ["A S0-T0:8"]


def test_the_left_lessons_row_damaged(tmp_path: Path) -> None:
    for key, value in (("turn", 1), ("players", 5), ("step", 99), ("learners", [7])):
        data = tmp_path / key
        with running(data) as (table, _client):
            table.start_lesson(BASIC, 4)
            table.lesson_action("leave")
        with sqlite3.connect(data / "pegs.sqlite3") as db:
            (state,) = db.execute("SELECT state FROM lessons").fetchone()
            db.execute("UPDATE lessons SET state = ?", (json.dumps({**json.loads(state), key: value}),))
        with running(data) as (_table, client):
            seen = looked_at(client)
            assert seen["state"]["lesson_left"] is None and "lesson" in seen["said"], key
            assert client.get("/").status_code == 200


def test_a_lessons_row_that_is_not_utf8_any_more(tmp_path: Path) -> None:
    """Found by the bit flips: a flip left bytes in a lesson's row that are not UTF-8, and
    SQLite's own decoding error stopped every start."""
    with running(tmp_path) as (table, _client):
        table.start_lesson(BASIC, 4)
        table.lesson_action("leave")
    with sqlite3.connect(tmp_path / "pegs.sqlite3") as db:
        db.execute("UPDATE lessons SET state = CAST(X'7bff22' AS TEXT)")
    with running(tmp_path) as (_table, client):
        seen = looked_at(client)
        assert seen["state"]["lesson_left"] is None and "lesson" in seen["said"]
        assert client.get("/").status_code == 200


def test_the_simulated_board_saved_for_another_size(tmp_path: Path) -> None:
    """The README's own ``make run``: a 6-player game won while a 4-player one is unfinished."""
    with running(tmp_path) as (table, _client):
        table.sim_events(["lift S0:1", "place T0:8", "done"])
        six = {"0": ["H0:5", "H0:4", "H0:3", "H0:2", "T0:2"]}
        six.update({str(s): [f"H{s}:{k}" for k in range(5, 0, -1)] for s in (2, 4)})
        table.new_game(NewGame(6, BASIC, pegs=six))
        table.sim_events(WIN)
        assert table.session.game.phase == "over"
    with running(tmp_path) as (table, client):
        looked_at(client)
        assert table.session.game_id == 1 and table.layout.sides == 4
        assert "T0:8" in table.sensors.snapshot()


def test_a_six_player_lesson_left_then_a_restart(tmp_path: Path) -> None:
    with running(tmp_path) as (table, _client):
        table.start_lesson(BASIC, 6)
        table.lesson_action("leave")
    with running(tmp_path) as (_table, client):
        looked_at(client)


def test_a_nan_in_the_logins_file(tmp_path: Path) -> None:
    with running(tmp_path) as (_table, client):
        assert client.post("/api/login", json={"pin": PIN}, headers={"Origin": "http://localhost"}).status_code == 200
    logins = tmp_path / "logins.json"
    kept = json.loads(logins.read_text())
    kept["sessions"] = {key: float("nan") for key in kept["sessions"]}
    kept["devices"] = {key: [float("nan"), float("nan")] for key in kept["devices"]}
    logins.write_text(json.dumps(kept))
    with running(tmp_path) as (_table, client):
        looked_at(client)
        answer = client.post("/api/login", json={"pin": PIN}, headers={"Origin": "http://localhost"})
        assert answer.status_code == 200


def test_one_bad_row_in_a_past_game_leaves_the_others_readable(tmp_path: Path) -> None:
    with running(tmp_path) as (table, _client):
        table.new_game(NewGame(4, BASIC, pegs=HOME))
        table.sim_events(WIN)
        table.new_game(NewGame(4, BASIC, pegs=HOME))
        table.sim_events(WIN)
        table.new_game(NewGame(4, BASIC))
    bad = {**event_rows(tmp_path, 2)[2], "seat": "x"}  # JSON still, so the store's check at start passes it
    set_row(tmp_path, "UPDATE events SET event = ? WHERE game_id = 2 AND seq = 2", json.dumps(bad))
    with running(tmp_path) as (_table, client):
        looked_at(client)
        listing = client.get("/games")
        html = listing.get_data(as_text=True)
        assert listing.status_code == 200 and "damaged" in html
        assert 'href="/games/3"' in html
        damaged = client.get("/games/2")
        assert damaged.status_code in (200, 409, 410) and "damaged" in damaged.get_data(as_text=True)
        assert client.get("/games/3").status_code == 200
        assert client.get("/api/games/2/record").status_code in (404, 503)  # one line, no traceback


def test_pegs_doctor_names_what_the_daemon_set_aside(tmp_path: Path) -> None:
    """`pegs doctor` reads its own daemon's /api/health: what was set aside is a thing to fix."""
    from referee.kit.doctor import examine
    from referee.kit.doctor_machine import Machine

    ready_pi4(tmp_path)
    this = str((tmp_path / "etc/pegs/pegs.toml").resolve())
    said = "game 2 was damaged and is set aside: event 2 (move): bad seat."
    for recovered, ok in ((None, True), (said, False)):
        health = {"config": this, "uptime_s": 3.0, "sensors": {"backend": "serial", "link": {"channels": 112}}}
        health.update(layout={"sides": 4}, store={"path": "/var/lib/pegs/pegs.sqlite3", "recovered": recovered})
        with answering(json.dumps(health).encode()) as port:
            machine = Machine(tmp_path, run=systemd(), web_port=port, device_channels=lambda _port: 112, here=True)
            found = by_what(examine(machine))["stored games"]
        assert found.ok is ok and (recovered is None or (said in found.words and "pegs.sqlite3" in found.fix))
