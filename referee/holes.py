"""The hole grammar: what each hole of a board is called, and how a name reads back.

A side ``s`` has the track holes ``T<s>:0`` .. ``T<s>:17`` (``T<s>:0`` its corner, ``T<s>:3``
its in-spot, ``T<s>:8`` its come-out hole: the rules page, "Players and Equipment"), the home
holes ``H<s>:1`` .. ``H<s>:5`` (1 next to the in-spot), the start holes ``S<s>:1`` ..
``S<s>:5`` and, on some boards, a colour-marker hole ``C<s>`` that the rules ignore. A
logical position counts start pegs, so it names a side's whole start area ``S<s>`` (or a
bare ``S``: the seat's own). docs/design.md, "Seats, holes and teams", is the contract.

This module holds the names and numbers only; which names a caller accepts, and what it
says of a wrong one, stay with the caller (the rules' board, the physical board).

Why in the engine: the engine (``referee.board``, ``referee.physical``, ``referee.words``)
and the hardware layout (``hardware.layout``) both read these names. The rules define the
holes, so the engine owns the grammar, and this is the one engine module the hardware may
import (docs/design.md, "Layers"; ``tests/test_layering.py``): it imports nothing but the
standard library, so sharing it brings nothing of the engine along.
"""

from __future__ import annotations

import re
from typing import Literal, NamedTuple, cast

SIDES = (4, 6, 8, 10)  # the boards there are
SIDE_LENGTH = 18  # track holes per side, the corner included
CORNER = 0
IN_SPOT = 3
COME_OUT = 8
HOME_SIZE = 5
START_SIZE = 5  # start holes per side

Kind = Literal["T", "H", "S", "C"]
EXPECTED = f"T<s>:<0-{SIDE_LENGTH - 1}>, H<s>:<1-{HOME_SIZE}>, S<s>:<1-{START_SIZE}>"  # for messages

_NAME = re.compile(r"^(?:([TSH])(\d+):(\d+)|([SC])(\d+)?)$")


class HoleName(NamedTuple):
    """A name taken apart, ranges not checked: ``("T", 2, 5)`` for ``T2:5``; ``("S", 1, None)``
    for the start area ``S1``; ``("S", None, None)`` for a bare ``S``; ``("C", 3, None)``."""

    kind: Kind
    side: int | None
    number: int | None


def split(name: object) -> HoleName | None:
    """The parts of a hole name, or None if it is not one (no whitespace allowed)."""
    match = _NAME.match(name) if isinstance(name, str) else None
    if match is None:
        return None
    kind, side, number, other, other_side = match.groups()
    if kind is not None:
        return HoleName(cast(Kind, kind), int(side), int(number))
    if other == "C" and other_side is None:
        return None  # a marker names its side
    return HoleName(cast(Kind, other), None if other_side is None else int(other_side), None)


def track_parts(index: int) -> tuple[int, int]:
    """The side and number of the track hole at ``index`` (``T<s>:<k>``'s s and k): the
    track counts its holes ``18*s + k`` from ``T0:0`` (docs/design.md, "Seats, holes and
    teams"), so an engine that counts holes along it can say whose side one is on."""
    return divmod(index, SIDE_LENGTH)


def numbers(kind: Kind) -> range:
    """The numbers a hole of ``kind`` may have on a side (a marker has none)."""
    return {"T": range(SIDE_LENGTH), "H": range(1, HOME_SIZE + 1), "S": range(1, START_SIZE + 1)}.get(kind, range(0))


def track(side: int, k: int) -> str:
    return f"T{side}:{k}"


def home(side: int, depth: int) -> str:
    return f"H{side}:{depth}"


def start(side: int, number: int) -> str:
    """A start hole of a real board."""
    return f"S{side}:{number}"


def start_area(side: int) -> str:
    """A side's start holes taken together, as a logical position names them."""
    return f"S{side}"


OWN_START = "S"  # a logical position's start peg, in the start area of the seat it belongs to


def marker(side: int) -> str:
    return f"C{side}"
