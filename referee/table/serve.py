"""``pegs serve``: build the daemon from its configuration and serve the web page."""

from __future__ import annotations

import argparse
import logging
import signal
import sys
import time
from dataclasses import replace
from types import FrameType

from referee.game import GameError
from referee.table import logs
from referee.table.config import Config, ConfigError
from referee.table.store import StoreError
from referee.table.table import Table

log = logging.getLogger("pegs.serve")
THREADS = 48  # up to 32 live pages (web.api.MAX_STREAMS) hold one each; the rest answer everything else


def config_from(args: argparse.Namespace) -> Config:
    if args.config:
        config = Config.from_toml(args.config)
    else:
        config = Config.simulated(args.data or "data")
    overrides = {"data_dir": args.data, "web_port": args.port, "host": args.host,
                 "rules": args.rules, "players": args.players, "pin": args.pin}  # fmt: skip
    config = replace(config, **{key: value for key, value in overrides.items() if value is not None})
    if config.pin is not None and not (config.pin.isdigit() and 4 <= len(config.pin) <= 8):
        raise ConfigError("--pin must be 4 to 8 digits")
    config.ruleset()
    return config


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


def serve(args: argparse.Namespace) -> int:
    import waitress

    from web import create_app

    logs.setup()
    started = time.monotonic()
    try:
        config = config_from(args)
        table = Table.build(config)
        table.start()
    except (ConfigError, StoreError, GameError) as error:
        print(f"pegs serve: {error}", file=sys.stderr)
        return 2
    if table.store.recovered:
        print(f"pegs: {table.store.recovered}", file=sys.stderr, flush=True)
    app = create_app(table)
    print(f"pegs: the table PIN is {app.config['TABLE_PIN']} (setup and undo on the page ask for it)",
          file=sys.stderr, flush=True)  # fmt: skip

    def stop(signum: int, _frame: FrameType | None) -> None:
        log.info("stopping", extra={"signal": signum})
        table.stop()
        sys.exit(0)

    signal.signal(signal.SIGTERM, stop)
    log.info("serving", extra={"url": f"http://{config.host}:{config.web_port}/", "simulate": config.simulate,
                               "startup_s": round(time.monotonic() - started, 3)})  # fmt: skip
    print(f"pegs: {where_to_find(config.host, config.web_port)}", file=sys.stderr, flush=True)
    try:
        waitress.serve(app, host=config.host, port=config.web_port, threads=THREADS, channel_timeout=60)
    except OSError as error:
        print(f"pegs serve: cannot listen on {config.host}:{config.web_port}: {error.strerror}", file=sys.stderr)
        return 2
    finally:
        table.stop()
    return 0
