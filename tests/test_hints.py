"""Hints that explain themselves (issue 13), checked against the notes they cite: seed 000
"Notes on Strategy" and "Common Errors", seed 002 "Hints for good play" (Larry Hatcher's)."""

from __future__ import annotations

import json
import re
import subprocess
import sys

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.board import Board
from referee.cards import RANKS
from referee.coach.hints import NOTES, rank
from referee.movegen import legal_moves
from referee.position import Position
from referee.rulesets import Ruleset
from referee.words import say
from tests.strategies import positions

BASIC = Ruleset.preset("basic")
BOARD = Board.for_players(4)
CODE = re.compile(r"\b[THS]\d+:\d+\b")


def _position(pegs: dict[int, list[str]], turn: int = 0) -> Position:
    full = {seat: pegs.get(seat, []) + ["S"] * (5 - len(pegs.get(seat, []))) for seat in range(4)}
    return Position.from_pegs(BOARD, turn, full)


def _hint(position: Position, card: str, text: str):  # type: ignore[no-untyped-def]
    return next(hint for hint in rank(position, BASIC, [card]) if hint.move.text == text)


def test_002_keep_off_opponents_come_out_holes_and_corners() -> None:
    """002: "avoid, if possible, positioning your peg 1) at any of the corners 2) in the
    opponents COME OUT spot 3) in the opponents IN SPOT"."""
    position = _position({0: ["T0:13"]})
    corner, beside = _hint(position, "5", "5 T0:13-T1:0"), _hint(position, "4", "4 T0:13-T0:17")
    assert corner.note.startswith("002") and "corner" in corner.why
    assert corner.score < beside.score  # one hole further, yet ranked lower: the corner costs
    position = _position({0: ["T1:5"]})
    come_out, past = _hint(position, "3", "3 T1:5-T1:8"), _hint(position, "4", "4 T1:5-T1:9")
    assert "COME OUT" in come_out.note and "come-out hole" in come_out.why and come_out.score < past.score
    position = _position({0: ["T0:17"]})
    in_spot, past = _hint(position, "4", "4 T0:17-T1:3"), _hint(position, "5", "5 T0:17-T1:4")
    assert "IN SPOT" in in_spot.note and in_spot.score < past.score


def test_000_after_coming_out_move_one_to_three_forward() -> None:
    """000 Notes on Strategy: "after coming out of Start it is good to begin by moving 1, 2 or
    3 spaces forwards. Then 8 spaces backwards will take you to or beyond your in-spot"."""
    position = _position({0: ["T0:8"]})
    hop = _hint(position, "3", "3 T0:8-T0:11")
    assert "000 Notes on Strategy" in hop.note and "8 backwards" in hop.why
    far = _hint(_position({0: ["T0:8"]}), "4", "4 T0:8-T0:12")
    assert hop.score > far.score  # 3 forward beats 4: the 8 back still reaches home entry


def test_000_never_bind_up_the_home_track() -> None:
    """000 Common Errors: "Getting bound up: one or more pegs in HOME area but not all the way
    in. This is the Kiss of Death!" The first arrival goes all the way in."""
    position = _position({0: ["H0:1", "T0:12"]})
    hints = rank(position, BASIC, ["4"])
    deeper = next(h for h in hints if h.move.text == "4 H0:1-H0:5")
    assert hints[0].move.text == "4 H0:1-H0:5" and "home" in deeper.why


def test_000_hold_the_joker_for_a_double_play() -> None:
    """000 Common Errors: "Playing a joker too soon. Hold it until you can get a double or
    triple play"; a plain move of the same gain is preferred to spending the joker."""
    position = _position({0: ["T0:12"], 1: ["T0:17"]})
    hints = rank(position, BASIC, ["5", "JOKER"])
    five = next(h for h in hints if h.move.text == "5 T0:12-T0:17x")
    joker = next(h for h in hints if h.move.text == "JOKER T0:12-T0:17x")
    assert five.score > joker.score and "joker" in joker.why and "Common Errors" in joker.note


@settings(max_examples=40, deadline=None)
@given(positions(players=st.sampled_from((4, 6))), st.sampled_from(RANKS))
def test_every_hint_is_a_legal_move_explained_in_words(position: Position, card: str) -> None:
    hints = rank(position, BASIC, [card])
    legal = {move.text for move in legal_moves(position, card, BASIC)}
    assert {hint.move.text for hint in hints} == legal
    assert [h.score for h in hints] == sorted((h.score for h in hints), reverse=True)
    names = {seat: f"Colour{seat}" for seat in range(position.board.sides)}
    sources = {note.source for note in NOTES} | {"000 the object of the game: move all your team's pegs from START to HOME"}
    for hint in hints[:5]:
        words = say(hint.move, names)
        assert words and not CODE.search(words), words
        assert hint.why.endswith(".") and hint.why.count(". ") == 0 and hint.note in sources


def test_pegs_hint_prints_json_best_first_and_refuses_bad_input() -> None:
    position = json.dumps({"players": 4, "turn": 0, "pegs": {"0": ["T0:8", "S", "S", "S", "S"]}})

    def pegs(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "referee.table.cli", "hint", *args],
                              capture_output=True, text=True, timeout=60, check=False)  # fmt: skip

    done = pegs(position, "--hand", "3 4 K", "--rules", "basic")
    assert done.returncode == 0 and done.stderr == ""
    hints = json.loads(done.stdout)["hints"]
    assert set(hints[0]) == {"move", "words", "why", "note", "score"}
    assert [h["score"] for h in hints] == sorted((h["score"] for h in hints), reverse=True)
    assert all(not CODE.search(h["words"]) for h in hints)
    for bad in (["--card", "11"], ["--hand", ""], ["--card", "5", "--rules", "poker"]):
        refused = pegs(position, *bad)
        assert refused.returncode == 2 and refused.stdout == "" and len(refused.stderr.strip().splitlines()) == 1
    refused = pegs("{not json", "--card", "5")
    assert refused.returncode == 2 and "Traceback" not in refused.stderr
