"""``pegs bench``: every benchmark in order, and the table they print as."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TextIO

from referee.bench import lifts
from referee.bench.coach import run_bot, run_expert, run_hints, run_review
from referee.bench.common import CASES
from referee.bench.daemon import run_daemon, run_daemon_worst, run_seat_bots
from referee.bench.engine import run_case, run_tracker
from referee.bench.leds import render_frame
from referee.bench.lesson import run_lesson
from referee.bench.link import link_latency
from referee.bench.web import held_connections, many_pages, page_weight, phone_send, sse_latency
from referee.table.table import settle_memory

# Each stage's short name (``pegs bench --only``) and what the progress line calls it.
STAGES: dict[str, str] = {
    "moves": "legal move generation",
    "tracker": "the tracker",
    "bot": "the strong bot",
    "hints": "hints",
    "expert": "the expert bot",
    "review": "the game review",
    "link": "serial link and LEDs",
    "daemon": "the daemon",
    "lesson": "the first lesson",
    "lifts": "first lifts",
    "web": "the web page",
}


def run_all(
    repeat: int | None = None, progress: TextIO | None = None, only: Sequence[str] | None = None
) -> list[dict[str, Any]]:
    """Every benchmark, in order, or the stages named in ``only`` (keys of ``STAGES``, in the
    bench's own order); ``progress``: a line per stage (a whole run takes minutes)."""
    unknown = sorted(set(only or ()) - set(STAGES))
    if unknown:
        raise ValueError(f"no bench stage {', '.join(unknown)}: the stages are {', '.join(STAGES)}")
    settle_memory()  # measured as the daemon runs: its start-up objects out of the collector's reach
    tracker_moves = max(5, min(40, repeat or 40))
    stages: dict[str, Callable[[], list[dict[str, Any]]]] = {
        "moves": lambda: [run_case(case, repeat) for case in CASES],
        "tracker": lambda: run_tracker("10", tracker_moves) + run_tracker(None, max(3, tracker_moves // 4)),
        "bot": lambda: [run_bot(max(5, min(20, repeat or 20)))],
        "hints": lambda: run_hints(max(1, min(4, (repeat or 20) // 5))),
        "expert": lambda: run_expert(max(1, min(4, (repeat or 20) // 5))),
        "review": lambda: run_review(max(3, min(10, repeat or 10))),
        "link": lambda: [
            link_latency(max(20, min(300, 3 * (repeat or 100)))),
            render_frame(max(20, min(500, 5 * (repeat or 100)))),
        ],
        "daemon": lambda: [
            *run_daemon(max(5, min(30, repeat or 30))),
            run_daemon_worst(max(3, min(10, repeat or 10))),
            run_seat_bots(max(6, min(24, repeat or 24))),
            phone_send(max(20, min(200, 2 * (repeat or 100)))),
        ],
        "lesson": lambda: _lesson(repeat),
        "lifts": lambda: _lifts(repeat),
        "web": lambda: _web(repeat),
    }
    chosen = [key for key in STAGES if only is None or key in only]
    results: list[dict[str, Any]] = []
    for number, key in enumerate(chosen, 1):
        if progress is not None:
            progress.write(f"pegs bench: {number}/{len(chosen)} {STAGES[key]}\n")
            progress.flush()
        results += stages[key]()
    return results


def _lesson(repeat: int | None) -> list[dict[str, Any]]:
    return run_lesson(1 if repeat is not None and repeat < 5 else 2)


def _lifts(repeat: int | None) -> list[dict[str, Any]]:
    return lifts.run_all(repeat)


def _web(repeat: int | None) -> list[dict[str, Any]]:
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
            unzipped = f" ({r['unzipped'] / 1000:.1f} KB unzipped)" if "unzipped" in r else ""
            rows.append((r["name"], str(r["runs"]), f"{r['bytes'] / 1000:.1f} KB{unzipped}", ""))
        else:
            rows.append((r["name"], str(r.get("moves", r["runs"])), f"{r['median_ms']:.3f}", f"{r['p99_ms']:.3f}"))
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    lines = [
        "  ".join(
            cell.ljust(w) if i == 0 else cell.rjust(w) for i, (cell, w) in enumerate(zip(row, widths, strict=False))
        )
        for row in rows
    ]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)
