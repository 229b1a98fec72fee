"""The first lesson at the table (issue: "A first lesson taught by the board itself"): every
step set up on the board, a wrong try refused with its reason, the right move praised, the
answer lit after two tries, each seat in turn, a wooden board set up by hand, a restart, a
lesson left for a game and taken up again, and bad requests refused.

Moves are carried out by this file's own hands (``carry_out``: colours in holes, lifted and
placed as a person would), not by the referee's notion of a physical move. The steps teach the
rules page's "Movement of pegs - general rules" and "effects of individual cards", and its
Endgame; ``tests/test_lesson.py`` checks each step's moves against those texts.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from firmware_bridge.fake_device import FakeDevice
from hardware.layout import default_layout
from hardware.leds import MemoryStrip
from hardware.sensors import SerialSensors
from referee.coach.lesson import lesson
from referee.game import GameError
from referee.movegen import legal_moves
from referee.moves import Move
from referee.position import Position
from referee.rulesets import PRESETS, Ruleset
from referee.settings.config import Config
from referee.table.store import Store
from referee.table.table import Table
from referee.table.view import State
from tests.simulated import PIN


def lesson_of(state: State) -> dict[str, Any]:
    """The lesson on the page (``state["lesson"]``): there while a lesson is being taught."""
    lesson = state["lesson"]
    assert lesson is not None
    return lesson


# -- a person's hands -------------------------------------------------------------------------


def holes_of(position: Position) -> dict[str, int]:
    """Colour per track or home hole (``T1:4`` -> seat), as a person sees the board."""
    board = position.board
    return {
        board.hole_name(hole): colour
        for hole in range(board.board_holes)
        if (colour := position.colour_at(hole)) is not None
    }


def carry_out(move: Move, occupied: list[str]) -> list[str]:
    """The lifts and places a person makes for ``move``: every peg whose hole changes colour is
    lifted, then each goes where the move puts it (a bumped peg into any free start hole)."""
    before, after = holes_of(move.before), holes_of(move.result)
    lifts = [hole for hole, colour in before.items() if after.get(hole) != colour]
    places = [hole for hole, colour in after.items() if before.get(hole) != colour]
    taken = set(occupied) - set(lifts)
    for seat in move.before.board.seats:
        change = move.result.in_start(seat) - move.before.in_start(seat)
        filled = [f"S{seat}:{n}" for n in range(1, 6) if f"S{seat}:{n}" in taken]
        empty = [f"S{seat}:{n}" for n in range(1, 6) if f"S{seat}:{n}" not in taken]
        lifts += filled[: max(0, -change)]
        places += empty[: max(0, change)]
    return [f"lift {hole}" for hole in lifts] + [f"place {hole}" for hole in places]


def a_wrong_try(state: State) -> tuple[list[str], list[str]]:
    """A move no card makes: the learner's first peg on the track put into an opponent's home
    (or one out of start onto the hole after its come-out hole; all its pegs home: a partner's
    peg). The events, and the events
    that put it back."""
    learner = lesson_of(state)["learner"]
    pegs = Position.from_json(state["position"]).pegs_json()
    team = next(team for team in state["teams"] if learner in team)
    on_track = [
        hole
        for seat in sorted(team, key=lambda seat: seat != learner)
        for hole in pegs[str(seat)]
        if hole.startswith("T")
    ]
    if on_track:
        source, there = on_track[0], f"H{(learner + 1) % state['sides']}:1"
    else:
        source = next(hole for hole in state["occupied"] if hole.startswith(f"S{learner}:"))
        there = f"T{learner}:9"
    assert there not in state["occupied"], "the wrong try needs an empty hole"
    return [f"lift {source}", f"place {there}"], [f"lift {there}", f"place {source}"]


def step_moves(state: State) -> list[Move]:
    """The moves that pass the step on the page, worked out from the lesson's rules (the same
    steps ``pegs lesson`` prints)."""
    info = lesson_of(state)
    rules = Ruleset.preset(info["rules"])
    steps = lesson(rules, info["players"], None, learner=info["learner"])
    return list(steps[info["step"] - 1].passes)


def skip_to(service: Table, key: str) -> State:
    """Skip steps until the lesson shows the step ``key``."""
    state = service.state()
    while lesson_of(state)["key"] != key:
        state = service.lesson_action("skip")
    return state


def wait(service: Table, condition: Callable[[State], bool], seconds: float = 5.0) -> State:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        state = service.state()
        if condition(state):
            return state
        time.sleep(0.02)
    raise AssertionError(f"not reached in {seconds} s: {service.state()['lesson']}")


# -- the whole lesson ---------------------------------------------------------------------------


def teach_every_step(service: Table, state: State) -> list[str]:
    """Do every step as a learner would: one wrong try, put it back, the right move, Next."""
    done = []
    while lesson_of(state)["key"] != "practice":
        info = lesson_of(state)
        assert info["phase"] in ("look", "play"), info
        if info["phase"] == "look":
            state = service.lesson_action("place", "come-out")
            assert state["move_marks"] == {f"T{info['learner']}:8": "hint"}
        else:
            assert state["declared"] == info["card"]
            wrong, back = a_wrong_try(state)
            state = service.sim_events([*wrong, "done"])
            assert lesson_of(state)["feedback"]["kind"] == "wrong" and lesson_of(state)["tries"] == 1
            assert lesson_of(state)["feedback"]["words"].startswith("Not quite: ")
            assert state["moves"] == []  # refused, never accepted
            state = service.sim_events(back)
            assert state["status"] == "synced" and state["declared"] == info["card"]
            answer = step_moves(state)[0]
            state = service.sim_events([*carry_out(answer, state["occupied"]), "done"])
            if state["status"] == "ambiguous":  # a swap leaves every hole filled: the page asks which
                assert [candidate["text"] for candidate in state["candidates"]] == [answer.text]
                state = service.resolve(answer.text)
            assert lesson_of(state)["phase"] == "passed", state["lesson"]
            assert lesson_of(state)["feedback"]["words"].startswith("Well done! ")
        done.append(info["key"])
        state = service.lesson_action("next")
    return done


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_preset_s_lesson_can_be_done_with_a_wrong_try_in_each_step(service: Table, preset: str) -> None:
    state = service.start_lesson(Ruleset.preset(preset), 4)
    done = teach_every_step(service, state)
    expected = [step.key for step in lesson(Ruleset.preset(preset), 4)][:-1]
    assert done == expected
    state = service.state()
    assert lesson_of(state)["phase"] == "practice" and state["teaching"] and state["turn"] == 0
    assert state["bots"] == {"1": "family", "2": "family", "3": "family"}
    assert [game["id"] for game in service.games()] == [1, state["game"]]  # the steps are not games played


def test_a_legal_move_that_misses_the_idea_is_taken_back(service: Table) -> None:
    """The rules page, Endgame: the first peg home goes all the way in. A 7 along the track
    is legal, but not this step: it is taken back, and the board must be put back."""
    state = service.start_lesson(Ruleset.preset("basic"), 4)
    while lesson_of(state)["key"] != "home":
        state = service.lesson_action("skip")
    state = service.sim_events(["lift T0:1", "place T0:8", "done"])
    feedback = lesson_of(state)["feedback"]
    assert feedback["kind"] == "wrong" and "legal move, but not the one this step is about" in feedback["words"]
    assert "Red moves 7 to Red's come-out hole" in feedback["words"]
    assert state["moves"] == [] and state["status"] == "illegal"
    assert state["back"] == [
        "take Red's peg off Red's come-out hole",
        "put Red's peg back on the 1st hole past Red's corner",
    ]
    state = service.sim_events(["lift T0:8", "place T0:1"])
    assert state["status"] == "synced" and state["declared"] == "7"
    state = service.sim_events(["lift T0:1", "place H0:5", "done"])
    assert lesson_of(state)["feedback"] == {"kind": "praise", "words": "Well done! Red moves 7 into home."}
    state = service.sim_events(["lift H0:5", "place T0:12"])  # knocked about after the step: nothing counts
    assert state["moves"] == ["7 T0:1-H0:5"] and state["status"] == "illegal"


def test_after_two_tries_the_lights_show_the_answer(service: Table) -> None:
    """ "After two tries the lights show the answer": the peg to lift flashes, where it goes is blue."""
    service.start_lesson(Ruleset.preset("basic"), 4)
    state = skip_to(service, "come-out")
    for _ in range(2):
        assert not lesson_of(state)["shown"] and "lift" not in state["move_marks"].values()
        state = service.sim_events(["lift S0:1", "place T0:9", "done"])
        state = service.sim_events(["lift T0:9", "place S0:1"])
    assert lesson_of(state)["shown"] and "The lights now show the answer" in lesson_of(state)["feedback"]["words"]
    marks = state["move_marks"]
    assert marks["T0:8"] == "hint" and list(marks.values()).count("lift") == 1
    assert next(hole for hole, role in marks.items() if role == "lift").startswith("S0:")


def test_the_whole_table_takes_each_step_in_turn(service: Table) -> None:
    """One learner or a whole table: each seat comes out in turn, on its own side."""
    state = service.start_lesson(Ruleset.preset("north-carolina"), 4, learners=[0, 1, 2, 3])
    assert lesson_of(state)["more_learners"] and lesson_of(state)["phase"] == "look"
    for seat in range(4):
        assert lesson_of(state)["learner"] == seat and lesson_of(state)["key"] == "board"
        state = service.lesson_action("next")
    state = skip_to(service, "come-out")
    for seat, name in enumerate(("Red", "Sky blue", "Yellow", "Blue")):
        assert lesson_of(state)["key"] == "come-out" and state["turn"] == seat
        state = service.sim_events([f"lift S{seat}:1", f"place T{seat}:8", "done"])
        assert lesson_of(state)["feedback"]["words"] == f"Well done! {name} comes out with an ace."
        state = service.lesson_action("next")
    assert lesson_of(state)["key"] == "counting" and lesson_of(state)["learner"] == 0  # North Carolina Rules, rule 9


def test_a_restarted_daemon_and_a_lesson_left_for_a_game_go_on_where_they_stopped(tmp_path: Path) -> None:
    """ "The lesson left and resumed where it stopped (it is stored like a game)"."""
    first = Table.build(Config.simulated(str(tmp_path)))
    first.start()
    first.sim_events(["lift S0:1", "place T0:8", "done"])  # the family's game, before the lesson
    first.start_lesson(Ruleset.preset("basic"), 4)
    skip_to(first, "forward")  # Red's pegs on its 9th and 13th holes
    state = first.sim_events(["lift T0:9", "place T0:14", "done"])  # passing its own peg
    assert "You can't pass your own peg" in lesson_of(state)["feedback"]["words"]
    first.stop()  # the power goes, the pegs stay where they were

    second = Table.build(Config.simulated(str(tmp_path)))
    second.start()
    try:
        state = second.state()
        assert lesson_of(state)["key"] == "forward" and lesson_of(state)["tries"] == 1
        assert state["status"] == "illegal"  # the wrong try is still to be put back
        state = second.sim_events(["lift T0:14", "place T0:9"])
        assert state["declared"] == "5" and state["status"] == "synced"
        state = second.lesson_action("leave")
        basic = [step.key for step in lesson(Ruleset.preset("basic"), 4)]
        assert state["lesson"] is None and state["game"] == 1 and state["moves"] == ["A S0-T0:8"]
        assert state["lesson_left"] == {
            "id": 1,
            "rules": "basic",
            "players": 4,
            "step": basic.index("forward") + 1,
            "steps": len(basic),
            "title": "Moving forward",
        }
        state = second.lesson_action("resume")
        assert lesson_of(state)["key"] == "forward" and lesson_of(state)["phase"] == "play"
        assert state["lesson_left"] is None
    finally:
        second.stop()


def test_on_a_wooden_board_the_step_waits_until_the_pegs_are_set_up(tmp_path: Path) -> None:
    """The LEDs show where to put pegs and the referee waits until the board shows the position;
    pegs moved while setting up are never taken as a move (a real serial link, a fake Pico)."""
    layout = default_layout(4)
    levels = [True] * len(layout.channels)  # hall sensors: an empty hole reads high
    for hole in [f"S{side}:{n}" for side in range(4) for n in range(1, 6)]:
        levels[layout.channel(hole)] = False
    with FakeDevice(len(levels), heartbeat=0.1, levels=levels) as device:
        sensors = SerialSensors.open(layout, port=device.path)
        running = Table(
            Config.simulated(str(tmp_path), sensors="serial"),
            Store.open(tmp_path),
            layout,
            sensors,
            MemoryStrip(layout.pixels),
        )
        assert sensors.wait_connected(5)
        running.start()

        def peg(hole: str, there: bool) -> None:
            device.set(layout.channel(hole), not there)

        try:
            state = running.start_lesson(Ruleset.preset("basic"), 4)
            assert lesson_of(state)["phase"] == "look"  # all pegs in start: set up already
            state = skip_to(running, "forward")  # Red's pegs on its 9th and 13th holes
            assert lesson_of(state)["phase"] == "setup" and state["status"] == "setup"
            assert lesson_of(state)["setup"] == [
                "take 2 pegs out of Red's start",
                "put Red's peg on the 9th hole past Red's corner",
                "put Red's peg on the 13th hole past Red's corner",
            ]
            assert state["guidance"] == {"S0:4": "wrong", "S0:5": "wrong", "T0:9": "put-back", "T0:13": "put-back"}
            peg("S0:1", False)
            peg("T0:8", True)  # looks like coming out: not a move while setting up
            time.sleep(1.2)
            state = wait(running, lambda s: "T0:8" in s["occupied"])
            assert state["moves"] == [] and lesson_of(state)["phase"] == "setup"
            peg("T0:8", False)
            peg("T0:9", True)
            peg("S0:2", False)
            peg("T0:13", True)
            state = wait(running, lambda s: lesson_of(s)["phase"] == "play")
            assert state["declared"] == "5" and state["status"] == "synced"
            peg("T0:13", False)
            peg("T1:0", True)
            state = wait(running, lambda s: lesson_of(s)["phase"] == "passed", 8)
            assert state["moves"] == ["5 T0:13-T1:0"]
        finally:
            running.stop()


# -- the page's requests -------------------------------------------------------------------------


def test_lesson_requests_are_checked_and_refusals_change_nothing(client: FlaskClient) -> None:
    headers = {"X-CSRF-Token": client.get("/api/me").get_json()["csrf"]}
    assert client.post("/api/lesson", json={}, headers=headers).status_code == 403  # the table PIN, like a new game
    assert client.post("/api/login", json={"pin": PIN}).status_code == 200
    headers = {"X-CSRF-Token": client.get("/api/me").get_json()["csrf"]}

    def post(path: str, body: object) -> tuple[int, Any]:
        response = client.post(path, json=body, headers=headers)
        return response.status_code, response.get_json()

    assert post("/api/lesson/next", {})[0] == 409  # no lesson yet
    for body in ({"players": 2}, {"players": "4"}, {"learners": "some"}, {"rules": "poker"}, {"seats": 1}):
        status, answer = post("/api/lesson", body)
        assert status == 400 and answer["error"], body
    status, state = post("/api/lesson", {"rules": "north-carolina", "players": 6, "learners": "everyone"})
    assert status == 200 and state["lesson"]["players"] == 6 and len(state["lesson"]["learners"]) == 6
    before = client.get("/api/state").get_json()
    for path, body in (
        ("/api/lesson/fly", {}),
        ("/api/lesson/place", {"place": "moon"}),
        ("/api/lesson/place", {}),
        ("/api/lesson/next", {"x": 1}),
        ("/api/lesson/show", {}),
    ):
        status, answer = post(path, body)
        assert status == 400 and answer["error"], (path, body)
    after = client.get("/api/state").get_json()
    assert after["lesson"] == before["lesson"] and after["game"] == before["game"]


CODE = re.compile(r"\b[THSC]\d+(:\d+)?\b")


def words_on_the_page(state: State) -> str:
    info = lesson_of(state)
    said = [info["title"], info["teach"], info["task"], *info["setup"], *(place["words"] for place in info["places"])]
    return " ".join(said + [info["feedback"]["words"] if info["feedback"] else ""])


@pytest.mark.parametrize(("preset", "players"), [("north-carolina", 6), ("basic", 8), ("wizard-woodworks", 10)])
def test_bigger_boards_in_words_without_hole_codes(service: Table, preset: str, players: int) -> None:
    """ "4, 6, 8 or 10 sides ... Words a ten-year-old can follow; colour names, never hole codes"."""
    state = service.start_lesson(Ruleset.preset(preset), players)
    seen = []
    while lesson_of(state)["key"] != "practice":
        seen.append(words_on_the_page(state))
        if lesson_of(state)["phase"] == "play":
            wrong, back = a_wrong_try(state)
            seen.append(words_on_the_page(service.sim_events([*wrong, "done"])))
            service.sim_events(back)
            state = service.lesson_action("show")
            assert lesson_of(state)["shown"] and "lift" in state["move_marks"].values()
        state = service.lesson_action("skip")
    assert state["sides"] == players and len(state["bots"]) == players - 1
    assert not [text for text in seen if CODE.search(text)]


def test_undo_discard_and_another_card_in_a_step(service: Table) -> None:
    """A step's card always moves: "Can't move" and another card are refused and change
    nothing; Undo after the step is done takes the step back to be done again."""
    service.start_lesson(Ruleset.preset("basic"), 4)
    state = skip_to(service, "come-out")  # with the ace
    with pytest.raises(GameError):
        service.cant_move()
    with pytest.raises(GameError):
        service.declare(0, "5")
    assert service.state()["declared"] == "A" and service.state()["moves"] == []
    state = service.sim_events(["lift S0:1", "place T0:8", "done"])
    assert lesson_of(state)["phase"] == "passed"
    state = service.undo()
    assert state["moves"] == [] and lesson_of(state)["phase"] == "play" and lesson_of(state)["feedback"] is None
    state = service.sim_events(["lift T0:8", "place S0:1"])
    assert state["status"] == "synced" and state["declared"] == "A"
    state = service.sim_events(["lift S0:2", "place T0:8", "done"])
    assert lesson_of(state)["phase"] == "passed"


def test_a_house_rules_file_gives_its_own_lesson(client: FlaskClient) -> None:
    """A house-rules file changes only the steps its cards change: here the 9 splits too."""
    assert client.post("/api/login", json={"pin": PIN}).status_code == 200
    headers = {"X-CSRF-Token": client.get("/api/me").get_json()["csrf"]}
    house = 'name = "our-house"\nbase = "basic"\n[cards.9]\nforward = [9]\nsplit = { total = 9, directions = "forward-backward" }\n'
    response = client.post("/api/lesson", json={"house_rules": house}, headers=headers)
    assert response.status_code == 200, response.get_json()
    keys = []
    state = response.get_json()
    while state["lesson"]["key"] != "practice":
        keys.append(state["lesson"]["key"])
        state = client.post("/api/lesson/skip", json={}, headers=headers).get_json()
    basic = [step.key for step in lesson(Ruleset.preset("basic"), 4)][:-1]
    assert keys == [*basic[: basic.index("split-7") + 1], "split-9", *basic[basic.index("split-7") + 1 :]]


def test_leaving_during_practice_goes_back_to_the_family_s_game(service: Table) -> None:
    """Leave means back to the game before the lesson, even from the practice game (which
    stays listed with the games played)."""
    service.sim_events(["lift S0:1", "place T0:8", "done"])
    state = service.start_lesson(Ruleset.preset("basic"), 4)
    assert service.press_done()["notice"] == "Nothing to move in this step: look at the board, then press Next."
    while lesson_of(state)["key"] != "practice":
        state = service.lesson_action("skip")
    practice = state["game"]
    state = service.lesson_action("leave")
    assert state["game"] == 1 and state["moves"] == ["A S0-T0:8"] and state["lesson"] is None
    assert [game["id"] for game in service.games()] == [1, practice]


def test_the_practice_game_played_to_the_end_finishes_the_lesson(service: Table) -> None:
    """The practice game is short: played out (each seat's move made by hand, the furthest
    into home first), it is won, and the lesson says so; undoing the win plays on."""
    state = service.start_lesson(Ruleset.preset("basic"), 4)
    while lesson_of(state)["key"] != "practice":
        state = service.lesson_action("skip")
    rules = Ruleset.preset("basic")
    for _turn in range(400):
        if state["winner"]:
            break
        position = Position.from_json(state["position"])
        moves = [
            move
            for card in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "Q")
            for move in legal_moves(position, card, rules)
        ]
        if not moves:
            state = service.cant_move()
            continue
        best = max(moves, key=lambda move: sum(move.result.in_home(seat) for seat in position.board.seats))
        state = service.sim_events([*carry_out(best, state["occupied"]), "done"])
    assert state["winner"] is not None
    assert lesson_of(state)["phase"] == "finished" and "won the practice game" in lesson_of(state)["feedback"]["words"]
    state = service.undo()
    assert state["winner"] is None and lesson_of(state)["phase"] == "practice" and lesson_of(state)["feedback"] is None


def test_a_lesson_survives_kill_9_of_the_real_daemon(tmp_path: Path) -> None:
    """ "The lesson left and resumed where it stopped (it is stored like a game)": the power
    goes in the middle of a step, after a wrong try; the daemon comes back on the same step,
    its try counted, the step's card declared, the wrong try still to be put back."""
    import http.cookiejar
    import json
    import urllib.request

    from tests.real_daemon import Daemon

    daemon = Daemon(tmp_path, extra=["--pin", PIN])
    daemon.start()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

    def post(path: str, body: object, headers: dict[str, str] | None = None) -> Any:
        request = urllib.request.Request(
            f"http://127.0.0.1:{daemon.port}{path}",
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json", **(headers or {})},
        )
        with opener.open(request, timeout=10) as response:
            return json.load(response)

    try:
        post("/api/login", {"pin": PIN})
        headers = {"X-CSRF-Token": json.load(opener.open(f"http://127.0.0.1:{daemon.port}/api/me", timeout=10))["csrf"]}
        post("/api/lesson", {"rules": "north-carolina"}, headers)
        state = post("/api/lesson/skip", {}, headers)
        while state["lesson"]["key"] != "forward":  # moving forward, with a 5
            state = post("/api/lesson/skip", {}, headers)
        assert state["lesson"]["key"] == "forward" and state["declared"] == "5"
        state = post("/api/sim/events", {"events": ["lift T0:9", "place T0:14", "done"]}, headers)
        assert state["lesson"]["tries"] == 1
        daemon.kill()
        daemon.start()
        state = daemon.get("/api/state")
        assert state["lesson"]["key"] == "forward" and state["lesson"]["tries"] == 1
        assert state["lesson"]["phase"] == "play" and state["status"] == "illegal"
        state = daemon.post("/api/sim/events", {"events": ["lift T0:14", "place T0:9"]})
        assert state["status"] == "synced" and state["declared"] == "5"
    finally:
        daemon.stop()
