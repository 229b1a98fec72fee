"""Past games for people: a list with names, dates and winners, and each game replayed in
words. Read-only, and only what the whole table saw: names, winners and the moves (the
record is replayed here in full, but no card a hand held is shown).

    GET /games          the list, newest first
    GET /games/<id>     that game's moves in plain words
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from flask import Blueprint, current_app, render_template
from werkzeug.exceptions import NotFound

from referee import record
from referee.words import say
from web.table import Json, Table

history = Blueprint("history", __name__)
SHOWN = 100  # the newest games listed
MAX_GAME_ID = 2**31 - 1


def _table() -> Table:
    table: Table = current_app.config["TABLE"]
    return table


@dataclass(frozen=True)
class Listed:
    """One stored game as the list shows it (the table's Json, checked once)."""

    id: int
    created: float
    rules: str
    winner: tuple[int, ...]

    @classmethod
    def of(cls, game: Json) -> Listed:
        winner = game.get("winner")
        seats = tuple(seat for seat in winner if isinstance(seat, int)) if isinstance(winner, list) else ()
        created = game.get("created")
        return cls(int(str(game.get("id"))), float(created) if isinstance(created, (int, float)) else 0.0,
                   str(game.get("rules")), seats)  # fmt: skip


@history.get("/games")
def games() -> str:
    rows = []
    for game in map(Listed.of, reversed(_table().games()[-SHOWN:])):
        names = record.seat_names(record.loads(_table().record(game.id), "record")[0])
        rows.append({
            "id": game.id, "when": time.strftime("%Y-%m-%d %H:%M", time.localtime(game.created)),
            "rules": game.rules, "players": " & ".join(names.values()),
            "winner": " & ".join(names.get(seat, f"seat {seat + 1}") for seat in game.winner) or "still being played",
        })  # fmt: skip
    return render_template("games.html", games=rows)


@history.get(f"/games/<int(max={MAX_GAME_ID}):game_id>")
def replay(game_id: int) -> str:
    known = {Listed.of(game).id for game in _table().games()}
    if game_id not in known:
        raise NotFound(f"there is no game {game_id} here")
    events = record.loads(_table().record(game_id, whole=True), "record")  # to replay; only the moves are shown
    names = record.seat_names(events[0])
    game = record.replay(events)
    moves = [{"seat": names.get(seat, f"seat {seat + 1}"), "words": say(move, names), "text": text}
             for (seat, text), move in zip(game.history, game.made, strict=True)]  # fmt: skip
    winner = " & ".join(names.get(seat, f"seat {seat + 1}") for seat in game.winner) if game.winner else None
    return render_template("replay.html", game_id=game_id, moves=moves, winner=winner, rules=game.rules.name,
                           players=" & ".join(names.values()))  # fmt: skip
