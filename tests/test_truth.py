"""The server's words for the issue "The page tells the truth in every corner": a peg of
another colour gets its reason (the rules page, Movement of pegs - general rules; Endgame for
a partner's peg), in the seats' names; the browser side is tests/test_browser_truth.py."""

from __future__ import annotations

from referee.board import Board
from referee.position import Position
from referee.reasons import why_not
from referee.rulesets import Ruleset

BOARD = Board.for_players(4)
BASIC = Ruleset.preset("basic")
NAMES = {0: "Red", 1: "Sky blue", 2: "Yellow", 3: "Blue"}


def _position() -> Position:
    return Position.from_pegs(BOARD, 0, {0: ["T0:10", "S", "S", "S", "S"], 1: ["T1:3", "S", "S", "S", "S"],
                                         2: ["T2:3", "S", "S", "S", "S"], 3: ["S"] * 5})  # fmt: skip


def test_an_opponents_peg_is_not_yours_to_move() -> None:
    said = why_not(_position(), BASIC, BOARD.hole_index("T1:3"), BOARD.hole_index("T1:5"), None, NAMES)
    assert said is not None and said.startswith("Red can't move Sky blue's peg")
    assert "Movement of pegs - general rules" in said and said.endswith(").") and said.count(". ") == 0
    assert "(the rules page" in (why_not(_position(), BASIC, BOARD.hole_index("T1:3"), BOARD.hole_index("T1:5")) or "")


def test_a_partners_peg_waits_until_yours_are_home() -> None:
    said = why_not(_position(), BASIC, BOARD.hole_index("T2:3"), BOARD.hole_index("T2:5"), "2", NAMES)
    assert said is not None and said.startswith("Red can't move Yellow's peg yet") and "Endgame" in said


def test_your_own_peg_is_unchanged() -> None:
    assert why_not(_position(), BASIC, BOARD.hole_index("T0:10"), BOARD.hole_index("T0:15"), "5", NAMES) is None
