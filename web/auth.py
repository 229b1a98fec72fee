"""Who may do what: the table PIN, per-seat links, and CSRF safety.

- Reading the game is open to everyone at the table.
- Setup (new game, seat links) and undo need the table PIN (``POST /api/login``). Wrong
  PINs are limited for the guessers, never for the owner (``check_pin``): a client that
  guesses wrong five times in a row waits half a minute (only that client); devices that
  have never logged in here share a brake of 30 wrong PINs, then one every 90 s; a device
  that has logged in before (its ``pegs_device`` cookie) is never braked by the others.
- A log-in lasts ``LOGIN_DAYS`` and outlives restarts of the daemon: its id is kept in
  ``data_dir/logins.json`` (0600, written atomically). Logging out revokes it on the
  server, so a copied cookie loses it too; a changed PIN revokes every log-in and forgets
  every known device.
- A phone joins a seat by its link or QR code (``/join/<seat>/<token>``); the token is an
  HMAC of the game and the seat, so a link works for one seat of one game only. In digital
  card mode a phone sees only its own hand.
- Every state-changing request must be JSON (browsers cannot send that cross-site without
  a CORS preflight, which we never grant), an ``Origin`` header must be this host, and a
  request that relies on the session cookie must carry the session's ``X-CSRF-Token``.
  Cookies are ``SameSite=Strict`` and ``HttpOnly``.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import logging
import math
import os
import secrets
import threading
import time
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlsplit

from flask import Response, current_app, request, session
from itsdangerous import BadSignature, URLSafeSerializer

F = TypeVar("F", bound=Callable[..., Any])
log = logging.getLogger("pegs.web")
MAX_TRIES = 5  # wrong PINs in a row from one client (an address, or a known device)
LOCKOUT_S = 30.0
BRAKE_BURST = 30  # wrong PINs from devices never logged in here, all together, before the brake
BRAKE_EVERY_S = 90.0  # then one more wrong PIN per this many seconds, for all of them together
MAX_CLIENTS = 1000  # addresses whose wrong PINs in a row are remembered (a rotating guesser evicts its own)
LOGIN_DAYS = 30
"""How long a log-in lasts: across the game evenings of a month and any power cut, without
typing the PIN again; a log-in forgotten on a guest's phone still lapses by itself within a
month. Logging out and a PIN change end it at once."""
DEVICE_DAYS = 365  # how long a device is known after its last log-in (browsers keep a cookie 400 days at most)
MAX_SESSIONS = 64  # live log-ins kept; beyond that the oldest goes
MAX_DEVICES = 32  # known devices kept; beyond that the one logged in least recently goes
DEVICE_COOKIE = "pegs_device"
DAY_S = 86_400.0


class Forbidden(PermissionError):
    """The request lacks the right PIN, seat or CSRF token."""


def write_private(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically, readable by this service alone (0600 from the
    first byte: a temporary file made 0600, synced, then renamed over ``path``)."""
    temporary = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            temporary.unlink()
        raise
    with contextlib.suppress(OSError):  # the rename itself survives a power cut
        directory = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(directory)
        finally:
            os.close(directory)


def secret_key(data_dir: str) -> bytes:
    """The key behind sessions, log-ins and seat links; kept in the data dir (0600) so that
    they outlive restarts."""
    path = Path(data_dir) / "secret.key"
    try:
        key = path.read_bytes()
        if len(key) >= 32:
            if path.stat().st_mode & 0o077:
                path.chmod(0o600)
            return key
    except OSError:
        pass
    key = secrets.token_bytes(32)
    write_private(path, key)
    return key


def seat_token(game: int, seat: int) -> str:
    key = current_app.config["SECRET_KEY"]
    return hmac.new(key, f"{game}:{seat}".encode(), hashlib.sha256).hexdigest()[:20]


def check_pin(pin: Any) -> bool:
    """Compare in constant time; limit the guessers, never the owner.

    - A client that sends ``MAX_TRIES`` wrong PINs in a row waits ``LOCKOUT_S``, without
      keeping anyone else waiting. A client is a known device (one that has logged in here
      before: its signed ``pegs_device`` cookie names a device on the list), else an address.
    - Devices not known here (no cookie, a forged or a forgotten one: every guesser) share a
      brake, a token bucket: together they may send ``BRAKE_BURST`` wrong PINs, then one
      every ``BRAKE_EVERY_S``. Nobody waits for it in a normal evening; in a storm of
      guesses a new device waits its turn ("wait N seconds").
    - A known device is never braked by the others' guesses, and never exempt from the PIN:
      after ``MAX_TRIES`` wrong PINs since its last right one it is known no more.

    The bound: a guesser without the PIN, with as many addresses as it likes, gets at most
    ``BRAKE_BURST + 86_400 / BRAKE_EVERY_S`` = 30 + 960 = 990 guesses in any 24 hours: at
    most one chance in ten of finding a 4-digit PIN in a day, ten days to try them all. A
    device cookie cannot be made without the key and the right PIN; a stolen one adds at
    most ``MAX_TRIES`` = 5 guesses, once (known devices are kept across restarts with their
    count of wrong PINs). The bucket starts full when the daemon starts.
    """
    config = current_app.config
    guesses: Guesses = config.setdefault("PIN_GUESSES", Guesses(_clock()))
    with guesses.lock:  # one at a time: many threads together must not slip past the count
        now = _clock()
        device = known_device()
        client = f"device {device}" if device else request.remote_addr or "?"
        wait, where = guesses.wait(client, device is not None, now)
        if wait:
            told = " (a phone that has logged in here before may log in now)" if where == "at this table" else ""
            raise Forbidden(f"too many wrong PINs {where}: wait {wait} seconds{told}")
        good = isinstance(pin, str) and hmac.compare_digest(pin.encode(), config["TABLE_PIN"].encode())
        if good:
            guesses.right(client)
        else:
            guesses.wrong(client, device is not None, now)
            if device:
                logins().device_wrong(device)
    return good


class Guesses:
    """Wrong PINs per client, and the brake shared by the devices not known here."""

    def __init__(self, now: float) -> None:
        self.lock = threading.Lock()
        self.clients: dict[str, tuple[int, float]] = {}  # client: wrong PINs in a row, locked until
        self.tokens = float(BRAKE_BURST)  # wrong PINs the unknown devices may send now
        self.filled_at = now

    def wait(self, client: str, known: bool, now: float) -> tuple[int, str]:
        """Seconds this client must wait before trying again (0: it may try now), and why."""
        until, why = self.clients.get(client, (0, 0.0))[1], "from this device"
        if not known:
            self._fill(now)
            if self.tokens < 1 and now + (1 - self.tokens) * BRAKE_EVERY_S > until:
                until = now + (1 - self.tokens) * BRAKE_EVERY_S
                why = "at this table"
        return (math.ceil(until - now), why) if until > now else (0, "")

    def wrong(self, client: str, known: bool, now: float) -> None:
        if not known:
            self._fill(now)
            self.tokens -= 1
        in_a_row, until = self.clients.pop(client, (0, 0.0))
        in_a_row += 1
        if in_a_row >= MAX_TRIES:
            in_a_row, until = 0, now + LOCKOUT_S
        self.clients[client] = (in_a_row, until)
        while len(self.clients) > MAX_CLIENTS:  # the least recently wrong goes
            del self.clients[next(iter(self.clients))]

    def right(self, client: str) -> None:
        self.clients.pop(client, None)

    def _fill(self, now: float) -> None:
        if now > self.filled_at:
            self.tokens = min(float(BRAKE_BURST), self.tokens + (now - self.filled_at) / BRAKE_EVERY_S)
        self.filled_at = max(self.filled_at, now)


def _clock() -> float:
    """Seconds for the brakes (a test sets ``PIN_CLOCK``)."""
    clock: Callable[[], float] = current_app.config.get("PIN_CLOCK", time.monotonic)
    return clock()


def _calendar() -> float:
    """Seconds since the epoch, for when log-ins expire (a test sets ``LOGIN_CLOCK``)."""
    clock: Callable[[], float] = current_app.config.get("LOGIN_CLOCK", time.time)
    return clock()


# -- log-ins that outlive restarts ------------------------------------------------------------


def _hashed(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def pin_mark(key: bytes, pin: str) -> str:
    """Which PIN the kept log-ins were made with, without keeping the PIN."""
    return hmac.new(key, b"table pin:" + pin.encode(), hashlib.sha256).hexdigest()


class Logins:
    """The live log-ins and the known devices, kept in ``data_dir/logins.json`` (0600,
    rewritten atomically at each change) so that a restart logs nobody out. Only hashes of
    the ids are kept, with when each expires. The file also holds a mark of the PIN they
    were made with: opened with another PIN, it revokes every log-in and forgets every
    device. A damaged or unreadable file is started afresh (everyone logs in again)."""

    def __init__(self, path: Path, mark: str) -> None:
        self.path, self.mark = path, mark
        self.lock = threading.Lock()
        self.sessions: dict[str, float] = {}  # hashed log-in id: when it expires
        self.devices: dict[
            str, tuple[float, int]
        ] = {}  # hashed device id: expires, wrong PINs since its last right one
        kept = self._read()
        if kept.get("pin") == mark:
            self._load(kept)
        else:
            self._save()

    def log_in(self, device: str | None, now: float) -> tuple[str, str]:
        """A new log-in, and the device it came from (known or new) remembered afresh: the
        ids (log-in, device) to give the client."""
        admin_id = secrets.token_urlsafe(24)
        with self.lock:
            if device is None or not self._knows(device, now):
                device = secrets.token_urlsafe(24)
            self.sessions[_hashed(admin_id)] = now + LOGIN_DAYS * DAY_S
            self.devices.pop(_hashed(device), None)  # newest last
            self.devices[_hashed(device)] = (now + DEVICE_DAYS * DAY_S, 0)
            self._save(now)
        return admin_id, device

    def is_live(self, admin_id: str, now: float) -> bool:
        return self.sessions.get(_hashed(admin_id), 0.0) > now

    def log_out(self, admin_id: str) -> None:
        with self.lock:
            if self.sessions.pop(_hashed(admin_id), None) is not None:
                self._save()

    def knows(self, device: str, now: float) -> bool:
        with self.lock:
            return self._knows(device, now)

    def device_wrong(self, device: str) -> None:
        """A known device sent a wrong PIN: after ``MAX_TRIES`` since its last right one it
        is known no more."""
        with self.lock:
            if _hashed(device) not in self.devices:
                return
            expires, wrong = self.devices[_hashed(device)]
            if wrong + 1 < MAX_TRIES:
                self.devices[_hashed(device)] = (expires, wrong + 1)
            else:
                self.devices.pop(_hashed(device), None)
            self._save()

    def _knows(self, device: str, now: float) -> bool:
        return self.devices.get(_hashed(device), (0.0, 0))[0] > now

    def _read(self) -> dict[str, Any]:
        try:
            kept = json.loads(self.path.read_bytes())
        except (OSError, ValueError):
            return {}
        return kept if isinstance(kept, dict) else {}

    def _load(self, kept: dict[str, Any]) -> None:
        sessions, devices = kept.get("sessions"), kept.get("devices")
        if isinstance(sessions, dict):
            self.sessions = {
                str(key): float(value)
                for key, value in sessions.items()
                if isinstance(value, (int, float)) and not isinstance(value, bool)
            }
        if isinstance(devices, dict):
            self.devices = {
                str(key): (float(value[0]), int(value[1]))
                for key, value in devices.items()
                if isinstance(value, list)
                and len(value) == 2
                and all(isinstance(part, (int, float)) and not isinstance(part, bool) for part in value)
            }
        with contextlib.suppress(OSError):
            if self.path.stat().st_mode & 0o077:
                self._save()

    def _save(self, now: float | None = None) -> None:
        """Write the file (the caller holds the lock), without what has expired by ``now``
        and without the oldest beyond ``MAX_SESSIONS`` and ``MAX_DEVICES``."""
        if now is not None:
            live_sessions = sorted(
                ((key, ends) for key, ends in self.sessions.items() if ends > now), key=lambda item: item[1]
            )
            self.sessions = dict(live_sessions[-MAX_SESSIONS:])
            live = [(key, kept) for key, kept in self.devices.items() if kept[0] > now]
            self.devices = dict(live[-MAX_DEVICES:])
        kept = {
            "pin": self.mark,
            "sessions": self.sessions,
            "devices": {key: list(value) for key, value in self.devices.items()},
        }
        try:
            write_private(self.path, json.dumps(kept, indent=1).encode())
        except OSError as error:  # the log-ins still work until the daemon stops
            log.warning("cannot keep the log-ins in %s: %s", self.path, error)


def open_logins(data_dir: str, pin: str, key: bytes | None = None) -> Logins:
    """The kept log-ins of this data dir, revoked if they were made with another PIN."""
    return Logins(Path(data_dir) / "logins.json", pin_mark(key or secret_key(data_dir), pin))


_opening = threading.Lock()


def logins() -> Logins:
    config = current_app.config
    with _opening:
        if "LOGINS" not in config:
            config["LOGINS"] = open_logins(config["TABLE"].data_dir, config["TABLE_PIN"], config["SECRET_KEY"])
        kept: Logins = config["LOGINS"]
        return kept


def _devices() -> URLSafeSerializer:
    return URLSafeSerializer(current_app.config["SECRET_KEY"], salt="pegs-device")


def known_device() -> str | None:
    """The id of the device this request comes from, if it has logged in here before (a
    signed cookie naming a device still on the list)."""
    cookie = request.cookies.get(DEVICE_COOKIE)
    if not cookie:
        return None
    try:
        device = _devices().loads(cookie)
    except BadSignature:
        return None
    if isinstance(device, str) and logins().knows(device, _calendar()):
        return device
    return None


def log_in(response: Response) -> None:
    """The table PIN was given: this session may set up and undo until it logs out or
    ``LOGIN_DAYS`` pass. The right lives on the server (a log-in id, kept in the data dir),
    so logging out revokes it for every copy of the cookie, and a restart keeps it. The
    device is remembered (``response`` gets its cookie) so that others' wrong PINs never
    keep it waiting."""
    admin_id, device = logins().log_in(known_device(), _calendar())
    session["admin"] = admin_id
    session.permanent = True  # the cookie outlives the browser too (Flask: 31 days; the server: LOGIN_DAYS)
    response.set_cookie(
        DEVICE_COOKIE,
        _devices().dumps(device),
        max_age=int(DEVICE_DAYS * DAY_S),
        httponly=True,
        samesite="Strict",
        secure=request.is_secure,
    )


def log_out() -> None:
    logins().log_out(str(session.pop("admin", "")))


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
    return isinstance(admin_id, str) and logins().is_live(admin_id, _calendar())


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


def seat_called(seat: int) -> str:
    """A seat as people see it in a message: its name (its colour, unless the table renamed it)."""
    for row in current_app.config["TABLE"].seats():
        if row["seat"] == seat:
            return str(row["name"])
    return f"seat {seat}"


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
    return _need_seat(view, lambda overview: (overview.turn,), "only {turn}'s phone or the table PIN may do that now")


def need_hand(view: F) -> F:
    """What the seat to play's cards allow (a hint): its own phone, its partners' in a
    teaching game (the rules page's Note on Table Talk), or whoever holds the table PIN."""
    return _need_seat(
        view,
        lambda overview: overview.hand_seen_by,
        "only {turn}'s phone (a teaching game: its partners' too) or the table PIN may ask",
    )


def _need_seat(view: F, seats: Callable[[Any], tuple[int, ...]], refusal: str) -> F:
    @wraps(view)
    def checked(*args: Any, **kwargs: Any) -> Any:
        overview = current_app.config["TABLE"].overview()
        if not is_admin() and my_seat(overview.game_id) not in seats(overview):
            raise Forbidden(refusal.format(turn=seat_called(overview.turn)))
        check_csrf()
        return view(*args, **kwargs)

    return checked  # type: ignore[return-value]
