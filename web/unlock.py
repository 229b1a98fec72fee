"""A one-time unlock link, made on the Pi itself (``pegs unlock-link``): the owner's way in
while the PIN brake holds every new phone back (a storm of guesses, or every phone after a PIN
change). Making one needs the data dir, which only the Pi's own users can write; the link's
token is 192 random bits, used once, for ten minutes.

    link = make(data_dir)          # the token, kept hashed in data_dir/unlock-links.json
    take(data_dir, token)          # True once, while it is fresh
"""

from __future__ import annotations

import hashlib
import hmac
import json
import math
import secrets
import threading
import time
from pathlib import Path

from web.logins import write_private

LINKS_FILE = "unlock-links.json"
FRESH_S = 600.0  # a link works for ten minutes
MOST = 8  # links kept at once: the newest
_taking = threading.Lock()


def make(data_dir: str | Path, now: float | None = None) -> str:
    """A new link's token; the others still fresh stay usable."""
    token = secrets.token_urlsafe(24)
    at = time.time() if now is None else now
    path = Path(data_dir) / LINKS_FILE
    kept = {key: until for key, until in _read(path).items() if until > at}
    kept[_hashed(token)] = at + FRESH_S
    write_private(path, json.dumps(dict(list(kept.items())[-MOST:])).encode())
    return token


def take(data_dir: str | Path, token: str, now: float | None = None) -> bool:
    """Whether ``token`` is a fresh link's; it is used up either way it was found."""
    at = time.time() if now is None else now
    path = Path(data_dir) / LINKS_FILE
    with _taking:
        kept = _read(path)
        found = next((key for key in kept if hmac.compare_digest(key, _hashed(token))), None)
        if found is None:
            return False
        until = kept.pop(found)
        write_private(path, json.dumps(kept).encode())
    return until > at


def _hashed(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _read(path: Path) -> dict[str, float]:
    """The kept links; a missing or damaged file keeps none (a link is made again in a moment)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {
        str(key): float(until)
        for key, until in data.items()
        if isinstance(until, (int, float)) and not isinstance(until, bool) and math.isfinite(until)
    }
