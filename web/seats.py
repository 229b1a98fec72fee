"""The seats' phones: the link a phone joins a seat by, which seat this session joined,
and what only the seat to play (or the table PIN) may do."""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable
from functools import wraps
from typing import ParamSpec, TypeVar

from flask import current_app, session

from referee.words import name_of
from web.admin import is_admin
from web.csrf import check_csrf
from web.rights import Forbidden
from web.table import Overview

P = ParamSpec("P")
R = TypeVar("R")


def seat_token(game: int, seat: int) -> str:
    """The token of a seat link: an HMAC of the game and the seat, so that a link works for
    one seat of one game only."""
    key = current_app.config["SECRET_KEY"]
    return hmac.new(key, f"{game}:{seat}".encode(), hashlib.sha256).hexdigest()[:20]


def my_seat(game: int) -> int | None:
    """The seat this session joined by its link, if the link was for this game."""
    joined = session.get("seat")
    if isinstance(joined, dict) and joined.get("game") == game:
        return int(joined["seat"])
    return None


def seat_called(seat: int) -> str:
    """A seat as people see it in a message: its name (its colour, unless the table renamed it);
    a seat not in play as ``referee.words.name_of`` says it, like the table's own words."""
    return name_of({int(str(row["seat"])): str(row["name"]) for row in current_app.config["TABLE"].seats()}, seat)


def need_player(view: Callable[P, R]) -> Callable[P, R]:
    """The seat to play (from its phone) or whoever holds the table PIN."""
    return _need_seat(view, lambda overview: (overview.turn,), "only {turn}'s phone or the table PIN may do that now")


def need_hand(view: Callable[P, R]) -> Callable[P, R]:
    """What the seat to play's cards allow (a hint): its own phone, its partners' in a
    teaching game (the rules page's Note on Table Talk), or whoever holds the table PIN."""
    return _need_seat(
        view,
        lambda overview: overview.hand_seen_by,
        "only {turn}'s phone (a teaching game: its partners' too) or the table PIN may ask",
    )


def _need_seat(view: Callable[P, R], seats: Callable[[Overview], tuple[int, ...]], refusal: str) -> Callable[P, R]:
    @wraps(view)
    def checked(*args: P.args, **kwargs: P.kwargs) -> R:
        overview = current_app.config["TABLE"].overview()
        if not is_admin() and my_seat(overview.game_id) not in seats(overview):
            raise Forbidden(refusal.format(turn=seat_called(overview.turn)))
        check_csrf()
        return view(*args, **kwargs)

    return checked
