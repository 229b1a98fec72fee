"""At home or from outside: where a request comes from decides what it may ever do.

The home network is the config's ``[web] home`` (``referee.settings.config.HOME`` by
default: the private LAN ranges, link-local and the Pi's own loopback), never the tailnet
(``TAILNET``). A request from any other address (a player on the tailnet at 100.x, a
WireGuard peer numbered outside the list) is *outside*: it never
has the owner's rights, whatever PIN or cookie it sends, and it opens nothing but a seat by
its link (``web.create_app``'s gate, ``web.admin.is_admin``, ``web.pin.check_pin``).

The address is the TCP peer's (``REMOTE_ADDR``), never ``X-Forwarded-For``: the page is
served by waitress with no proxy in front. A proxy on the Pi itself (``tailscale serve``,
a tunnel, nginx) would make every visitor look like the Pi, that is, at home: the guide
says never to put one in front, and ``pegs doctor`` looks for ``tailscale serve``.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable

from flask import current_app, g, request

from web.rights import Forbidden

HOME_ONLY = "the owner's pages open only on the home network"
TAILNET = (ipaddress.ip_network("100.64.0.0/10"), ipaddress.ip_network("fd7a:115c:a1e0::/48"))
"""Tailscale's addresses (its 100.x, and its IPv6 inside fc00::/7): never home, so that a
home list with the LAN's unique local range never lets a player on the tailnet in."""
Network = ipaddress.IPv4Network | ipaddress.IPv6Network


class HomeNetworks:
    """The networks counted as home, and whether an address is in one of them."""

    def __init__(self, networks: Iterable[str]) -> None:
        self.networks: tuple[Network, ...] = tuple(ipaddress.ip_network(n, strict=False) for n in networks)

    def holds(self, address: str | None) -> bool:
        """Whether ``address`` (a peer's, as the server saw it) is at home; an address that
        cannot be read is not (a server that says none is not one we know)."""
        bare = (address or "").split("%", 1)[0]  # fe80::1%eth0: the zone names no other host
        try:
            parsed = ipaddress.ip_address(bare)
        except ValueError:
            return False
        if isinstance(parsed, ipaddress.IPv6Address) and parsed.ipv4_mapped is not None:
            parsed = parsed.ipv4_mapped  # a dual-stack socket says an IPv4 phone as ::ffff:192.168.1.7
        if any(parsed in network for network in TAILNET):
            return False
        return any(parsed in network for network in self.networks)


def from_home() -> bool:
    """Whether this request comes from the home network (worked out once a request)."""
    if "from_home" not in g:
        networks: HomeNetworks = current_app.config["HOME_NETWORKS"]
        g.from_home = networks.holds(request.remote_addr)
    return bool(g.from_home)


def need_home() -> None:
    """The owner's rights (the PIN, a log-in, an unlock link) only from the home network."""
    if not from_home():
        raise Forbidden(outside_words())


def outside_words() -> str:
    """The refusal, with the address it came from: an owner whose phone came over IPv6 at
    home sees which address to add to ``[web] home``."""
    return f"{HOME_ONLY} (this phone comes from {str(request.remote_addr)[:45]}, not in the config's [web] home)"
