"""The HTTP API's conventions, shared by its blueprints: the running table a request talks to,
a strict JSON body, who is asking, and errors as JSON ``{"error": "..."}`` in one line: 400 bad
input, 403 no right to do it, 404 nothing there, 409 the game refuses it now, 503 the table
cannot now. The routes are the contract of docs/design.md, "HTTP", split by concern:

- ``web.live``: the state, its event stream and the daemon's health;
- ``web.reads``: what a page asks about (holes in words, who it is, a hand, games, seat links);
- ``web.play``: what the people at the table do in a game (the simulated board included);
- ``web.starting``: a new game and the first lesson;
- ``web.joining``: getting in (the table PIN, an unlock link, a seat's link).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request
from werkzeug.exceptions import HTTPException

from referee.file_reading import load_json
from referee.game import GameError
from web.admin import is_admin
from web.csrf import check_csrf
from web.rights import Forbidden
from web.seats import my_seat, seat_called
from web.table import Table, Unavailable

MAX_DEPTH = 16  # the deepest request (pegs in a new game) nests 3
MAX_ERROR = 300  # characters of an error message


def table() -> Table:
    running: Table = current_app.config["TABLE"]
    return running


def phone_seat() -> int | None:
    """The asking phone's own seat, for the table to check under the same look that acts (a
    move may commit between a decorator's check and the act); None with the table PIN."""
    return None if is_admin() else my_seat(table().overview().game_id)


def acting_seat(wanted: int | None) -> int:
    """The seat whose turn it is to answer: its own phone, or anyone with the table PIN."""
    if wanted is None:
        raise GameError("nobody is asked to do that now")
    if not is_admin() and my_seat(table().overview().game_id) != wanted:
        raise Forbidden(f"only {seat_called(wanted)}'s phone or the table PIN may do that now")
    check_csrf()
    return wanted


def json_body(allowed: set[str], required: bool = True) -> dict[str, Any]:
    body = read_json(request.get_data(cache=True))
    if not isinstance(body, dict):
        need(False, "the request body must be a JSON object")
        return {}
    unknown = set(body) - allowed
    missing = allowed - set(body) if required else set()
    if unknown or missing:
        wanted = ", ".join(sorted(allowed)) or "nothing"
        raise ValueError(f"this request takes {{{wanted}}}; unexpected {sorted(unknown)}, missing {sorted(missing)}")
    return body


def read_json(data: bytes) -> Any:
    """A request body as JSON, or a clear ValueError: not UTF-8, not JSON, nested deeper
    than any request needs, or a number too long to read."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError("the request body is not UTF-8 text") from None
    return load_json(text, "the request body", depth=MAX_DEPTH)


def need(condition: bool, message: str) -> None:
    """Bad input from the client: a 400 with ``message``."""
    if not condition:
        raise ValueError(message)


def blueprint(name: str, url_prefix: str | None = "/api") -> Blueprint:
    """A blueprint of the API, its refusals answered as JSON errors."""
    made = Blueprint(name, __name__, url_prefix=url_prefix)
    made.register_error_handler(ValueError, lambda error: error_answer(400, str(error)))
    made.register_error_handler(GameError, lambda error: error_answer(409, str(error)))
    made.register_error_handler(PermissionError, lambda error: error_answer(403, str(error)))
    made.register_error_handler(Unavailable, lambda error: error_answer(503, str(error)))
    made.register_error_handler(HTTPException, lambda error: error_answer(error.code or 500, http_words(error)))
    return made


def http_words(error: HTTPException) -> str:
    """An HTTP error in a sentence for people: a body too big says what the limit is for."""
    if error.code == 413:
        most = int(current_app.config["MAX_CONTENT_LENGTH"]) // 1024
        return f"That is too big for the referee: it takes at most {most} KB (a house-rules file is a few KB)."
    return error.description or error.name


def error_answer(status: int, message: str) -> Response:
    """One line, and never the whole of what was sent (a bad value is quoted in part)."""
    message = " ".join(message.split())
    if len(message) > MAX_ERROR:
        message = message[: MAX_ERROR - 1] + "…"
    response = jsonify({"error": message})
    response.status_code = status
    return response
