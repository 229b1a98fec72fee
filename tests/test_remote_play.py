"""Issue 36, "From another house": a player away from home plays by the seat link alone.

The real daemon (``pegs serve --config``) runs with ``[web] home = ["127.0.0.1/32"]``: the
owner talks to it from 127.0.0.1 (home), the player from 127.0.0.2, another loopback address
standing for a phone on the tailnet (outside). Each phone is a real socket bound to its own
source address, so the daemon sees the address a phone elsewhere would have.
"""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from referee.settings.config import HOME, Config, ConfigError
from tests.phone_client import HttpPhone
from tests.real_daemon import free_port
from web import unlock
from web.home import HOME_ONLY, HomeNetworks

PIN = "2468"
HOME_ADDRESS, AWAY = "127.0.0.1", "127.0.0.2"
TAILNET_NAME = "pegs-pi.tail1234.ts.net"


class Server:
    """``pegs serve --config``: the daemon as a Pi runs it, on a port of its own."""

    def __init__(self, tmp: Path) -> None:
        self.port = free_port()
        self.data = tmp / "data"
        self.config = tmp / "pegs.toml"
        self.config.write_text(
            "[sensors]\nbackend = 'simulated'\n[leds]\nbackend = 'memory'\n[game]\nmode = 'digital'\n"
            f"[web]\nhost = '127.0.0.1'\nport = {self.port}\npin = '{PIN}'\n"
            f"home = ['127.0.0.1/32']\nallowed_hosts = ['{TAILNET_NAME}']\n"
            f"[data]\ndir = '{self.data}'\n"
        )
        self.process = subprocess.Popen(
            [sys.executable, "-m", "referee.cli", "serve", "--config", str(self.config)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )

    def wait(self) -> None:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                if Phone(self, HOME_ADDRESS).call("GET", "/api/health")[0] == 200:
                    return
            except OSError:
                if self.process.poll() is not None:
                    raise AssertionError(f"the daemon died: {self.process.stderr.read()}") from None  # type: ignore[union-attr]
                time.sleep(0.05)
        raise AssertionError("the daemon did not answer within 30 s")

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(10)


class Phone(HttpPhone):
    """A browser on its own source address, at the server's page (``host``: the name it asks for)."""

    def __init__(self, server: Server, address: str, host: str | None = None) -> None:
        super().__init__(server.port, address, host)
        self.server = server

    def me(self) -> dict[str, Any]:
        status, reply = self.call("GET", "/api/me")
        assert status == 200, reply
        self.csrf = reply["csrf"]
        return dict(reply)

    def login(self) -> tuple[int, Any]:
        status, reply = self.call("POST", "/api/login", {"pin": PIN})
        if status == 200:
            self.csrf = reply["csrf"]
        return status, reply

    def first_event(self) -> tuple[int, bytes]:
        """The event stream's status and its first state, as a seat's page hears it."""
        with socket.create_connection(("127.0.0.1", self.server.port), 10, source_address=(self.address, 0)) as sock:
            cookie = "; ".join(f"{name}={value}" for name, value in self.cookies.items())
            sock.sendall(f"GET /api/events HTTP/1.1\r\nHost: {self.host}\r\nCookie: {cookie}\r\n\r\n".encode())
            received = b""
            while b"data:" not in received and len(received) < 1 << 20:
                chunk = sock.recv(65536)
                if not chunk:
                    break
                received += chunk
        return int(received.split(b" ", 2)[1]), received


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("remote"))
    try:
        running.wait()
        yield running
    finally:
        running.stop()


def _seat_path(owner: Phone, seat: int) -> str:
    status, links = owner.call("GET", "/api/seats")
    assert status == 200, links
    link = str(next(row["link"] for row in links if row["seat"] == seat))
    return "/join/" + link.split("/join/", 1)[1]


def _refused_as_outside(reply: Any) -> bool:
    words = reply["error"] if isinstance(reply, dict) else str(reply)
    return HOME_ONLY in words.replace("&#39;", "'")


def test_the_seat_link_opens_the_seat_from_outside_and_nothing_else(server: Server) -> None:
    owner = Phone(server, HOME_ADDRESS)
    assert owner.login()[0] == 200
    link = _seat_path(owner, 0)
    away = Phone(server, AWAY)
    for path in ("/", "/api/state", "/api/me", "/api/hand", "/games"):  # no seat yet: nothing opens
        status, reply = away.call("GET", path)
        assert status == 403 and _refused_as_outside(reply), (path, reply)
    assert "seat link" in str(away.call("GET", "/")[1])
    assert away.call("GET", link)[0] == 302  # the key
    me = away.me()
    assert me["seat"] == 0 and me["admin"] is False
    assert away.call("GET", "/")[0] == 200
    status, state = away.call("GET", "/api/state")
    assert status == 200 and "turn" in state, sorted(state)
    status, hand = away.call("GET", "/api/hand")
    assert status == 200 and hand, hand
    status, stream = away.first_event()
    assert status == 200 and b"data:" in stream


def test_the_owners_pages_refuse_outside_even_with_the_pin_or_the_owners_cookie(server: Server) -> None:
    owner = Phone(server, HOME_ADDRESS)
    assert owner.login()[0] == 200
    away = Phone(server, AWAY)
    away.call("GET", _seat_path(owner, 1))
    away.me()
    status, reply = away.login()  # the right PIN, from outside
    assert status == 403 and _refused_as_outside(reply) and AWAY in reply["error"]
    thief = Phone(server, AWAY)  # the owner's own cookies, carried outside
    thief.cookies, thief.csrf = dict(owner.cookies), owner.csrf
    thief.call("GET", _seat_path(owner, 1))
    assert thief.me()["admin"] is False
    for method, path, body in (
        ("POST", "/api/undo", {}),
        ("POST", "/api/games", {"players": 4}),
        ("POST", "/api/wiring", {"action": "start"}),
        ("POST", "/api/lesson", {}),
        ("POST", "/api/lesson/leave", {}),
    ):
        for phone in (away, thief):
            status, reply = phone.call(method, path, body)
            assert status == 403 and _refused_as_outside(reply), (path, reply)
    assert thief.call("GET", "/api/seats")[0] == 403
    token = unlock.make(server.data)
    assert away.call("GET", f"/unlock/{token}")[0] == 403
    assert away.me()["admin"] is False
    assert owner.me()["admin"] is True  # at home the same cookie still holds the right


def test_the_same_requests_from_home_work(server: Server) -> None:
    owner = Phone(server, HOME_ADDRESS)
    assert owner.login()[0] == 200
    assert owner.me()["admin"] is True
    status, reply = owner.call("POST", "/api/wiring", {"action": "stop"})
    assert status != 403, reply
    player = Phone(server, HOME_ADDRESS)
    assert player.call("GET", "/api/state")[0] == 200  # at home, watching needs no link
    assert player.call("GET", _seat_path(owner, 2))[0] == 302
    assert player.me()["seat"] == 2
    assert player.call("GET", "/api/hand")[0] == 200


def test_a_new_game_makes_new_links_and_the_old_one_opens_nothing_outside(server: Server) -> None:
    owner = Phone(server, HOME_ADDRESS)
    assert owner.login()[0] == 200
    away = Phone(server, AWAY)
    away.call("GET", _seat_path(owner, 3))
    assert away.call("GET", "/api/state")[0] == 200
    status, reply = owner.call("POST", "/api/games", {"players": 4, "mode": "digital"})
    assert status == 200, reply
    status, reply = away.call("GET", "/api/state")
    assert status == 403 and "seat link" in reply["error"]
    assert away.call("GET", _seat_path(owner, 3))[0] == 302
    assert away.call("GET", "/api/state")[0] == 200


def test_the_tailnet_name_is_answered_when_listed_and_rebinding_still_refused(server: Server) -> None:
    assert Phone(server, AWAY, host=f"{TAILNET_NAME}:{server.port}").call("GET", "/api/health")[0] == 403
    status, reply = Phone(server, AWAY, host=f"evil.example:{server.port}").call("GET", "/api/health")
    assert status == 400 and "allowed_hosts" in reply["error"]


# -- the config ---------------------------------------------------------------------------------


def test_home_defaults_to_the_lan_and_the_pis_own_loopback_never_the_tailnet() -> None:
    home = HomeNetworks(Config().home)
    assert Config().home == HOME
    for address in (
        "192.168.1.20",
        "10.0.0.7",
        "172.20.1.1",
        "127.0.0.1",
        "::1",
        "fe80::1%wlan0",
        "::ffff:192.168.1.5",
    ):
        assert home.holds(address), address
    outside: tuple[str | None, ...] = ("100.101.102.103", "fd7a:115c:a1e0::1", "8.8.8.8", "2a02:1::5", "", None, "x")
    for away in outside:
        assert not home.holds(away), away


def test_the_config_reads_home_and_refuses_what_is_not_a_network(tmp_path: Path) -> None:
    def read(line: str) -> Config:
        path = tmp_path / "pegs.toml"
        path.write_text(f"[web]\n{line}\n")
        return Config.from_toml(path)

    assert read('home = ["192.168.1.7/24", "2a02:1:2:3::/64"]').home == ("192.168.1.0/24", "2a02:1:2:3::/64")
    for line, said in (
        ('home = ["192.168.1.300/24"]', "'192.168.1.300/24' is not a network"),
        ('home = "192.168.0.0/16"', "must be a list of networks"),
        ("home = [1]", "must be a list of networks"),
        ("home = []", "is empty"),
    ):
        with pytest.raises(ConfigError, match="web.home") as error:
            read(line)
        assert said in str(error.value)


def test_a_bad_home_stops_the_daemon_in_one_line(tmp_path: Path) -> None:
    config = tmp_path / "pegs.toml"
    config.write_text(f"[web]\nhome = ['pegs-pi']\n[data]\ndir = '{tmp_path}'\n")
    done = subprocess.run(
        [sys.executable, "-m", "referee.cli", "serve", "--config", str(config)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "web.home: 'pegs-pi' is not a network" in done.stderr
