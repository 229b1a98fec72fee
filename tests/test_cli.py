"""``pegs moves``, ``pegs track`` and ``pegs bench`` as a user runs them: a real subprocess, real files."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

PEGS = [sys.executable, "-m", "referee.cli"]


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*PEGS, *args], input=stdin, capture_output=True, text=True, timeout=180, check=False)


def test_moves_prints_the_design_contract(tmp_path: Path) -> None:
    position = tmp_path / "p.json"
    position.write_text(json.dumps({"players": 4, "turn": 0, "pegs": {"0": ["T0:8", "S", "S", "S", "S"]}}))
    done = run("moves", str(position), "--card", "7", "--rules", "arizona")
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    data = json.loads(done.stdout)
    assert data == {
        "moves": [
            {
                "text": "7 T0:8-T0:15",
                "result": {"0": ["T0:15", "S", "S", "S", "S"], "1": ["S"] * 5, "2": ["S"] * 5, "3": ["S"] * 5},
            }
        ]
    }


def test_moves_reads_stdin_and_house_rules(tmp_path: Path) -> None:
    house = tmp_path / "house.toml"
    house.write_text('base = "basic"\n[cards.10]\nbackward = [1]\n')
    stdin = json.dumps({"players": 4, "pegs": {"0": ["T0:8", "S", "S", "S", "S"]}})
    done = run("moves", "-", "--card", "10", "--rules", str(house), stdin=stdin)
    assert done.returncode == 0, done.stderr
    assert sorted(move["text"] for move in json.loads(done.stdout)["moves"]) == ["10 T0:8-T0:7", "10 T0:8-T1:0"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["moves", '{"players": 4}', "--card", "11"], "unknown card '11'"),
        (["moves", '{"players": 4}', "--card", "7", "--rules", "texas"], "unknown rule set 'texas'"),
        (["moves", '{"players": 4, "pegs": {"0": ["T9:1", "S", "S", "S", "S"]}}', "--card", "7"], "T9:1"),
        (["moves", "missing.json", "--card", "7"], "cannot read position"),
        (["moves", '{"players": 4'], "required: --card"),
        (["moves", "{oops", "--card", "7"], "not valid JSON"),
        (["fly"], "invalid choice"),
    ],
)
def test_bad_input_exits_2_with_one_clear_line(args: list[str], message: str) -> None:
    done = run(*args)
    assert done.returncode == 2
    assert done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1
    assert message in done.stderr


# Seat 0's five on T0:8 bumps seat 1's peg on T0:13; seat 1's four start pegs sit in S1:2..S1:5.
NAMED_STARTS: dict[str, Any] = {
    "players": 4,
    "turn": 0,
    "pegs": {"0": ["T0:8", "S", "S", "S", "S"], "1": ["T0:13", "S1:2", "S1:3", "S1:4", "S1:5"]},
}
BUMP_INTO_S1_1 = "0 lift T0:8\n200 lift T0:13\n400 place T0:13\n600 place S1:1\n"


@pytest.mark.parametrize("source", ["file", "stdin", "inline"])
def test_track_takes_named_start_holes_as_named(tmp_path: Path, source: str) -> None:
    """docs/design.md, "Position file": a position may name physical start holes (``S1:2`` means
    that hole holds a peg); a bare ``S`` fills that seat's remaining start holes from 1 up.
    So with S1:2..S1:5 named, S1:1 is free and the bumped peg going there is the move."""
    events = tmp_path / "e.txt"
    events.write_text(BUMP_INTO_S1_1)
    text = json.dumps(NAMED_STARTS)
    (tmp_path / "p.json").write_text(text)
    where = {"file": str(tmp_path / "p.json"), "stdin": "-", "inline": text}[source]
    done = run(
        "track",
        where,
        "--events",
        str(events),
        "--card",
        "5",
        "--rules",
        "basic",
        stdin=text if source == "stdin" else None,
    )
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["status"] == "move", data
    assert data["move"] == "5 T0:8-T0:13x"
    assert data["result"]["0"][0] == "T0:13" and data["result"]["1"] == ["S"] * 5


def test_track_fills_bare_start_pegs_around_named_ones(tmp_path: Path) -> None:
    """docs/design.md, "Position file": bare ``S`` pegs take the seat's remaining start holes from 1
    up, skipping the named ones: S1:1 named, the bare three are S1:2..S1:4, so S1:5 is free."""
    position = {
        "players": 4,
        "turn": 0,
        "pegs": {"0": ["T0:8", "S", "S", "S", "S"], "1": ["T0:13", "S", "S1:1", "S", "S"]},
    }
    events = tmp_path / "e.txt"
    events.write_text(BUMP_INTO_S1_1.replace("S1:1", "S1:5"))
    done = run("track", json.dumps(position), "--events", str(events), "--card", "5", "--rules", "basic")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["status"] == "move"


@pytest.mark.parametrize(
    ("seat1", "message"),
    [
        (["T0:13", "S0:2", "S1:3", "S1:4", "S1:5"], "S0:2"),  # another seat's start hole
        (["T0:13", "S1:2", "S1:2", "S1:4", "S1:5"], "two pegs in start hole S1:2"),  # the same hole twice
        (["T0:13", "S1:6", "S1:3", "S1:4", "S1:5"], "S1:6"),  # no such start hole
    ],
)
def test_track_refuses_impossible_start_holes(tmp_path: Path, seat1: list[str], message: str) -> None:
    """docs/design.md, "The pegs command", names start holes ``S<s>:<i>`` of the peg's own seat; bad
    input exits with status 2 and one clear line on stderr."""
    events = tmp_path / "e.txt"
    events.write_text(BUMP_INTO_S1_1)
    position = {**NAMED_STARTS, "pegs": {**NAMED_STARTS["pegs"], "1": seat1}}
    done = run("track", json.dumps(position), "--events", str(events), "--card", "5", "--rules", "basic")
    assert done.returncode == 2
    assert done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1
    assert message in done.stderr


def test_bench_reports_median_and_p99_as_json() -> None:
    """A few quick stages of ``pegs bench`` (``--only``); the whole bench is ``make bench``, and
    the coach's and the daemon's stages are checked below, in the slow tier."""
    done = run("bench", "--json", "--repeat", "2", "--only", "moves,tracker,bot,link,lesson")
    assert done.returncode == 0, done.stderr
    results = json.loads(done.stdout)["results"]
    generation = [r for r in results if "moves" in r]
    assert [r["moves"] > 0 for r in generation] == [True, True, True, True]
    worst, ten = generation[-2:]
    assert worst["rules"] == "north-carolina" and worst["cards"] == ["10"]
    assert worst["moves"] > 13000  # the issue: "finds over 13,000 distinct results"
    assert {"median_ms", "p99_ms"} <= set(worst)
    # Hatcher's variations: ten players
    assert ten["name"].startswith("worst case: 10 players") and ten["moves"] > worst["moves"]
    tracker = [r for r in results if r["name"].startswith("tracker: one sensor event")]
    assert len(tracker) == 2 and all(r["events"] > 0 and r["p99_ms"] > 0 for r in tracker)
    bot = next(r for r in results if r["name"].startswith("bot: strong move"))
    assert bot["decisions"] > 0 and bot["p99_ms"] > 0
    assert any(r["name"].startswith("serial link:") for r in results)
    lesson = [r for r in results if r["name"].startswith("lesson")]
    assert len(lesson) == 3 and all(r["runs"] > 0 and r["p99_ms"] > 0 for r in lesson)
    assert not any(r["name"].startswith(("hint: ", "review: ", "daemon: ", "web: ")) for r in results)  # not asked
    assert re.search(r"pegs bench: 1/5 legal move generation", done.stderr)  # progress, though stderr is a pipe
    assert "pegs bench: 5/5 the first lesson" in done.stderr
    table = run("bench", "--repeat", "1", "--only", "moves")
    assert "median ms" in table.stdout and "worst case" in table.stdout
    for only in ("moves,nosuch", ""):
        refused = run("bench", "--only", only)
        assert refused.returncode == 2 and refused.stdout == "", refused.stderr
        assert refused.stderr.count("\n") == 1 and "moves, tracker, bot" in refused.stderr


def test_bench_times_the_coach_and_the_seat_bots() -> None:
    """The stages the quick test above leaves out, at their smallest: hints, the game review
    and the expert seat bots thinking. Their budgets (docs/design.md, "Budgets": a review
    under 5 s a game) are judged by `pegs bench` on a quiet machine, not here: a test run
    shares its cores."""
    from referee.bench.coach import run_hints, run_review
    from referee.bench.daemon import run_seat_bots

    hints = run_hints(1)
    assert len(hints) == 2 and all(r["hints"] > 0 for r in hints)
    review = run_review(1)
    assert len(review) == 2 and all(r["games"] >= 1 and r["p99_ms"] > 0 for r in review)
    thinking = run_seat_bots(6)
    assert thinking["name"].startswith("daemon: sensor change to LED frame, expert seat") and thinking["events"] > 0
