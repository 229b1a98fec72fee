"""How fast the page hears about a change: server-sent events to many phones at once,
through the real server (waitress) on loopback; and how heavy the page is."""

from __future__ import annotations

import http.client
import json
import random
import socket
import statistics
import tempfile
import threading
import time
from typing import Any


def sse_latency(clients: int = 16, changes: int = 40, seed: int = 1) -> dict[str, Any]:
    """From a simulated sensor event posted to the daemon until every one of ``clients``
    SSE streams has delivered the new state: p50 and p99 over all deliveries."""
    import waitress

    from referee.table.config import Config
    from referee.table.table import Table
    from web import create_app

    with tempfile.TemporaryDirectory() as data:
        running = Table.build(Config.simulated(data))
        running.start()
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        server = waitress.create_server(create_app(running), host="127.0.0.1", port=port, threads=clients + 8)
        threading.Thread(target=server.run, daemon=True).start()
        try:
            return _measure(running, port, clients, changes, random.Random(seed))
        finally:
            running.stop()  # the event streams end first, then the server closes under no one
            time.sleep(0.2)
            server.close()


def _measure(running: Any, port: int, clients: int, changes: int, rng: random.Random) -> dict[str, Any]:
    arrivals: dict[int, list[float]] = {}  # state version -> arrival times
    lock = threading.Lock()
    ready = threading.Barrier(clients + 1)

    def listen() -> None:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        connection.request("GET", "/api/events")
        response = connection.getresponse()
        first = True
        for raw in response:
            line = raw.decode().rstrip("\n")
            if line.startswith("data: "):
                version = json.loads(line[6:])["version"]
                with lock:
                    arrivals.setdefault(version, []).append(time.perf_counter())
                if first:
                    first = False
                    ready.wait()
                if version >= final[0]:
                    break
        connection.close()

    final = [10**9]
    threads = [threading.Thread(target=listen, daemon=True) for _ in range(clients)]
    for thread in threads:
        thread.start()
    ready.wait(timeout=30)
    sent: dict[int, float] = {}
    hole = "S0:1"
    for _ in range(changes):
        kind = "lift" if hole in running.state()["occupied"] else "place"
        start = time.perf_counter()
        state = running.sim_events([f"{kind} {hole}"])
        sent[state["version"]] = start
        time.sleep(rng.uniform(0.01, 0.03))
    final[0] = max(sent)
    running.sim_events(["lift S0:1" if "S0:1" in running.state()["occupied"] else "place S0:1"])
    for thread in threads:
        thread.join(timeout=30)
    delays = sorted(max(arrivals.get(v, [float("inf")])) - t for v, t in sent.items() if len(arrivals.get(v, [])) == clients)
    delivered = len(delays)
    p99 = delays[min(len(delays) - 1, round(0.99 * (len(delays) - 1)))] if delays else float("inf")
    return {"name": f"web: event to all {clients} SSE clients updated", "runs": delivered,
            "median_ms": round(statistics.median(delays) * 1000, 3) if delays else None,
            "p99_ms": round(p99 * 1000, 3), "clients": clients, "missed": changes - delivered}  # fmt: skip


def page_weight() -> dict[str, Any]:
    """Bytes of the page and every local file it loads (the 100 KB budget)."""
    import re

    from referee.table.config import Config
    from referee.table.table import Table
    from web import create_app

    with tempfile.TemporaryDirectory() as data:
        running = Table.build(Config.simulated(data, players=8))
        running.start()
        try:
            client = create_app(running).test_client()
            page = client.get("/").data
            total = len(page)
            for url in set(re.findall(rb'(?:src|href)="(/static/[^"]+)"', page)):
                total += len(client.get(url.decode()).data)
        finally:
            running.stop()
    return {"name": "web: page weight, 8-sided board (HTML + CSS + JS)", "runs": 1, "bytes": total}
