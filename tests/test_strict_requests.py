"""Issue "Hardening, second round: a refused request changes nothing", item 5, "Loose
validation": "``{"teaching": 1}`` and ``{"show": 1}`` are accepted as false; a bots key
``"01"`` or ``"١"`` (an Arabic-Indic digit) is taken as seat 1; a seat name of NUL, and
``"pegs": []``, are accepted. Refuse each with a 400 naming the field."

Every boolean, seat, name and pegs field of the API is attacked the same way: each answer is
a 400 whose error names the field, and the table's game is the one it was.
"""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from referee.game import Game, seat_number
from referee.position import PositionError
from referee.rulesets import Ruleset
from referee.table.seat_bots import bot_kinds
from referee.table.table import Table

FIVE = ["T0:8", "S", "S", "S", "S"]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"teaching": 1}, "'teaching'"),
        ({"teaching": 0}, "'teaching'"),
        ({"teaching": "true"}, "'teaching'"),
        ({"teaching": None}, "'teaching'"),
        ({"bots": {"01": "greedy"}}, "'bots'"),
        ({"bots": {"\u0661": "greedy"}}, "'bots'"),  # an Arabic-Indic 1
        ({"bots": {" 1": "greedy"}}, "'bots'"),
        ({"bots": {"+1": "greedy"}}, "'bots'"),
        ({"bots": {"1.0": "greedy"}}, "'bots'"),
        ({"bots": {"\uff19": "greedy"}}, "'bots'"),  # a fullwidth 9
        ({"bots": {"7": "greedy"}}, "'bots'"),
        ({"names": ["\x00", "B", "C", "D"]}, "'names'"),
        ({"names": ["A\nB", "B", "C", "D"]}, "'names'"),
        ({"names": ["A\u202eB", "B", "C", "D"]}, "'names'"),
        ({"names": ["\x07bell", "B", "C", "D"]}, "'names'"),
        ({"names": [" ", "B", "C", "D"]}, "'names'"),
        ({"pegs": []}, "'pegs'"),
        ({"pegs": [["T0:8"]]}, "'pegs'"),
        ({"pegs": "0:T0:8"}, "'pegs'"),
        ({"pegs": {"00": FIVE}}, "'pegs'"),
        ({"pegs": {"\u0660": FIVE}}, "'pegs'"),
        ({"pegs": {"0": "T0:8"}}, "'pegs'"),
        ({"pegs": {"0": [8, "S", "S", "S", "S"]}}, "'pegs'"),
    ],
)
def test_a_new_game_with_a_loose_field_is_refused_naming_it(
    admin: FlaskClient, service: Table, body: dict[str, Any], field: str
) -> None:
    before = admin.get("/api/state").get_json()
    reply = admin.post("/api/games", json={"players": 4, **body})
    assert reply.status_code == 400, reply.get_json()
    assert field in reply.get_json()["error"]
    assert admin.get("/api/state").get_json() == before and service.session.game_id == 1


@pytest.mark.parametrize("show", [1, 0, "yes", None, [True]])
def test_a_hint_with_a_loose_show_is_refused(admin: FlaskClient, show: object) -> None:
    reply = admin.post("/api/hint", json={"show": show})
    assert reply.status_code == 400 and "'show'" in reply.get_json()["error"]


@pytest.mark.parametrize("doubt", [1, 0, "true", None])
def test_a_loose_doubt_is_refused(admin: FlaskClient, doubt: object) -> None:
    reply = admin.post("/api/doubt", json={"doubt": doubt})
    assert reply.status_code == 400 and "'doubt'" in reply.get_json()["error"]


@pytest.mark.parametrize(
    ("path", "key", "value"),
    [
        ("/api/reveal", "card", None),
        ("/api/reveal", "card", 7),
        ("/api/declare", "card", None),
        ("/api/penalty", "hole", 4),
        ("/api/discard", "card", 7),
        ("/api/resolve", "move", 1),
        ("/api/lesson/place", "place", 1),
    ],
)
def test_a_wrongly_typed_field_is_refused_naming_it(admin: FlaskClient, path: str, key: str, value: object) -> None:
    before = admin.get("/api/state").get_json()
    reply = admin.post(path, json={key: value})
    assert reply.status_code == 400 and f"'{key}'" in reply.get_json()["error"], reply.get_json()
    assert admin.get("/api/state").get_json() == before


def test_good_values_still_pass(admin: FlaskClient) -> None:
    """The strict checks refuse only what is loose: real seats, names and pegs still do."""
    body = {
        "players": 4,
        "mode": "digital",
        "teaching": False,
        "bots": {"1": "greedy", "3": "random"},
        "names": ["Ann", "Björn 👨‍👩‍👧", "Chloé", "D"],
        "pegs": {"0": FIVE, "2": ["S"] * 5},
    }
    reply = admin.post("/api/games", json=body)
    assert reply.status_code == 200, reply.get_json()
    state = reply.get_json()
    assert state["bots"] == {"1": "greedy", "3": "random"} and state["seats"][1]["name"] == "Björn 👨‍👩‍👧"
    assert admin.post("/api/hint", json={"show": False}).status_code == 200


def test_seat_numbers_are_ascii_digits_without_a_leading_zero() -> None:
    assert [seat_number(key) for key in ("0", "1", "9", "10", 3)] == [0, 1, 9, 10, 3]
    for loose in ("01", "00", "\u0661", "\uff19", " 1", "1 ", "+1", "-1", "1.0", "", True, None, 1.0):
        assert seat_number(loose) is None, loose
    with pytest.raises(ValueError, match="'bots'"):
        bot_kinds({"bots": {"01": "greedy"}}, (0, 1, 2, 3))
    with pytest.raises(ValueError, match="'bots'"):
        bot_kinds({"bots": {True: "greedy"}}, (0, 1, 2, 3))
    assert bot_kinds({"bots": {"1": "greedy", 3: "random"}}, (0, 1, 2, 3)) == {1: "greedy", 3: "random"}


def test_the_engine_refuses_loose_pegs_too() -> None:
    rules = Ruleset.preset("basic")
    loose: list[Any] = [[], {"01": FIVE}, {"\u0661": FIVE}]
    for pegs in loose:
        with pytest.raises(PositionError, match="'pegs'"):
            Game(rules, 4, pegs=pegs)
    assert Game(rules, 4, pegs={"0": FIVE}).position.pegs_json()["0"][0] == "T0:8"


def test_house_rules_nested_in_escapes_are_refused_plainly(admin: FlaskClient) -> None:
    """A JSON body whose house rules hide 3,000 nested brackets behind \\u005b escapes: the
    body's own nesting check cannot see them, the house-rules reader must (a 400, not the TOML
    reader's RecursionError and a 500)."""
    raw = '{"players": 4, "house_rules": "a = ' + "\\u005b" * 3000 + '"}'
    reply = admin.post("/api/games", data=raw, content_type="application/json")
    assert reply.status_code == 400 and "nested more than" in reply.get_json()["error"]
