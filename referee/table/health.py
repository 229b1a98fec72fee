"""The daemon's health, for ``/api/health`` and ``pegs doctor``: its parts' state, its own
counts (errors, how long a sensor change takes to reach the LEDs, uptime) and who it is (its
config file and its board), so that the doctor takes only its own daemon's word.
"""

from __future__ import annotations

import resource
import time
from collections import deque
from typing import Any

from hardware.sensors import channels_needed
from referee.settings.config import Config
from referee.table.board_hardware import BoardHardware
from referee.table.session import Session
from referee.table.store import Store


class Counts:
    """What the running table counts about itself: errors it kept going through, and each
    sensor change's time to its LED frame."""

    def __init__(self) -> None:
        self.latencies: deque[float] = deque(maxlen=2000)  # sensor change -> LED frame written, seconds
        self.errors = 0
        self.started = time.time()

    def count_error(self) -> None:
        self.errors += 1


def report(
    config: Config, hardware: BoardHardware, store: Store, session: Session, counts: Counts, sensors: dict[str, Any]
) -> dict[str, Any]:
    """The parts' state (``sensors``: their own health, asked outside the table's lock, since
    sensor threads call the table holding theirs) and who this daemon is: its config file
    (None when simulated) and its board."""
    layout = hardware.layout
    board = {
        "sides": layout.sides,
        "holes": len(layout.hole_names),
        "channels": channels_needed(layout),
        "file": config.layout,
    }
    return {
        "config": config.path,
        "layout": board,
        "uptime_s": round(time.time() - counts.started, 1),
        "game": session.game_id,
        "sensors": sensors,
        "leds": {"backend": type(hardware.strip).__name__, "frames": hardware.strip.writes},
        "store": {
            "path": str(store.path),
            "ok": session.store_error is None,
            "error": session.store_error,
            "recovered": store.recovered,
        },
        "errors": counts.errors,
        "latency_ms": percentiles(list(counts.latencies)),
        "rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
    }


def percentiles(values: list[float]) -> dict[str, float | None]:
    """p50 and p99 of seconds, in ms."""
    if not values:
        return {"p50": None, "p99": None}
    ordered = sorted(values)
    return {
        "p50": round(ordered[len(ordered) // 2] * 1000, 3),
        "p99": round(ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))] * 1000, 3),
    }
