"""The table's web page: a Flask app factory over one running table (``web.table.Table``).

    app = create_app(table)
    waitress.serve(app, host="0.0.0.0", port=8080, threads=40)

Blueprints: the JSON API by concern (``web.api`` lists them: the live state and its
server-sent events, a page's reads, play, starting a game or a lesson, getting in, with
``join``: per-seat links), ``pages`` (the page itself) and ``history`` (past games). The table PIN comes from the config or is made once and kept
in the data dir.
"""

from __future__ import annotations

import contextlib
import secrets
from pathlib import Path

from flask import Flask, Response, g, jsonify, render_template, request
from werkzeug.exceptions import HTTPException

from referee.rulesets import title_of
from web.api import http_words
from web.compress import compress
from web.history import history
from web.home import HomeNetworks, from_home, outside_words
from web.hosts import host_allowed, interface_addresses, is_address, local_names
from web.joining import access, join
from web.live import live
from web.logins import Damaged, open_logins, secret_key, write_private
from web.pages import pages
from web.play import play
from web.reads import reads
from web.seats import my_seat
from web.starting import starting
from web.table import Table

MAX_BODY = 64 * 1024
"""Bytes of a request body: house rules and a new game's pegs take a few KB; anything
more is refused (413) before it is read."""


def table_pin(data_dir: str, configured: str | None, damaged: Damaged | None = None) -> str:
    """The configured PIN, or one made on first start and kept in ``data_dir/pin.txt`` (0600).
    A PIN other than the one the kept log-ins were made with revokes them all
    (``web.logins.Logins``): changing the PIN logs every phone out. The log-ins are opened
    here, at start, so that a damaged file is told to ``damaged`` before the first request."""
    pin = configured or ""
    if not pin:
        path = Path(data_dir) / "pin.txt"
        with contextlib.suppress(OSError, ValueError):
            pin = path.read_text(encoding="ascii").strip()
        if not (pin.isdigit() and len(pin) >= 4):
            pin = f"{secrets.randbelow(10_000):04d}"
            write_private(path, (pin + "\n").encode("ascii"))
    open_logins(data_dir, pin, damaged=damaged)
    return pin


def create_app(table: Table, **settings: object) -> Flask:
    app = Flask(__name__)
    app.config.update(
        TABLE=table,
        SECRET_KEY=secret_key(table.data_dir),
        TABLE_PIN=table_pin(table.data_dir, table.configured_pin, table.set_aside),
        SESSION_COOKIE_SAMESITE="Strict",
        SESSION_COOKIE_HTTPONLY=True,
        JSON_SORT_KEYS=False,
        MAX_CONTENT_LENGTH=MAX_BODY,
        HOME_NETWORKS=HomeNetworks(table.config.home),
        **settings,
    )
    _our_names(app, local_names(table.allowed_hosts))
    _outside_by_seat_link(app)
    for blueprint in (live, reads, play, starting, access, join):
        app.register_blueprint(blueprint)
    app.register_blueprint(pages)
    app.register_blueprint(history)

    _security(app)
    _errors_as_json(app)
    compress(app)
    app.jinja_env.filters["rules_title"] = title_of  # "North Carolina", not its file name
    return app


def _our_names(app: Flask, allowed: frozenset[str]) -> None:
    """Every request names this machine in its ``Host`` (``web.hosts``): a name of ours, or an
    address its interfaces have now (Tailscale's 100.x may come up after the daemon)."""

    @app.before_request
    def only_our_own_names() -> Response | None:
        if host_allowed(request.host, allowed):
            return None
        if is_address(request.host) and host_allowed(request.host, frozenset(interface_addresses())):
            return None
        response = jsonify(
            {
                "error": f"this page answers only to the table's own names, not {request.host[:60]!r}: "
                "add it to web.allowed_hosts in the config if it is yours"
            }
        )
        response.status_code = 400
        return response


OUTSIDE_KEY = "join.join_seat"
"""What a request from outside the home network may open without a seat: the seat link."""


def _outside_by_seat_link(app: Flask) -> None:
    """From outside the home network (``web.home``) the seat link is the only key: a request
    opens the link itself, or comes from a session that joined a seat of the game now played
    (then it sees and does what that seat's phone may, never what the PIN may)."""

    @app.before_request
    def seat_link_or_nothing() -> Response | None:
        if from_home() or request.endpoint == OUTSIDE_KEY:
            return None
        if my_seat(app.config["TABLE"].overview().game_id) is not None:
            return None
        words = (
            "From outside the home network this page opens only by a seat link: ask the table for yours "
            f"({outside_words()})."
        )
        if request.path.startswith("/api/"):
            response = jsonify({"error": words})
            response.status_code = 403
            return response
        return Response(render_template("message.html", title="Open your seat link", words=words), status=403)


def _security(app: Flask) -> None:
    """The nonce for a page's own inline style and script, and the headers every answer carries."""

    @app.context_processor
    def csp_nonce() -> dict[str, str]:
        """The nonce of this response's own inline ``<style>`` and ``<script>`` (a page's seat
        colours, the review's progress): made when a template is drawn."""
        if "csp_nonce" not in g:
            g.csp_nonce = secrets.token_urlsafe(16)
        return {"csp_nonce": g.csp_nonce}

    @app.after_request
    def security_headers(response: Response) -> Response:
        """Only the page's own scripts and styles run (CSP; no inline handlers or style
        attributes), no guessing of content types, and no Referer: seat links carry tokens."""
        own = f"'self' 'nonce-{g.csp_nonce}'" if "csp_nonce" in g else "'self'"
        for name, value in guard_headers(own):
            response.headers.setdefault(name, value)
        return response


def guard_headers(own: str = "'self'") -> tuple[tuple[str, str], ...]:
    """The headers on every answer, the server's own refusals too (``own``: where the page's
    scripts and styles may come from)."""
    policy = (
        f"default-src 'self'; script-src {own}; style-src {own}; img-src 'self' data:; connect-src 'self'; "
        "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    )
    return (
        ("Content-Security-Policy", policy),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"),
    )


PAGE_ERRORS = {404: ("No such page", "There is no page at this address.")}


def _errors_as_json(app: Flask) -> None:
    """An error under /api/ answers JSON with one sentence; a page answers a plain page with
    the way back to the board (never Flask's bare text)."""

    @app.errorhandler(HTTPException)
    def json_errors_under_api(error: HTTPException) -> Response:
        code = error.code or 500
        if request.path.startswith("/api/"):
            response = jsonify({"error": http_words(error)})
            response.status_code = code
            return response
        title, words = PAGE_ERRORS.get(code, (error.name, http_words(error)))
        return Response(render_template("message.html", title=title, words=words), status=code)
