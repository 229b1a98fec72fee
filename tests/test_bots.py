"""Bots that fill a seat (issue 13): the strategic bot plays whole games under every preset,
and the head-to-head line of ``pegs selfplay --vs`` (win rate with a 95% Wilson interval)."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from referee.coach.selfplay import play_one, wilson
from referee.rulesets import PRESETS, Ruleset


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_strategic_bot_finishes_games_under_every_preset(preset: str) -> None:
    for seed in (1, 2):
        game, stats = play_one(Ruleset.preset(preset), 4, seed, "strategic", "greedy")
        assert game.phase == "over" and stats.winner


def test_wilson_interval_matches_known_values() -> None:
    """Wilson (1927): 8 of 10 gives about 0.490 to 0.943 at 95%."""
    low, high = wilson(8, 10)
    assert low == pytest.approx(0.4902, abs=1e-3) and high == pytest.approx(0.9433, abs=1e-3)
    assert wilson(0, 0) == (0.0, 1.0)


def test_selfplay_vs_ends_with_the_first_bots_win_rate_and_progress_goes_to_stderr() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "referee.cli",
            "selfplay",
            "--players",
            "4",
            "--rules",
            "basic",
            "--games",
            "60",
            "--seed",
            "1",
            "--bot",
            "strategic",
            "--vs",
            "greedy",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0
    last = done.stdout.strip().splitlines()[-1]
    match = re.fullmatch(
        r"strategic \(even seats\) against greedy \(odd seats\): strategic's team won (\d+) of 60 "
        r"games, [\d.]+% \(95% CI ([\d.]+)% to ([\d.]+)%\)",
        last,
    )
    assert match, last
    assert float(match[2]) > 50  # strategic beats greedy (seeded: the same games every run)
    assert "60/60 games" in done.stderr  # progress even when stderr is not a terminal
    assert not any(re.fullmatch(r"\d+/60 games", line) for line in done.stdout.splitlines())  # and never on stdout
