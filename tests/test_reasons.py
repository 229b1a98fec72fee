"""A refused move says why in one sentence and cites the rule (issue 13). Each case is a
rule of the rules page, "The Basic Game" and its summary list."""

from __future__ import annotations

from referee.board import Board
from referee.position import Position
from referee.reasons import why_not
from referee.rulesets import Ruleset

BOARD = Board.for_players(4)
BASIC = Ruleset.preset("basic")


def _why(pegs: list[str], source: str, target: str, card: str | None = None) -> str | None:
    position = Position.from_pegs(
        BOARD, 0, {0: pegs + ["S"] * (5 - len(pegs)), 1: ["S"] * 5, 2: ["S"] * 5, 3: ["S"] * 5}
    )

    def index(name: str) -> int:
        return BOARD.board_holes + int(name[1]) if name.startswith("S") else BOARD.hole_index(name)

    return why_not(position, BASIC, index(source), index(target), card)


def test_each_rule_a_newcomer_breaks_is_named_and_cited() -> None:
    assert "come-out hole" in (_why([], "S0", "T0:5") or "")
    passing = _why(["T0:10", "T0:12"], "T0:10", "T0:14")
    assert (
        passing is not None and passing.startswith("You can't pass your own peg") and '"You may never land' in passing
    )
    assert "backwards" in (_why(["T0:12"], "T0:12", "T0:6") or "")  # 6 back: no card does that
    assert _why(["T0:12"], "T0:12", "T0:4") is None  # 8 back is a card's move: nothing to say
    assert "Backing in" in (_why(["T0:6"], "T0:6", "H0:2") or "")
    assert "home areas are not allowed to move backwards" in (_why(["H0:3"], "H0:3", "H0:1") or "")
    assert "different number" in (_why(["T0:10"], "T0:10", "T0:16", card="5") or "")
    partner = Position.from_pegs(
        BOARD, 0, {0: ["T2:0", "S", "S", "S", "S"], 1: ["S"] * 5, 2: ["T2:3", "S", "S", "S", "S"], 3: ["S"] * 5}
    )
    on_in_spot = why_not(partner, BASIC, BOARD.hole_index("T2:0"), BOARD.hole_index("T2:3"), "3")
    assert on_in_spot is not None and on_in_spot.startswith("A partner already on her in-spot")
    elsewhere = Position.from_pegs(
        BOARD, 0, {0: ["T1:15", "S", "S", "S", "S"], 1: ["S"] * 5, 2: ["T2:3", "T1:17", "S", "S", "S"], 3: ["S"] * 5}
    )
    assert "already has a peg on his or her own in-spot" in (
        why_not(elsewhere, BASIC, BOARD.hole_index("T1:15"), BOARD.hole_index("T1:17"), "2") or ""
    )
    for said in filter(None, [_why([], "S0", "T0:5"), passing]):
        assert said.endswith(").") and said.count(". ") == 0  # one sentence
