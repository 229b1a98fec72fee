"""The server's words for the issue "The page tells the truth in every corner": a peg of
another colour gets its reason (the rules page, Movement of pegs - general rules; Endgame for
a partner's peg), in the seats' names; the browser side is tests/browser/test_browser_truth.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.board import Board
from referee.events import Mode
from referee.movegen import legal_moves
from referee.position import Position
from referee.protocol_types import NewGame
from referee.reasons import why_not
from referee.rulesets import Ruleset
from referee.table.session import Session
from referee.table.store import Store
from referee.table.view import session_state

BOARD = Board.for_players(4)
BASIC = Ruleset.preset("basic")
NAMES = {0: "Red", 1: "Sky blue", 2: "Yellow", 3: "Blue"}


def _position() -> Position:
    return Position.from_pegs(
        BOARD,
        0,
        {
            0: ["T0:10", "S", "S", "S", "S"],
            1: ["T1:3", "S", "S", "S", "S"],
            2: ["T2:3", "S", "S", "S", "S"],
            3: ["S"] * 5,
        },
    )


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


@pytest.mark.parametrize("mode", ["table", "digital"])
def test_undo_asks_to_put_the_board_back_and_blames_nobody(tmp_path: Path, mode: Mode) -> None:
    """After Undo the board is put back as before the undone move: not "Not a legal move"."""
    pegs = {"0": ["T0:10", "S", "S", "S", "S"], "1": ["S"] * 5, "2": ["S"] * 5, "3": ["S"] * 5}
    session = Session.new(
        Store.open(tmp_path),
        BASIC,
        4,
        mode=mode,
        pegs=pegs,
        seed=1,
        table={"names": list(NAMES.values()), "colours": ["#e53935", "#56b4e9", "#f0e442", "#0028ff"]},
    )
    if mode == "digital":
        card, move = next(
            (card, move)
            for card in session.game.hand(0)
            for move in legal_moves(session.game.position, card, BASIC)
            if len(move.steps) == 1 and not move.bumps and session.physical.name(move.steps[0].source) == "T0:10"
        )
        session.declare(0, card)
        target = session.physical.name(move.steps[0].target)
    else:
        target = "T0:15"
    for ms, (kind, hole) in enumerate([("lift", "T0:10"), ("place", target)], start=1):
        session.sense(ms * 100, kind, hole)
    session.done(1000)
    assert session.game.history and session.game.turn == 1, (
        session.report,
        session.notice,
        card if mode == "digital" else "",
        target,
    )
    session.undo()
    assert session.notice == "Undone. Put the board back as before Red's move: the lights show where."
    state = session_state(session)
    assert state["restoring"] is True and state["why_not"] is None
    session.done(2000)
    assert session.notice == "Put the board back as before Red's move: the lights show where."
    assert "not a legal move" not in session.notice.lower()


def test_refusals_name_the_seat_not_its_number(tmp_path: Path) -> None:
    session = Session.new(Store.open(tmp_path), BASIC, 4, seed=1)  # no names given: the page's colours
    with pytest.raises(PermissionError, match="it is Red's turn, not Sky blue's"):
        session.discard(1, None)


def test_the_leds_agree_with_the_page_when_no_split_was_made(tmp_path: Path) -> None:
    """Issue "The page tells the truth in every corner": a peg moved past its own peg with no
    card named lit the hole of a split nobody made. The LEDs show the same fixes as the page:
    the peg to take off blinking red, its hole to put it back in pulsing white, nothing else."""
    from referee.rulesets import Ruleset
    from referee.settings.config import Config
    from referee.table.table import Table

    table = Table.build(Config.simulated(str(tmp_path)))
    table.start()
    try:
        table.new_game(NewGame(4, Ruleset.preset("basic"), pegs={"0": ["T0:10", "T0:4", "T0:11", "S", "S"]}))
        state = table.sim_events(["lift T0:4", "place T0:13"])
        assert state["status"] == "moving" and state["why_not"] is not None
        assert "You can't pass your own peg" in state["why_not"]
        lit = {
            hole for hole, colour in state["leds"].items() if colour != "#000000" and hole != "T0:8"
        }  # T0:8: whose turn
        assert lit == {"T0:13", "T0:4"}
        assert state["leds"]["T0:13"].startswith("#66") and state["leds"]["T0:13"].endswith("0000")  # red: take it off
    finally:
        table.stop()
