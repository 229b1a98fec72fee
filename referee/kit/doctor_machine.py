"""What ``pegs doctor`` looks at: the checked system's files, its commands, its daemon and its
sensor board, behind one ``Machine`` so that every check runs on a fake tree in the tests.

    machine = Machine(Path("/media/sd-card"))     # another Pi's SD card: files only
    machine.read("/boot/firmware/config.txt")
    machine.daemon_health(8080)                   # this machine's daemon, or who else answers

The daemon and the sensor board are asked only when the checked system is this machine's own.
"""

from __future__ import annotations

import http.client
import json
import os
import shutil
import subprocess
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

MAX_HEALTH = 1 << 20  # bytes of /api/health read at most
NOT_HTTP = "something that does not answer like a web server"

RunCommand = Callable[[list[str]], "tuple[int, str] | None"]
Health = dict[str, Any] | str | None  # the web port's health view; words for another answer; None: nobody there
Probe = Callable[[str, int, str], "int | str | None"]  # address, port, Host: HTTP status, words, None: nobody


def _run(argv: list[str]) -> tuple[int, str] | None:
    """Run a command: its status and output, or None when it is not installed."""
    if shutil.which(argv[0]) is None:
        return None
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=10, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.returncode, done.stdout.strip()


@dataclass
class Machine:
    """What doctor looks at: files under ``root``, commands, and the daemon's health page.

    ``device_channels(port)`` is the channel count in the sensor board's hello, None when it
    says none, or words saying why it could not be asked (its port in use). ``here``: whether
    ``root`` is this machine's own system, whose daemon and sensor board can be asked (None:
    when ``root`` is "/"; tests set it for a fake tree)."""

    root: Path = Path("/")
    run: RunCommand = _run
    web_port: int | None = None  # the daemon's page; None: the config's [web] port
    device_channels: Callable[[str], int | str | None] = field(default=lambda port: _ask_device(port))
    here: bool | None = None
    probe: Probe = field(default=lambda address, port, host: _probe(address, port, host))

    @property
    def local(self) -> bool:
        """Whether the daemon and the sensor board of the checked system are reachable from here."""
        return self.here if self.here is not None else self.root.resolve() == Path("/")

    def path(self, name: str) -> Path:
        """``name`` inside the checked system (a relative name: from the working directory)."""
        path = Path(name)
        return self.root / path.relative_to("/") if path.is_absolute() else path

    def read(self, name: str) -> str | None:
        try:
            return self.path(name).read_text(encoding="utf-8", errors="replace")
        except OSError:
            return None

    def exists(self, name: str) -> bool:
        return os.path.lexists(self.path(name))

    def daemon_health(self, port: int) -> Health:
        """What answers /api/health on the web port: a JSON object, or words for another answer
        (a program that is not the pegs daemon may hold the port), or None when nothing listens."""
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.web_port or port}/api/health", timeout=2) as answer:
                body = answer.read(MAX_HEALTH)
        except urllib.error.HTTPError as error:
            return f"something that answers /api/health with HTTP {error.code}"
        except urllib.error.URLError as error:
            return None if isinstance(error.reason, ConnectionRefusedError) else NOT_HTTP
        except (OSError, http.client.HTTPException):
            return NOT_HTTP
        try:
            health = json.loads(body)
        except ValueError:
            return "something whose /api/health is not JSON"
        return health if isinstance(health, dict) else "something whose /api/health is not a health view"


def _probe(address: str, port: int, host: str) -> int | str | None:
    """The HTTP status of ``/api/health`` at ``address:port`` asked by the name ``host`` (as a
    player's phone on the tailnet asks), words when something else answers, None when nothing
    listens there."""
    connection = http.client.HTTPConnection(address, port, timeout=3)
    try:
        connection.request("GET", "/api/health", headers={"Host": host})
        return connection.getresponse().status
    except ConnectionRefusedError:
        return None
    except (OSError, http.client.HTTPException) as error:
        return " ".join(str(error).split())[:80] or type(error).__name__
    finally:
        connection.close()


def _ask_device(port: str) -> int | str | None:
    """The channel count the sensor board says in its hello; words when its port cannot be
    had (never read a port another program reads: each would steal the other's lines)."""
    import errno

    import serial

    from firmware_bridge.link import SerialLink

    try:
        serial.Serial(port, exclusive=True).close()
    except (serial.SerialException, OSError, ValueError) as error:
        if "lock" in str(error).lower() or getattr(error, "errno", None) == errno.EBUSY:
            return "is in use by another program (a pegs daemon of another config?)"
        return "cannot be opened: " + (" ".join(str(error).split())[:120] or type(error).__name__)
    link = SerialLink(port)
    link.start()
    try:
        return link.health.channels if link.wait_connected(3.0) else None
    finally:
        link.stop()
