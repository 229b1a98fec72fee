"""``pegs moves`` and ``pegs bench`` as a user runs them: a real subprocess, real files."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

PEGS = [sys.executable, "-m", "referee.table.cli"]


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*PEGS, *args], input=stdin, capture_output=True, text=True, timeout=60, check=False)


def test_moves_prints_the_design_contract(tmp_path: Path) -> None:
    position = tmp_path / "p.json"
    position.write_text(json.dumps({"players": 4, "turn": 0, "pegs": {"0": ["T0:8", "S", "S", "S", "S"]}}))
    done = run("moves", str(position), "--card", "7", "--rules", "arizona")
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    data = json.loads(done.stdout)
    assert data == {"moves": [{"text": "7 T0:8-T0:15", "result": {
        "0": ["T0:15", "S", "S", "S", "S"], "1": ["S"] * 5, "2": ["S"] * 5, "3": ["S"] * 5}}]}  # fmt: skip


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


def test_bench_reports_median_and_p99_as_json() -> None:
    done = run("bench", "--json", "--repeat", "2")
    assert done.returncode == 0, done.stderr
    results = json.loads(done.stdout)["results"]
    generation = [r for r in results if "moves" in r]
    assert [r["moves"] > 0 for r in generation] == [True, True, True]
    worst = generation[-1]
    assert worst["rules"] == "north-carolina" and worst["cards"] == ["10"]
    assert worst["moves"] > 13000  # the issue: "finds over 13,000 distinct results"
    assert {"median_ms", "p99_ms"} <= set(worst)
    tracker = [r for r in results if r["name"].startswith("tracker: one sensor event")]
    assert len(tracker) == 2 and all(r["events"] > 0 and r["p99_ms"] > 0 for r in tracker)
    table = run("bench", "--repeat", "1")
    assert "median ms" in table.stdout and "worst case" in table.stdout
