"""Issue 36: what ``pegs doctor`` says of a player away from home. Every command goes through
the ``Machine``'s run seam and the page through its probe: tailscale, ip and upnpc are faked,
never run."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from referee.kit.doctor import Finding, examine
from referee.kit.doctor_machine import Machine

NAME = "pegs-pi.tail1234.ts.net"
UP = {
    "BackendState": "Running",
    "Self": {"DNSName": NAME + ".", "HostName": "pegs-pi", "TailscaleIPs": ["100.101.102.103", "fd7a:115c:a1e0::1"]},
}
WG0 = [{"ifname": "wg0", "addr_info": [{"family": "inet", "local": "10.8.0.1", "prefixlen": 24}]}]


def _config(root: Path, web: str = "") -> None:
    path = root / "etc/pegs/pegs.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"[sensors]\nbackend = 'simulated'\n[leds]\nbackend = 'memory'\n[web]\nhost = '0.0.0.0'\n{web}")


def _commands(answers: dict[str, tuple[int, str]]) -> Callable[[list[str]], tuple[int, str] | None]:
    """A machine with these commands installed (by their first words), and no other."""

    def run(argv: list[str]) -> tuple[int, str] | None:
        for words, answer in answers.items():
            if argv[: len(words.split())] == words.split():
                return answer
        return None

    return run


def _found(root: Path, answers: dict[str, tuple[int, str]], probe: object = None) -> dict[str, Finding]:
    asked: list[tuple[str, int, str]] = []

    def probing(address: str, port: int, host: str) -> int | str | None:
        asked.append((address, port, host))
        return probe(address, port, host) if callable(probe) else 200

    machine = Machine(root, run=_commands(answers), web_port=8080, here=True, probe=probing)
    found = {finding.what: finding for finding in examine(machine)}
    found["asked"] = Finding("asked", None, json.dumps(asked))
    return found


def test_no_tailscale_is_not_set_up_never_a_fault(tmp_path: Path) -> None:
    _config(tmp_path)
    found = _found(tmp_path, {})
    assert found["away from home"].ok is True
    assert "not set up (only needed for a player away from home" in found["away from home"].words
    assert found["home network"].ok is True
    assert found["router"].ok is True and "never forward port 8080 on the router" in found["router"].words
    assert found["asked"].words == "[]"


def test_tailscale_up_and_the_page_answering_its_magicdns_name(tmp_path: Path) -> None:
    _config(tmp_path, f"allowed_hosts = ['{NAME}']\n")
    found = _found(tmp_path, {"tailscale status": (0, json.dumps(UP)), "tailscale serve": (0, "{}")})
    assert found["away from home"].ok is True, found["away from home"]
    assert f"http://{NAME}:8080/" in found["away from home"].words
    assert json.loads(found["asked"].words) == [["100.101.102.103", 8080, f"{NAME}:8080"]]


def test_tailscale_down_names_the_command(tmp_path: Path) -> None:
    _config(tmp_path)
    down = {"tailscale status": (1, json.dumps({"BackendState": "NeedsLogin", "Self": {}}))}
    found = _found(tmp_path, down)
    assert found["away from home"].ok is False and found["away from home"].fix == "sudo tailscale up"


@pytest.mark.parametrize(
    ("answer", "fix"),
    [(400, f'allowed_hosts = ["{NAME}"]'), (None, "sudo systemctl restart pegs"), ("connection reset", "restart")],
)
def test_the_page_not_answering_on_the_tailnet_says_why(tmp_path: Path, answer: int | str | None, fix: str) -> None:
    _config(tmp_path)
    found = _found(tmp_path, {"tailscale status": (0, json.dumps(UP))}, lambda *asked: answer)
    assert found["away from home"].ok is False and fix in found["away from home"].fix, found["away from home"]


def test_a_page_on_loopback_only_is_not_on_the_tailnet(tmp_path: Path) -> None:
    _config(tmp_path)
    config = tmp_path / "etc/pegs/pegs.toml"
    config.write_text(config.read_text().replace("0.0.0.0", "127.0.0.1"))
    found = _found(tmp_path, {"tailscale status": (0, json.dumps(UP))})
    assert found["away from home"].ok is False and 'host = "0.0.0.0"' in found["away from home"].fix
    assert found["asked"].words == "[]"


def test_tailscale_serve_in_front_of_the_page_is_refused(tmp_path: Path) -> None:
    _config(tmp_path, f"allowed_hosts = ['{NAME}']\n")
    served = {
        "TCP": {"443": {"HTTPS": True}},
        "Web": {f"{NAME}:443": {"Handlers": {"/": {"Proxy": "http://127.0.0.1:8080"}}}},
    }
    found = _found(tmp_path, {"tailscale status": (0, json.dumps(UP)), "tailscale serve": (0, json.dumps(served))})
    away = found["away from home"]
    assert away.ok is False and "counts as home" in away.words and "tailscale serve reset" in away.fix


@pytest.mark.parametrize(
    ("home", "said"),
    [
        ('["0.0.0.0/0"]', "everyone gets the owner's pages"),
        ('["192.168.1.0/24", "8.8.8.0/24"]', "8.8.8.0/24, not a private range"),
        ('["::/0"]', "everyone"),
    ],
)
def test_a_home_list_too_wide_is_a_fix(tmp_path: Path, home: str, said: str) -> None:
    _config(tmp_path, f"home = {home}\n")
    found = _found(tmp_path, {})
    assert found["home network"].ok is False and said in found["home network"].words
    assert "[web] home" in found["home network"].fix


def test_wireguard_peers_inside_the_home_list_are_named(tmp_path: Path) -> None:
    _config(tmp_path)
    found = _found(tmp_path, {"ip -json address": (0, json.dumps(WG0))})
    assert found["away from home"].ok is True and "WireGuard wg0" in found["away from home"].words
    assert json.loads(found["asked"].words) == [["10.8.0.1", 8080, "10.8.0.1:8080"]]
    home = found["home network"]
    assert home.ok is False and "wg0 (10.8.0.0/24) is inside [web] home" in home.words and "wg0" in home.fix
    _config(tmp_path, 'home = ["192.168.1.0/24", "127.0.0.0/8"]\n')
    assert _found(tmp_path, {"ip -json address": (0, json.dumps(WG0))})["home network"].ok is True


def test_a_port_forward_the_router_says_is_a_fix(tmp_path: Path) -> None:
    _config(tmp_path)
    table = " i protocol exPort->inAddr:inPort description remoteHost leaseTime\n 0 TCP  8080->192.168.1.20:8080 'pegs' '' 0\n"
    found = _found(tmp_path, {"upnpc -l": (0, table)})
    assert found["router"].ok is False and "open to the internet" in found["router"].words
    other = table.replace("8080->", "2222->").replace(":8080", ":22")
    assert _found(tmp_path, {"upnpc -l": (0, other)})["router"].ok is True


@pytest.mark.parametrize("garbage", ["", "not json", "[]", '{"BackendState": 3}', '{"BackendState": "Running"}', "\0"])
def test_garbage_from_tailscale_or_ip_never_makes_a_traceback(tmp_path: Path, garbage: str) -> None:
    _config(tmp_path)
    found = _found(tmp_path, {"tailscale": (0, garbage), "ip": (0, garbage), "upnpc": (0, garbage)})
    assert all(isinstance(finding.words, str) and finding.words for finding in found.values())


def test_with_root_nothing_of_this_machine_is_asked(tmp_path: Path) -> None:
    _config(tmp_path)
    asked: list[list[str]] = []

    def run(argv: list[str]) -> tuple[int, str] | None:
        asked.append(argv)
        return None

    found = {f.what: f for f in examine(Machine(tmp_path, run=run, web_port=8080))}
    assert found["away from home"].ok is None and "on the Pi itself" in found["away from home"].words
    assert not [argv for argv in asked if argv[0] in ("tailscale", "ip", "upnpc")]
