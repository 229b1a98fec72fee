"""How fast the page hears about a change: server-sent events to many phones at once,
through the real server (waitress) on loopback; and how heavy the page is."""

from __future__ import annotations

import contextlib
import http.client
import json
import random
import socket
import statistics
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from referee.bench.common import timings as summary


def sse_latency(clients: int = 16, changes: int = 40, seed: int = 1) -> dict[str, Any]:
    """From a simulated sensor event posted to the daemon until every one of ``clients``
    SSE streams has delivered the new state: p50 and p99 over all deliveries."""
    import waitress

    from referee.settings.config import Config
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
    final = [10**9]  # the last version sent, once known: each stream stops when it has it
    ready = threading.Barrier(clients + 1)
    listen = _listener(port, arrivals, final, ready)
    threads = [threading.Thread(target=listen, daemon=True) for _ in range(clients)]
    for thread in threads:
        thread.start()
    ready.wait(timeout=30)
    sent = _send_changes(running, changes, rng)
    final[0] = max(sent)
    running.sim_events(["lift S0:1" if "S0:1" in running.state()["occupied"] else "place S0:1"])
    for thread in threads:
        thread.join(timeout=30)
    return _delivery(sent, arrivals, clients, changes)


def _listener(
    port: int, arrivals: dict[int, list[float]], final: list[int], ready: threading.Barrier
) -> Callable[[], None]:
    """One phone's event stream: the time each state version arrives goes into ``arrivals``;
    it waits at ``ready`` once its first state is in, and stops at version ``final[0]``."""
    lock = threading.Lock()

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

    return listen


def _send_changes(running: Any, changes: int, rng: random.Random) -> dict[int, float]:
    """A peg lifted and put back ``changes`` times, 10 to 30 ms apart: when each new state
    version was sent."""
    sent: dict[int, float] = {}
    hole = "S0:1"
    for _ in range(changes):
        kind = "lift" if hole in running.state()["occupied"] else "place"
        start = time.perf_counter()
        state = running.sim_events([f"{kind} {hole}"])
        sent[state["version"]] = start
        time.sleep(rng.uniform(0.01, 0.03))
    return sent


def _delivery(sent: dict[int, float], arrivals: dict[int, list[float]], clients: int, changes: int) -> dict[str, Any]:
    """The bench's row: from sending each version until the last of ``clients`` had it."""
    delays = sorted(
        max(arrivals.get(v, [float("inf")])) - t for v, t in sent.items() if len(arrivals.get(v, [])) == clients
    )
    delivered = len(delays)
    p99 = delays[min(len(delays) - 1, round(0.99 * (len(delays) - 1)))] if delays else float("inf")
    return {
        "name": f"web: event to all {clients} SSE clients updated",
        "runs": delivered,
        "median_ms": round(statistics.median(delays) * 1000, 3) if delays else None,
        "p99_ms": round(p99 * 1000, 3),
        "clients": clients,
        "missed": changes - delivered,
    }


def page_weight() -> dict[str, Any]:
    """Bytes of the page and every local file it loads: over the wire, gzipped as browsers
    ask (the 100 KB budget), and as the browser reads them."""
    import re

    from referee.settings.config import Config
    from referee.table.table import Table
    from web import create_app

    with tempfile.TemporaryDirectory() as data:
        running = Table.build(Config.simulated(data, players=8))
        running.start()
        try:
            client = create_app(running).test_client()
            gzip = {"Accept-Encoding": "gzip"}
            page = client.get("/").get_data(as_text=True)
            total, wire = len(page.encode()), len(client.get("/", headers=gzip).data)
            assets = list(dict.fromkeys(re.findall(r'(?:src|href)="(/(?:static|js)/[^"]+)"', page)))
            for url in assets:  # the script's ES modules count too: each one it imports, once
                body = client.get(url).get_data(as_text=True)
                total += len(body.encode())
                wire += len(client.get(url, headers=gzip).data)
                if url.split("?")[0].endswith(".js"):
                    base = url.split("?")[0].rsplit("/", 1)[0]
                    imported = re.findall(r'^import\b[^"]*"\./([\w.-]+\.js)";$', body, re.MULTILINE)
                    assets += [f"{base}/{name}" for name in imported if f"{base}/{name}" not in assets]
        finally:
            running.stop()
    return {"name": "web: page weight, 8-sided board (HTML + CSS + JS)", "runs": 1, "bytes": wire, "unzipped": total}


def many_pages(pages: int = 200, seconds: float = 6.0, closing: int = 10) -> list[dict[str, Any]]:
    """``pages`` phones open the page at once against the real ``pegs serve`` process: the
    first 32 get a live stream, the others are refused and poll every 2 s, as the page's
    script does. Meanwhile another phone reads the state and the health and moves pegs:
    how long those answers take. Then ``closing`` live pages close: how long until the
    daemon has freed their streams (it notices at the next heartbeat)."""
    import selectors

    with _daemon() as port:
        live, refused = _open_streams(port, pages)
        stop = threading.Event()
        drain = selectors.DefaultSelector()
        for sock in live:
            drain.register(sock, selectors.EVENT_READ)
        readers = [threading.Thread(target=_drain, args=(drain, stop), daemon=True)]
        readers += [
            threading.Thread(target=_poll, args=(port, share, stop), daemon=True)
            for share in (refused[i::4] for i in range(4))
        ]
        for thread in readers:
            thread.start()
        timings = _others(port, seconds)
        freed = _close_some(port, live[:closing], drain)
        stop.set()
        for sock in live:
            sock.close()

    label = f"{pages} pages open ({len(live)} live, {len(refused)} polling every 2 s)"
    return [
        summary(f"web: state, health and moves answered with {label}", timings, "requests"),
        summary(f"web: a closed page's stream freed ({closing} closed)", freed, "streams"),
    ]


def held_connections(held: int = 200, idle: int = 150, beyond: int = 100, seconds: float = 4.0) -> list[dict[str, Any]]:
    """Issue "nobody can shut the table out", item 3, against the real ``pegs serve``:
    32 live pages, then ``held`` more pages refused (503) that keep their connections, how
    long each refusal takes; meanwhile another phone's state, health and moves, each on a
    new connection as a phone arriving would. Then the same with ``idle`` sockets that
    send nothing, and with more idle sockets than the daemon's connection limit. Each
    measurement lasts at most ``seconds`` (under 5 s: idle connections are closed after
    ``serve.IDLE_TIMEOUT_S``)."""
    from referee.table.serve import CONNECTION_LIMIT

    seconds = min(seconds, 5.0)
    rows = []
    with _daemon() as port, _live_pages(port, 32):
        refusals, holding = hold_refused(port, held)
        rows.append(
            summary(
                f"web: a page refused a live stream answered (503), {held} refused pages holding on",
                refusals,
                "requests",
            )
        )
        rows.append(_fresh_while_held(port, seconds, holding, f"{held} refused pages holding on"))
        rows.append(_fresh_while_held(port, seconds, idle_sockets(port, idle), f"{idle} idle sockets open"))
        many = CONNECTION_LIMIT + beyond
        label = f"{many} idle sockets (limit {CONNECTION_LIMIT})"
        rows.append(_fresh_while_held(port, seconds, idle_sockets(port, many), label, count_held=False))
    return rows


@contextlib.contextmanager
def _live_pages(port: int, pages: int) -> Iterator[list[socket.socket]]:
    """``pages`` live event streams, read (and their bytes dropped) while the block runs."""
    import selectors

    live, _refused = _open_streams(port, pages)
    stop = threading.Event()
    drain = selectors.DefaultSelector()
    for sock in live:
        drain.register(sock, selectors.EVENT_READ)
    reader = threading.Thread(target=_drain, args=(drain, stop), daemon=True)
    reader.start()
    try:
        yield live
    finally:
        stop.set()
        reader.join(1)
        _close(live)


def _fresh_while_held(
    port: int, seconds: float, holding: list[socket.socket], label: str, count_held: bool = True
) -> dict[str, Any]:
    """The bench's row for another phone's requests while ``holding`` stay open (with how
    many the daemon has not closed by the end, when ``count_held``); then they are closed."""
    row = summary(
        f"web: state, health and moves on new connections, {label}", fresh_requests(port, seconds), "requests"
    )
    if count_held:
        row |= {"still_held": still_open(holding)}
    _close(holding)
    return row


def hold_refused(port: int, count: int) -> tuple[list[float], list[socket.socket]]:
    """``count`` pages ask for a live stream once the streams are all taken: how long each
    refusal (503) takes to arrive; the connections are kept open and silent."""
    timings: list[float] = []
    holding: list[socket.socket] = []
    for _ in range(count):
        began = time.perf_counter()
        sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        sock.sendall(b"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        status = sock.recv(64)
        timings.append(time.perf_counter() - began)
        if not status.startswith(b"HTTP/1.1 503"):
            raise AssertionError(f"a page beyond the live ones was not refused: {status!r}")
        holding.append(sock)
    return timings, holding


def idle_sockets(port: int, count: int) -> list[socket.socket]:
    """``count`` connections that never send a byte."""
    holding = []
    for _ in range(count):
        sock = socket.socket()
        sock.setblocking(False)
        sock.connect_ex(("127.0.0.1", port))  # into the listen queue even while the daemon is not accepting
        holding.append(sock)
    return holding


def still_open(socks: list[socket.socket]) -> int:
    """How many of ``socks`` the daemon has not closed (nothing to read, no end of stream)."""
    count = 0
    for sock in socks:
        sock.setblocking(False)
        try:
            count += sock.recv(65536, socket.MSG_PEEK) != b""
        except BlockingIOError:
            count += 1
        except OSError:
            pass
    return count


def fresh_requests(port: int, seconds: float = 0.0, count: int = 0) -> list[float]:
    """Another phone's state, health and moves (a simulated peg lifted and put back), each
    on a new connection, for ``seconds`` or ``count`` requests: how long each takes, from
    connecting to the last byte of the answer."""
    timings: list[float] = []
    lifted = "S0:1" not in _get(port, "/api/state")["occupied"]
    end = time.monotonic() + seconds
    while (len(timings) < count) if count else (time.monotonic() < end):
        step = len(timings) % 3
        began = time.perf_counter()
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=15)
        if step == 2:
            body = json.dumps({"events": [f"{'place' if lifted else 'lift'} S0:1"]})
            connection.request("POST", "/api/sim/events", body, {"Content-Type": "application/json"})
            lifted = not lifted
        else:
            connection.request("GET", "/api/state" if step == 0 else "/api/health")
        response = connection.getresponse()
        answer = response.read()
        connection.close()
        timings.append(time.perf_counter() - began)
        if response.status != 200:
            raise AssertionError(f"{response.status} from the daemon: {answer!r}")
        time.sleep(0.02)
    return timings


def _close(socks: list[socket.socket]) -> None:
    for sock in socks:
        sock.close()


@contextlib.contextmanager
def _daemon() -> Iterator[int]:
    """The real ``pegs serve --simulate`` on a free port, with a fresh data dir: its port."""
    import subprocess
    import sys

    with tempfile.TemporaryDirectory() as data, socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
        probe.close()
        server = subprocess.Popen(
            [sys.executable, "-m", "referee.cli", "serve", "--simulate", "--data", data, "--port", str(port)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            _get(port, "/api/state", wait=30.0)
            yield port
        finally:
            server.terminate()
            server.wait(10)


def _get(port: int, path: str, wait: float = 5.0) -> Any:
    deadline = time.monotonic() + wait
    while True:
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            connection.request("GET", path)
            body = connection.getresponse().read()
            connection.close()
            return json.loads(body)
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def _open_streams(port: int, pages: int) -> tuple[list[socket.socket], list[int]]:
    live, refused = [], []
    for page in range(pages):
        sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        sock.sendall(b"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        status = sock.recv(64).split(b" ", 2)[1]
        if status == b"200":
            sock.setblocking(False)
            live.append(sock)
        else:
            sock.close()
            refused.append(page)
    return live, refused


def _drain(selector: Any, stop: threading.Event) -> None:
    while not stop.is_set():
        for key, _events in selector.select(timeout=0.2):
            with contextlib.suppress(OSError):
                key.fileobj.recv(65536)


def _poll(port: int, pages: list[int], stop: threading.Event) -> None:
    """Each refused page asks for the state every 2 s (spread evenly)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    interval = 2.0 / max(1, len(pages))
    while not stop.is_set():
        began = time.monotonic()
        connection.request("GET", "/api/state")
        connection.getresponse().read()
        stop.wait(max(0.0, interval - (time.monotonic() - began)))
    connection.close()


def _others(port: int, seconds: float) -> list[float]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    timings, hole, lifted = [], "S0:1", False
    end = time.monotonic() + seconds
    step = 0
    while time.monotonic() < end:
        step += 1
        began = time.perf_counter()
        if step % 3 == 0:
            event = f"{'place' if lifted else 'lift'} {hole}"
            body = json.dumps({"events": [event]})
            connection.request("POST", "/api/sim/events", body, {"Content-Type": "application/json"})
            lifted = not lifted
        else:
            connection.request("GET", "/api/state" if step % 3 == 1 else "/api/health")
        connection.getresponse().read()
        timings.append(time.perf_counter() - began)
        time.sleep(0.02)
    connection.close()
    return timings


def _close_some(port: int, socks: list[socket.socket], selector: Any) -> list[float]:
    """Close live pages at once; for each, the time until the daemon's count of open
    streams has dropped by one more."""
    before = _get(port, "/api/health")["streams"]["open"]
    for sock in socks:
        selector.unregister(sock)
        sock.close()
    began, freed = time.perf_counter(), list[float]()
    while len(freed) < len(socks) and time.perf_counter() - began < 30:
        gone = before - _get(port, "/api/health")["streams"]["open"]
        now = time.perf_counter() - began
        freed += [now] * (gone - len(freed))
        time.sleep(0.05)
    return freed


PHONE_PEGS = {"0": ["T0:10", "S", "S", "S", "S"], "2": ["T2:5", "S", "S", "S", "S"]}  # every card moves a peg


def phone_send(sends: int = 100) -> dict[str, Any]:
    """A seat played from a phone (issue 36): its ``POST /api/phone/move`` through the real
    app to the answer, which comes once the choice is fsynced with the turn and the LED frame
    that shows it is written (so the LEDs are lit within this); taken back between sends.
    The budget: under 100 ms p99 here."""
    from referee.settings.config import Config
    from referee.table.table import Table
    from web import create_app

    with tempfile.TemporaryDirectory() as data:
        running = Table.build(Config.simulated(data, pin="2468"))
        running.start()
        try:
            client = create_app(running).test_client()
            client.post("/api/login", json={"pin": "2468"})
            headers = {"X-CSRF-Token": client.get("/api/me").get_json()["csrf"]}
            client.post("/api/games", json={"players": 2, "phones": [0], "pegs": PHONE_PEGS}, headers=headers)
            moves = running.hand(0)["moves"]
            choices = [(card, move["text"]) for card, listed in sorted(moves.items()) for move in listed]
            lit: list[float] = []
            for n in range(sends):
                card, text = choices[n % len(choices)]
                frames, start = running.strip.writes, time.perf_counter()
                answer = client.post("/api/phone/move", json={"card": card, "move": text}, headers=headers)
                lit.append(time.perf_counter() - start)
                if answer.status_code != 200 or running.strip.writes == frames:
                    raise RuntimeError(f"the phone's move was not lit: {answer.get_data(as_text=True)}")
                client.post("/api/phone/take-back", json={}, headers=headers)
        finally:
            running.stop()
    return summary("phone seat: its move sent to the LEDs lit (HTTP, fsync)", lit, "sends")
