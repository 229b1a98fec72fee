"""Who may do what: the table PIN, per-seat links, and CSRF safety.

- Reading the game is open to everyone at the table.
- Setup (new game, seat links) and undo need the table PIN (``POST /api/login``).
- A phone joins a seat by its link or QR code (``/join/<seat>/<token>``); the token is an
  HMAC of the game and the seat, so a link works for one seat of one game only. In digital
  card mode a phone sees only its own hand.
- Every state-changing request must be JSON (browsers cannot send that cross-site without
  a CORS preflight, which we never grant), an ``Origin`` header must be this host, and a
  request that relies on the session cookie must carry the session's ``X-CSRF-Token``.
  Cookies are ``SameSite=Strict`` and ``HttpOnly``.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlsplit

from flask import current_app, request, session

F = TypeVar("F", bound=Callable[..., Any])
MAX_TRIES = 5
LOCKOUT_S = 30.0


class Forbidden(PermissionError):
    """The request lacks the right PIN, seat or CSRF token."""


def secret_key(data_dir: str) -> bytes:
    """The key behind sessions and seat links; kept in the data dir so links outlive restarts."""
    path = Path(data_dir) / "secret.key"
    try:
        key = path.read_bytes()
        if len(key) >= 32:
            return key
    except OSError:
        pass
    key = secrets.token_bytes(32)
    path.write_bytes(key)
    path.chmod(0o600)
    return key


def seat_token(game: int, seat: int) -> str:
    key = current_app.config["SECRET_KEY"]
    return hmac.new(key, f"{game}:{seat}".encode(), hashlib.sha256).hexdigest()[:20]


def check_pin(pin: Any) -> bool:
    """Compare in constant time; after ``MAX_TRIES`` wrong PINs, refuse for a while."""
    state = current_app.config.setdefault("PIN_TRIES", {"wrong": 0, "until": 0.0})
    if time.monotonic() < state["until"]:
        raise Forbidden("too many wrong PINs: wait half a minute")
    good = isinstance(pin, str) and hmac.compare_digest(pin.encode(), current_app.config["TABLE_PIN"].encode())
    if good:
        state["wrong"] = 0
    else:
        state["wrong"] += 1
        if state["wrong"] >= MAX_TRIES:
            state["wrong"], state["until"] = 0, time.monotonic() + LOCKOUT_S
    return good


def csrf_token() -> str:
    if "csrf" not in session:
        session["csrf"] = secrets.token_urlsafe(24)
    return str(session["csrf"])


def my_seat(game: int) -> int | None:
    joined = session.get("seat")
    if isinstance(joined, dict) and joined.get("game") == game:
        return int(joined["seat"])
    return None


def is_admin() -> bool:
    return bool(session.get("admin"))


def state_changing(view: F) -> F:
    """JSON only, from this site only."""

    @wraps(view)
    def checked(*args: Any, **kwargs: Any) -> Any:
        if not request.is_json:
            raise ValueError("send JSON (Content-Type: application/json)")
        origin = request.headers.get("Origin")
        if origin is not None and urlsplit(origin).netloc != request.host:
            raise Forbidden("a request from another site is refused")
        return view(*args, **kwargs)

    return checked  # type: ignore[return-value]


def check_csrf() -> None:
    sent = request.headers.get("X-CSRF-Token", "")
    if not sent or not hmac.compare_digest(sent, str(session.get("csrf", ""))):
        raise Forbidden("missing or wrong X-CSRF-Token: reload the page")


def need_admin(view: F) -> F:
    @wraps(view)
    def checked(*args: Any, **kwargs: Any) -> Any:
        if not is_admin():
            raise Forbidden("this needs the table PIN")
        check_csrf()
        return view(*args, **kwargs)

    return checked  # type: ignore[return-value]


def need_player(view: F) -> F:
    """The seat to play (from its phone) or whoever holds the table PIN."""

    @wraps(view)
    def checked(*args: Any, **kwargs: Any) -> Any:
        overview = current_app.config["TABLE"].overview()
        seat = my_seat(overview.game_id)
        if not is_admin() and seat != overview.turn:
            raise Forbidden(f"only seat {overview.turn}'s phone or the table PIN may do that now")
        check_csrf()
        return view(*args, **kwargs)

    return checked  # type: ignore[return-value]
