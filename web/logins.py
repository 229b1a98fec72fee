"""The log-ins and known devices kept on disk, so that a restart logs nobody out, and the
data dir's private files (the key, the PIN, the log-ins: 0600, written atomically)."""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import logging
import math
import os
import secrets
import threading
from collections.abc import Callable
from pathlib import Path

log = logging.getLogger("pegs.web")
LOGIN_DAYS = 30
"""How long a log-in lasts: across the game evenings of a month and any power cut, without
typing the PIN again; a log-in forgotten on a guest's phone still lapses by itself within a
month. Logging out and a PIN change end it at once."""
DEVICE_DAYS = 365  # how long a device is known after its last log-in (browsers keep a cookie 400 days at most)
MAX_SESSIONS = 64  # live log-ins kept; beyond that the oldest goes
MAX_DEVICES = 32  # known devices kept; beyond that the one logged in least recently goes
DAY_S = 86_400.0
Damaged = Callable[[str, str], None]
"""Told what was read damaged and what became of it (``Table.set_aside``: the page, /api/health
and ``pegs doctor`` name it)."""


def write_private(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically, readable by this service alone (0600 from the
    first byte: a temporary file made 0600, synced, then renamed over ``path``)."""
    temporary = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            temporary.unlink()
        raise
    with contextlib.suppress(OSError):  # the rename itself survives a power cut
        directory = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(directory)
        finally:
            os.close(directory)


def secret_key(data_dir: str) -> bytes:
    """The key behind sessions, log-ins and seat links; kept in the data dir (0600) so that
    they outlive restarts."""
    path = Path(data_dir) / "secret.key"
    try:
        key = path.read_bytes()
        if len(key) >= 32:
            if path.stat().st_mode & 0o077:
                path.chmod(0o600)
            return key
    except OSError:
        pass
    key = secrets.token_bytes(32)
    write_private(path, key)
    return key


def _hashed(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def pin_mark(key: bytes, pin: str) -> str:
    """Which PIN the kept log-ins were made with, without keeping the PIN."""
    return hmac.new(key, b"table pin:" + pin.encode(), hashlib.sha256).hexdigest()


class Logins:
    """The live log-ins and the known devices, kept in ``data_dir/logins.json`` (0600,
    rewritten atomically at each change) so that a restart logs nobody out. Only hashes of
    the ids are kept, with when each expires. The file also holds a mark of the PIN they
    were made with: opened with another PIN, it revokes every log-in and forgets every
    device. A damaged or unreadable file is kept aside as ``logins.json.damaged`` and
    started afresh (everyone logs in again), and ``damaged`` is told."""

    def __init__(self, path: Path, mark: str, damaged: Damaged | None = None) -> None:
        self.path, self.mark, self.damaged = path, mark, damaged
        self.lock = threading.Lock()
        self.sessions: dict[str, float] = {}  # hashed log-in id: when it expires
        # hashed device id: when it expires, wrong PINs since its last right one
        self.devices: dict[str, tuple[float, int]] = {}
        kept = self._read()
        if kept.get("pin") == mark:
            self._load(kept)
        else:
            self._save()

    def log_in(self, device: str | None, now: float) -> tuple[str, str]:
        """A new log-in, and the device it came from (known or new) remembered afresh: the
        ids (log-in, device) to give the client."""
        admin_id = secrets.token_urlsafe(24)
        with self.lock:
            if device is None or not self._knows(device, now):
                device = secrets.token_urlsafe(24)
            self.sessions[_hashed(admin_id)] = now + LOGIN_DAYS * DAY_S
            self.devices.pop(_hashed(device), None)  # newest last
            self.devices[_hashed(device)] = (now + DEVICE_DAYS * DAY_S, 0)
            self._save(now)
        return admin_id, device

    def is_live(self, admin_id: str, now: float) -> bool:
        return self.sessions.get(_hashed(admin_id), 0.0) > now

    def log_out(self, admin_id: str) -> None:
        with self.lock:
            if self.sessions.pop(_hashed(admin_id), None) is not None:
                self._save()

    def knows(self, device: str, now: float) -> bool:
        with self.lock:
            return self._knows(device, now)

    def device_wrong(self, device: str, forget_after: int) -> None:
        """A known device sent a wrong PIN: after ``forget_after`` (``web.pin.MAX_TRIES``)
        since its last right one it is known no more."""
        with self.lock:
            if _hashed(device) not in self.devices:
                return
            expires, wrong = self.devices[_hashed(device)]
            if wrong + 1 < forget_after:
                self.devices[_hashed(device)] = (expires, wrong + 1)
            else:
                self.devices.pop(_hashed(device), None)
            self._save()

    def _knows(self, device: str, now: float) -> bool:
        return self.devices.get(_hashed(device), (0.0, 0))[0] > now

    def _read(self) -> dict[str, object]:
        try:
            kept = json.loads(self.path.read_bytes())
        except FileNotFoundError:  # the first start
            return {}
        except (OSError, ValueError) as error:
            self._set_aside(str(error))
            return {}
        if not isinstance(kept, dict):
            self._set_aside("not a JSON object")
            return {}
        return kept

    def _set_aside(self, error: str) -> None:
        """The damaged file moved aside (kept, as damaged things are), and said."""
        aside = self.path.with_name(self.path.name + ".damaged")
        try:
            os.replace(self.path, aside)
            kept = f"kept as {aside.name}"
        except OSError as error_moving:
            kept = f"not moved aside: {error_moving.strerror}"
        log.warning("the log-ins in %s were damaged (%s): started afresh, everyone logs in again", self.path, error)
        if self.damaged is not None:  # the error itself is in the log; the page says what it means
            self.damaged(f"the phones' log-in file ({self.path.name})", f"every phone logs in again ({kept})")

    def _load(self, kept: dict[str, object]) -> None:
        sessions, devices = kept.get("sessions"), kept.get("devices")
        if isinstance(sessions, dict):
            self.sessions = {str(key): float(value) for key, value in sessions.items() if _number(value)}
        if isinstance(devices, dict):
            self.devices = {
                str(key): (float(value[0]), int(value[1]))
                for key, value in devices.items()
                if isinstance(value, list) and len(value) == 2 and all(_number(part) for part in value)
            }
        with contextlib.suppress(OSError):
            if self.path.stat().st_mode & 0o077:
                self._save()

    def _save(self, now: float | None = None) -> None:
        """Write the file (the caller holds the lock), without what has expired by ``now``
        and without the oldest beyond ``MAX_SESSIONS`` and ``MAX_DEVICES``."""
        if now is not None:
            live_sessions = sorted(
                ((key, ends) for key, ends in self.sessions.items() if ends > now), key=lambda item: item[1]
            )
            self.sessions = dict(live_sessions[-MAX_SESSIONS:])
            live = [(key, kept) for key, kept in self.devices.items() if kept[0] > now]
            self.devices = dict(live[-MAX_DEVICES:])
        kept = {
            "pin": self.mark,
            "sessions": self.sessions,
            "devices": {key: list(value) for key, value in self.devices.items()},
        }
        try:
            write_private(self.path, json.dumps(kept, indent=1).encode())
        except OSError as error:  # the log-ins still work until the daemon stops
            log.warning("cannot keep the log-ins in %s: %s", self.path, error)


def _number(value: object) -> bool:
    """A time or a count as the file keeps them: a flipped bit may leave NaN, Infinity or 1e999
    (JSON that Python reads), which are forgotten like any entry that does not read."""
    if isinstance(value, float):
        return math.isfinite(value)
    return isinstance(value, int) and not isinstance(value, bool) and abs(value) < 2**53


def open_logins(data_dir: str, pin: str, key: bytes | None = None, damaged: Damaged | None = None) -> Logins:
    """The kept log-ins of this data dir, revoked if they were made with another PIN."""
    return Logins(Path(data_dir) / "logins.json", pin_mark(key or secret_key(data_dir), pin), damaged)
