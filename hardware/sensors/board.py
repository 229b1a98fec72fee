"""What every sensor backend is: a ``SensorBoard`` (the occupied holes now, changes as they
happen, health, close) and the ``Change`` it reports. The backends are the package's other
modules: ``simulated``, ``gpio`` and ``serial``."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Self

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Change:
    """A hole became occupied or empty, at ``time.monotonic()`` seconds."""

    hole: str
    occupied: bool
    at: float


Callback = Callable[[Change], None]


class SensorBoard:
    """The common part of every backend: subscribers, counting, a lock, context manager."""

    backend = "none"

    def __init__(self) -> None:
        self._lock = threading.RLock()
        self._subscribers: list[Callback] = []
        self._changes = 0
        self._callback_errors = 0
        self._closed = False
        self._fault: str | None = None

    @property
    def fault(self) -> str | None:
        """Why the sensors cannot be believed now (one sentence naming the fix), or None.

        Read without the lock: the table reads it holding its own lock, while sensor
        threads call the table holding this one.
        """
        return self._fault

    def snapshot(self) -> frozenset[str]:
        """The occupied holes now."""
        raise NotImplementedError

    def subscribe(self, callback: Callback) -> Callable[[], None]:
        """Call ``callback(change)`` for every change from now on; returns the unsubscriber."""
        with self._lock:
            self._subscribers.append(callback)

        def unsubscribe() -> None:
            with self._lock:
                if callback in self._subscribers:
                    self._subscribers.remove(callback)

        return unsubscribe

    def close(self) -> None:
        with self._lock:
            self._closed = True
            self._subscribers.clear()

    @property
    def closed(self) -> bool:
        return self._closed

    def health(self) -> dict[str, Any]:
        with self._lock:
            return {
                "backend": self.backend,
                "closed": self._closed,
                "occupied": len(self.snapshot()),
                "changes": self._changes,
                "callback_errors": self._callback_errors,
                "fault": self._fault,
            }

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _emit(self, changes: Iterable[Change]) -> None:
        """Deliver changes in order; called with the lock held so order is kept across threads."""
        for change in changes:
            self._changes += 1
            for callback in list(self._subscribers):
                try:
                    callback(change)
                except Exception:  # a broken subscriber must not stop the sensors
                    self._callback_errors += 1
                    log.exception("sensor callback %r failed on %s", callback, change)
