"""Every route of the API through Flask's test client: good requests, bad input (400),
no right to do it (403), CSRF safety."""

from __future__ import annotations

import json
import re
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast
from urllib.parse import urlsplit

import pytest
from flask import Flask
from flask.testing import FlaskClient

from referee.coach.selfplay import play_one
from referee.rulesets import Ruleset
from referee.settings.config import Config
from referee.table.table import Table
from tests.simulated import PIN, csrf, log_in
from web import create_app
from web.seats import seat_token


def post(client: FlaskClient, path: str, body: Any, headers: dict[str, str] | None = None) -> Any:
    return client.post(path, json=body, headers=headers or {})


# -- the HTTP contract (docs/design.md, "HTTP") ----------------------------------------------


def test_state_has_the_contract_fields(client: FlaskClient) -> None:
    state = client.get("/api/state").get_json()
    assert {"position", "status", "moves", "bumps"} <= set(state)
    assert state["position"]["players"] == 4 and state["position"]["turn"] == 0
    assert state["status"] == "synced" and state["moves"] == [] and state["bumps"] == []
    assert [seat["name"] for seat in state["seats"]] == [
        "Red",
        "Sky blue",
        "Yellow",
        "Blue",
    ]  # hardware/signals.py SEATS


def test_state_keys_are_the_ones_its_typeddict_describes(client: FlaskClient) -> None:
    """referee/table/view.py's ``State`` names every key the page reads, and no other is sent."""
    from typing import NotRequired, get_origin, get_type_hints

    from referee.table.view import State

    state = client.get("/api/state").get_json()
    described = get_type_hints(State, include_extras=True)
    assert set(state) <= set(described), set(state) - set(described)
    required = {key for key, kind in described.items() if get_origin(kind) is not NotRequired}
    assert required <= set(state), required - set(state)


def test_holes_in_words_are_referee_words_for_the_board_in_play(client: FlaskClient) -> None:
    """The page says a hole only as referee/words.py does, with this game's seat names (other
    sides by their colour); one answer per board, with every hole the page draws."""
    from referee.geometry import geometry
    from referee.words import hole_words

    words = client.get("/api/holes").get_json()
    assert set(words) == set(geometry(4).holes)
    assert words["T1:8"] == "Sky blue's come-out hole" and words["H0:2"] == "Red's home, 2nd hole"
    assert words["T3:12"] == "the 12th hole past Blue's corner" and words["S2:4"] == "Yellow's start"
    names = {0: "Red", 1: "Sky blue", 2: "Yellow", 3: "Blue"}
    assert all(said == hole_words(hole, names) for hole, said in words.items())
    headers = log_in(client)
    body = {"players": 4, "rules": "basic", "mode": "table", "names": ["Ann", "Bob", "Cy", "Di"]}
    assert post(client, "/api/games", body, headers).status_code == 200
    assert client.get("/api/holes").get_json()["T2:3"] == "Cy's in-spot"


def test_sim_events_drive_the_board_without_a_login(client: FlaskClient) -> None:
    reply = post(client, "/api/sim/events", {"events": ["lift S0:1", "place T0:8", "done"]})
    assert reply.status_code == 200 and reply.get_json()["moves"] == ["A S0-T0:8"]
    assert client.get("/api/state").get_json()["position"]["turn"] == 1
    record = client.get("/api/games/1/record")
    assert record.status_code == 200 and record.data.decode().splitlines()[0].startswith('{"event":"start"')
    assert client.get("/api/games").get_json()[0]["id"] == 1


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"events": ["lift Q1"]}, "no hole 'Q1' on this board"),
        ({"events": ["jump S0:1"]}, "bad simulated event"),
        ({"events": ["lift T0:8"]}, "cannot lift from T0:8: it is empty"),
        ({"events": "lift S0:1"}, "must be a non-empty list"),
        ({"evnts": []}, "this request takes {events}"),
        ([1, 2], "must be a JSON object"),
    ],
)
def test_bad_sim_events_get_400_and_change_nothing(client: FlaskClient, body: object, message: str) -> None:
    before = client.get("/api/state").get_json()
    reply = post(client, "/api/sim/events", body)
    assert reply.status_code == 400 and message in reply.get_json()["error"]
    assert client.get("/api/state").get_json()["occupied"] == before["occupied"]


def test_csrf_safety(client: FlaskClient) -> None:
    """A form post or a request from another site is refused before anything happens."""
    form = client.post("/api/sim/events", data="events=lift+S0:1", content_type="application/x-www-form-urlencoded")
    assert form.status_code == 400 and "send JSON" in form.get_json()["error"]
    other = client.post("/api/sim/events", json={"events": ["lift S0:1"]}, headers={"Origin": "http://evil.example"})
    assert other.status_code == 403 and "another site" in other.get_json()["error"]
    client.post("/api/login", json={"pin": PIN})
    no_token = post(client, "/api/undo", {})
    assert no_token.status_code == 403 and "X-CSRF-Token" in no_token.get_json()["error"]
    assert client.get("/api/state").get_json()["occupied"][0] == "S0:1"


def test_unknown_routes_and_methods_answer_json(client: FlaskClient) -> None:
    assert client.get("/api/nothing").get_json()["error"]
    assert client.get("/api/nothing").status_code == 404
    assert client.get("/api/sim/events").status_code == 405
    missing = client.get("/api/games/99/record")
    assert missing.status_code == 404 and "no game 99" in missing.get_json()["error"]
    assert "/" not in missing.get_json()["error"]  # where the store lives is nobody's business (issue 34)


# -- the table PIN ---------------------------------------------------------------------------


def test_pin_guards_setup_and_undo(client: FlaskClient) -> None:
    assert post(client, "/api/undo", {}).status_code == 403
    assert client.get("/api/seats").status_code == 403
    assert post(client, "/api/games", {"players": 2}).status_code == 403
    wrong = post(client, "/api/login", {"pin": "0000"})
    assert wrong.status_code == 403 and wrong.get_json()["error"] == "wrong PIN"
    headers = log_in(client)
    assert client.get("/api/me").get_json()["admin"] is True
    post(client, "/api/sim/events", {"events": ["lift S0:1", "place T0:8", "done"]})
    undone = post(client, "/api/undo", {}, headers)
    assert undone.status_code == 200 and undone.get_json()["moves"] == []
    assert post(client, "/api/logout", {}).get_json() == {"admin": False}
    assert post(client, "/api/undo", {}, headers).status_code == 403


def test_too_many_wrong_pins_lock_out_the_guesser_only(app: Flask) -> None:
    """Issue "Hardening": "One wrong-PIN guesser locks the owner out ... Lock out the client
    that guesses (its address), not the table; keep the limit on total guesses too."."""
    phone = app.test_client()
    owner = app.test_client()
    for _ in range(5):
        phone.post("/api/login", json={"pin": "0000"}, environ_base={"REMOTE_ADDR": "192.168.1.77"})
    locked = phone.post("/api/login", json={"pin": PIN}, environ_base={"REMOTE_ADDR": "192.168.1.77"})
    assert locked.status_code == 403 and "too many wrong PINs" in locked.get_json()["error"]
    mine = owner.post("/api/login", json={"pin": PIN}, environ_base={"REMOTE_ADDR": "192.168.1.10"})
    assert mine.status_code == 200
    # Many phones guessing together (issue "Hardening, second round"): after 30 wrong PINs a
    # device never logged in here waits its turn, but the owner's device is not kept waiting.
    for address in range(25):
        phone.post("/api/login", json={"pin": "0000"}, environ_base={"REMOTE_ADDR": f"10.0.0.{address}"})
    refused = app.test_client().post("/api/login", json={"pin": PIN}, environ_base={"REMOTE_ADDR": "10.0.1.1"})
    assert refused.status_code == 403 and "wait" in refused.get_json()["error"]
    assert owner.post("/api/login", json={"pin": PIN}, environ_base={"REMOTE_ADDR": "192.168.1.10"}).status_code == 200


def test_logout_revokes_every_copy_of_the_cookie(app: Flask) -> None:
    """Issue "Hardening": "A session cookie copied before logout still has the admin right
    afterwards." It must not."""
    client = app.test_client()
    headers = log_in(client)
    cookie = client.get_cookie("session")
    assert cookie is not None
    thief = app.test_client()
    thief.set_cookie("session", cookie.value)
    assert thief.get("/api/me").get_json()["admin"] is True
    assert post(client, "/api/logout", {}, headers).get_json() == {"admin": False}
    assert thief.get("/api/me").get_json()["admin"] is False
    assert post(thief, "/api/undo", {}, headers).status_code == 403


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8080", "pegs.attacker.net:80"])
def test_only_the_tables_own_names_are_answered(client: FlaskClient, host: str) -> None:
    """Issue "Hardening": "The Host header is not checked ... (DNS rebinding). Accept only
    the Pi's own names and addresses"."""
    refused = client.get("/api/state", headers={"Host": host})
    assert refused.status_code == 400 and "web.allowed_hosts" in refused.get_json()["error"]
    assert client.post("/api/sim/events", json={"events": ["lift S0:1"]}, headers={"Host": host}).status_code == 400
    for ours in ("localhost:8080", "127.0.0.1", "[::1]:8080", f"{socket.gethostname()}.local"):
        assert client.get("/api/state", headers={"Host": ours}).status_code == 200, ours


def test_a_configured_name_is_answered(tmp_path: Path) -> None:
    service = Table.build(Config.simulated(str(tmp_path), pin=PIN, allowed_hosts=("pegs.example",)))
    service.start()
    try:
        client = create_app(service).test_client()
        assert client.get("/api/state", headers={"Host": "pegs.example:8080"}).status_code == 200
        assert client.get("/api/state", headers={"Host": "other.example"}).status_code == 400
    finally:
        service.stop()


def test_new_game_with_names_colours_and_house_rules(client: FlaskClient) -> None:
    headers = log_in(client)
    house = 'base = "arizona"\nname = "Grandma"\n[cards.10]\nbackward = [1]\n'
    reply = post(
        client,
        "/api/games",
        {
            "players": 6,
            "teams": [[0, 3], [1, 4], [2, 5]],
            "house_rules": house,
            "mode": "digital",
            "names": list("ABCDEF"),
            "colours": [f"#1122{n}{n}" for n in range(3, 9)],
        },
        headers,
    )
    assert reply.status_code == 200, reply.get_json()
    state = reply.get_json()
    assert state["sides"] == 6 and state["rules"]["name"] == "Grandma" and state["mode"] == "digital"
    assert state["teams"] == [[0, 3], [1, 4], [2, 5]] and state["seats"][5]["name"] == "F"
    assert "S5:1" in state["occupied"] and state["game"] == 2


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"players": 5}, "'players' must be 2, 4, 6, 8 or 10"),
        ({"players": 4, "rules": "texas"}, "unknown rule set 'texas'"),
        ({"players": 4, "house_rules": "base = 'arizona'\nhandsize = 3\n"}, "unknown key 'handsize'"),
        ({"players": 4, "house_rules": "= nope"}, "not valid TOML"),
        ({"players": 4, "mode": "poker"}, "'mode' must be 'table' or 'digital'"),
        ({"players": 4, "names": ["A", "B"]}, "one entry per player"),
        ({"players": 4, "colours": ["red"] * 4}, "is not like #e53935"),
        ({"players": 4, "teams": [[0, 1], [2, 3]]}, "do not fit"),
        ({"players": 4, "seats": 4}, "unexpected ['seats']"),
    ],
)
def test_new_game_bad_input(client: FlaskClient, body: dict[str, Any], message: str) -> None:
    headers = log_in(client)
    reply = post(client, "/api/games", body, headers)
    assert reply.status_code == 400 and message in reply.get_json()["error"]
    assert client.get("/api/state").get_json()["game"] == 1


# -- seats, phones and cards ---------------------------------------------------------------------


def test_seat_links_and_digital_hands(app: Flask) -> None:
    table, phone, other = app.test_client(), app.test_client(), app.test_client()
    headers = log_in(table)
    # Every card moves a peg, so any may be declared: the joker too, onto Blue's peg on the track
    # (the rules page, Basic Game: a joker lands on another player's peg; with none there it could not).
    pegs = {"0": ["T0:10", "S", "S", "S", "S"], "1": ["T1:5", "S", "S", "S", "S"]}
    post(table, "/api/games", {"players": 4, "mode": "digital", "pegs": pegs}, headers)
    links = table.get("/api/seats").get_json()
    assert len(links) == 4 and links[0]["qr"].startswith("<svg") and "/join/0/" in links[0]["link"]
    assert all(
        urlsplit(link["link"]).hostname not in ("localhost", "127.0.0.1") for link in links
    )  # a phone reaches it
    assert phone.get("/api/hand").status_code == 403
    assert phone.get("/join/0/not-the-token").status_code == 403
    assert phone.get(urlsplit(links[0]["link"]).path).status_code == 302
    mine = phone.get("/api/hand").get_json()
    assert mine["seat"] == 0 and len(mine["hand"]) in (5, 6) and mine["your_turn"]
    other.get(urlsplit(links[1]["link"]).path)
    assert other.get("/api/hand").get_json()["seat"] == 1
    not_mine = post(other, "/api/declare", {"card": mine["hand"][0]}, csrf(other))
    assert not_mine.status_code == 403 and "only Red's phone" in not_mine.get_json()["error"]
    card = mine["hand"][0]
    declared = post(phone, "/api/declare", {"card": card}, csrf(phone))
    assert declared.status_code == 200 and declared.get_json()["declared"] is None  # the card stays on the phone
    assert (
        phone.get("/api/hand").get_json()["declared"] == card and other.get("/api/hand").get_json()["declared"] is None
    )
    assert post(phone, "/api/declare", {"card": "11"}, csrf(phone)).status_code == 400


def test_resolving_an_ambiguous_move(app: Flask) -> None:
    client = app.test_client()
    headers = log_in(client)
    pegs = {"0": ["T0:10", "S", "S", "S", "S"], "2": ["T0:11", "S", "S", "S", "S"]}
    post(client, "/api/games", {"players": 4, "rules": "arizona", "pegs": pegs}, headers)
    assert post(client, "/api/resolve", {"move": None}, headers).status_code == 400  # nothing ambiguous yet
    state = post(
        client, "/api/sim/events", {"events": ["lift T0:10", "lift T0:11", "place T0:12", "place T0:16"]}
    ).get_json()
    assert state["status"] == "ambiguous" and len(state["candidates"]) >= 2
    wanted = state["candidates"][0]["text"]
    assert post(client, "/api/resolve", {"move": "7 nonsense"}, headers).status_code == 400
    resolved = post(client, "/api/resolve", {"move": wanted}, headers).get_json()
    assert resolved["moves"][-1] == wanted and resolved["turn"] == 1


def test_server_sent_events_stream_the_state(app: Flask) -> None:
    client = app.test_client()
    response = client.get("/api/events", buffered=False)
    assert response.mimetype == "text/event-stream"
    chunks = cast(Iterator[bytes], iter(response.response))  # a stream sends bytes
    assert next(chunks).decode().startswith("retry:")
    first = next(chunks).decode()
    assert first.startswith("event: state\nid: ") and '"position"' in first
    response.close()


def test_bluffing_joker_at_a_real_table(client: FlaskClient) -> None:
    """Bluffing Joker: the move waits for the opponents' doubts; a caught bluff makes no move
    and costs the bluffer a peg, and the board is then told what to put back."""
    headers = log_in(client)
    pegs = {"0": ["T0:8", "S", "S", "S", "S"], "1": ["T1:8", "S", "S", "S", "S"], "3": ["T3:8", "S", "S", "S", "S"]}
    post(client, "/api/games", {"players": 4, "rules": "bluffing-joker", "pegs": pegs}, headers)
    post(client, "/api/declare", {"card": "5"}, headers)
    state = post(client, "/api/sim/events", {"events": ["lift T0:8", "place T0:13", "done"]}).get_json()
    assert state["phase"] == "doubt" and state["bluff"] == {
        "declared": "5",
        "doubter": 1,
        "chooser": None,
        "victim": None,
    }
    assert post(client, "/api/doubt", {"doubt": "yes"}, headers).status_code == 400
    state = post(client, "/api/doubt", {"doubt": True}, headers).get_json()
    assert state["phase"] == "reveal"
    state = post(client, "/api/reveal", {"card": "3"}, headers).get_json()  # it was a 3: a bluff
    assert state["phase"] == "penalty" and state["bluff"]["chooser"] == 1 and state["bluff"]["victim"] == 0
    assert post(client, "/api/penalty", {"hole": "T1:8"}, headers).status_code == 409  # not seat 0's peg
    state = post(client, "/api/penalty", {"hole": "T0:8"}, headers).get_json()
    assert state["moves"] == [] and state["position"]["pegs"]["0"] == ["S"] * 5 and state["turn"] == 1
    assert state["status"] == "illegal" and "take Red's peg off the 13th hole past Red's corner" in state["back"]


def test_wiring_check_needs_the_pin(client: FlaskClient) -> None:
    assert post(client, "/api/wiring", {"action": "start"}).status_code == 403
    headers = log_in(client)
    assert post(client, "/api/wiring", {"action": "calibrate"}, headers).status_code == 400
    assert post(client, "/api/wiring", {"action": "stop"}, headers).status_code == 409  # none running
    started = post(client, "/api/wiring", {"action": "start"}, headers).get_json()
    assert started["wiring"]["running"] is True
    assert post(client, "/api/wiring", {"action": "start"}, headers).status_code == 409
    assert post(client, "/api/wiring", {"action": "stop"}, headers).status_code == 200


def test_a_game_record_hides_the_cards_until_the_game_is_over(app: Flask) -> None:
    """Issue "Hardening": "before the game is over it shows no hidden card to anyone without
    the table PIN (a seat sees only its own cards), and the seed only when the game is over"."""
    client = app.test_client()
    headers = log_in(client)
    assert post(client, "/api/games", {"players": 4, "mode": "digital"}, headers).status_code == 200
    game_id = client.get("/api/state").get_json()["game"]
    seat_link = client.get("/api/seats").get_json()[1]["link"]
    whole = [json.loads(line) for line in client.get(f"/api/games/{game_id}/record").data.decode().splitlines()]
    assert "seed" in whole[0] and whole[1]["event"] == "deal" and len(whole[1]["hands"]) == 4 and whole[1]["stock"]

    def seen_by(viewer: FlaskClient) -> list[dict[str, Any]]:
        text = viewer.get(f"/api/games/{game_id}/record").data.decode()
        return [json.loads(line) for line in text.splitlines()]

    stranger = seen_by(app.test_client())
    assert stranger[0]["redacted"] is True and "seed" not in stranger[0]
    assert stranger[1]["hands"] == {} and "stock" not in stranger[1]
    assert all("card" not in event for event in stranger if event["event"] == "draw")
    phone = app.test_client()
    phone.get(urlsplit(seat_link).path)
    blue = seen_by(phone)
    assert blue[1]["hands"] == {"1": whole[1]["hands"]["1"]} and "seed" not in blue[0]
    # Once the game is over, the whole record, seed and all, for anyone.
    finished, _stats = play_one(Ruleset.preset("basic"), 4, seed=3, bot_name="greedy")
    over_id = app.config["TABLE"].store.create(finished.events)
    record = app.test_client().get(f"/api/games/{over_id}/record").data.decode().splitlines()
    assert json.loads(record[0])["seed"] == 3 and len(record) == len(finished.events)


def test_a_stream_never_read_is_given_back(client: FlaskClient) -> None:
    """A page that asks for the event stream and never reads it (a HEAD request, a phone
    gone at once) must not keep one of the 32 live-page places."""
    for _ in range(40):
        client.head("/api/events").close()
    assert client.get("/api/health").get_json()["streams"]["open"] == 0
    live = client.get("/api/events", buffered=False)
    assert live.status_code == 200
    live.close()


def test_the_rules_panel_shows_house_rules_too(app: Flask) -> None:
    """Issue 13: "The rules panel ignores house rules (counting, extra jokers, hand size)"."""
    client = app.test_client()
    headers = log_in(client)
    house = 'base = "basic"\nhand_size = 6\nextra_jokers = 2\ncounting = 3\n'
    assert post(client, "/api/games", {"players": 4, "house_rules": house}, headers).status_code == 200
    settings = client.get("/api/state").get_json()["rules"]["settings"]
    assert "6 cards in hand" in settings and any("counting: after 2 turns" in s for s in settings)
    assert "3 decks and 8 jokers for 4 players" in settings  # 3 decks x 2, and the house's 2 more


def test_past_games_with_names_dates_winners_and_a_replay_in_words(app: Flask) -> None:
    """Issue 13: "A page of past games with names, dates, winners and a replay"."""
    client = app.test_client()
    headers = log_in(client)
    post(client, "/api/sim/events", {"events": ["lift S0:1", "place T0:8", "done"]}, headers)
    first = client.get("/api/state").get_json()["game"]
    post(client, "/api/games", {"players": 4, "names": ["Ann", "Bo", "Cy", "Di"]}, headers)
    listing = client.get("/games")
    assert listing.status_code == 200 and listing.mimetype == "text/html"
    html = listing.get_data(as_text=True)
    assert "Ann &amp; Bo &amp; Cy &amp; Di" in html and "Red &amp; Sky blue &amp; Yellow &amp; Blue" in html
    assert re.search(r"\d{4}-\d\d-\d\d \d\d:\d\d", html) and "still being played" in html
    replay = client.get(f"/games/{first}").get_data(as_text=True)
    # Issue "The page tells the truth in every corner": nobody named the card, so none is said.
    assert "Red comes out (an ace or a face card)" in replay and "(S0-T0:8)" in replay and "with an ace" not in replay
    assert client.get("/games/999999").status_code == 404


def test_a_phone_with_an_old_games_seat_link_is_told_so_on_a_page(app: Flask) -> None:
    """Issue 13: "A phone whose seat link belongs to an old game is told so on a page, with a
    way back in, not raw JSON"."""
    table, phone = app.test_client(), app.test_client()
    headers = log_in(table)
    old_link = urlsplit(table.get("/api/seats").get_json()[1]["link"]).path
    post(table, "/api/games", {"players": 4}, headers)
    stale = phone.get(old_link)
    assert stale.status_code == 410 and stale.mimetype == "text/html"
    text = stale.get_data(as_text=True)
    assert "no longer being played" in text and 'href="/"' in text
    forged = phone.get("/join/1/0123456789abcdef0123")
    assert forged.status_code == 403 and forged.mimetype == "text/html"
    assert phone.get(urlsplit(table.get("/api/seats").get_json()[1]["link"]).path).status_code == 302


def test_hint_and_new_game_options_refuse_wrong_values(app: Flask) -> None:
    client = app.test_client()
    headers = log_in(client)
    game = client.get("/api/state").get_json()["game"]
    for path, body in (
        ("/api/hint", {"show": "yes"}),
        ("/api/games", {"teaching": "yes"}),
        ("/api/games", {"bots": ["greedy"]}),
        ("/api/games", {"bots": {"1": "genius"}}),
    ):
        reply = post(client, path, body, headers)
        assert reply.status_code == 400 and reply.is_json, (path, body)
    assert client.get("/api/state").get_json()["game"] == game  # nothing changed
    assert post(client, "/api/hint", {}, headers).get_json()["hints"][0]["words"].startswith("Red comes out")


def test_a_bot_seat_has_no_link_and_no_phone_joins_it(app: Flask) -> None:
    """A seat a bot plays holds the bot's cards: the seat links offer none for it (so nobody's
    phone shows the bot's hand), and a link made up for it is refused on a page."""
    table = app.test_client()
    headers = log_in(table)
    post(table, "/api/games", {"players": 4, "mode": "digital", "bots": {"1": "beginner"}}, headers)
    links = {row["seat"]: row for row in table.get("/api/seats").get_json()}
    assert links[1]["bot"] is True and "link" not in links[1] and "qr" not in links[1]
    assert {0, 2, 3} <= {seat for seat, row in links.items() if "link" in row}
    game = table.get("/api/state").get_json()["game"]
    with app.test_request_context():
        token = seat_token(game, 1)
    phone = app.test_client()
    refused = phone.get(f"/join/1/{token}")
    assert refused.status_code == 403 and "played by a bot" in refused.get_data(as_text=True)
    assert phone.get("/api/hand").status_code == 403  # and no hand to see by that phone


def test_a_wrong_address_and_a_too_big_file_are_said_plainly(client: FlaskClient) -> None:
    """A page that isn't there is a page with the way back to the board, not Flask's bare
    text; a request too big (a wrong file picked as house rules) says what the limit is for."""
    missing = client.get("/no-such-page")
    assert missing.status_code == 404 and missing.mimetype == "text/html"
    assert "No such page" in missing.get_data(as_text=True) and 'href="/"' in missing.get_data(as_text=True)
    headers = log_in(client)
    huge = {"players": 4, "house_rules": "# " + "x" * 70_000}
    refused = client.post("/api/games", json=huge, headers=headers)
    assert refused.status_code == 413 and "a house-rules file is a few KB" in refused.get_json()["error"]
    assert "capacity" not in refused.get_json()["error"]
