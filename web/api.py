"""The HTTP API: the contract of docs/design.md, "HTTP" (``GET /api/state``,
``POST /api/sim/events``) and what the table's page needs. Errors are JSON
``{"error": "..."}``: 400 bad input, 403 no right to do it, 404 nothing there, 409 the game
refuses it now."""

from __future__ import annotations

import json
import threading
import unicodedata
from collections.abc import Iterator
from typing import Any

import segno
from flask import (
    Blueprint,
    Response,
    current_app,
    jsonify,
    make_response,
    redirect,
    render_template,
    request,
    session,
    stream_with_context,
    url_for,
)
from werkzeug.exceptions import HTTPException

from referee.events import Mode
from referee.file_reading import load_json
from referee.game import GameError, seat_number
from referee.geometry import geometry
from referee.rulesets import PRESETS, Ruleset, RulesetError
from referee.words import hole_words
from web import unlock as unlock_links
from web.admin import is_admin, log_in, log_out, need_admin
from web.csrf import check_csrf, csrf_token, state_changing
from web.hosts import phone_host
from web.pin import check_pin
from web.rights import Forbidden
from web.seats import my_seat, need_hand, need_player, seat_called, seat_token
from web.table import NewGame, StateJson, Table, Unavailable

api = Blueprint("api", __name__, url_prefix="/api")
join = Blueprint("join", __name__)
HEARTBEAT_S = 1.0  # a stream whose phone has gone is freed by the heartbeats after (a write fails)
MAX_STREAMS = 32  # live pages at once; the server keeps threads for every other request
MAX_DEPTH = 16  # the deepest request (pegs in a new game) nests 3
MAX_ERROR = 300  # characters of an error message
MAX_GAME_ID = 2**62  # SQLite integers are 64-bit


def table() -> Table:
    running: Table = current_app.config["TABLE"]
    return running


class Streams:
    """How many live pages (event streams) are open: at most ``MAX_STREAMS``, each holding
    one of the server's threads, so that the others always answer. A page beyond that is
    told so (503) and polls ``/api/state`` every 2 s instead."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.open = 0

    def take(self) -> bool:
        with self._lock:
            if self.open >= MAX_STREAMS:
                return False
            self.open += 1
            return True

    def give_back(self) -> None:
        with self._lock:
            self.open -= 1


def streams() -> Streams:
    found: Streams = current_app.config.setdefault("STREAMS", Streams())
    return found


def iter_states(running: Table, timeout: float = HEARTBEAT_S) -> Iterator[StateJson | None]:
    """Each new state as it happens, and None when ``timeout`` passes without one."""
    version = -1
    while not running.stopped:
        newer = running.wait(version, timeout)
        if newer == version:
            yield None
            continue
        version = newer
        yield running.state()


# -- reading --------------------------------------------------------------------------------


@api.get("/state")
def state() -> Response:
    return jsonify(table().state())


@api.get("/events")
def events() -> Response:
    """Server-sent events: the whole state each time it changes, and an ``alive`` event each
    second between: the page's watchdog hears it (a comment line it would not), so a quiet
    minute while people think never drops the page to polling."""
    running, open_streams = table(), streams()
    if not open_streams.take():
        response = _error(503, f"{MAX_STREAMS} pages are live already: this one updates every 2 seconds instead")
        response.headers["Retry-After"] = "60"
        return response

    given_back = threading.Event()

    def give_back() -> None:  # once, whether the stream ran or was never read (a HEAD request)
        if not given_back.is_set():
            given_back.set()
            open_streams.give_back()

    def stream() -> Iterator[str]:
        try:
            yield "retry: 1000\n\n"
            for state in iter_states(running, HEARTBEAT_S):
                if state is None:
                    yield "event: alive\ndata: {}\n\n"  # a write to a phone that has gone ends this stream
                else:
                    yield f"event: state\nid: {state['version']}\ndata: {json.dumps(state, separators=(',', ':'))}\n\n"
        finally:
            give_back()

    response = Response(
        stream_with_context(stream()),
        mimetype="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )
    response.call_on_close(give_back)
    return response


@api.get("/health")
def health() -> Response:
    return jsonify({**table().health(), "streams": {"open": streams().open, "max": MAX_STREAMS}})


@api.get("/holes")
def holes() -> Response:
    """Every hole of the board in play in words, ``{"T1:8": "Blue's come-out hole", ...}``, with
    this game's seat names (the other sides' by their colour): referee/words.py says a hole,
    the page only shows what it says. The page asks once per board and set of names."""
    running = table()
    overview = running.overview()
    names = {side: name for side, (name, _colour) in enumerate(overview.palette)}
    names.update({int(str(seat["seat"])): str(seat["name"]) for seat in running.seats()})
    board = geometry(overview.sides, markers=overview.markers)
    return jsonify({hole: hole_words(hole, names) for hole in board.holes})


@api.get("/me")
def me() -> Response:
    return jsonify({"seat": my_seat(table().overview().game_id), "admin": is_admin(), "csrf": csrf_token()})


@api.get("/hand")
def hand() -> Response:
    seat = my_seat(table().overview().game_id)
    if seat is None:
        raise Forbidden("join a seat first (its link or QR code) to see its cards")
    return jsonify(table().hand(seat))


@api.get("/games")
def games() -> Response:
    return jsonify(table().games())


@api.get(f"/games/<int(max={MAX_GAME_ID}):game_id>/record")
def record(game_id: int) -> Response:
    try:  # while the game is on, only the table PIN sees every card; a seat sees its own
        text = table().record(game_id, seat=my_seat(game_id), whole=is_admin())
    except Unavailable as error:
        return _error(404, str(error))
    return Response(
        text,
        mimetype="application/x-ndjson",
        headers={"Content-Disposition": f"attachment; filename=game-{game_id}.jsonl"},
    )


@api.get("/seats")
def seats() -> Response:
    if not is_admin():
        raise Forbidden("seat links need the table PIN")
    running = table()
    game_id = running.overview().game_id
    links = []
    base = f"{request.scheme}://{phone_host(request.host)}"  # never 127.0.0.1: a phone cannot reach it
    bots = running.overview().bots
    for seat in running.seats():
        if seat["seat"] in bots:  # a bot plays it: no link, so nobody sees the bot's hand by one
            links.append({**seat, "bot": True})
            continue
        link = base + url_for("join.join_seat", seat=seat["seat"], token=seat_token(game_id, int(str(seat["seat"]))))
        qr = segno.make(link, error="m").svg_inline(scale=3, dark="#000000", light="#ffffff")  # scans in any colour
        links.append({**seat, "link": link, "qr": qr})
    return jsonify(links)


# -- changing -------------------------------------------------------------------------------


@api.post("/sim/events")
@state_changing
def sim_events() -> Response:
    """docs/design.md, "HTTP": drives the simulated board, for scripts, tests and the page's clicks."""
    body = _json_body({"events"})
    return jsonify(table().sim_events(body["events"]))


@api.post("/login")
@state_changing
def login() -> Response:
    body = _json_body({"pin"})
    if not check_pin(body["pin"]):
        raise Forbidden("wrong PIN")
    response = jsonify({"admin": True, "csrf": csrf_token()})
    log_in(response)  # kept across restarts; the device is remembered so that others' wrong PINs never keep it waiting
    return response


@api.post("/logout")
@state_changing
def logout() -> Response:
    log_out()
    return jsonify({"admin": False})


@api.post("/done")
@state_changing
@need_player
def done() -> Response:
    _json_body(set())
    return jsonify(table().press_done())


@api.post("/undo")
@state_changing
@need_admin
def undo() -> Response:
    _json_body(set())
    return jsonify(table().undo())


@api.post("/declare")
@state_changing
@need_player
def declare() -> Response:
    body = _json_body({"card"})
    _need(isinstance(body["card"], str), "'card' is a card like 7 or JOKER")
    return jsonify(table().declare(_phone_seat(), body["card"]))


@api.post("/hint")
@state_changing
@need_hand
def hint() -> Response:
    """The seat to play asks for hints (the rules page's Note on Table Talk: a serious game
    shows none unless asked; a teaching game's partners may ask too, and get the moves
    without the cards). The answer names the seat's cards, so it goes to the asker only.
    ``show``: the best move lit on the board, for everyone to see, so only the seat's own
    phone or the table PIN may choose that. The table checks the asker again as it acts."""
    body = _json_body({"show"}, required=False)
    _need(type(body.get("show", False)) is bool, "'show' is true or false")
    running = table()
    overview = running.overview()
    if body.get("show") is True and not is_admin() and my_seat(overview.game_id) != overview.turn:
        raise Forbidden(
            f"the lights are for everyone: only {seat_called(overview.turn)}'s own phone may light its hint"
        )
    return jsonify(running.hints(show=body.get("show") is True, asker=_phone_seat()))


@api.get("/teaching")
def teaching() -> Response:
    """A teaching game's hints and each card's moves, for the asking phone: with the referee's
    cards only the seat to play's own phone and its partners' get them (they show its hand)."""
    running = table()
    game_id = running.overview().game_id
    return jsonify(running.teaching(my_seat(game_id), game_id))


@api.post("/discard")
@state_changing
@need_player
def discard() -> Response:
    body = _json_body({"card"})
    _need(body["card"] is None or isinstance(body["card"], str), "'card' is a card like 7, or null at a real table")
    return jsonify(table().discard(_phone_seat(), body["card"]))


@api.post("/resolve")
@state_changing
@need_player
def resolve() -> Response:
    body = _json_body({"move"})
    _need(
        body["move"] is None or isinstance(body["move"], str),
        "'move' is a candidate's text, or null for 'nothing moved'",
    )
    return jsonify(table().resolve(body["move"]))


@api.post("/phone/move")
@state_changing
@need_player
def phone_move() -> Response:
    """A seat played from a phone sends its move (issue 36): a card of its hand and one of
    that card's moves. On disk before the answer; the LEDs then show it for the board."""
    body = _json_body({"card", "move"})
    _need(isinstance(body["card"], str), "'card' is a card of the hand, like 7 or JOKER")
    _need(isinstance(body["move"], str), "'move' is one of that card's moves, in notation like 7 T1:8-T1:15")
    return jsonify(table().choose(_phone_seat(), body["card"], body["move"]))


@api.post("/phone/take-back")
@state_changing
@need_player
def phone_take_back() -> Response:
    """The phone takes its move back, while nobody at the board has begun to carry it out."""
    _json_body(set())
    return jsonify(table().take_back(_phone_seat()))


@api.post("/phone/stand-in")
@state_changing
@need_admin
def phone_stand_in() -> Response:
    """The table (its PIN) hands a quiet phone's seat to a bot or to the board, and back."""
    body = _json_body({"seat", "by"})
    _need(type(body["seat"]) is int, "'seat' is a seat number, like 2")
    _need(isinstance(body["by"], str), "'by' is 'phone', 'board' or a bot: beginner, family, strong or expert")
    return jsonify(table().stand_in(body["seat"], body["by"]))


@api.post("/doubt")
@state_changing
def doubt() -> Response:
    """Bluffing Joker: from the phone of the opponent asked, or with the table PIN."""
    body = _json_body({"doubt"})
    _need(isinstance(body["doubt"], bool), "'doubt' is true (doubt it) or false (let it pass)")
    running = table()
    seat = _acting_seat(running.overview().doubter)
    return jsonify(running.doubt(seat, body["doubt"]))


@api.post("/reveal")
@state_changing
@need_player
def reveal() -> Response:
    body = _json_body({"card"})
    _need(isinstance(body["card"], str), "'card' is the card turned up, like 7 or JOKER")
    return jsonify(table().reveal(body["card"]))


@api.post("/penalty")
@state_changing
def penalty() -> Response:
    """Bluffing Joker: the winner of the doubt chooses the loser's peg to send back to start."""
    body = _json_body({"hole"})
    running = table()
    chooser = running.overview().chooser
    _need(isinstance(body["hole"], str), "'hole' is a track hole like T1:4")
    return jsonify(running.send_to_start(_acting_seat(chooser), body["hole"]))


def _phone_seat() -> int | None:
    """The asking phone's own seat, for the table to check under the same look that acts (a
    move may commit between a decorator's check and the act); None with the table PIN."""
    return None if is_admin() else my_seat(table().overview().game_id)


def _acting_seat(wanted: int | None) -> int:
    """The seat whose turn it is to answer: its own phone, or anyone with the table PIN."""
    if wanted is None:
        raise GameError("nobody is asked to do that now")
    if not is_admin() and my_seat(table().overview().game_id) != wanted:
        raise Forbidden(f"only {seat_called(wanted)}'s phone or the table PIN may do that now")
    check_csrf()
    return wanted


@api.post("/wiring")
@state_changing
@need_admin
def wiring() -> Response:
    """Calibration from the page: start or stop the wiring check (the table PIN)."""
    body = _json_body({"action"})
    _need(body["action"] in ("start", "stop"), "'action' is 'start' or 'stop'")
    running = table()
    return jsonify(running.check_wiring() if body["action"] == "start" else running.stop_wiring_check())


@api.post("/games")
@state_changing
@need_admin
def new_game() -> Response:
    body = _json_body(
        {"players", "rules", "house_rules", "mode", "teams", "names", "colours", "pegs", "bots", "phones", "teaching"},
        required=False,
    )
    players = body.get("players", 4)
    if type(players) is not int or players not in (2, 4, 6, 8, 10):
        raise ValueError("'players' must be 2, 4, 6, 8 or 10")
    phones = body.get("phones")
    _need(
        phones is None or isinstance(phones, list) and all(type(seat) is int for seat in phones),
        "'phones' lists the seats played from a phone, like [2]",
    )
    mode: Mode = _mode(body.get("mode", "digital" if phones else "table"))  # a phone seat's cards are the referee's
    rules = _rules(body.get("rules"), body.get("house_rules"))
    _check_seat_looks(body.get("names"), body.get("colours"))
    _need(type(body.get("teaching", False)) is bool, "'teaching' is true or false")
    bots = body.get("bots")
    _check_bots(bots)
    _check_pegs(body.get("pegs"))
    request = NewGame(
        players,
        rules,
        mode,
        teams=body.get("teams"),
        names=body.get("names"),
        colours=body.get("colours"),
        pegs=body.get("pegs"),
        bots=bots,
        phones=phones,
        teach=body.get("teaching") is True,
    )
    return jsonify(table().new_game(request))


def _mode(mode: object) -> Mode:
    """Whose cards: "table" (real cards) or "digital" (the referee deals)."""
    if mode == "table":
        return "table"
    if mode == "digital":
        return "digital"
    raise ValueError("'mode' must be 'table' or 'digital'")


def _check_seat_looks(names: object, colours: object) -> None:
    """A new game's seat names and colours: the page shows them, so they are short,
    printable text and colours it can draw."""
    seat_names, seat_colours = _strings("names", names), _strings("colours", colours)
    for colour in seat_colours:
        if len(colour) != 7 or colour[0] != "#" or any(c not in "0123456789abcdefABCDEF" for c in colour[1:]):
            raise ValueError(f"colour {colour!r} is not like #e53935")
    for name in seat_names:
        if not name.strip() or len(name) > 24:
            raise ValueError("'names': a seat name is 1 to 24 characters")
        _need(_printable(name), f"'names': a seat name is printable text, not {name!r}")


def _strings(key: str, values: object) -> list[str]:
    """``values`` as the list of strings it must be (none given: an empty one)."""
    if values is None:
        return []
    if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
        raise ValueError(f"'{key}' must be a list of strings")
    return values


def _check_bots(bots: object) -> None:
    """A new game's bots: seat numbers (as JSON keys are text) to a bot's name; the table
    refuses a name it does not know."""
    if bots is not None and (not isinstance(bots, dict) or not all(isinstance(v, str) for v in bots.values())):
        raise ValueError('\'bots\' maps a seat number to a bot: "beginner", "family", "strong" or "expert"')
    for seat in bots or {}:
        _need(
            seat_number(seat) is not None,
            f"'bots': a seat is a number like \"1\" (ASCII digits, no leading zero), not {seat!r}",
        )


def _check_pegs(pegs: object) -> None:
    """A new game's starting pegs (a set-up position) in shape; the table checks the holes."""
    if pegs is not None and not isinstance(pegs, dict):
        raise ValueError("'pegs' is an object mapping seat numbers like \"1\" to lists of five holes")
    for seat, holes in (pegs or {}).items():
        _need(
            seat_number(seat) is not None,
            f"'pegs': a seat is a number like \"1\" (ASCII digits, no leading zero), not {seat!r}",
        )
        _need(
            isinstance(holes, list) and all(isinstance(hole, str) for hole in holes),
            f'\'pegs\': seat {seat} lists its five holes as strings, like ["T0:8", "S", "S", "S", "S"]',
        )


@api.post("/lesson")
@state_changing
@need_admin
def start_lesson() -> Response:
    """Learn to play: the first lesson, taught on the board (the table PIN, like a new game)."""
    body = _json_body({"players", "rules", "house_rules", "learners"}, required=False)
    players = body.get("players", 4)
    if type(players) is not int or players not in (4, 6, 8, 10):
        raise ValueError("'players' must be 4, 6, 8 or 10 for a lesson (partners are part of it)")
    learners = body.get("learners", "one")
    _need(learners in ("one", "everyone"), '\'learners\' is "one" (the first seat, the others watch) or "everyone"')
    seats = list(range(players)) if learners == "everyone" else [0]
    return jsonify(table().start_lesson(_rules(body.get("rules"), body.get("house_rules")), players, seats))


LESSON_ACTIONS = {"next", "repeat", "skip", "show", "place"}  # the player at the board (or its phone)
LESSON_TABLE_ACTIONS = {"resume", "leave"}  # the table's choice, like a new game: the table PIN


@api.post("/lesson/<action>")
@state_changing
def lesson_action(action: str) -> Response:
    if action in LESSON_TABLE_ACTIONS:
        return need_admin(_lesson_action)(action)
    if action in LESSON_ACTIONS:
        return need_player(_lesson_action)(action)
    raise ValueError(f"a lesson's actions are {', '.join(sorted(LESSON_ACTIONS | LESSON_TABLE_ACTIONS))}")


def _lesson_action(action: str) -> Response:
    body = _json_body({"place"} if action == "place" else set(), required=action == "place")
    place = body.get("place")
    _need(place is None or isinstance(place, str), "'place' names a place of the first step, or null")
    return jsonify(table().lesson_action(action, place))


def _printable(text: str) -> bool:
    """No control characters, lone surrogates, line breaks or bidirectional overrides (an
    emoji joined with zero-width joiners is fine)."""
    return not any(unicodedata.category(c) in ("Cc", "Cs", "Zl", "Zp") or c in _BIDI for c in text)


_BIDI = set("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def _rules(name: Any, house: Any) -> Ruleset:
    if house is not None:
        if not isinstance(house, str):
            raise ValueError("'house_rules' is the text of a house-rules TOML file")
        try:
            return Ruleset.from_toml_text(house)
        except RulesetError as error:
            raise ValueError(f"house rules: {error}") from None
    if name is None:
        return Ruleset.preset("basic")
    if not isinstance(name, str) or name not in PRESETS:
        raise ValueError(f"unknown rule set {name!r}: use one of {', '.join(PRESETS)} or house rules")
    return Ruleset.preset(name)


# -- joining a seat -------------------------------------------------------------------------


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


# -- errors ---------------------------------------------------------------------------------


def _json_body(allowed: set[str], required: bool = True) -> dict[str, Any]:
    body = read_json(request.get_data(cache=True))
    if not isinstance(body, dict):
        _need(False, "the request body must be a JSON object")
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


def _need(condition: bool, message: str) -> None:
    """Bad input from the client: a 400 with ``message``."""
    if not condition:
        raise ValueError(message)


def register_errors(blueprint: Blueprint) -> None:
    blueprint.register_error_handler(ValueError, lambda error: _error(400, str(error)))
    blueprint.register_error_handler(GameError, lambda error: _error(409, str(error)))
    blueprint.register_error_handler(PermissionError, lambda error: _error(403, str(error)))
    blueprint.register_error_handler(Unavailable, lambda error: _error(503, str(error)))
    blueprint.register_error_handler(HTTPException, lambda error: _error(error.code or 500, http_words(error)))


def http_words(error: HTTPException) -> str:
    """An HTTP error in a sentence for people: a body too big says what the limit is for."""
    if error.code == 413:
        most = int(current_app.config["MAX_CONTENT_LENGTH"]) // 1024
        return f"That is too big for the referee: it takes at most {most} KB (a house-rules file is a few KB)."
    return error.description or error.name


register_errors(api)
register_errors(join)


def _error(status: int, message: str) -> Response:
    """One line, and never the whole of what was sent (a bad value is quoted in part)."""
    message = " ".join(message.split())
    if len(message) > MAX_ERROR:
        message = message[: MAX_ERROR - 1] + "…"
    response = jsonify({"error": message})
    response.status_code = status
    return response
