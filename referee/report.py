"""What the tracker says of the board at each moment (``Report``): in sync, a move on its
way, a move, several that fit, or wrong, with the lights and the fixes.

Its own module because the tracker and its amendment window (``referee.amendment``) both
build reports, and the daemon and the page read them without needing the tracker.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from referee.fixes import Fix, Role
from referee.moves import Move

Status = Literal["synced", "moving", "move", "ambiguous", "illegal"]


@dataclass
class Report:
    """What the tracker says of the board now: its status, the move, the lights and the fixes."""

    status: Status
    move: Move | None = None
    candidates: tuple[Move, ...] = ()
    committed: bool = False
    amend: bool = False
    guidance: dict[str, Role] = field(default_factory=dict)
    back: tuple[Fix, ...] = ()
    forward: tuple[Fix, ...] = ()
    amendments: tuple[Move, ...] = ()  # candidates that finish the last seat's move, not this seat's

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"status": self.status, "result": self.move.result.pegs_json() if self.move else None}
        if self.move:
            data["move"] = self.move.text
        if self.status == "ambiguous":
            data["candidates"] = [move.to_json() for move in self.candidates]
        if self.back or self.forward:
            data["back"] = [str(fix) for fix in self.back]
            data["forward"] = [str(fix) for fix in self.forward]
        data["guidance"] = self.guidance
        if self.committed:
            data["committed"] = True
        if self.amend:
            data["amend"] = True
        return data
