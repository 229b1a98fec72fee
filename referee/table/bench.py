"""``pegs bench``: how long legal move generation takes on three fixed positions.

The positions are frozen here so that figures from different machines and commits
compare. The worst case is the board of docs/design.md, "Budgets": 8 players, North Carolina rules,
a ten (which must be split over any two pegs), 32 pegs on the track.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TextIO

from referee.cards import CARDS
from referee.movegen import legal_moves
from referee.position import Position
from referee.rulesets import Ruleset

if TYPE_CHECKING:
    from referee.coach.bots import StrategicBot


@dataclass(frozen=True)
class BenchCase:
    name: str
    rules: str
    cards: tuple[str, ...]
    position: dict[str, Any]
    repeat: int


CASES = (
    BenchCase(
        name="4-player basic opening, every card",
        rules="basic",
        cards=CARDS,
        position={
            "players": 4,
            "turn": 0,
            "pegs": {"0": ["T0:8", "S", "S", "S", "S"], "1": ["T1:11", "S", "S", "S", "S"]},
        },
        repeat=300,
    ),
    BenchCase(
        name="6-player Arizona middle game, every card",
        rules="arizona",
        cards=CARDS,
        position={
            "players": 6,
            "turn": 0,
            "pegs": {
                "0": ["T0:7", "T0:11", "T0:10", "H0:5", "S"],
                "1": ["T2:10", "T1:3", "T5:4", "H1:5", "S"],
                "2": ["T4:13", "T2:3", "T1:14", "H2:5", "S"],
                "3": ["T4:5", "T1:9", "T5:8", "H3:5", "S"],
                "4": ["T0:4", "T4:2", "T4:15", "H4:5", "S"],
                "5": ["T1:2", "T3:1", "T4:9", "H5:5", "S"],
            },
        },
        repeat=100,
    ),
    BenchCase(
        name="worst case: 8 players, north-carolina, 10, 32 pegs on the track",
        rules="north-carolina",
        cards=("10",),
        position={
            "players": 8,
            "turn": 0,
            "pegs": {
                "0": ["T1:16", "T0:16", "T3:11", "T1:12", "S"],
                "1": ["T7:0", "T6:7", "T6:12", "T5:7", "S"],
                "2": ["T2:17", "T1:6", "T6:16", "T0:7", "S"],
                "3": ["T5:9", "T6:2", "T0:0", "T6:6", "S"],
                "4": ["T3:14", "T5:2", "T5:12", "T1:11", "S"],
                "5": ["T4:3", "T7:11", "T0:13", "T7:12", "S"],
                "6": ["T2:4", "T0:3", "T0:2", "T6:10", "S"],
                "7": ["T4:11", "T3:15", "T0:1", "T6:4", "S"],
            },
        },
        repeat=40,
    ),
    BenchCase(
        name="worst case: 10 players, north-carolina, 10, 40 pegs on the track",
        rules="north-carolina",
        cards=("10",),
        position={
            "players": 10,
            "turn": 0,
            "pegs": {
                "0": ["T0:2", "T0:16", "T5:0", "T8:13", "H0:5"],
                "1": ["T0:4", "T3:3", "T4:4", "T8:12", "H1:5"],
                "2": ["T1:5", "T2:6", "T5:5", "T7:9", "S"],
                "3": ["T2:5", "T5:9", "T6:6", "T9:4", "S"],
                "4": ["T2:1", "T5:1", "T8:11", "T9:14", "H4:5"],
                "5": ["T0:5", "T0:10", "T3:4", "T5:4", "H5:5"],
                "6": ["T3:7", "T5:3", "T8:6", "T8:9", "H6:5"],
                "7": ["T3:9", "T4:1", "T6:0", "T9:1", "S"],
                "8": ["T1:2", "T2:9", "T4:14", "T7:4", "H8:5"],
                "9": ["T0:9", "T1:0", "T4:3", "T9:11", "S"],
            },
        },
        repeat=20,
    ),
)
WORST = CASES[2]  # docs/design.md's worst board ("Budgets"): 8 players, North Carolina, the ten


def run_case(case: BenchCase, repeat: int | None = None) -> dict[str, Any]:
    """Time generating (and consuming) every legal move of the case's cards."""
    position = Position.from_json(case.position)
    rules = Ruleset.preset(case.rules)
    runs: list[float] = []
    moves = 0
    for _ in range(repeat or case.repeat):
        start = time.perf_counter()
        moves = sum(1 for card in case.cards for _ in legal_moves(position, card, rules))
        runs.append(time.perf_counter() - start)
    return {**timings(case.name, runs, "runs"), "rules": case.rules, "cards": list(case.cards), "moves": moves}


def run_tracker(card: str | None, moves: int = 40, seed: int = 1) -> list[dict[str, Any]]:
    """The tracker on the worst position: every sensor event of ``moves`` random legal
    moves carried out by hand, the first lift of each turn (nothing generated before it)
    among them, and the set-up of each turn."""
    from referee.physical import by_hand
    from referee.tracker import Tracker

    worst = WORST
    position = Position.from_json(worst.position)
    rules = Ruleset.preset(worst.rules)
    rng = random.Random(seed)
    choices = list(legal_moves(position, "10", rules))
    setups: list[float] = []
    events: list[float] = []
    for _ in range(moves):
        move = rng.choice(choices)
        start = time.perf_counter()
        tracker = Tracker(position, rules, card=card)
        setups.append(time.perf_counter() - start)
        for event in by_hand(position, move, rng, bounces=2):
            start = time.perf_counter()
            tracker.feed(event)
            events.append(time.perf_counter() - start)
    label = f"card {card}" if card else "no card declared"
    return [
        timings(f"tracker: one sensor event, worst case, {label}", events, "events"),
        timings(f"tracker: turn set-up, worst case, {label}", setups, "turns"),
    ]


def run_bot(games: int = 20, kind: type[StrategicBot] | None = None, name: str = "strategic") -> dict[str, Any]:
    """A bot's whole decision on the worst board (8 players, North Carolina, the worst case's
    pegs): its hand's legal moves generated, ranked by the hints, looked ahead."""
    from referee.coach.bots import StrategicBot
    from referee.game import Game

    worst = WORST
    rules = Ruleset.preset(worst.rules)
    decisions: list[float] = []
    for seed in range(games):
        game = Game(rules, 8, mode="digital", seed=seed, pegs=worst.position["pegs"])
        if game.phase == "draw":
            game.draw()
        bot = (kind or StrategicBot)(random.Random(seed))
        start = time.perf_counter()
        options = [(card, move) for card, moves in sorted(game.playable().items()) for move in moves]
        if options:
            bot.choose(game, options)
        decisions.append(time.perf_counter() - start)
    return timings(f"bot: {name} move, worst board (8 players, north-carolina)", decisions, "decisions")


def run_expert(games: int = 4) -> list[dict[str, Any]]:
    """The expert's decisions over whole 4-player games (basic and North Carolina, against
    the strategic bot), and on the worst board (8 players, North Carolina, a crowded track)."""
    from referee.coach.bots import BOTS, ExpertBot
    from referee.coach.selfplay import play_one

    decisions: list[float] = []

    class Timed(ExpertBot):
        def choose(self, game: Any, options: Any) -> Any:
            start = time.perf_counter()
            chosen = super().choose(game, options)
            decisions.append(time.perf_counter() - start)
            return chosen

    BOTS["timed expert"] = Timed
    try:
        for seed in range(games):
            for rules in ("basic", "north-carolina"):
                play_one(Ruleset.preset(rules), 4, seed, "timed expert", "strategic")
    finally:
        del BOTS["timed expert"]
    whole = timings("bot: expert move, whole 4-player games (basic, north-carolina)", decisions, "decisions")
    return [whole, run_bot(max(5, 5 * games), ExpertBot, "expert")]


def run_review(games: int = 6) -> list[dict[str, Any]]:
    """The game review of whole 4-player games (greedy bots, every hand known), basic and North
    Carolina (its 7s and 10s split): the budget (docs/design.md, "Budgets") is 5 s a game here, in the background."""
    from referee.coach.review import review
    from referee.coach.selfplay import play_one

    rows = []
    for rules in ("basic", "north-carolina"):
        seconds = []
        for seed in range(games):
            game, _stats = play_one(Ruleset.preset(rules), 4, seed, "greedy")
            start = time.perf_counter()
            review(game.events)
            seconds.append(time.perf_counter() - start)
        rows.append(timings(f"review: a whole 4-player game, {rules}", seconds, "games"))
    return rows


def timings(name: str, timings: list[float], unit: str) -> dict[str, Any]:
    timings = sorted(timings)
    p99 = timings[min(len(timings) - 1, round(0.99 * (len(timings) - 1)))]
    return {
        "name": name,
        unit: len(timings),
        "runs": len(timings),
        "median_ms": round(statistics.median(timings) * 1000, 3),
        "p99_ms": round(p99 * 1000, 3),
    }


def run_daemon(moves: int = 30, seed: int = 1) -> list[dict[str, Any]]:
    """The daemon end to end: simulated sensor change -> tracker -> game -> store -> LED frame
    written (in process, with a real SQLite file); then the real ``pegs serve`` process:
    how long until its page answers, and its resident memory after a game's worth of moves."""
    import tempfile

    from referee.physical import PhysicalBoard, by_hand
    from referee.table.config import Config
    from referee.table.table import Table

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
    import tempfile

    from referee.physical import PhysicalBoard, by_hand
    from referee.table.config import Config
    from referee.table.table import Table

    rng, commits = random.Random(seed), list[float]()
    worst = WORST
    with tempfile.TemporaryDirectory() as data:
        running = Table.build(Config.simulated(data, players=8, rules=worst.rules))
        running.start()
        try:
            running.new_game(8, Ruleset.preset(worst.rules), pegs=worst.position["pegs"])
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
    import json
    import socket
    import subprocess
    import sys
    import urllib.request

    startup: list[float] = []
    rss_mb = 0.0
    for _ in range(starts):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        began = time.perf_counter()
        process = subprocess.Popen(
            [sys.executable, "-m", "referee.table.cli", "serve", "--simulate", "--data", data, "--port", str(port)],
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


def run_all(repeat: int | None = None, progress: TextIO | None = None) -> list[dict[str, Any]]:
    """Every benchmark, in order; ``progress``: a line per stage (a run takes minutes)."""
    from firmware_bridge.bench import link_latency
    from hardware.bench import render_frame
    from referee.table.table import settle_memory

    settle_memory()  # measured as the daemon runs: its start-up objects out of the collector's reach
    tracker_moves = max(5, min(40, repeat or 40))
    stages: list[tuple[str, Callable[[], list[dict[str, Any]]]]] = [
        ("legal move generation", lambda: [run_case(case, repeat) for case in CASES]),
        ("the tracker", lambda: run_tracker("10", tracker_moves) + run_tracker(None, max(3, tracker_moves // 4))),
        ("the strategic bot", lambda: [run_bot(max(5, min(20, repeat or 20)))]),
        ("the expert bot", lambda: run_expert(max(1, min(4, (repeat or 20) // 5)))),
        ("the game review", lambda: run_review(max(3, min(10, repeat or 10)))),
        (
            "serial link and LEDs",
            lambda: [
                link_latency(max(20, min(300, 3 * (repeat or 100)))),
                render_frame(max(20, min(500, 5 * (repeat or 100)))),
            ],
        ),
        (
            "the daemon",
            lambda: run_daemon(max(5, min(30, repeat or 30))) + [run_daemon_worst(max(3, min(10, repeat or 10)))],
        ),
        ("the first lesson", lambda: _lesson(repeat)),
        ("first lifts", lambda: _lifts(repeat)),
        ("the web page", lambda: _web(repeat)),
    ]
    results: list[dict[str, Any]] = []
    for number, (name, stage) in enumerate(stages, 1):
        if progress is not None:
            progress.write(f"pegs bench: {number}/{len(stages)} {name}\n")
            progress.flush()
        results += stage()
    return results


def _lesson(repeat: int | None) -> list[dict[str, Any]]:
    from referee.table.bench_lesson import run_lesson

    return run_lesson(1 if repeat is not None and repeat < 5 else 2)


def _lifts(repeat: int | None) -> list[dict[str, Any]]:
    from referee.table import bench_lifts

    return bench_lifts.run_all(repeat)


def _web(repeat: int | None) -> list[dict[str, Any]]:
    from referee.table.bench_web import held_connections, many_pages, page_weight, sse_latency

    seconds = 6.0 if repeat is None or repeat >= 5 else 2.0
    return [
        sse_latency(16, max(10, min(40, repeat or 40))),
        *many_pages(200, seconds),
        *held_connections(200, 150, seconds=min(seconds, 4.0)),
        page_weight(),
    ]


def table(results: list[dict[str, Any]]) -> str:
    rows = [("what", "count", "median ms", "p99 ms")]
    for r in results:
        if "rss_mb" in r:
            rows.append((r["name"], str(r["runs"]), f"{r['rss_mb']:.1f} MB", ""))
        elif "bytes" in r:
            rows.append((r["name"], str(r["runs"]), f"{r['bytes'] / 1000:.1f} KB", ""))
        else:
            rows.append((r["name"], str(r.get("moves", r["runs"])), f"{r['median_ms']:.3f}", f"{r['p99_ms']:.3f}"))
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    lines = [
        "  ".join(cell.ljust(w) if i == 0 else cell.rjust(w) for i, (cell, w) in enumerate(zip(row, widths)))
        for row in rows
    ]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)
