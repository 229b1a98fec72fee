"""The amendment window: after a commit, the rest of the same seat's move may still come
(the second part of a split after a pause, a bumped peg reaching its start).

Kept apart from ``referee.tracker`` because it is a second reading of the same board: the
last seat's turn, its committed move and its colours (``Window``) are followed beside the
new seat's, and ``either`` says which reading the table is told. Only a result that
*extends* the committed move can amend it; the tracker closes the window.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from referee.movegen import parse_move
from referee.moves import Move
from referee.physical import PhysicalBoard
from referee.position import Position
from referee.report import Report
from referee.rulesets import Ruleset
from referee.turns import Candidates, Turn
from referee.worlds import Worlds


class Window(NamedTuple):
    """The turn before, the move committed in it, and its colours, still followed."""

    turn: Turn
    move: Move
    worlds: Worlds

    def to_json(self) -> dict[str, Any]:
        return {"turn": self.turn.to_json(), "move": self.move.text, "worlds": self.worlds.to_json()}

    @classmethod
    def from_json(cls, data: dict[str, Any], physical: PhysicalBoard, rules: Ruleset) -> Window:
        before = Position.from_json(data["turn"]["position"])
        turn = Turn(physical, before, rules, Candidates.from_json(data["turn"]))
        move = parse_move(before, data["move"], rules)
        return cls(turn, move, Worlds.from_json(data["worlds"]))


def either(current: Report, amended: Report) -> Report:
    """This seat's reading of the board or the last seat's unfinished move. When both finish
    a move, or the last seat's move is finished while this seat's is on its way, the table
    is asked; a finished move of one beats nothing of the other."""
    amended.amend = True
    finished = ("move", "ambiguous")
    if amended.status in finished and current.status in finished:
        return Report("ambiguous", candidates=(*current.candidates, *amended.candidates), amendments=amended.candidates)
    if current.status in finished:
        return current
    if amended.status in finished:
        if current.status in ("moving", "synced"):  # the next seat's move on its way, or pegs put back
            return Report(
                "ambiguous", candidates=amended.candidates, amendments=amended.candidates, guidance=current.guidance
            )
        amended.amendments = amended.candidates if amended.status == "ambiguous" else ()
        return amended
    if current.status in ("moving", "synced") or amended.status != "moving":
        return current
    amended.back = current.back  # going back means back to this turn's start, not the last one's
    return amended
