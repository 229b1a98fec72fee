"""Fake Raspberry Pi trees for ``pegs doctor`` (/proc, /boot/firmware, /sys, /etc, /dev under a
temporary root), its ``systemctl``, and a web server answering its /api/health.

    found = by_what(examine(Machine(ready_pi4(tmp_path), run=systemd(), ...)))
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from referee.kit.doctor import Finding
from referee.kit.doctor_machine import RunCommand

DEPLOY = Path(__file__).parent.parent / "deploy"
PI4 = "Raspberry Pi 4 Model B Rev 1.4\0"
PI3 = "Raspberry Pi 3 Model B Plus Rev 1.3\0"
ZERO2 = "Raspberry Pi Zero 2 W Rev 1.0\0"
PI5 = "Raspberry Pi 5 Model B Rev 1.0\0"
TRIXIE = 'PRETTY_NAME="Debian GNU/Linux 13 (trixie)"\nVERSION_CODENAME=trixie\n'
GROUPS_OK = "root:x:0:\ngpio:x:997:pegs\nspi:x:999:pegs\ndialout:x:20:pegs\npegs:x:990:\n"


def write_tree(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name.lstrip("/")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def write_config(root: Path, leds: str = "neopixel-spi", extra: str = "") -> None:
    text = (DEPLOY / "pegs.toml").read_text().replace('backend = "neopixel-spi"', f'backend = "{leds}"') + extra
    write_tree(root, {"/etc/pegs/pegs.toml": text})


def a_pi(root: Path, model: str, config_txt: str = "", cmdline: str = "console=tty1 root=PARTUUID=1 rootwait") -> Path:
    return write_tree(
        root,
        {
            "/proc/device-tree/model": model,
            "/etc/os-release": TRIXIE,
            "/boot/firmware/config.txt": config_txt,
            "/boot/firmware/cmdline.txt": cmdline + "\n",
        },
    )


def ready_pi4(root: Path) -> Path:
    """A Pi 4 as install.sh leaves it, after the reboot."""
    a_pi(
        root,
        PI4,
        "[all]\ndtparam=spi=on\ncore_freq=500\ncore_freq_min=500\n",
        "console=tty1 root=PARTUUID=1 rootwait spidev.bufsiz=65536",
    )
    write_tree(
        root,
        {
            "/sys/module/spidev/parameters/bufsiz": "65536\n",
            "/dev/spidev0.0": "",
            "/dev/pegs-board": "",
            "/etc/group": GROUPS_OK,
            "/etc/passwd": "root:x:0:0::/root:/bin/bash\npegs:x:990:990::/var/lib/pegs:/usr/sbin/nologin\n",
            "/etc/udev/rules.d/99-pegs-board.rules": 'SUBSYSTEM=="tty"\n',
        },
    )
    os.chmod(root / "dev/pegs-board", 0o666)
    write_config(root)
    return root


def systemd(active: str = "active", enabled: str = "enabled") -> RunCommand:
    """``systemctl is-active``/``is-enabled`` answering ``active`` and ``enabled``; nothing else installed."""

    def run(argv: list[str]) -> tuple[int, str] | None:
        if argv[0] != "systemctl":
            return None  # not installed: tailscale, ip, upnpc (tests/test_doctor_remote.py fakes them)
        state = active if argv[1] == "is-active" else enabled
        return (0 if state in ("active", "enabled") else 3), state

    return run


def by_what(findings: list[Finding]) -> dict[str, Finding]:
    return {finding.what: finding for finding in findings}


@contextmanager
def answering(body: bytes, asked: list[str] | None = None) -> Iterator[int]:
    """A real web server on a free port of 127.0.0.1 whose /api/health answers ``body``; its port."""

    class Health(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            (asked if asked is not None else []).append(self.path)
            self.send_response(200 if self.path == "/api/health" else 404)
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Health)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()
