"""One of ``pegs doctor``'s verdicts (``referee.kit.doctor``, ``referee.kit.doctor_remote``)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Finding:
    """One check's verdict: ``ok`` True (fine), False (needs fixing) or None (not checked).
    Only a finding that needs fixing says a fix: the summary counts them, and the exit
    status is 1 when there is one (``pegs doctor`` never lists a fix and says "nothing to fix")."""

    what: str
    ok: bool | None
    words: str
    fix: str = ""

    def __str__(self) -> str:
        mark = {True: "ok ", False: "FIX", None: " - "}[self.ok]
        return f"{mark}  {self.what}: {self.words}" + (f"\n       fix: {self.fix}" if self.fix else "")
