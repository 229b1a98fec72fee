"""The names the page answers to: the Pi's own, never any name a DNS server points at it.

A page on another site whose name resolves to the Pi (DNS rebinding) would otherwise be
"same origin" with the table's page. Every request's ``Host`` must be one of: localhost
and the loopback addresses, the machine's host name and ``<hostname>.local`` (mDNS), its
fully qualified name, every address of its network interfaces (read again for an address
not known at start: Tailscale's 100.x may come up after the daemon), and the names listed
in the config (``web.allowed_hosts``: a tailnet's MagicDNS name, ``pegs-pi.tailXXXX.ts.net``).
"""

from __future__ import annotations

import contextlib
import ipaddress
import socket
from collections.abc import Iterable
from itertools import pairwise
from pathlib import Path

LOOPBACK = ("localhost", "127.0.0.1", "::1")


def local_names(extra: Iterable[str] = ()) -> frozenset[str]:
    """Every name and address this machine answers to, lower case."""
    names = set(LOOPBACK)
    hostname = socket.gethostname()
    names |= {hostname, f"{hostname}.local", socket.getfqdn()}
    names |= interface_addresses()
    with contextlib.suppress(OSError):
        names |= {str(info[4][0]) for info in socket.getaddrinfo(hostname, None)}
    names |= set(extra)
    return frozenset(name.lower().strip("[]") for name in names if name)


def host_allowed(host: str, allowed: frozenset[str]) -> bool:
    """Whether a ``Host`` header (a name or address, with or without a port) is ours."""
    return host_name(host).split("%", 1)[0] in allowed  # an IPv6 zone (fe80::1%eth0) names no other host


def is_address(host: str) -> bool:
    """Whether a ``Host`` header names an address (``100.101.102.103:8080``), not a name: an
    address cannot be a name someone else's DNS points at this machine."""
    try:
        ipaddress.ip_address(host_name(host).split("%", 1)[0])
    except ValueError:
        return False
    return True


def host_name(host: str) -> str:
    """``Host`` without its port: ``[::1]:8080`` -> ``::1``, ``pegs.local:80`` -> ``pegs.local``."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:].split("]", 1)[0]
    if host.count(":") == 1:
        return host.split(":", 1)[0]
    return host  # a bare name, or an IPv6 address without brackets


def interface_addresses() -> set[str]:
    """The addresses of this machine's interfaces (Linux's /proc; elsewhere, the address
    of the default route)."""
    found: set[str] = set()
    try:  # IPv4: "/32 host LOCAL" entries of the routing trie
        lines = Path("/proc/net/fib_trie").read_text(encoding="ascii").splitlines()
        for previous, line in pairwise(lines):
            if "/32 host LOCAL" in line:
                found.add(previous.split()[-1])
    except OSError:
        pass
    try:  # IPv6: one address a line, 32 hex digits first
        for line in Path("/proc/net/if_inet6").read_text(encoding="ascii").splitlines():
            found.add(str(ipaddress.IPv6Address(int(line.split()[0], 16))))
    except (OSError, ValueError, IndexError):
        pass
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: picks the route, sends nothing
            found.add(probe.getsockname()[0])
    except OSError:
        pass
    return found


def lan_address() -> str | None:
    """The address other machines on the table's network reach this one by (the source
    address of the default route), or None without a network."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: picks the route, sends nothing
            address = str(probe.getsockname()[0])
    except OSError:
        return None
    parsed = ipaddress.ip_address(address)
    return None if parsed.is_loopback or parsed.is_link_local or parsed.is_unspecified else address


def phone_host(host: str, lan: str | None = None) -> str:
    """The ``Host`` (with its port) a phone should use for a link made from a request to
    ``host``: the request's own, unless that is this machine's loopback, which a phone
    cannot reach; then the LAN address, or ``<hostname>.local`` (mDNS) without a network."""
    name = host_name(host)
    if name not in LOOPBACK:
        return host
    port = host.rsplit(":", 1)[1] if host.count(":") == 1 or host.startswith("[") and "]:" in host else ""
    reachable = lan if lan is not None else lan_address()
    reachable = reachable or f"{socket.gethostname()}.local"
    return f"{reachable}:{port}" if port else reachable
