"""The table PIN: compared in constant time, with wrong guesses limited for the guessers and
never for the owner."""

from __future__ import annotations

import contextlib
import hmac
import json
import math
import threading
import time
from collections.abc import Callable
from pathlib import Path

from flask import current_app, request

from web.admin import calendar_now, known_device, logins
from web.home import need_home
from web.logins import write_private
from web.rights import Forbidden

MAX_TRIES = 5  # wrong PINs in a row from one client (an address, or a known device)
LOCKOUT_S = 30.0
BRAKE_BURST = 30  # wrong PINs from devices never logged in here, all together, before the brake
BRAKE_EVERY_S = 90.0  # then one more wrong PIN per this many seconds, for all of them together
MAX_CLIENTS = 1000  # addresses whose wrong PINs in a row are remembered (a rotating guesser evicts its own)
BRAKE_FILE = "pin-brake.json"  # in the data dir: the brake outlives a restart
_opening = threading.Lock()


def check_pin(pin: object) -> bool:
    """Compare in constant time; limit the guessers, never the owner.

    - A client that sends ``MAX_TRIES`` wrong PINs in a row waits ``LOCKOUT_S``, without
      keeping anyone else waiting. A client is a known device (one that has logged in here
      before: its signed ``pegs_device`` cookie names a device on the list), else an address.
    - Devices not known here (no cookie, a forged or a forgotten one: every guesser) share a
      brake, a token bucket: together they may send ``BRAKE_BURST`` wrong PINs, then one
      every ``BRAKE_EVERY_S``. Nobody waits for it in a normal evening; in a storm of
      guesses a new device waits its turn ("wait N seconds").
    - A known device is never braked by the others' guesses, and never exempt from the PIN:
      after ``MAX_TRIES`` wrong PINs since its last right one it is known no more.

    The bound: a guesser without the PIN, with as many addresses as it likes, gets at most
    ``BRAKE_BURST + 86_400 / BRAKE_EVERY_S`` = 30 + 960 = 990 guesses in any 24 hours: at
    most one chance in ten of finding a 4-digit PIN in a day, ten days to try them all. A
    device cookie cannot be made without the key and the right PIN; a stolen one adds at
    most ``MAX_TRIES`` = 5 guesses, once (known devices are kept across restarts with their
    count of wrong PINs). The bucket is kept on disk (``BRAKE_FILE``, by the wall clock): a
    restart goes on from where it was, so restarting the daemon gives a guesser nothing.

    From outside the home network no PIN is even compared (``web.home``): a guess there
    is refused before it counts, and the right PIN is refused too.
    """
    need_home()
    config = current_app.config
    with _opening:
        if "PIN_GUESSES" not in config:
            config["PIN_GUESSES"] = Guesses.kept(Path(config["TABLE"].data_dir) / BRAKE_FILE, _clock(), calendar_now())
    guesses: Guesses = config["PIN_GUESSES"]
    with guesses.lock:  # one at a time: many threads together must not slip past the count
        now = _clock()
        device = known_device()
        client = f"device {device}" if device else request.remote_addr or "?"
        wait, where = guesses.wait(client, device is not None, now)
        if wait:
            told = " (a phone that has logged in here before may log in now)" if where == "at this table" else ""
            raise Forbidden(f"too many wrong PINs {where}: wait {wait} seconds{told}")
        good = isinstance(pin, str) and hmac.compare_digest(pin.encode(), config["TABLE_PIN"].encode())
        if good:
            guesses.right(client)
        else:
            guesses.wrong(client, device is not None, now)
            if device:
                logins().device_wrong(device, MAX_TRIES)
            else:
                guesses.keep(calendar_now())
    return good


class Guesses:
    """Wrong PINs per client, and the brake shared by the devices not known here."""

    def __init__(self, now: float, tokens: float = BRAKE_BURST, path: Path | None = None) -> None:
        self.lock = threading.Lock()
        self.clients: dict[str, tuple[int, float]] = {}  # client: wrong PINs in a row, locked until
        self.tokens = float(tokens)  # wrong PINs the unknown devices may send now
        self.filled_at = now
        self.path = path

    @classmethod
    def kept(cls, path: Path, now: float, wall: float) -> Guesses:
        """The brake as the last daemon left it, filled since by the wall clock; none kept yet:
        full; a file that cannot be read: empty (a damaged file must not hand out guesses)."""
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            tokens, at = float(data["tokens"]), float(data["at"])
            if not (math.isfinite(tokens) and math.isfinite(at)):
                raise ValueError("not a number")
        except FileNotFoundError:
            return cls(now, BRAKE_BURST, path)
        except (OSError, ValueError, KeyError, TypeError):
            return cls(now, 0.0, path)
        since = max(0.0, wall - at)  # a clock set back fills nothing
        return cls(now, min(float(BRAKE_BURST), max(0.0, tokens) + since / BRAKE_EVERY_S), path)

    def keep(self, wall: float) -> None:
        """The bucket on disk (after an unknown device's wrong PIN); a disk that cannot take it
        keeps the brake in memory (the bound then holds until a restart)."""
        if self.path is not None:
            with contextlib.suppress(OSError):
                write_private(self.path, json.dumps({"tokens": self.tokens, "at": wall}).encode())

    def wait(self, client: str, known: bool, now: float) -> tuple[int, str]:
        """Seconds this client must wait before trying again (0: it may try now), and why."""
        until, why = self.clients.get(client, (0, 0.0))[1], "from this device"
        if not known:
            self._fill(now)
            if self.tokens < 1 and now + (1 - self.tokens) * BRAKE_EVERY_S > until:
                until = now + (1 - self.tokens) * BRAKE_EVERY_S
                why = "at this table"
        return (math.ceil(until - now), why) if until > now else (0, "")

    def wrong(self, client: str, known: bool, now: float) -> None:
        if not known:
            self._fill(now)
            self.tokens -= 1
        in_a_row, until = self.clients.pop(client, (0, 0.0))
        in_a_row += 1
        if in_a_row >= MAX_TRIES:
            in_a_row, until = 0, now + LOCKOUT_S
        self.clients[client] = (in_a_row, until)
        while len(self.clients) > MAX_CLIENTS:  # the least recently wrong goes
            del self.clients[next(iter(self.clients))]

    def right(self, client: str) -> None:
        self.clients.pop(client, None)

    def _fill(self, now: float) -> None:
        if now > self.filled_at:
            self.tokens = min(float(BRAKE_BURST), self.tokens + (now - self.filled_at) / BRAKE_EVERY_S)
        self.filled_at = max(self.filled_at, now)


def _clock() -> float:
    """Seconds for the brakes (a test sets ``PIN_CLOCK``)."""
    clock: Callable[[], float] = current_app.config.get("PIN_CLOCK", time.monotonic)
    return clock()
