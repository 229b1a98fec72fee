"""Who may do what: the table PIN, per-seat links, and CSRF safety.

- Reading the game is open to everyone at the table.
- Setup (new game, seat links) and undo need the table PIN (``POST /api/login``). A
  client that guesses wrong five times in a row waits half a minute (only that client);
  the table takes at most 20 wrong PINs in ten minutes from everyone together. Logging out
  revokes the right on the server, so a copied cookie loses it too.
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
MAX_TRIES = 5  # wrong PINs in a row from one client
LOCKOUT_S = 30.0
MAX_WRONG_TOTAL = 20  # wrong PINs from everyone together
TOTAL_WINDOW_S = 600.0


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
    """Compare in constant time. A client (an address) that gets ``MAX_TRIES`` wrong in a
    row is refused for ``LOCKOUT_S``, without locking anyone else out; and the whole table
    takes at most ``MAX_WRONG_TOTAL`` wrong PINs in ``TOTAL_WINDOW_S``, so that many
    phones guessing together cannot try every PIN either."""
    now = time.monotonic()
    guesses: Guesses = current_app.config.setdefault("PIN_GUESSES", Guesses())
    client = request.remote_addr or "?"
    wait = guesses.wait(client, now)
    if wait:
        raise Forbidden(f"too many wrong PINs: wait {wait} seconds")
    good = isinstance(pin, str) and hmac.compare_digest(pin.encode(), current_app.config["TABLE_PIN"].encode())
    if good:
        guesses.right(client)
    else:
        guesses.wrong(client, now)
    return good


class Guesses:
    """Wrong PINs per client, and for the whole table."""

    def __init__(self) -> None:
        self.in_a_row: dict[str, int] = {}
        self.locked_until: dict[str, float] = {}
        self.recent: list[float] = []  # when the table's wrong PINs were sent

    def wait(self, client: str, now: float) -> int:
        """Seconds this client must wait before trying again (0: it may try now)."""
        self.recent = [at for at in self.recent if now - at < TOTAL_WINDOW_S]
        until = self.locked_until.get(client, 0.0)
        if len(self.recent) >= MAX_WRONG_TOTAL:
            until = max(until, self.recent[0] + TOTAL_WINDOW_S)
        return max(0, round(until - now + 0.5)) if until > now else 0

    def wrong(self, client: str, now: float) -> None:
        self.recent.append(now)
        self.in_a_row[client] = self.in_a_row.get(client, 0) + 1
        if self.in_a_row[client] >= MAX_TRIES:
            self.in_a_row[client] = 0
            self.locked_until[client] = now + LOCKOUT_S

    def right(self, client: str) -> None:
        self.in_a_row.pop(client, None)
        self.locked_until.pop(client, None)


def log_in() -> None:
    """The table PIN was given: this session may set up and undo until it logs out. The
    right lives on the server (a session id), so logging out revokes it for every copy of
    the cookie."""
    admins: set[str] = current_app.config.setdefault("ADMIN_SESSIONS", set())
    admin_id = secrets.token_urlsafe(24)
    admins.add(admin_id)
    session["admin"] = admin_id


def log_out() -> None:
    admins: set[str] = current_app.config.setdefault("ADMIN_SESSIONS", set())
    admins.discard(str(session.pop("admin", "")))


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
    admin_id = session.get("admin")
    return isinstance(admin_id, str) and admin_id in current_app.config.get("ADMIN_SESSIONS", ())


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
    return _need_seat(view, lambda overview: (overview.turn,), "only seat {turn}'s phone or the table PIN may do that now")


def need_hand(view: F) -> F:
    """What the seat to play's cards allow (a hint): its own phone, its partners' in a
    teaching game (the rules page's Note on Table Talk), or whoever holds the table PIN."""
    return _need_seat(view, lambda overview: overview.hand_seen_by,
                      "only seat {turn}'s phone (a teaching game: its partners' too) or the table PIN may ask")  # fmt: skip


def _need_seat(view: F, seats: Callable[[Any], tuple[int, ...]], refusal: str) -> F:
    @wraps(view)
    def checked(*args: Any, **kwargs: Any) -> Any:
        overview = current_app.config["TABLE"].overview()
        if not is_admin() and my_seat(overview.game_id) not in seats(overview):
            raise Forbidden(refusal.format(turn=overview.turn))
        check_csrf()
        return view(*args, **kwargs)

    return checked  # type: ignore[return-value]
