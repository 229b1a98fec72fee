"""What the people at the table do in a game: Done, Undo, a card declared or discarded, the
move that was made when several fit, a hint, a phone seat's move, the Bluffing Joker's doubt,
reveal and penalty, the wiring check, and the simulated board's taps (docs/design.md, "HTTP":
``POST /api/sim/events``). Each answers with the state."""

from __future__ import annotations

from flask import Response, jsonify

from web.admin import is_admin, need_admin
from web.api import acting_seat, blueprint, json_body, need, phone_seat, table
from web.csrf import state_changing
from web.rights import Forbidden
from web.seats import my_seat, need_hand, need_player, seat_called

play = blueprint("play")


@play.post("/sim/events")
@state_changing
def sim_events() -> Response:
    """docs/design.md, "HTTP": drives the simulated board, for scripts, tests and the page's clicks."""
    body = json_body({"events"})
    return jsonify(table().sim_events(body["events"]))


@play.post("/done")
@state_changing
@need_player
def done() -> Response:
    json_body(set())
    return jsonify(table().press_done())


@play.post("/undo")
@state_changing
@need_admin
def undo() -> Response:
    json_body(set())
    return jsonify(table().undo())


@play.post("/declare")
@state_changing
@need_player
def declare() -> Response:
    body = json_body({"card"})
    need(isinstance(body["card"], str), "'card' is a card like 7 or JOKER")
    return jsonify(table().declare(phone_seat(), body["card"]))


@play.post("/hint")
@state_changing
@need_hand
def hint() -> Response:
    """The seat to play asks for hints (the rules page's Note on Table Talk: a serious game
    shows none unless asked; a teaching game's partners may ask too, and get the moves
    without the cards). The answer names the seat's cards, so it goes to the asker only.
    ``show``: the best move lit on the board, for everyone to see, so only the seat's own
    phone or the table PIN may choose that. The table checks the asker again as it acts."""
    body = json_body({"show"}, required=False)
    need(type(body.get("show", False)) is bool, "'show' is true or false")
    running = table()
    overview = running.overview()
    if body.get("show") is True and not is_admin() and my_seat(overview.game_id) != overview.turn:
        raise Forbidden(
            f"the lights are for everyone: only {seat_called(overview.turn)}'s own phone may light its hint"
        )
    return jsonify(running.hints(show=body.get("show") is True, asker=phone_seat()))


@play.post("/discard")
@state_changing
@need_player
def discard() -> Response:
    body = json_body({"card"})
    need(body["card"] is None or isinstance(body["card"], str), "'card' is a card like 7, or null at a real table")
    return jsonify(table().discard(phone_seat(), body["card"]))


@play.post("/resolve")
@state_changing
@need_player
def resolve() -> Response:
    body = json_body({"move"})
    need(
        body["move"] is None or isinstance(body["move"], str),
        "'move' is a candidate's text, or null for 'nothing moved'",
    )
    return jsonify(table().resolve(body["move"]))


@play.post("/phone/move")
@state_changing
@need_player
def phone_move() -> Response:
    """A seat played from a phone sends its move (issue 36): a card of its hand and one of
    that card's moves. On disk before the answer; the LEDs then show it for the board."""
    body = json_body({"card", "move"})
    need(isinstance(body["card"], str), "'card' is a card of the hand, like 7 or JOKER")
    need(isinstance(body["move"], str), "'move' is one of that card's moves, in notation like 7 T1:8-T1:15")
    return jsonify(table().choose(phone_seat(), body["card"], body["move"]))


@play.post("/phone/take-back")
@state_changing
@need_player
def phone_take_back() -> Response:
    """The phone takes its move back, while nobody at the board has begun to carry it out."""
    json_body(set())
    return jsonify(table().take_back(phone_seat()))


@play.post("/phone/stand-in")
@state_changing
@need_admin
def phone_stand_in() -> Response:
    """The table (its PIN) hands a quiet phone's seat to a bot or to the board, and back."""
    body = json_body({"seat", "by"})
    need(type(body["seat"]) is int, "'seat' is a seat number, like 2")
    need(isinstance(body["by"], str), "'by' is 'phone', 'board' or a bot: beginner, family, strong or expert")
    return jsonify(table().stand_in(body["seat"], body["by"]))


@play.post("/doubt")
@state_changing
def doubt() -> Response:
    """Bluffing Joker: from the phone of the opponent asked, or with the table PIN."""
    body = json_body({"doubt"})
    need(isinstance(body["doubt"], bool), "'doubt' is true (doubt it) or false (let it pass)")
    running = table()
    seat = acting_seat(running.overview().doubter)
    return jsonify(running.doubt(seat, body["doubt"]))


@play.post("/reveal")
@state_changing
@need_player
def reveal() -> Response:
    body = json_body({"card"})
    need(isinstance(body["card"], str), "'card' is the card turned up, like 7 or JOKER")
    return jsonify(table().reveal(body["card"]))


@play.post("/penalty")
@state_changing
def penalty() -> Response:
    """Bluffing Joker: the winner of the doubt chooses the loser's peg to send back to start."""
    body = json_body({"hole"})
    running = table()
    chooser = running.overview().chooser
    need(isinstance(body["hole"], str), "'hole' is a track hole like T1:4")
    return jsonify(running.send_to_start(acting_seat(chooser), body["hole"]))


@play.post("/wiring")
@state_changing
@need_admin
def wiring() -> Response:
    """Calibration from the page: start or stop the wiring check (the table PIN)."""
    body = json_body({"action"})
    need(body["action"] in ("start", "stop"), "'action' is 'start' or 'stop'")
    running = table()
    return jsonify(running.check_wiring() if body["action"] == "start" else running.stop_wiring_check())
