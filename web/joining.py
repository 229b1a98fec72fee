"""Getting in: the table PIN (``/api/login``, ``/api/logout``), a one-time unlock link made on
the Pi, and a seat's link, which a phone joins its seat of this game by."""

from __future__ import annotations

from flask import Response, jsonify, make_response, redirect, render_template, session

from web import unlock as unlock_links
from web.admin import log_in, log_out
from web.api import blueprint, json_body, table
from web.csrf import csrf_token, state_changing
from web.pin import check_pin
from web.rights import Forbidden
from web.seats import seat_called, seat_token

access = blueprint("access")
join = blueprint("join", url_prefix=None)


@access.post("/login")
@state_changing
def login() -> Response:
    body = json_body({"pin"})
    if not check_pin(body["pin"]):
        raise Forbidden("wrong PIN")
    response = jsonify({"admin": True, "csrf": csrf_token()})
    log_in(response)  # kept across restarts; the device is remembered so that others' wrong PINs never keep it waiting
    return response


@access.post("/logout")
@state_changing
def logout() -> Response:
    log_out()
    return jsonify({"admin": False})


@join.get("/unlock/<token>")
def unlock(token: str) -> Response:
    """A one-time link made on the Pi (``pegs unlock-link``): this phone logs in as with the
    PIN, past the PIN brake (the owner's way in during a storm of guesses)."""
    if len(token) > 64 or not unlock_links.take(table().data_dir, token):
        words = "This unlock link is used up, too old or not one the table made: make a new one on the Pi."
        return Response(render_template("message.html", title="Not an unlock link", words=words), status=403)
    response = make_response(redirect("/"))
    log_in(response)
    return response


@join.get("/join/<int:seat>/<token>")
def join_seat(seat: int, token: str) -> Response:
    overview = table().overview()
    if seat in overview.bots:  # its hand is the bot's: a person's phone never holds it
        words = f"{seat_called(seat)} is played by a bot in this game: no phone joins it. You can watch the board."
        return Response(render_template("message.html", title="A bot's seat", words=words), status=403)
    if seat in overview.seats and token == seat_token(overview.game_id, seat):
        session["seat"] = {"game": overview.game_id, "seat": seat}
        return redirect("/")  # type: ignore[return-value]
    old = next(
        (
            game
            for game in range(overview.game_id - 1, max(0, overview.game_id - 200), -1)
            if token == seat_token(game, seat)
        ),
        None,
    )
    if old is not None:
        words = (
            f"This phone's link was for game {old}, which is no longer being played: the table has started "
            f"game {overview.game_id}. Ask whoever holds the table PIN for this game's seat link (or its QR "
            "code); until then you can watch the board."
        )
        return Response(render_template("message.html", title="That game is over", words=words), status=410)
    words = "This seat link is not one the table made. Ask whoever holds the table PIN for a new one."
    return Response(render_template("message.html", title="Not a seat link", words=words), status=403)
