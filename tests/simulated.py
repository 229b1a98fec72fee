"""The daemon in the test's own process, as ``pegs serve --simulate`` builds it (``Table`` on a
simulated board, LEDs in memory), and the page's Flask clients.

    with running(tmp_path) as (table, client):   # started on DATA, stopped after, even on failure
        table.new_game(4, BASIC, pegs=HOME)
        table.sim_events(WIN)

The fixtures of ``tests/conftest.py`` (``service``, ``app``, ``client``, ``admin``) are built
from these; a test that restarts the table on the same data dir uses ``running`` itself.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from flask.testing import FlaskClient

from referee.rulesets import Ruleset
from referee.settings.config import Config
from referee.table.table import Table
from web import create_app

PIN = "2468"  # the table PIN of every test table
BASIC = Ruleset.preset("basic")
HOME = {"0": ["H0:5", "H0:4", "H0:3", "H0:2", "T0:2"], "2": ["H2:5", "H2:4", "H2:3", "H2:2", "H2:1"]}
WIN = ["lift T0:2", "place H0:1", "done"]  # seat 0's last peg home: its team wins


@contextmanager
def started(data: Path, **config: Any) -> Iterator[Table]:
    """The table on the data dir ``data`` (``Config.simulated``'s ``config`` besides the PIN), running."""
    table = Table.build(Config.simulated(str(data), **{"pin": PIN, **config}))
    table.start()
    try:
        yield table
    finally:
        table.stop()


@contextmanager
def running(data: Path) -> Iterator[tuple[Table, FlaskClient]]:
    """The table as ``pegs serve --simulate --data DATA`` starts it, and a client of its page."""
    with started(data) as table:
        yield table, create_app(table).test_client()


def csrf(client: FlaskClient) -> dict[str, str]:
    """The header a state-changing request of this client's page carries."""
    return {"X-CSRF-Token": client.get("/api/me").get_json()["csrf"]}


def log_in(client: FlaskClient, pin: str = PIN) -> dict[str, str]:
    """Log ``client`` in with the table PIN, as the page does; its CSRF header."""
    assert client.post("/api/login", json={"pin": pin}).status_code == 200
    return csrf(client)
