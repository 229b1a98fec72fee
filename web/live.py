"""The live state: ``GET /api/state``, its server-sent events (``/api/events``: the whole state
at each change, an ``alive`` event each second between) and the daemon's health."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator

from flask import Response, current_app, jsonify, stream_with_context

from web.api import blueprint, error_answer, table
from web.table import StateJson, Table

live = blueprint("live")
HEARTBEAT_S = 1.0  # a stream whose phone has gone is freed by the heartbeats after (a write fails)
MAX_STREAMS = 32  # live pages at once; the server keeps threads for every other request


class Streams:
    """How many live pages (event streams) are open: at most ``MAX_STREAMS``, each holding
    one of the server's threads, so that the others always answer. A page beyond that is
    told so (503) and polls ``/api/state`` every 2 s instead."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.open = 0

    def take(self) -> bool:
        with self._lock:
            if self.open >= MAX_STREAMS:
                return False
            self.open += 1
            return True

    def give_back(self) -> None:
        with self._lock:
            self.open -= 1


def streams() -> Streams:
    found: Streams = current_app.config.setdefault("STREAMS", Streams())
    return found


def iter_states(running: Table, timeout: float = HEARTBEAT_S) -> Iterator[StateJson | None]:
    """Each new state as it happens, and None when ``timeout`` passes without one."""
    version = -1
    while not running.stopped:
        newer = running.wait(version, timeout)
        if newer == version:
            yield None
            continue
        version = newer
        yield running.state()


@live.get("/state")
def state() -> Response:
    return jsonify(table().state())


@live.get("/events")
def events() -> Response:
    """Server-sent events: the whole state each time it changes, and an ``alive`` event each
    second between: the page's watchdog hears it (a comment line it would not), so a quiet
    minute while people think never drops the page to polling."""
    running, open_streams = table(), streams()
    if not open_streams.take():
        response = error_answer(503, f"{MAX_STREAMS} pages are live already: this one updates every 2 seconds instead")
        response.headers["Retry-After"] = "60"
        return response

    given_back = threading.Event()

    def give_back() -> None:  # once, whether the stream ran or was never read (a HEAD request)
        if not given_back.is_set():
            given_back.set()
            open_streams.give_back()

    def stream() -> Iterator[str]:
        try:
            yield "retry: 1000\n\n"
            for state in iter_states(running, HEARTBEAT_S):
                if state is None:
                    yield "event: alive\ndata: {}\n\n"  # a write to a phone that has gone ends this stream
                else:
                    yield f"event: state\nid: {state['version']}\ndata: {json.dumps(state, separators=(',', ':'))}\n\n"
        finally:
            give_back()

    response = Response(
        stream_with_context(stream()),
        mimetype="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )
    response.call_on_close(give_back)
    return response


@live.get("/health")
def health() -> Response:
    return jsonify({**table().health(), "streams": {"open": streams().open, "max": MAX_STREAMS}})
