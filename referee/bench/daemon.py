"""The daemon's benches: a sensor change to its LED frame and a commit to disk, in process
with a real SQLite file; then the real ``pegs serve`` process's start-up and memory."""

from __future__ import annotations

import json
import random
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from typing import Any

from referee.bench.common import WORST, timings
from referee.cards import CARDS
from referee.movegen import legal_moves
from referee.physical import PhysicalBoard, by_hand
from referee.protocol_types import NewGame
from referee.rulesets import Ruleset
from referee.settings.config import Config
from referee.table.table import Table


def run_daemon(moves: int = 30, seed: int = 1) -> list[dict[str, Any]]:
    """The daemon end to end: simulated sensor change -> tracker -> game -> store -> LED frame
    written (in process, with a real SQLite file); then the real ``pegs serve`` process:
    how long until its page answers, and its resident memory after a game's worth of moves."""
    rng = random.Random(seed)
    commits: list[float] = []
    with tempfile.TemporaryDirectory() as data:
        running = Table.build(Config.simulated(data))
        running.start()
        try:
            for _ in range(moves):
                position = running.session.game.position
                choices = [
                    m
                    for card in rng.sample(CARDS, len(CARDS))
                    for m in legal_moves(position, card, running.session.game.rules)
                ]
                if not choices:
                    running.discard(position.turn, None)  # "can't move"
                    continue
                physical = PhysicalBoard(position.board)
                filled = [physical.index(hole) for hole in running.state()["occupied"]]
                events = by_hand(position, rng.choice(choices), rng, occupied=filled)
                running.sim_events([f"{e.kind} {physical.name(e.holes[0])}" for e in events])
                start = time.perf_counter()
                running.press_done()
                commits.append(time.perf_counter() - start)
            latencies = list(running.latencies)
        finally:
            running.stop()
        rows = [
            timings("daemon: sensor change to LED frame written (simulated board)", latencies, "events"),
            timings("daemon: done to move stored (fsync) and LEDs written", commits, "commits"),
        ]
        rows += _daemon_process(data)
    return rows


def run_daemon_worst(moves: int = 10, seed: int = 5) -> dict[str, Any]:
    """ "Done" to move stored and LEDs written on the worst board (8 players, North Carolina,
    real cards: every card may explain a move), a person's pause after each move."""
    rng, commits = random.Random(seed), list[float]()
    worst = WORST
    with tempfile.TemporaryDirectory() as data:
        running = Table.build(Config.simulated(data, players=8, rules=worst.rules))
        running.start()
        try:
            running.new_game(NewGame(8, Ruleset.preset(worst.rules), pegs=worst.position["pegs"]))
            while len(commits) < moves:
                position = running.session.game.position
                singles = [
                    m
                    for card in CARDS
                    for m in legal_moves(position, card, running.session.game.rules)
                    if len(m.steps) == 1 and not m.steps[0].swap
                ]
                physical = PhysicalBoard(position.board)
                filled = [physical.index(hole) for hole in running.state()["occupied"]]
                events = [
                    f"{e.kind} {physical.name(e.holes[0])}"
                    for e in by_hand(position, rng.choice(singles), rng, occupied=filled)
                ]
                time.sleep(0.2)  # a hand reaching for the pegs
                if running.sim_events(events)["status"] != "move":  # colours a sensor cannot tell: undo, try another
                    undo = {"lift": "place", "place": "lift"}
                    running.sim_events([f"{undo[e.split()[0]]} {e.split()[1]}" for e in reversed(events)])
                    continue
                start = time.perf_counter()
                running.press_done()
                commits.append(time.perf_counter() - start)
        finally:
            running.stop()
    return timings("daemon: done to stored and LEDs, worst case (8 players, NC, real cards)", commits, "commits")


def _daemon_process(data: str, starts: int = 3) -> list[dict[str, Any]]:

    startup: list[float] = []
    rss_mb = 0.0
    for _ in range(starts):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        began = time.perf_counter()
        process = subprocess.Popen(
            [sys.executable, "-m", "referee.cli", "serve", "--simulate", "--data", data, "--port", str(port)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            while True:
                try:
                    with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/state", timeout=5) as response:
                        json.load(response)
                    break
                except OSError:
                    if process.poll() is not None or time.perf_counter() - began > 30:
                        raise RuntimeError("the daemon did not start") from None
                    time.sleep(0.01)
            startup.append(time.perf_counter() - began)
            for _ in range(20):  # a page polling the state
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/state", timeout=5) as response:
                    json.load(response)
            status = open(f"/proc/{process.pid}/status", encoding="ascii").read()  # noqa: SIM115
            rss_mb = max(rss_mb, int(status.split("VmRSS:")[1].split()[0]) / 1024)
        finally:
            process.terminate()
            process.wait(10)
    return [
        {**timings("daemon: start-up, process start to page answering", startup, "starts")},
        {"name": "daemon: resident memory (VmRSS) resuming that game", "runs": starts, "rss_mb": round(rss_mb, 1)},
    ]


def run_seat_bots(turns: int = 24, seed: int = 3) -> dict[str, Any]:
    """A sensor change to its LED frame while expert bots fill three seats of a digital game:
    they think on their own threads, so no sensor event waits for a bot (issue 31, "Speed")."""
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as data:
        running = Table.build(Config.simulated(data))
        running.start()
        try:
            running.new_game(
                NewGame(4, Ruleset.preset("basic"), mode="digital", bots={"1": "expert", "2": "expert", "3": "expert"})
            )
            running.latencies.clear()
            for _ in range(turns):
                if not _one_turn(running, rng):
                    break
            latencies = list(running.latencies)
        finally:
            running.stop()
    return timings("daemon: sensor change to LED frame, expert seat bots thinking", latencies, "events")


def _one_turn(running: Table, rng: random.Random) -> bool:
    """Carry out the next move by hand: the bot's plan once it has chosen, or a person's own."""
    game = running.session.game
    if game.phase == "over":
        return False
    deadline = time.monotonic() + 10
    while game.turn != 0 and running.state()["bot"] is None and game.phase == "play":
        if time.monotonic() > deadline:
            return False
        knock = next((hole for hole in running.state()["occupied"] if hole.startswith("S")), None)
        if knock is not None:  # a hand brushes a start peg while the bot thinks
            running.sim_events([f"lift {knock}", f"place {knock}"])
        time.sleep(0.01)
    plan = running.state()["bot"]
    position = game.position
    if plan is not None and game.turn != 0:
        move = next(m for m in game.legal(plan["card"]) if m.text == plan["move"])
    else:
        options = [(card, m) for card, moves in sorted(game.playable().items()) for m in moves]
        if not options:
            running.discard(0, game.hand(0)[0])
            return True
        card, move = rng.choice(options)
        running.declare(0, card)
    physical = PhysicalBoard(position.board)
    filled = [physical.index(hole) for hole in running.state()["occupied"]]
    running.sim_events([f"{e.kind} {physical.name(e.holes[0])}" for e in by_hand(position, move, rng, occupied=filled)])
    running.press_done()
    return True
