"""The real daemon process (``pegs serve --simulate``), killed with SIGKILL at random points.

After every restart no accepted move may be lost, and the game must carry on: a move
half made when the power went is finished on the (simulated) board afterwards.
"""

from __future__ import annotations

import json
import random
import socket
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from referee import CARDS, Position, Ruleset, legal_moves
from referee.physical import PhysicalBoard, by_hand
from tests.real_daemon import Daemon


def pick_move(position: Position, rng: random.Random) -> Any:
    rules = Ruleset.preset("basic")
    for card in rng.sample(CARDS, len(CARDS)):
        moves = list(legal_moves(position, card, rules))
        if moves:
            return rng.choice(moves)
    return None


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_kill_9_loses_no_accepted_move(tmp_path: Path, seed: int) -> None:
    rng = random.Random(seed)
    daemon = Daemon(tmp_path)
    daemon.start()
    accepted: list[str] = []
    kills = 0
    try:
        while len(accepted) < 10:
            state = daemon.get("/api/state")
            assert state["moves"] == accepted and state["status"] == "synced", state
            position = Position.from_json(state["position"])
            move = pick_move(position, rng)
            if move is None:
                accepted = daemon.post("/api/sim/events", {"events": ["done"]})["moves"]
                continue
            physical = PhysicalBoard(position.board)
            filled = [physical.index(hole) for hole in state["occupied"]]
            by_hand_events = by_hand(position, move, rng, occupied=filled)
            events = [f"{e.kind} {physical.name(e.holes[0])}" for e in by_hand_events] + ["done"]
            single = len(move.steps) == 1  # a split's first half alone may be a legal move: don't cut it
            for event in events:
                if single and event != "done" and rng.random() < 0.2:
                    daemon.kill()  # the power goes in the middle of the move
                    kills += 1
                    daemon.start()
                    assert daemon.get("/api/state")["moves"] == accepted
                state = daemon.post("/api/sim/events", {"events": [event]})
            assert state["moves"][:-1] == accepted and len(state["moves"]) == len(accepted) + 1
            assert Position.from_json(state["position"]).occupancy == move.result.occupancy
            accepted = state["moves"]
            if rng.random() < 0.3:
                daemon.kill()  # just after the move was acknowledged
                kills += 1
                daemon.start()
        assert kills >= 2
    finally:
        daemon.stop()


def test_many_pages_keep_the_daemon_answering(tmp_path: Path) -> None:
    """Issue "Hardening": "Forty open event streams stop everything ... after the clients
    leave it takes 22 to 67 s to recover." Now at most 32 pages are live; the next one is
    told to poll instead (503, one line), everything else still answers, and a page that
    closes frees its stream within a few seconds."""
    daemon = Daemon(tmp_path)
    daemon.start()
    pages: list[socket.socket] = []
    try:
        for _ in range(32):
            page = socket.create_connection(("127.0.0.1", daemon.port), timeout=10)
            page.sendall(b"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            assert page.recv(64).startswith(b"HTTP/1.1 200")
            pages.append(page)
        with pytest.raises(urllib.error.HTTPError) as refused:
            daemon.get("/api/events")
        assert refused.value.code == 503 and "updates every 2 seconds" in json.load(refused.value)["error"]
        assert daemon.get("/api/health")["streams"] == {"open": 32, "max": 32}
        assert daemon.post("/api/sim/events", {"events": ["lift S0:1"]})["status"] == "moving"
        pages.pop().close()
        deadline = time.monotonic() + 5
        while daemon.get("/api/health")["streams"]["open"] == 32:
            assert time.monotonic() < deadline, "a closed page's stream was not freed within 5 s"
            time.sleep(0.1)
    finally:
        for page in pages:
            page.close()
        daemon.stop()
