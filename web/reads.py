"""What a page asks about besides the state: every hole in words, who it is (``/api/me``), a
phone's own hand, a teaching game's hints for a phone, the games played and their records, and
the seat links with their QR codes (the table PIN)."""

from __future__ import annotations

import segno
from flask import Response, jsonify, request, url_for

from referee.geometry import geometry
from referee.words import hole_words
from web.admin import is_admin
from web.api import blueprint, error_answer, table
from web.csrf import csrf_token
from web.hosts import phone_host
from web.rights import Forbidden
from web.seats import my_seat, seat_token
from web.table import Unavailable

reads = blueprint("reads")
MAX_GAME_ID = 2**62  # SQLite integers are 64-bit


@reads.get("/holes")
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


@reads.get("/me")
def me() -> Response:
    return jsonify({"seat": my_seat(table().overview().game_id), "admin": is_admin(), "csrf": csrf_token()})


@reads.get("/hand")
def hand() -> Response:
    seat = my_seat(table().overview().game_id)
    if seat is None:
        raise Forbidden("join a seat first (its link or QR code) to see its cards")
    return jsonify(table().hand(seat))


@reads.get("/games")
def games() -> Response:
    return jsonify(table().games())


@reads.get(f"/games/<int(max={MAX_GAME_ID}):game_id>/record")
def record(game_id: int) -> Response:
    try:  # while the game is on, only the table PIN sees every card; a seat sees its own
        text = table().record(game_id, seat=my_seat(game_id), whole=is_admin())
    except Unavailable as error:
        return error_answer(404, str(error))
    return Response(
        text,
        mimetype="application/x-ndjson",
        headers={"Content-Disposition": f"attachment; filename=game-{game_id}.jsonl"},
    )


@reads.get("/seats")
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


@reads.get("/teaching")
def teaching() -> Response:
    """A teaching game's hints and each card's moves, for the asking phone: with the referee's
    cards only the seat to play's own phone and its partners' get them (they show its hand)."""
    running = table()
    game_id = running.overview().game_id
    return jsonify(running.teaching(my_seat(game_id), game_id))
