"""Past games for people: a list with names, dates and winners, and each game replayed in
words. Read-only, and only what the whole table saw: names, winners and the moves (the
record is replayed here in full, but no card a hand held is shown).

    GET /games                  the list, newest first
    GET /games/<id>             that game's moves in plain words
    GET /games/<id>/review      the game reviewed: progress while it is made, then each move
                                judged, each seat's biggest mistakes, each team's turning points
    GET /api/games/<id>/review  the same as JSON (``Table.review``), polled by that page

The game being played has no review yet (409 and a page saying so); a game left unfinished is
reviewed up to where it stopped, without the cards anyone held.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, render_template, request
from werkzeug.exceptions import NotFound

from referee import events as ev
from referee import record
from referee.file_reading import excerpt
from referee.game import Game, GameError
from referee.rulesets import title_of
from web.table import Json, Table, Unavailable

history = Blueprint("history", __name__)
SHOWN = 100  # the newest games listed
MAX_GAME_ID = 2**31 - 1


def _table() -> Table:
    table: Table = current_app.config["TABLE"]
    return table


@dataclass(frozen=True)
class Listed:
    """One stored game as the list shows it (the table's Json, checked once): the table makes
    each row once per version of its game (``Table.games``), so the list replays nothing."""

    id: int
    created: float
    rules: str
    players: str
    moves: int
    winners: str
    over: bool
    damaged: str | None

    @classmethod
    def of(cls, game: Json) -> Listed:
        created, moves, damaged = game.get("created"), game.get("moves"), game.get("damaged")
        return cls(
            int(str(game.get("id"))),
            float(created) if isinstance(created, (int, float)) and 0 <= created < 2**33 else 0.0,  # a sane date
            str(game.get("rules")),
            str(game.get("players_named") or ""),
            moves if isinstance(moves, int) else 0,
            str(game.get("winners") or ""),
            game.get("over") is True,
            str(damaged) if damaged else None,
        )

    def row(self, running: object) -> dict[str, Any]:
        """What the list's template shows of the game: a damaged one says so and why."""
        state = "still being played" if self.id == running else "unfinished"
        return {
            "id": self.id,
            "when": time.strftime("%Y-%m-%d %H:%M", time.localtime(self.created)),
            "rules": self.rules,
            "players": self.players,
            "moves": self.moves,
            "winner": f"damaged: {self.damaged}" if self.damaged else self.winners if self.over else state,
            "over": self.over,
            "reviewable": not self.damaged and (self.over or (self.id != running and self.moves > 0)),
        }


@history.get("/games")
def games() -> str:
    """Newest first. A game won names its winners; the running one is "still being played"; any
    other was left for a new one: "unfinished"; one whose record cannot be read, "damaged". A
    left game where no move stands is not listed."""
    running = _table().state().get("game")
    listed = map(Listed.of, reversed(_table().games()[-SHOWN:]))
    rows = [game.row(running) for game in listed if game.over or game.moves or game.damaged or game.id == running]
    return render_template("games.html", games=rows)


@history.get(f"/games/<int(max={MAX_GAME_ID}):game_id>")
def replay(game_id: int) -> str:
    """Every turn that stands, in words: each move (its card named only when it was, or when
    only one card makes it), each seat that could not move; bots' seats marked as bots, a phone
    seat's turns played by a stand-in marked with who played them."""
    _known(game_id)
    try:
        events = record.loads(_table().record(game_id, whole=True), "record")  # to replay; only the moves are shown
        game = record.replay(events)
    except (Unavailable, record.RecordError) as error:  # kept as it is on the card, and said so
        words = f"Game {game_id}'s record is damaged and cannot be shown: {excerpt(error)}"
        return render_template("message.html", title=f"Game {game_id} is damaged", words=words)
    names, marked = record.side_names(events[0]), record.shown_names(events[0])
    turns = _turns(events, game, names, marked)
    winner = " & ".join(names.get(seat, f"seat {seat + 1}") for seat in game.winner) if game.winner else None
    running = _table().state().get("game") == game_id
    return render_template(
        "replay.html",
        game_id=game_id,
        moves=turns,
        winner=winner,
        rules=title_of(game.rules.name),
        players=" & ".join(marked.values()),
        running=running,
    )


def _turns(events: list[ev.Event], game: Game, names: dict[int, str], marked: dict[int, str]) -> list[dict[str, Any]]:
    """Each move and discard that stands, in words, with who played it (a bot; a stand-in for a
    phone seat, issue 36)."""
    named = iter(record.named_cards(events) if game.mode != "digital" else [move.card for move in game.made])
    made = iter(game.made)
    bots = record.bot_seats(events[0])
    turns: list[dict[str, Any]] = []
    stood_in: dict[int, str] = {}  # a phone seat handed over: who plays it now
    for event in record.effective(events):
        match event:
            case ev.Seated(seat=seat, by=by):
                stood_in[seat] = by
                continue
            case ev.Move(seat=seat):
                move, card = next(made, None), next(named, None)
                if move is None:
                    continue
                words, text = record.move_said(move, names, game.rules, card), record.move_text(move, card)
            case ev.Discard(seat=seat):
                words, text = f"{names.get(seat, marked.get(seat, f'seat {seat + 1}'))} could not move", ""
            case _:
                continue
        by = stood_in.get(seat, "phone")
        stand_in = None if by == "phone" else "someone at the board" if by == "board" else f"a {by} bot"
        turns.append(
            {
                "seat": marked.get(seat, f"seat {seat + 1}"),
                "words": words,
                "text": text,
                "bot": seat in bots,
                "by": stand_in,
            }
        )
    return turns


@history.get(f"/games/<int(max={MAX_GAME_ID}):game_id>/review")
def review_page(game_id: int) -> Response | str:
    _known(game_id)
    try:
        status = _table().review(game_id)
    except GameError as error:
        page = render_template("message.html", title="Still being played", words=str(error))
        return Response(page, status=409)
    return render_template("review.html", game_id=game_id, status=status, review=status.get("review"))


@history.get(f"/api/games/<int(max={MAX_GAME_ID}):game_id>/review")
def review_json(game_id: int) -> Response:
    _known(game_id)
    try:
        status = _table().review(game_id)
    except GameError as error:
        response = jsonify({"error": str(error)})
        response.status_code = 409
        return response
    return Response(_encoded(status), mimetype="application/json")


_encoded_last: list[tuple[object, bytes]] = []  # the last answers made: the same review, encoded once


def _encoded(status: Json) -> bytes:
    """A done review's answer, encoded once per review read (``Reviews`` hands back the same
    object while the stored text is the same): hundreds of KB, asked for by every phone."""
    review = status.get("review")
    for kept, body in _encoded_last:
        if review is not None and kept is review:
            return body
    body = json.dumps(status, separators=(",", ":")).encode()
    if review is not None:
        _encoded_last[:] = [*_encoded_last[-3:], (review, body)]
    return body


@history.errorhandler(Unavailable)
def unavailable(error: Unavailable) -> Response:
    """The store failed: said in one line (JSON under /api/), never a traceback."""
    if request.path.startswith("/api/"):
        response = jsonify({"error": str(error)})
    else:
        response = Response(render_template("message.html", title="The game store failed", words=str(error)))
    response.status_code = 503
    return response


def _known(game_id: int) -> None:
    if game_id not in {Listed.of(game).id for game in _table().games()}:
        raise NotFound(f"there is no game {game_id} here")
