"""A person at a real table: pegs of colours in physical holes, and hands that move them.

Written on purpose without ``referee.physical`` (``by_hand``, ``transfers``, ``PhysicalBoard``)
so that the two models of "a move carried out by hand" check each other. The sensors see
only occupancy; this model knows colours (which seat's peg stands in which physical hole)
and which peg each hand holds, so a test can say what *really* happened and compare it
with what the referee believed.

- :class:`Table`: colour per physical hole (``T<s>:k``, ``H<s>:k``, ``S<s>:1..5``) and the
  pegs in hand; every lift and place is checked (a hole holds one peg).
- :func:`carry_out`: the events of a legal ``Move`` done by hand, in a random order a
  person could follow: several pegs may be in hand, a peg from start comes out of any
  filled start hole of its seat, a bumped peg goes into any free start hole of its seat
  (or its in-spot, when the rules send it there), knocks and hovers (a still peg lifted
  and put straight back), and optionally a pause longer than the settle time between the
  two parts of a split.
- Mistakes: :func:`wrong_destination`, :func:`opponent_peg`, :func:`wrong_start`,
  :func:`colour_swap`; and :func:`put_back` to undo any of them by hand.

Which pegs move is derived from ``move.steps`` (sources, targets and the chain of bumps),
replayed on this model's own board; the board it ends with is checked against
``move.result`` colour by colour, so the engine's notation and its results are checked too.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Literal

from referee.board import Board
from referee.moves import Move
from referee.position import Position

PEGS = 5
_START = re.compile(r"^S(\d+):([1-5])$")

Key = tuple[bytes, tuple[tuple[int, ...], ...]]
"""A board as colours: the track and home occupancy (seat + 1 per hole, as a Position's),
and for each side the sorted colours standing in its start holes."""


class ExecutorError(AssertionError):
    """The model and the engine disagree about what a move does (a finding in itself)."""


@dataclass(frozen=True)
class Act:
    """One thing a hand does: ``lift`` a peg out of ``hole``, ``place`` the peg of colour
    ``colour`` into ``hole``, or ``pause`` (time passes beyond the settle time)."""

    kind: Literal["lift", "place", "pause"]
    hole: str = ""
    colour: int | None = None  # lift: the colour a person sees there; place: the colour put in

    def __str__(self) -> str:
        if self.kind == "pause":
            return "pause"
        return f"{self.kind} {self.hole}" + ("" if self.colour is None else f" (seat {self.colour})")


def start_name(seat: int, number: int) -> str:
    return f"S{seat}:{number}"


def start_holes(seat: int) -> list[str]:
    return [start_name(seat, n) for n in range(1, PEGS + 1)]


def start_seat(name: str) -> int | None:
    match = _START.match(name)
    return int(match[1]) if match else None


def board_name(board: Board, index: int) -> str:
    """A track or home hole's name (start bins have no physical name)."""
    if board.is_start(index):
        raise ExecutorError(f"hole {index} is a start bin, not a physical hole")
    return board.hole_name(index)


def all_holes(board: Board) -> list[str]:
    names = [board.hole_name(i) for i in range(board.board_holes)]
    return names + [name for side in range(board.sides) for name in start_holes(side)]


def position_key(position: Position) -> Key:
    """A position as colours (start pegs counted per side, as a physical board shows them)."""
    board = position.board
    starts = tuple(
        tuple([side] * position.in_start(side)) if side in board.seats else () for side in range(board.sides)
    )
    return position.occupancy, starts


@dataclass
class Table:
    """The wooden board as a person sees it: a colour in each filled hole, pegs in hand."""

    board: Board
    pegs: dict[str, int] = field(default_factory=dict)  # physical hole -> seat of the peg there
    hand: list[int] = field(default_factory=list)  # colours in hand (several pegs may be held)

    @classmethod
    def from_position(cls, position: Position, rng: random.Random | None = None) -> Table:
        """``position`` on a board; start pegs in holes 1 up, or (``rng``) in random start holes."""
        board = position.board
        table = cls(board)
        for index, colour in enumerate(position.occupancy):
            if colour:
                table.pegs[board.hole_name(index)] = colour - 1
        for seat in board.seats:
            holes = start_holes(seat)
            if rng is not None:
                holes = rng.sample(holes, len(holes))
            for name in holes[: position.in_start(seat)]:
                table.pegs[name] = seat
        return table

    def copy(self) -> Table:
        return Table(self.board, dict(self.pegs), list(self.hand))

    # -- what a person does ----------------------------------------------------------

    def apply(self, act: Act) -> None:
        if act.kind == "lift":
            if act.hole not in self.pegs:
                raise ExecutorError(f"cannot lift from {act.hole}: it is empty")
            colour = self.pegs.pop(act.hole)
            if act.colour is not None and act.colour != colour:
                raise ExecutorError(f"{act.hole} holds seat {colour}'s peg, not seat {act.colour}'s")
            self.hand.append(colour)
        elif act.kind == "place":
            if act.hole in self.pegs:
                raise ExecutorError(f"cannot place in {act.hole}: it holds seat {self.pegs[act.hole]}'s peg")
            if act.colour not in self.hand:
                raise ExecutorError(f"no peg of seat {act.colour} in hand (holding {self.hand})")
            self.hand.remove(act.colour)
            self.pegs[act.hole] = act.colour

    def run(self, acts: Iterable[Act]) -> None:
        for act in acts:
            self.apply(act)

    # -- reading ------------------------------------------------------------------------

    def occupied(self) -> list[str]:
        return sorted(self.pegs)

    def key(self) -> Key:
        occupancy = bytearray(self.board.board_holes)
        starts: list[list[int]] = [[] for _ in range(self.board.sides)]
        for name, colour in self.pegs.items():
            seat = start_seat(name)
            if seat is not None:
                starts[seat].append(colour)
            else:
                occupancy[self.board.hole_index(name)] = colour + 1
        return bytes(occupancy), tuple(tuple(sorted(s)) for s in starts)

    def shows(self, position: Position) -> bool:
        """Every peg of ``position`` in its hole in its colour, and nothing in hand."""
        return not self.hand and self.key() == position_key(position)

    def differences(self, position: Position) -> list[str]:
        """What differs from ``position``, in words (for failure messages)."""
        board = self.board
        mine, theirs = self.key(), position_key(position)
        out = []
        for index in range(board.board_holes):
            if mine[0][index] != theirs[0][index]:
                out.append(
                    f"{board.hole_name(index)}: table {mine[0][index] - 1 if mine[0][index] else '-'}, "
                    f"game {theirs[0][index] - 1 if theirs[0][index] else '-'}"
                )
        for side in range(board.sides):
            if mine[1][side] != theirs[1][side]:
                out.append(f"start {side}: table {list(mine[1][side])}, game {list(theirs[1][side])}")
        if self.hand:
            out.append(f"in hand: {self.hand}")
        return out

    def free_start_holes(self, seat: int) -> list[str]:
        return [name for name in start_holes(seat) if name not in self.pegs]

    def filled_start_holes(self, seat: int) -> list[str]:
        return [name for name in start_holes(seat) if name in self.pegs]

    def empty_track_holes(self) -> list[str]:
        return [
            self.board.hole_name(i) for i in range(self.board.track_length) if self.board.hole_name(i) not in self.pegs
        ]


# -- which pegs a move displaces ------------------------------------------------------------

Transfer = tuple[int, str, str]  # (colour, from hole, to hole), physical names


def move_parts(table: Table, move: Move, rng: random.Random) -> list[list[Transfer]]:
    """The pegs each step of ``move`` displaces, net of the chain of bumps, as transfers
    between physical holes; a start peg comes from any filled start hole of its seat and a
    bumped peg goes into any free one. Replays the steps on a copy of ``table`` and checks
    the board they leave against ``move.result``, colour by colour."""
    board = move.before.board
    # Each physical peg is known by the hole it stood in when the move began.
    where: dict[str, str] = {hole: hole for hole in table.pegs}  # hole now -> peg
    colour_of: dict[str, int] = dict(table.pegs)  # peg -> colour
    parts: list[list[Transfer]] = []
    for step in move.steps:
        before = {peg: hole for hole, peg in where.items()}
        if step.swap:
            a, b = board_name(board, step.source), board_name(board, step.target)
            if a not in where or b not in where:
                raise ExecutorError(f"{move}: a swap needs pegs in {a} and {b}")
            if colour_of[where[a]] == colour_of[where[b]]:
                raise ExecutorError(f"{move}: swaps two pegs of one colour")
            where[a], where[b] = where[b], where[a]
        else:
            if board.is_start(step.source):
                seat = board.owner(step.source)
                assert seat is not None
                filled = [h for h in start_holes(seat) if h in where]
                if not filled:
                    raise ExecutorError(f"{move}: no peg of seat {seat} in start")
                source = rng.choice(filled)
            else:
                source = board_name(board, step.source)
                if source not in where:
                    raise ExecutorError(f"{move}: no peg in {source}")
            mover = where.pop(source)
            if board.is_start(step.target):
                raise ExecutorError(f"{move}: a step into a start bin")
            target = board_name(board, step.target)
            carried = where.pop(target, None)
            where[target] = mover
            at = target
            for bump in step.bumps:  # the chain: each bumped peg may knock the next one on
                if carried is None:
                    raise ExecutorError(f"{move}: bump {bump} of an empty hole")
                if colour_of[carried] != bump.seat or board_name(board, bump.source) != at:
                    raise ExecutorError(
                        f"{move}: bump {bump} does not match the peg in {at} (seat {colour_of[carried]})"
                    )
                if board.is_start(bump.target):
                    if board.owner(bump.target) != bump.seat:
                        raise ExecutorError(f"{move}: seat {bump.seat} bumped into another seat's start")
                    free = [h for h in start_holes(bump.seat) if h not in where]
                    if not free:
                        raise ExecutorError(f"{move}: no free start hole for seat {bump.seat}")
                    landing = rng.choice(free)
                else:
                    landing = board_name(board, bump.target)
                victim, carried = carried, where.pop(landing, None)
                where[landing] = victim
                at = landing
            if carried is not None:
                raise ExecutorError(f"{move}: the peg in {at} (seat {colour_of[carried]}) is left with nowhere to go")
        after = {peg: hole for hole, peg in where.items()}
        parts.append([(colour_of[peg], before[peg], after[peg]) for peg in sorted(after) if after[peg] != before[peg]])
    # The board the steps leave must be the engine's result, colour by colour.
    final = Table(table.board, {hole: colour_of[peg] for hole, peg in where.items()})
    if final.key() != position_key(move.result):
        raise ExecutorError(f"{move}: its steps leave {final.differences(move.result)}")
    return parts


def net(parts: list[list[Transfer]]) -> list[Transfer]:
    """The parts of a move as one set of transfers (each peg from where it was to where it ends)."""
    first: dict[str, tuple[int, str]] = {}  # current hole -> (colour, hole it came from)
    for part in parts:
        moved = {source: (colour, first.pop(source, (colour, source))[1], target) for colour, source, target in part}
        for colour, origin, target in moved.values():
            first[target] = (colour, origin)
    return [(colour, origin, target) for target, (colour, origin) in sorted(first.items()) if origin != target]


def order(table: Table, transfers: list[Transfer], rng: random.Random, hovers: float = 0.0) -> list[Act]:
    """Lifts and places carrying out ``transfers`` in a random order a person could follow:
    a peg is lifted before it is placed, a hole is empty before a peg goes in; ``hovers``:
    the chance, at each moment, of lifting a still peg and putting it straight back."""
    sim = table.copy()
    pending = list(range(len(transfers)))
    lifted: set[int] = set()
    acts: list[Act] = []
    moving = {source for _, source, _ in transfers}
    while pending:
        if hovers and rng.random() < hovers:
            still = [h for h in sorted(set(sim.pegs) - moving) if not h.startswith("hand:")]
            if still:
                hole = rng.choice(still)
                colour = sim.pegs[hole]
                acts += [Act("lift", hole, colour), Act("place", hole, colour)]
                sim.run(acts[-2:])
                continue
        lifts = [i for i in pending if i not in lifted and transfers[i][1] in sim.pegs]
        places = [i for i in pending if i in lifted and transfers[i][2] not in sim.pegs]
        if not lifts and not places:
            raise ExecutorError(f"no way to carry out {transfers} from {sim.pegs}")
        if places and (not lifts or rng.random() < 0.5):
            i = rng.choice(places)
            colour, _, target = transfers[i]
            act = Act("place", target, colour)
            pending.remove(i)
        else:
            i = rng.choice(lifts)
            colour, source, _ = transfers[i]
            act = Act("lift", source, colour)
            lifted.add(i)
        sim.apply(act)
        acts.append(act)
    return acts


def carry_out(
    table: Table,
    move: Move,
    rng: random.Random,
    *,
    pause: bool = False,
    hovers: float = 0.0,
    parts: list[list[Transfer]] | None = None,
) -> list[Act]:
    """The acts of a person making ``move`` on ``table``. ``pause``: a split's first part,
    then a pause longer than the settle time, then its second part (otherwise the two parts
    may be interleaved). ``parts``: transfers already chosen (``move_parts``)."""
    parts = move_parts(table, move, rng) if parts is None else parts
    sim = table.copy()
    if pause and len(parts) == 2 and all(parts):
        first = order(sim, parts[0], rng, hovers)
        sim.run(first)
        return [*first, Act("pause"), *order(sim, parts[1], rng, hovers)]
    return order(sim, net(parts), rng, hovers)


def after(table: Table, acts: Iterable[Act]) -> Table:
    sim = table.copy()
    sim.run(act for act in acts if act.kind != "pause")
    return sim


def split_midway(table: Table, move: Move, parts: list[list[Transfer]]) -> Table | None:
    """The board after the first part of a split (None if the move is not in two parts)."""
    if len(parts) != 2 or not all(parts):
        return None
    return after(table, order(table, parts[0], random.Random(0)))


def possible_boards(table: Table, acts: Iterable[Act], limit: int = 4096) -> set[Key] | None:
    """Every board the sensors' events could have left, colour by colour: a lift takes the
    peg in the hole, a place puts down *any* peg in hand (the sensors cannot tell which).
    A mistake is detectable only if none of these boards is a legal one. None: too many."""
    states = {(tuple(sorted(table.pegs.items())), tuple(sorted(table.hand)))}
    for act in acts:
        if act.kind == "pause":
            continue
        nxt = set()
        for pegs, hand in states:
            board = dict(pegs)
            if act.kind == "lift":
                if act.hole not in board:
                    raise ExecutorError(f"cannot lift from {act.hole}: it is empty")
                colour = board.pop(act.hole)
                nxt.add((tuple(sorted(board.items())), tuple(sorted((*hand, colour)))))
            else:
                for colour in set(hand):
                    rest = list(hand)
                    rest.remove(colour)
                    nxt.add((tuple(sorted({**board, act.hole: colour}.items())), tuple(rest)))
        states = nxt
        if len(states) > limit:
            return None
    return {Table(table.board, dict(pegs), list(hand)).key() for pegs, hand in states if not hand}


# -- mistakes ------------------------------------------------------------------------------


def movers_pegs(table: Table, seats: Iterable[int]) -> list[str]:
    """Holes (track or start) holding pegs of ``seats``: pegs a hand might pick up."""
    wanted = set(seats)
    return sorted(h for h, c in table.pegs.items() if c in wanted and not h.startswith("H"))


def wrong_destination(table: Table, seats: Iterable[int], rng: random.Random) -> list[Act] | None:
    """A peg of the player's own side moved to a random empty track hole."""
    return _to_an_empty_track_hole(table, movers_pegs(table, seats), rng)


def opponent_peg(table: Table, opponents: Iterable[int], rng: random.Random) -> list[Act] | None:
    """An opponent's peg on the track moved to a random empty track hole."""
    wanted = set(opponents)
    return _to_an_empty_track_hole(
        table, sorted(h for h, c in table.pegs.items() if c in wanted and h.startswith("T")), rng
    )


def _to_an_empty_track_hole(table: Table, sources: list[str], rng: random.Random) -> list[Act] | None:
    empty = table.empty_track_holes()
    if not sources or not empty:
        return None
    source = rng.choice(sources)
    colour = table.pegs[source]
    return [Act("lift", source, colour), Act("place", rng.choice(empty), colour)]


def wrong_start(table: Table, move: Move, rng: random.Random) -> list[Act] | None:
    """``move`` carried out, but a peg it bumps to start is put in another seat's start area."""
    parts = move_parts(table, move, rng)
    transfers = net(parts)
    bumped = [
        i
        for i, (colour, source, target) in enumerate(transfers)
        if start_seat(target) == colour and start_seat(source) is None
    ]
    if not bumped:
        return None
    i = rng.choice(bumped)
    colour, source, _ = transfers[i]
    taken = {target for _, _, target in transfers}
    others = [
        h for seat in range(table.board.sides) if seat != colour for h in table.free_start_holes(seat) if h not in taken
    ]
    if not others:
        return None
    transfers[i] = (colour, source, rng.choice(others))
    return order(table, transfers, rng)


def colour_swap(table: Table, rng: random.Random) -> list[Act] | None:
    """Two pegs of different colours on the track change places through a spare hole:
    lift A, place in the spare, lift B, place in A's hole, lift from the spare, place in B's."""
    track = sorted(h for h in table.pegs if h.startswith("T"))
    pairs = [(a, b) for a in track for b in track if a < b and table.pegs[a] != table.pegs[b]]
    empty = table.empty_track_holes()
    if not pairs or not empty:
        return None
    a, b = rng.choice(pairs)
    if rng.random() < 0.5:
        a, b = b, a
    spare = rng.choice(empty)
    red, blue = table.pegs[a], table.pegs[b]
    return [
        Act("lift", a, red),
        Act("place", spare, red),
        Act("lift", b, blue),
        Act("place", a, blue),
        Act("lift", spare, red),
        Act("place", b, red),
    ]


def put_back(table: Table, target: Mapping[str, int], rng: random.Random, hovers: float = 0.0) -> list[Act]:
    """The acts that make ``table`` show ``target`` (hole -> colour) again, in a random
    order: every peg that is wrong is lifted and put where a peg of its colour belongs."""
    wrong = sorted(h for h in set(table.pegs) | set(target) if table.pegs.get(h) != target.get(h))
    transfers: list[Transfer] = []
    held = list(table.hand)
    for colour in sorted(
        {table.pegs[h] for h in wrong if h in table.pegs} | {target[h] for h in wrong if h in target} | set(held)
    ):
        sources = [h for h in wrong if table.pegs.get(h) == colour]
        targets = [h for h in wrong if target.get(h) == colour]
        in_hand = held.count(colour)
        if len(sources) + in_hand != len(targets):
            raise ExecutorError(
                f"cannot put back: seat {colour} has {len(sources) + in_hand} pegs to move "
                f"and {len(targets)} holes to fill"
            )
        rng.shuffle(targets)
        hand_targets, targets = targets[:in_hand], targets[in_hand:]
        transfers += list(zip([colour] * len(sources), sources, targets, strict=True))
        for hole in hand_targets:  # pegs already in hand go straight in (once the hole is empty)
            transfers.append((colour, f"hand:{hole}", hole))
    # Pegs in hand: model them as lifted from a pseudo-hole so ``order`` can place them.
    sim = table.copy()
    for colour, source, _ in transfers:
        if source.startswith("hand:"):
            sim.hand.remove(colour)
            sim.pegs[source] = colour
    acts = order(sim, transfers, rng, hovers)
    return [act for act in acts if not (act.kind == "lift" and act.hole.startswith("hand:"))]
