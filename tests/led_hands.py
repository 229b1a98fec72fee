"""A person at the board who carries out a move from what the lights show, and nothing else
(issue 36: "whoever is nearest carries it out"). Written without the referee's model of a
move (no ``Move``, no ``Plan``): the marks are hole -> role, "lift" (the peg to lift), "hint"
(where it goes) and "bump" (where a bumped peg goes back), as the LEDs and the page show
them; the person sees the pegs' colours (``tests.table_hands.Table``).

A move the lights show plainly: each lifted peg goes into a lit "hint" hole, one a peg; a
peg standing in a "hint" hole is bumped and goes into a lit "bump" hole of its own colour's
start area (or a lit track hole, an in-spot). A split whose second peg starts where the first
lands is not plain from the lights alone: ``plain`` says so, and the tests choose plain moves.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from tests.table_hands import Act, start_seat
from tests.table_hands import Table as Hands


def plain(marks: Mapping[str, str]) -> bool:
    """As many holes to lift from as to put into: which peg goes where is then clear enough."""
    roles = list(marks.values())
    return roles.count("lift") == roles.count("hint") >= 1


def from_the_lights(hands: Hands, marks: Mapping[str, str], rng: random.Random) -> list[Act]:
    """The lifts and places a person makes to follow ``marks`` on ``hands``'s board."""
    lifts = sorted(hole for hole, role in marks.items() if role == "lift")
    hints = sorted(hole for hole, role in marks.items() if role == "hint")
    ways_back = sorted(hole for hole, role in marks.items() if role == "bump")
    if len(lifts) != len(hints):
        raise AssertionError(f"the lights are not plain: lift {lifts}, put {hints}")
    movers = [(hole, hands.pegs[hole]) for hole in lifts]
    bumped = [(hole, hands.pegs[hole]) for hole in hints if hole in hands.pegs and hole not in lifts]
    acts = [Act("lift", hole, colour) for hole, colour in movers + bumped]
    rng.shuffle(acts)  # lifted in any order; each peg then goes where the lights ask
    acts += [Act("place", hole, colour) for (_, colour), hole in zip(movers, hints, strict=True)]
    for _, colour in bumped:
        spot = next(hole for hole in ways_back if start_seat(hole) in (colour, None))
        ways_back.remove(spot)
        acts.append(Act("place", spot, colour))
    return acts
