"""Issue "Hardening, second round: nobody can shut the table out", item 6: "Send a
Content-Security-Policy that allows only the page's own scripts and styles,
``X-Content-Type-Options: nosniff``, and ``Referrer-Policy: no-referrer`` (seat links carry
tokens)." Every route of the real daemon, with every method it takes, answered or refused,
and the pages and errors around them; the templates hold nothing the policy would refuse.
"""

from __future__ import annotations

import http.client
import json
import re
import socket
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from referee.settings.config import Config
from referee.table.table import Table
from tests.real_daemon import Daemon
from web import create_app

TEMPLATES = Path(__file__).parent.parent / "web" / "templates"
SAMPLE = {
    "game_id": "1",
    "seat": "0",
    "token": "not-a-token",
    "action": "next",
    "filename": "app.js",
    "version": "0123456789",
}


def routes(tmp_path: Path) -> list[tuple[str, str]]:
    """(method, path) for every rule of the app, with sample arguments."""
    table = Table.build(Config.simulated(str(tmp_path / "routes")))
    rules = list(create_app(table).url_map.iter_rules())
    found = []
    for rule in rules:
        path = re.sub(r"<(?:[^>:]+:)?([^>]+)>", lambda match: SAMPLE[match.group(1)], rule.rule)
        found += [(method, path) for method in sorted(rule.methods - {"HEAD", "OPTIONS"})]  # type: ignore[operator]
    return found


def fetch(
    port: int, method: str, path: str, body: bytes | None = None, host: str = "127.0.0.1"
) -> tuple[int, http.client.HTTPResponse, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    headers = {"Host": host, "Content-Type": "application/json"}
    connection.request(method, path, body if body is not None else (b"{}" if method == "POST" else None), headers)
    response = connection.getresponse()
    data = response.read()
    connection.close()
    return response.status, response, data


def check(headers: dict[str, str], where: str) -> str:
    """The three headers; gives back the policy."""
    policy = headers.get("Content-Security-Policy", "")
    directives = {part.split()[0]: part.split()[1:] for part in policy.split(";") if part.strip()}
    assert directives.get("default-src") == ["'self'"], (where, policy)
    for kind in ("script-src", "style-src"):
        sources = directives.get(kind, [])
        assert sources[:1] == ["'self'"] and all(s.startswith("'nonce-") for s in sources[1:]), (where, kind, policy)
    assert directives.get("object-src") == ["'none'"] and directives.get("frame-ancestors") == ["'none'"], (
        where,
        policy,
    )
    assert headers.get("X-Content-Type-Options") == "nosniff", where
    assert headers.get("Referrer-Policy") == "no-referrer", where
    return policy


def test_every_answer_carries_the_three_headers(tmp_path: Path) -> None:
    daemon = Daemon(tmp_path / "data", extra=["--pin", "1357"])
    daemon.start()
    try:
        asked = routes(tmp_path)
        assert len(asked) > 25 and ("POST", "/api/games") in asked and ("GET", "/join/0/not-a-token") in asked
        statuses = set()
        for method, path in asked:
            if path == "/api/events":
                continue  # a stream: below
            status, response, _ = fetch(daemon.port, method, path)
            statuses.add(status)
            check(dict(response.getheaders()), f"{method} {path} ({status})")
        assert {200, 400, 403} <= statuses  # answered and refused alike
        for method, path, body, host in [
            ("GET", "/nowhere", None, "127.0.0.1"),
            ("GET", "/api/nowhere", None, "127.0.0.1"),
            ("GET", "/", None, "evil.example"),
            ("POST", "/api/login", b"{", "127.0.0.1"),
            ("POST", "/api/login", json.dumps({"pin": "0" * 70_000}).encode(), "127.0.0.1"),
            ("GET", "/static/nothing.js", None, "127.0.0.1"),
        ]:
            status, response, _ = fetch(daemon.port, method, path, body, host)
            assert status >= 400
            check(dict(response.getheaders()), f"{method} {path} as {host} ({status})")
        with socket.create_connection(("127.0.0.1", daemon.port), timeout=10) as stream:
            stream.sendall(b"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            head = b""
            while b"\r\n\r\n" not in head:
                head += stream.recv(4096)
        lines = head.split(b"\r\n\r\n")[0].decode().split("\r\n")
        assert lines[0] == "HTTP/1.1 200 OK"
        check(dict(line.split(": ", 1) for line in lines[1:]), "the live stream")
    finally:
        daemon.stop()


@pytest.mark.parametrize("path", ["/", "/games", "/games/1", "/join/0/not-a-token"])
def test_a_page_s_own_inline_style_and_script_carry_its_nonce(client: FlaskClient, path: str) -> None:
    """The only inline blocks allowed are the ones the daemon drew for this answer: their
    nonce is the header's, and a new one each time."""
    nonces = []
    for _ in range(2):
        response = client.get(path)
        policy = check(dict(response.headers), path)
        nonce = re.search(r"'nonce-([^']+)'", policy)
        assert nonce is not None, policy
        html = response.get_data(as_text=True)
        blocks = re.findall(r"<(style|script)\b([^>]*)>", html)
        assert blocks and all(
            f'nonce="{nonce.group(1)}"' in attributes or "src=" in attributes for _, attributes in blocks
        ), blocks
        assert not re.search(r"\sstyle=|\son[a-z]+=", html), path
        nonces.append(nonce.group(1))
    assert nonces[0] != nonces[1] and len(nonces[0]) >= 16


@pytest.mark.parametrize("template", sorted(TEMPLATES.glob("*.html")), ids=lambda path: path.name)
def test_the_templates_hold_nothing_the_policy_refuses(template: Path) -> None:
    """No style attributes, inline event handlers or ``javascript:`` links (a nonce cannot
    allow them), and every inline ``<style>``/``<script>`` carries the nonce."""
    source = template.read_text()
    assert not re.search(r"\sstyle\s*=|\son[a-z]+\s*=|javascript:", source, re.IGNORECASE), template.name
    for tag, attributes in re.findall(r"<(style|script)\b([^>]*)>", source):
        assert 'nonce="{{ csp_nonce }}"' in attributes or "src=" in attributes, (template.name, tag, attributes)


def test_the_servers_own_refusals_carry_the_three_headers(tmp_path: Path) -> None:
    """Requests waitress answers itself, before the app sees them: a broken request line
    (400), a body over the server's limit (413), headers over its limit (431)."""
    daemon = Daemon(tmp_path / "data")
    daemon.start()
    try:
        for raw, status in [
            (b"GARBAGE\r\n\r\n", 400),
            (b"POST /api/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 999999999\r\n\r\n", 413),
            (b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"a" * 40_000 + b"\r\n\r\n", 431),
        ]:
            with socket.create_connection(("127.0.0.1", daemon.port), timeout=10) as stream:
                stream.sendall(raw)
                head = b""
                while b"\r\n\r\n" not in head:
                    head += stream.recv(4096)
            lines = head.split(b"\r\n\r\n")[0].decode().split("\r\n")
            assert lines[0].startswith(f"HTTP/1.1 {status}") or lines[0].startswith(f"HTTP/1.0 {status}"), lines[0]
            check(dict(line.split(": ", 1) for line in lines[1:]), lines[0])
    finally:
        daemon.stop()
