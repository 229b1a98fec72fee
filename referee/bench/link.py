"""How long a sensor change takes from the wire to the consumer, over a real pty.

``python -m referee.bench.link [FRAMES]`` prints the result as JSON.
"""

from __future__ import annotations

import json
import statistics
import sys
import threading
import time

from firmware_bridge.fake_device import FakeDevice
from firmware_bridge.link import SerialLink


def link_latency(frames: int = 300) -> dict[str, object]:
    """Time from the fake device writing a change frame to ``on_change`` being called.

    Each change waits for the previous one to be delivered, so this is latency, not
    throughput. Heartbeats and periodic snapshots are pushed out of the way.
    """
    delivered = threading.Event()
    arrival: list[float] = []

    def on_change(channel: int, level: bool, t: float) -> None:
        arrival.append(time.perf_counter())
        delivered.set()

    samples: list[float] = []
    with FakeDevice(8, heartbeat=3600.0, snapshot_every=3600.0) as device:
        link = SerialLink(device.path, on_change=on_change, backoff=(0.01, 0.1))
        with link:
            if not link.wait_connected(5.0):
                raise RuntimeError("the link did not connect to the fake device")
            for _ in range(frames):
                delivered.clear()
                device.toggle(0)
                if not delivered.wait(1.0):
                    raise RuntimeError("a change frame was not delivered within 1 s")
                written = device.last_write
                assert written is not None
                samples.append((arrival[-1] - written) * 1000.0)
    samples.sort()
    p99 = samples[min(len(samples) - 1, max(0, round(0.99 * len(samples)) - 1))]
    return {
        "name": "serial link: frame written to change delivered",
        "runs": len(samples),
        "median_ms": round(statistics.median(samples), 3),
        "p99_ms": round(p99, 3),
    }


if __name__ == "__main__":
    print(json.dumps(link_latency(int(sys.argv[1]) if len(sys.argv) > 1 else 300)))
