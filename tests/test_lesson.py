"""The first lesson's steps (referee/coach/lesson.py, `pegs lesson`): the rules of each preset
taught one idea at a time, in the issue's order, each step a position, a card and the moves
that show the idea; checked against the rules page's "Movement of pegs" sections and each
preset's own cards."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from referee.coach.lesson import lesson
from referee.movegen import legal_moves
from referee.rulesets import PRESETS, Ruleset

NAMES = dict(enumerate(("Red", "Sky blue", "Yellow", "Blue", "White", "Orange", "Pink", "Green", "Purple", "Lime")))
CODE = re.compile(r"\b[THSC]\d+(:\d+)?\b")
ORDER = [
    "board",
    "come-out",
    "forward",
    "eight-back",
    "split",
    "bump-opponent",
    "bump-partner",
    "joker",
    "home",
    "partners-pegs",
    "practice",
]


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("players", [4, 6, 8, 10])
def test_every_step_can_be_done_and_says_so_in_words(preset: str, players: int) -> None:
    """Every step with a card has moves that pass, each a legal move of that card on that
    position; the steps come in the issue's order; words name colours, never hole codes."""
    rules = Ruleset.preset(preset)
    steps = lesson(rules, players, NAMES)
    kinds = [step.key.split("-")[0] if step.key.startswith(("split", "swap", "back")) else step.key for step in steps]
    kinds = ["split" if kind in ("split", "swap", "back") else kind for kind in kinds]
    assert [kind for kind in ORDER if kind in kinds] == list(dict.fromkeys(kinds))
    assert kinds[0] == "board" and kinds[-1] == "practice"
    for step in steps:
        assert not CODE.search(step.teach + step.task), (step.key, step.teach, step.task)
        assert "(" in step.teach, f"{step.key} cites no rule"
        if step.card is None:
            assert not step.passes
            continue
        assert step.position is not None and step.passes, step.key
        legal = {move.text for move in legal_moves(step.position, step.card, rules)}
        assert {move.text for move in step.passes} <= legal


def test_you_cannot_pass_your_own_peg() -> None:
    """The rules page, Movement of pegs - general rules: "You may never land on or pass over a
    hole occupied by one of your own pegs": the forward step's 5 moves the front peg only."""
    step = next(step for step in lesson(Ruleset.preset("basic"), 4, NAMES) if step.key == "forward")
    assert [move.text for move in step.passes] == ["5 T0:13-T1:0"]


def test_home_by_the_exact_count_all_the_way_in() -> None:
    """The rules page, Endgame: the first peg home goes "all the way to the end of the home track"."""
    step = next(step for step in lesson(Ruleset.preset("basic"), 4, NAMES) if step.key == "home")
    assert [move.text for move in step.passes] == ["7 T0:1-H0:5"]


def test_north_carolina_teaches_its_own_cards() -> None:
    """North Carolina Rules: the ace also moves back 1 (and 11 forward), the 2 swaps, the 9 splits
    forward and back, the 10 must split; the basic game has none of these steps."""
    keys = [step.key for step in lesson(Ruleset.preset("north-carolina"), 4, NAMES)]
    assert {"back-A", "swap-2", "split-7", "split-9", "split-10"} <= set(keys)
    basic = [step.key for step in lesson(Ruleset.preset("basic"), 4, NAMES)]
    assert not {"back-A", "swap-2", "split-9", "split-10"} & set(basic)


def test_house_rules_change_only_the_steps_of_the_cards_they_change(tmp_path: Path) -> None:
    """A family's own rules: the basic game with a 9 that splits and a 10 that also goes back 1."""
    house = tmp_path / "ours.toml"
    house.write_text(
        'base = "basic"\nname = "Grandma"\n[cards.9]\nforward = [9]\nsplit = {total = 9, directions = "forward-backward"}\n[cards.10]\nbackward = [1]\n',
        encoding="utf-8",
    )
    ours = {step.key: step.as_json(NAMES) for step in lesson(Ruleset.from_toml(house), 4, NAMES)}
    basic = {step.key: step.as_json(NAMES) for step in lesson(Ruleset.preset("basic"), 4, NAMES)}
    assert set(ours) - set(basic) == {"split-9", "back-10"} and not set(basic) - set(ours)
    renamed = {key: json.loads(json.dumps(step).replace("Grandma rules", "Basic rules")) for key, step in ours.items()}
    assert all(renamed[key] == basic[key] for key in basic)  # the same steps, named after the family's rules


def test_pegs_lesson_prints_the_steps_and_refuses_bad_input() -> None:
    def pegs(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "referee.cli", "lesson", *args],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )

    done = pegs("--rules", "north-carolina", "--players", "6")
    assert done.returncode == 0 and done.stderr == ""
    data = json.loads(done.stdout)
    assert data["rules"] == "north-carolina" and data["players"] == 6
    come_out = next(step for step in data["steps"] if step["key"] == "come-out")
    assert come_out["card"] == "A" and come_out["passes"][0]["words"] == "Red comes out with an ace"
    assert come_out["position"]["players"] == 6
    for bad in (["--rules", "poker"], ["--players", "5"]):
        refused = pegs(*bad)
        assert refused.returncode == 2 and refused.stdout == "" and len(refused.stderr.strip().splitlines()) == 1
