"""``pegs doctor``'s checks for a player away from home (docs/building.md, section 13).

- **away from home**: Tailscale (``tailscale status --json``) or WireGuard (``ip -json address
  show type wireguard``): not set up is fine (only needed for a player away from home); set up
  but down, the page not answering on the tailnet address, or its MagicDNS name not in
  ``[web] allowed_hosts`` needs a fix; so does ``tailscale serve`` or ``funnel`` on the Pi
  (a proxy there makes every visitor look like the Pi itself, that is, at home).
- **home network**: ``[web] home`` must not list everything, a public range or a WireGuard
  interface's network: the owner's pages open to whoever is in it (the tailnet is never home:
  ``web.home.TAILNET``).
- **router**: the page's port must never be forwarded; with miniupnpc installed the router is
  asked for its forwards (UPnP), else the advice alone is said.

Commands run through ``Machine.run`` and the page is asked through ``Machine.probe``, so the
tests fake both; with ``--root`` (another Pi's card) nothing of this machine's is asked.
"""

from __future__ import annotations

import ipaddress
import json
from dataclasses import dataclass
from typing import Any

from referee.kit.doctor_machine import Machine
from referee.kit.finding import Finding

GUIDE = "docs/building.md, section 13"
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")
Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Interface = ipaddress.IPv4Interface | ipaddress.IPv6Interface


@dataclass(frozen=True)
class WebSide:
    """What of the config the checks read: its ``[web]`` section, and the file's name."""

    home: tuple[str, ...]
    host: str
    port: int
    allowed_hosts: tuple[str, ...]
    config_path: str


def remote_findings(machine: Machine, web: WebSide) -> list[Finding]:
    """The three findings, in the order the guide's section sets them up."""
    if not machine.local:
        words = f"Tailscale, WireGuard and the router are checked on the Pi itself ({GUIDE})"
        return [Finding("away from home", None, words), _home_finding(web, {})]
    tunnels = _wireguard(machine)
    return [_away_finding(machine, web, tunnels), _home_finding(web, tunnels), _router_finding(machine, web)]


# -- the VPN ---------------------------------------------------------------------------------


def _away_finding(machine: Machine, web: WebSide, tunnels: dict[str, list[Interface]]) -> Finding:
    status = machine.run(["tailscale", "status", "--json"])
    if status is None and not tunnels:
        return Finding("away from home", True, f"not set up (only needed for a player away from home: {GUIDE})")
    if status is None:
        name, addresses = next(iter(tunnels.items()))
        own = min(addresses, key=lambda interface: interface.version).ip  # IPv4 first
        return _page_there(machine, web, f"WireGuard {name}", str(own), "")
    return _tailscale_finding(machine, web, _json(status[1]))


def _tailscale_finding(machine: Machine, web: WebSide, status: Any) -> Finding:
    if not isinstance(status, dict) or not isinstance(status.get("BackendState"), str):
        return Finding("away from home", None, "tailscale is installed but its status could not be read")
    if status["BackendState"] != "Running":
        words = f"Tailscale is installed but {status['BackendState']}: a player away from home cannot reach the Pi"
        return Finding("away from home", False, words, "sudo tailscale up")
    me = status["Self"] if isinstance(status.get("Self"), dict) else {}
    addresses = [a for a in me.get("TailscaleIPs") or [] if isinstance(a, str) and ":" not in a]
    name = str(me.get("DNSName") or "").rstrip(".").lower()
    if not addresses:
        return Finding("away from home", None, "Tailscale is up but says no 100.x address for this Pi")
    served = machine.run(["tailscale", "serve", "status", "--json"])
    if served is not None and served[0] == 0 and _json(served[1]) not in (None, {}, []):
        return Finding(
            "away from home",
            False,
            "tailscale serve (or funnel) is set up on this Pi: what it passes on comes from the Pi itself, "
            "which counts as home, so the owner's pages would open to whoever it serves",
            "sudo tailscale funnel reset && sudo tailscale serve reset  (players open http://NAME:PORT/ directly)",
        )
    return _page_there(machine, web, "Tailscale", addresses[0], name)


def _page_there(machine: Machine, web: WebSide, tunnel: str, address: str, name: str) -> Finding:
    """Whether the page answers a player's phone at the tunnel's address, by the name it uses."""
    if web.host in LOOPBACK_HOSTS:
        words = f"{tunnel} is up ({address}) but the page listens on {web.host} only"
        return Finding("away from home", False, words, f'set host = "0.0.0.0" under [web] in {web.config_path}')
    host = f"{name or address}:{web.port}"
    answer = machine.probe(address, web.port, host)
    url = f"http://{host}/"
    if answer == 200:
        return Finding("away from home", True, f"{tunnel} is up: a player's phone on it opens {url}")
    if answer == 400 and name:
        words = f"{tunnel} is up but the page refuses the name {name} (it answers to its own names only)"
        return Finding(
            "away from home", False, words, f'add allowed_hosts = ["{name}"] under [web] in {web.config_path}'
        )
    said = "nothing answers" if answer is None else f"it answers {answer}"
    words = f"{tunnel} is up but {url} does not open: {said} on {address}:{web.port}"
    return Finding("away from home", False, words, "sudo systemctl restart pegs; then pegs doctor again")


def _wireguard(machine: Machine) -> dict[str, list[Interface]]:
    """Each WireGuard interface and its addresses with their networks (``ip -json``: no root
    needed, unlike ``wg show``)."""
    answer = machine.run(["ip", "-json", "address", "show", "type", "wireguard"])
    links = _json(answer[1]) if answer is not None and answer[0] == 0 else None
    tunnels: dict[str, list[Interface]] = {}
    for link in links if isinstance(links, list) else []:
        if not isinstance(link, dict) or not isinstance(link.get("ifname"), str):
            continue
        for info in link.get("addr_info") or []:
            try:
                tunnels.setdefault(link["ifname"], []).append(
                    ipaddress.ip_interface(f"{info['local']}/{info['prefixlen']}")
                )
            except (TypeError, KeyError, ValueError):
                continue
    return tunnels


# -- the home list and the router ----------------------------------------------------------------


def _home_finding(web: WebSide, tunnels: dict[str, list[Interface]]) -> Finding:
    home = [ipaddress.ip_network(network, strict=False) for network in web.home]
    fix = f'list only your own LAN under [web] home in {web.config_path}, like home = ["192.168.1.0/24", "127.0.0.0/8"]'
    wide = [str(n) for n in home if n.prefixlen == 0]
    if wide:
        return Finding("home network", False, f"[web] home lists {wide[0]}: everyone gets the owner's pages", fix)
    public = [str(n) for n in home if not (n.is_private or n.is_loopback or n.is_link_local)]
    if public:
        words = f"[web] home lists {public[0]}, not a private range: whoever has such an address gets the owner's pages"
        return Finding("home network", False, words, fix)
    for name, addresses in tunnels.items():
        inside = [a.network for a in addresses if any(_within(a.network, h) for h in home)]
        if inside:
            words = f"WireGuard's {name} ({inside[0]}) is inside [web] home: its players would get the owner's pages"
            return Finding("home network", False, words, fix + f", or number {name} from a range outside it")
    return Finding("home network", True, f"the owner's pages open only from {', '.join(web.home)}")


def _within(network: Network, home: Network) -> bool:
    return network.version == home.version and network.overlaps(home)


def _router_finding(machine: Machine, web: WebSide) -> Finding:
    advice = f"never forward port {web.port} on the router: a player away from home comes in by Tailscale or WireGuard"
    answer = machine.run(["upnpc", "-l"])
    if answer is None:
        return Finding("router", True, advice + " (with miniupnpc installed, doctor asks the router for its forwards)")
    forwards = [line.strip() for line in answer[1].splitlines() if f"{web.port}->" in line.replace(" ", "")]
    if forwards:
        words = f"the router forwards port {web.port} (UPnP: {forwards[0][:80]}): the page is open to the internet"
        return Finding("router", False, words, "remove that forward in the router's settings, and turn UPnP off there")
    return Finding("router", True, advice + " (the router says no forward of it, by UPnP)")


def _json(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return None
