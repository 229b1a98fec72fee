"""Requests that change something come from this site's own page: JSON only, from this
host, and with the session's ``X-CSRF-Token`` when they rely on the session cookie."""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Callable
from functools import wraps
from typing import ParamSpec, TypeVar
from urllib.parse import urlsplit

from flask import request, session

from web.rights import Forbidden

P = ParamSpec("P")
R = TypeVar("R")


def csrf_token() -> str:
    """The session's token, made on first need; the page sends it back on every change."""
    if "csrf" not in session:
        session["csrf"] = secrets.token_urlsafe(24)
    return str(session["csrf"])


def state_changing(view: Callable[P, R]) -> Callable[P, R]:
    """JSON only, from this site only: a browser cannot send JSON cross-site without a CORS
    preflight, which we never grant."""

    @wraps(view)
    def checked(*args: P.args, **kwargs: P.kwargs) -> R:
        if not request.is_json:
            raise ValueError("send JSON (Content-Type: application/json)")
        origin = request.headers.get("Origin")
        if origin is not None and urlsplit(origin).netloc != request.host:
            raise Forbidden("a request from another site is refused")
        return view(*args, **kwargs)

    return checked


def check_csrf() -> None:
    """A request relying on the session cookie proves it read the session's token."""
    sent = request.headers.get("X-CSRF-Token", "")
    if not sent or not hmac.compare_digest(sent, str(session.get("csrf", ""))):
        raise Forbidden("missing or wrong X-CSRF-Token: reload the page")
