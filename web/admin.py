"""This request's log-in with the table PIN, and the device it comes from: logging in and
out, whether the request may set up and undo (``need_admin``), and which devices have
logged in here before (so that others' wrong PINs never keep them waiting: ``web.pin``).
What is kept on disk is ``web.logins``'s."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from functools import wraps
from typing import ParamSpec, TypeVar

from flask import Response, current_app, request, session
from itsdangerous import BadSignature, URLSafeSerializer

from web.csrf import check_csrf
from web.home import from_home, need_home, outside_words
from web.logins import DAY_S, DEVICE_DAYS, Logins, open_logins
from web.rights import Forbidden

P = ParamSpec("P")
R = TypeVar("R")
DEVICE_COOKIE = "pegs_device"
_opening = threading.Lock()


def logins() -> Logins:
    """The app's kept log-ins, opened once (many threads may ask at the first request)."""
    config = current_app.config
    with _opening:
        if "LOGINS" not in config:
            config["LOGINS"] = open_logins(config["TABLE"].data_dir, config["TABLE_PIN"], config["SECRET_KEY"])
        kept: Logins = config["LOGINS"]
        return kept


def calendar_now() -> float:
    """Seconds since the epoch, for when log-ins expire (a test sets ``LOGIN_CLOCK``)."""
    clock: Callable[[], float] = current_app.config.get("LOGIN_CLOCK", time.time)
    return clock()


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
    if isinstance(device, str) and logins().knows(device, calendar_now()):
        return device
    return None


def log_in(response: Response) -> None:
    """The table PIN was given: this session may set up and undo until it logs out or
    ``LOGIN_DAYS`` pass. The right lives on the server (a log-in id, kept in the data dir),
    so logging out revokes it for every copy of the cookie, and a restart keeps it. The
    device is remembered (``response`` gets its cookie) so that others' wrong PINs never
    keep it waiting. Never from outside the home network (``web.home``)."""
    need_home()
    admin_id, device = logins().log_in(known_device(), calendar_now())
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
    """Revoked on the server, so that a copy of the cookie loses the right too."""
    logins().log_out(str(session.pop("admin", "")))


def is_admin() -> bool:
    """Whether this request holds the owner's rights: a live log-in, from the home network
    (from outside, an owner's cookie is worth nothing: ``web.home``)."""
    if not from_home():
        return False
    admin_id = session.get("admin")
    return isinstance(admin_id, str) and logins().is_live(admin_id, calendar_now())


def need_admin(view: Callable[P, R]) -> Callable[P, R]:
    """Setup and undo: whoever holds the table PIN, from this site's page."""

    @wraps(view)
    def checked(*args: P.args, **kwargs: P.kwargs) -> R:
        if not from_home():
            raise Forbidden(outside_words())
        if not is_admin():
            raise Forbidden("this needs the table PIN")
        check_csrf()
        return view(*args, **kwargs)

    return checked
