"""``pegs serve``: build the daemon from its configuration and serve the web page."""

from __future__ import annotations

import argparse
import logging
import signal
import socket
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from functools import cache
from types import FrameType
from typing import Any

from referee.game import GameError
from referee.settings.config import Config, ConfigError
from referee.table import lock, logs
from referee.table.store import StoreError
from referee.table.table import Table

log = logging.getLogger("pegs.serve")
THREADS = 48  # up to 32 live pages (web.live.MAX_STREAMS) hold one each; the rest answer everything else
CONNECTION_LIMIT = 500
"""Open connections at once (waitress's default is 100, which 100 idle sockets fill: it then
stops accepting and every other phone waits). Each takes one file descriptor (bodies are
kept under waitress's spill-to-file size, so never a second), well under a Pi's 1024; at
the limit the longest-idle connections are closed to make room (``TableServer``)."""
IDLE_TIMEOUT_S = 10
"""A connection with no request queued or running is closed after this long without a
byte either way: a socket that never sends a whole request, or a phone's kept-alive
connection between polls (it opens a new one). Live pages are running requests and are
never closed for it; their heartbeat finds a phone that has gone."""
ROOM = 20  # at the limit, close this many idle connections (at once, for the next arrivals)
UNREAD_BUDGET = 8 * 1024 * 1024
"""Bytes of answers written for peers that have not read them, all connections together: 450
sockets asking for a 300 KB review and reading nothing held 300 MB (a Pi Zero 2 W has 512). Past
it, the connections that have gone longest without a byte either way are closed until half of
it is left (``bound_unread``), and no big answer is buffered while it is over."""
BIG_ANSWER = 64 * 1024  # bytes: a review or a game's record, not a page's state
ADJUSTMENTS = {
    "threads": THREADS,
    "connection_limit": CONNECTION_LIMIT,
    "channel_timeout": IDLE_TIMEOUT_S,
    "cleanup_interval": 1,  # look for idle connections every second (waitress: 30 s)
    "asyncore_use_poll": True,  # poll(), not select(): select() fails on descriptors above 1023
    "max_request_body_size": 256 * 1024,  # web.MAX_BODY (64 KB) answers 413 first; below 512 KB no temporary file
    "max_request_header_size": 32 * 1024,  # waitress: 256 KB each
}
SEND_BUFFER = 64 * 1024
"""Bytes of an answer the kernel holds per connection (Linux would grow it to megabytes): the
rest waits in waitress's buffers, where ``UNREAD_BUDGET`` counts it."""


def config_from(args: argparse.Namespace) -> Config:
    config = Config.from_toml(args.config) if args.config else Config.simulated(args.data or "data")
    overrides = {
        "data_dir": args.data,
        "web_port": args.port,
        "host": args.host,
        "rules": args.rules,
        "players": args.players,
        "pin": args.pin,
    }
    config = replace(config, **{key: value for key, value in overrides.items() if value is not None})
    if config.pin is not None and not (config.pin.isdigit() and 4 <= len(config.pin) <= 8):
        raise ConfigError("--pin must be 4 to 8 digits")
    config.ruleset()
    return config


def check_port(config: Config) -> None:
    """A port the page can be served on: 1 to 65535 (the config file's ``[web] port`` is
    checked as it is read; this is for ``--port``). The system would take 99999 as some
    other port, and 0 as any free one, and the page would be somewhere else than said."""
    port = config.web_port
    if type(port) is not int or not 1 <= port <= 65535:
        raise ConfigError(f"--port must be a whole number from 1 to 65535, not {port}")


def where_to_find(host: str, port: int, lan: str | None = None) -> str:
    """Where the page is, said for the people at the table: phones need the LAN address."""
    from web.hosts import lan_address

    here = f"http://127.0.0.1:{port}/"
    if host in ("127.0.0.1", "localhost", "::1"):
        return f"the board's page is at {here} (this machine only: --host 0.0.0.0 serves phones on the network)"
    found = lan if lan is not None else lan_address()
    if found is None:
        return f"the board's page is at {here}; no network found, so phones cannot reach it yet"
    return f"the board's page is at http://{found}:{port}/ for phones on this network (and {here} here)"


def create_server(app: Any, host: str, port: int, **adjustments: Any) -> Any:
    """What ``waitress.create_server`` makes, with ``TableServer`` (``table_server()``) on
    each address: at the connection limit it makes room by closing idle connections
    instead of letting nobody new in."""
    import waitress

    adj = waitress.adjustments.Adjustments(host=host, port=port, **{**ADJUSTMENTS, **adjustments})
    dispatcher = waitress.task.ThreadedTaskDispatcher()
    dispatcher.set_thread_count(adj.threads)
    sockets: dict[int, Any] = {}
    servers = [table_server()(app, sockets, dispatcher=dispatcher, adj=adj, sockinfo=info) for info in adj.listen]
    if len(servers) == 1:
        return servers[0]
    listening = [(server.effective_host, server.effective_port) for server in servers]
    return waitress.server.MultiSocketServer(sockets, adj, listening, dispatcher, servers[0].log_info)


def held_unread(server: Any) -> int:
    """Bytes of big answers the server's connections hold until their peers have read them all
    (a buffer is kept whole until its last byte is sent, so this counts whole answers)."""
    return sum(_held(channel) for channel in list(server.active_channels.values()))


def bound_unread(server: Any) -> None:
    """Past ``UNREAD_BUDGET``, close the connections holding big answers that have gone
    longest without a byte either way, until half of it is left."""
    waiting = held_unread(server)
    if waiting <= UNREAD_BUDGET:
        return
    closed = 0
    for channel in sorted(server.active_channels.values(), key=lambda channel: channel.last_activity):
        if waiting <= UNREAD_BUDGET // 2:
            break
        if _held(channel):
            waiting -= _held(channel)
            channel.handle_close()
            closed += 1
    log.warning("answers left unread: closed the longest-silent connections", extra={"closed": closed})


def _held(channel: Any) -> int:
    return int(getattr(channel, "held", 0)) if channel.total_outbufs_len else 0


def _body_on_its_way(channel: Any) -> bool:
    """A waitress channel whose request head is in and whose body is still arriving."""
    request = channel.request
    return request is not None and bool(request.headers_finished) and not request.completed


@cache
def table_channel() -> Any:
    """The class ``TableChannel``: waitress's connection, whose own refusals carry the headers."""
    import waitress

    from web import guard_headers

    class GuardedErrorTask(waitress.task.ErrorTask):  # type: ignore[misc]
        """waitress answers a request it cannot read (a header too big, a body too big, a
        broken request line) itself: with the headers every answer of the app carries."""

        def execute(self) -> None:
            self.response_headers.extend(guard_headers())
            super().execute()

    class TableChannel(waitress.channel.HTTPChannel):  # type: ignore[misc]
        """waitress's connection, which refuses a big answer while big ones wait unread past the budget."""

        error_task_class = GuardedErrorTask

        held = 0  # bytes of big answers buffered for this connection since it last had nothing to send

        def write_soon(self, data: Any) -> Any:
            """A big answer is not buffered while big answers already wait unread past the
            budget (its connection is closed instead: a phone asks again; a peer that reads
            nothing holds no more memory). Small ones, a page's state, always go."""
            if len(data) > BIG_ANSWER:
                if held_unread(self.server) + len(data) > UNREAD_BUDGET:
                    raise waitress.channel.ClientDisconnected
                self.held = (self.held if self.total_outbufs_len else 0) + len(data)
            return super().write_soon(data)

        def _flush_some(self, do_close: bool = True) -> Any:
            """waitress keeps an answer's buffer whole until new data comes, even once all of
            it has gone out: a big one is let go as soon as it has."""
            flushed = super()._flush_some(do_close=do_close)
            if self.held and not self.total_outbufs_len:
                self.held = 0
                self.outbufs[-1].prune()
            return flushed

    return TableChannel


@cache
def table_server() -> Any:
    """The class ``TableServer`` (made on first use: waitress is imported only to serve)."""
    import waitress

    class TableServer(waitress.server.TcpWSGIServer):  # type: ignore[misc]
        """waitress's server, which at ``connection_limit`` open connections stops accepting
        until one closes: so 100 sockets that send nothing shut every phone out. This one,
        at the limit, first closes the connections that have waited longest with no request
        queued or running (idle sockets, kept-alive connections, a request sent a byte at a
        time); a running request (a live page, a move) is never closed."""

        next_warning = 0.0
        channel_class = table_channel()

        def set_socket_options(self, conn: socket.socket) -> None:
            super().set_socket_options(conn)
            conn.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)

        def readable(self) -> bool:
            if self.accepting and len(self._map) >= self.adj.connection_limit:
                self.shed(len(self._map) - self.adj.connection_limit + ROOM)
            bound_unread(self)
            return bool(super().readable())

        def shed(self, count: int) -> None:
            """Close ``count`` connections with no request queued or running: first those
            that have not sent a whole request head (idle, or trickling bytes to look alive),
            longest idle first; a request whose body is on its way (a phone's move sent in
            two packets) only if there is nothing else."""
            idle = sorted(
                (channel for channel in self.active_channels.values() if not channel.requests),
                key=lambda channel: (_body_on_its_way(channel), channel.last_activity),
            )[:count]
            for channel in idle:
                channel.handle_close()  # at once: a peer that reads nothing would never see a polite close
            now = time.monotonic()
            if now >= self.next_warning:
                self.next_warning = now + 60
                log.warning(
                    "connection limit reached: closed the longest-idle connections",
                    extra={"closed": len(idle), "limit": self.adj.connection_limit},
                )

    return TableServer


STARTUP_ERRORS = (ConfigError, StoreError, GameError, lock.DataDirBusy)
"""What stops ``pegs serve`` before it serves: said in one line, exit status 2."""


def serve(args: argparse.Namespace) -> int:
    from web import create_app

    logs.setup()
    started = time.monotonic()
    try:
        config, table = _start_table(args)
    except STARTUP_ERRORS as error:
        print(f"pegs serve: {error}", file=sys.stderr)
        return 2
    if table.store.recovered:
        print(f"pegs: {table.store.recovered}", file=sys.stderr, flush=True)
    app = create_app(table)
    server = _listen(app, config, table)  # before the address is said: it may be taken
    if server is None:
        return 2
    _say_pin(app)
    signal.signal(signal.SIGTERM, _stopper(table))
    log.info(
        "serving",
        extra={
            "url": f"http://{config.host}:{config.web_port}/",
            "simulate": config.simulate,
            "startup_s": round(time.monotonic() - started, 3),
        },
    )
    print(f"pegs: {where_to_find(config.host, config.web_port)}", file=sys.stderr, flush=True)
    try:
        server.run()
    finally:
        table.stop()
    return 0


def _start_table(args: argparse.Namespace) -> tuple[Config, Table]:
    """The configured table, started, with the data directory's lock held; on one of
    ``STARTUP_ERRORS`` the lock is let go before it is raised."""
    held = None
    try:
        config = config_from(args)
        held = lock.hold(config.data_dir)  # before the store opens: never two writers
        table = Table.build(config)
        try:
            check_port(config)  # after the build: a board that cannot be opened here is said first
        except ConfigError:
            table.store.close()
            raise
        table.start()
    except STARTUP_ERRORS:
        lock.release(held)
        raise
    return config, table


def _say_pin(app: Any) -> None:
    """The table PIN, for the people at the table: setup and undo on the page ask for it."""
    print(
        f"pegs: the table PIN is {app.config['TABLE_PIN']} (setup and undo on the page ask for it)",
        file=sys.stderr,
        flush=True,
    )


def _stopper(table: Table) -> Callable[[int, FrameType | None], None]:
    """The SIGTERM handler: the table stops (its pages end, the store closes), then the process."""

    def stop(signum: int, _frame: FrameType | None) -> None:
        log.info("stopping", extra={"signal": signum})
        table.stop()
        sys.exit(0)

    return stop


def _listen(app: Any, config: Config, table: Table) -> Any | None:
    """The server, listening; a port that cannot be listened on (another program has it) is
    said in one line with the way to choose another, and the table stops."""
    try:
        return create_server(app, config.host, config.web_port)
    except OSError as error:
        print(
            f"pegs serve: cannot listen on {config.host}:{config.web_port}: {error.strerror}"
            " (another program may have that port: choose another with --port, or make run PORT=8081)",
            file=sys.stderr,
        )
        table.stop()
        return None
