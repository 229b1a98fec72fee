"""The tracker: sensor events become moves, with LED guidance.

The sensors see only whether a hole holds a peg. The tracker compares what they see
with the legal results of the seat to play, and says at every moment:

- ``synced``: the board equals the expected position;
- ``moving``: on the way to some legal result (a peg in hand, half a split, a bump
  whose peg has not reached start yet);
- ``move``: the board equals exactly one legal result; it is committed when the board
  has been still for the settle time, or at once when "done" is pressed;
- ``ambiguous``: several legal results fit what the sensors saw (pegs of different
  colours swapped between the same holes, a 2-swap); the page asks which;
- ``illegal``: no legal move fits; the report says what to fix.

    tracker = Tracker(position, Ruleset.preset("basic"), card="K")
    tracker.feed(SensorEvent(0, "lift", (physical.index("S0:1"),)))
    report = tracker.feed(SensorEvent(350, "place", (physical.index("T0:8"),)))
    report.status                     # "move"
    tracker.poll(1100).committed      # True, 700 ms after the board went still

Identity: lifting a peg puts its colour "in hand"; placing one takes any colour from the
hand. The tracker keeps every assignment the events allow (a few "worlds") and accepts
a result only if some world explains it, so the history of lifts and places can tell
apart results that plain occupancy cannot.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

from referee.board import PEGS_PER_SEAT, Board
from referee.cards import CARDS
from referee.movegen import legal_moves, mover_seats
from referee.moves import Move
from referee.physical import ANY_PEG, PhysicalBoard, SensorEvent
from referee.position import Position
from referee.rulesets import Ruleset

Status = Literal["synced", "moving", "move", "ambiguous", "illegal"]
Role = Literal["selected", "destination", "bump", "wrong", "put-back"]
SETTLE_MS = 700
MAX_WORLDS = 256


@dataclass(frozen=True)
class Fix:
    """One thing to do with a peg: ``remove`` it from, or ``place`` one in, ``hole``."""

    action: Literal["remove", "place"]
    hole: str

    def __str__(self) -> str:
        return f"{'take the peg off' if self.action == 'remove' else 'put a peg in'} {self.hole}"


@dataclass
class Report:
    status: Status
    move: Move | None = None
    candidates: tuple[Move, ...] = ()
    committed: bool = False
    amend: bool = False
    guidance: dict[str, Role] = field(default_factory=dict)
    back: tuple[Fix, ...] = ()
    forward: tuple[Fix, ...] = ()

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


@dataclass(slots=True)
class _Candidate:
    move: Move
    occupancy: bytes  # the result's
    mask: int  # board pegs after the move (byte mask)
    starts: tuple[int, ...]
    changed: int  # board holes whose colour the move changes
    bumped: int  # board holes where bumped pegs land (in-spots)


class _Turn:
    """The seat to play's legal results, indexed for matching sensor states.

    The index is built on a background thread as soon as the turn begins (the worst case
    takes a tenth of a second here, more on a Pi Zero): the LEDs and the page need not wait
    for it while the board simply matches the position, and it is ready long before a
    hand reaches for the next peg. Whatever needs it calls ``build()`` first.
    """

    def __init__(self, physical: PhysicalBoard, position: Position, moves: Iterable[Move]) -> None:
        self.position = position
        self.mask = physical.board_mask(position.occupancy)
        self.starts = _start_counts(position.board, position.occupancy)
        self._moves = moves
        self._lock = threading.Lock()
        self._ready = False
        self.candidates: list[_Candidate] = []
        self.by_signature: dict[tuple[int, tuple[int, ...]], list[_Candidate]] = {}
        self.by_changed: dict[int, list[_Candidate]] = {}
        self.by_start: dict[tuple[int, int], list[_Candidate]] = {}  # (side, +1 or -1) -> results
        threading.Thread(target=self.build, name="pegs-index", daemon=True).start()

    def build(self) -> _Turn:
        with self._lock:
            if not self._ready:
                self._index()
                self._ready, self._moves = True, ()  # the candidates hold what is needed now
        return self

    def _index(self) -> None:
        self.candidates, self.by_signature, self.by_changed, self.by_start = [], {}, {}, {}
        base, size = self.position.key, self.position.board.board_holes
        seen: set[int] = set()
        for move in self._moves:
            key = move.key
            if key in seen:
                continue
            seen.add(key)
            occupancy = key.to_bytes(size, "little")
            difference = base ^ key
            changed = int.from_bytes(difference.to_bytes(size, "little").translate(ANY_PEG), "little")
            starts, bumped = list(self.starts), 0
            for step in move.steps:
                if step.source >= size:
                    starts[step.source - size] -= 1
                for bump in step.bumps:
                    if bump.target >= size:
                        starts[bump.seat] += 1
                    else:
                        bumped |= 1 << (8 * bump.target)
            candidate = _Candidate(move, occupancy, int.from_bytes(occupancy.translate(ANY_PEG), "little"),
                                   tuple(starts), changed, bumped)  # fmt: skip
            self.candidates.append(candidate)
            self.by_signature.setdefault((candidate.mask, candidate.starts), []).append(candidate)
            while difference:  # index by each hole whose colour the move changes
                hole = ((difference & -difference).bit_length() - 1) // 8
                difference &= ~(0xFF << (8 * hole))
                self.by_changed.setdefault(hole, []).append(candidate)
            for side, (before, after) in enumerate(zip(self.starts, starts)):
                if before != after:
                    self.by_start.setdefault((side, 1 if after > before else -1), []).append(candidate)


def _start_counts(board: Board, occupancy: bytes) -> tuple[int, ...]:
    """Pegs in start per side (0 for sides nobody plays)."""
    return tuple(PEGS_PER_SEAT - occupancy.count(side + 1) if side in board.seats else 0 for side in range(board.sides))


class _Worlds:
    """Every assignment of colours to moved pegs that the lifts and places allow."""

    def __init__(self) -> None:
        # Each world: (colour overrides by physical hole, None = emptied; colours in hand)
        self.worlds: list[tuple[dict[int, int | None], tuple[int, ...]]] | None = [({}, ())]

    def untouched(self) -> bool:
        """No peg lifted or placed since the turn began."""
        return self.worlds == [({}, ())]

    def lift(self, hole: int, base_colour: int | None) -> None:
        if self.worlds is None:
            return
        lifted = []
        for overrides, hand in self.worlds:
            colour = overrides.get(hole, base_colour)
            if colour is None:
                continue
            lifted.append(({**overrides, hole: None}, tuple(sorted((*hand, colour)))))
        self._keep(lifted)

    def place(self, hole: int) -> None:
        if self.worlds is None:
            return
        placed = []
        for overrides, hand in self.worlds:
            for index, colour in enumerate(hand):
                if index and hand[index - 1] == colour:
                    continue
                placed.append(({**overrides, hole: colour}, hand[:index] + hand[index + 1 :]))
        self._keep(placed)

    def _keep(self, worlds: list[tuple[dict[int, int | None], tuple[int, ...]]]) -> None:
        unique = {(tuple(sorted(o.items(), key=lambda item: item[0])), h): (o, h) for o, h in worlds}
        self.worlds = list(unique.values()) if len(unique) <= MAX_WORLDS else None
        if self.worlds == []:  # the events contradict every assignment: stop guessing colours
            self.worlds = None


class Tracker:
    """Follows one physical board through the turns of a game."""

    _turn: _Turn
    _worlds: _Worlds

    def __init__(
        self,
        position: Position,
        rules: Ruleset,
        *,
        card: str | None = None,
        moves: Iterable[Move] | None = None,
        settle_ms: int = SETTLE_MS,
        occupied: Iterable[int] | None = None,
        board: Iterable[int] | None = None,
    ) -> None:
        """``board``: the physical holes filled when the turn begins (default: start pegs in
        holes 1 up); ``occupied``: what the sensors see now, if that differs (a restart)."""
        self.rules = rules
        self.physical = PhysicalBoard(position.board)
        self.settle_ms = settle_ms
        self.occupied = self.physical.fill(position) if board is None else self.physical.mask(board)
        self._board_only = self.physical.mask(range(position.board.board_holes))
        self._prev: tuple[_Turn, bytes, _Worlds] | None = None  # the turn before, its result, its colours
        self._committed: bytes | None = None  # the result committed this turn
        self._last_seen = self._turn_start = self.occupied
        self._changed_ms = 0
        self._begin(position, card, moves)
        if occupied is not None:  # start-up: what the sensors see now, against what was stored
            self.feed(SensorEvent(0, "snapshot", tuple(occupied)))

    # -- feeding --------------------------------------------------------------------

    def feed(self, event: SensorEvent) -> Report:
        if event.kind == "done":
            return self._judge(commit=True)
        if event.kind == "snapshot":
            wanted = self.physical.mask(event.holes)
            lifts = self.occupied & ~wanted
            places = wanted & ~self.occupied
            for hole in self.physical.holes(lifts):
                self._lift(hole)
            for hole in self.physical.holes(places):
                self._place(hole)
        else:
            for hole in event.holes:
                (self._lift if event.kind == "lift" else self._place)(hole)
        if self.occupied != self._last_seen:
            self._last_seen = self.occupied
            self._changed_ms = event.ms
        return self._judge(commit=False)

    def poll(self, now_ms: int) -> Report:
        """Commit the move the board shows if it has been still for the settle time."""
        return self._judge(commit=now_ms - self._changed_ms >= self.settle_ms)

    def report(self) -> Report:
        return self._judge(commit=False)

    def restrict(self, *, card: str | None = None, moves: Iterable[Move] | None = None) -> None:
        """Narrow (or widen) this turn's candidates, e.g. to a card just declared, keeping
        what the sensors have seen so far."""
        position = self._turn.position
        if moves is None:
            cards = [card] if card else list(CARDS)
            moves = (move for c in cards for move in legal_moves(position, c, self.rules))
        self._turn = _Turn(self.physical, position, moves)

    def forget_colours(self) -> None:
        """Someone at the table says nothing moved: stop guessing swaps from the history."""
        self._worlds = _Worlds()

    def retract(self) -> None:
        """The owner could not accept the committed move (its store failed): offer it again."""
        self._committed = None

    def hold(self) -> None:
        """Commit nothing until the board matches the position again (after an undo, the
        pegs of the undone move must go back first)."""
        self._hold = True

    def next_turn(self, position: Position, *, card: str | None = None, moves: Iterable[Move] | None = None) -> None:
        """The game accepted the committed move: follow the next seat from ``position``.
        Until that seat lifts one of its pegs, the last move may still be amended."""
        committed, turn, worlds = self._committed, self._turn, self._worlds
        self._begin(position, card, moves)
        self._prev = (turn, committed, worlds) if committed is not None else None

    @property
    def position(self) -> Position:
        return self._turn.position

    # -- the physical board ---------------------------------------------------------

    def _begin(self, position: Position, card: str | None, moves: Iterable[Move] | None) -> None:
        if moves is None:
            cards = [card] if card else list(CARDS)
            moves = (move for c in cards for move in legal_moves(position, c, self.rules))
        self._turn = _Turn(self.physical, position, moves)
        self._worlds = _Worlds()
        self._turn_start = self.occupied
        self._last_seen = self.occupied
        self._changed_ms = 0
        self._committed = None  # the result committed this turn
        self._hold = False
        self._next_movers = set(mover_seats(position, self.rules))

    def _base_colour(self, turn: _Turn, hole: int) -> int | None:
        seat = self.physical.seat_of_start(hole)
        if seat is not None:
            return seat
        return turn.position.colour_at(hole)

    def _lift(self, hole: int) -> None:
        bit = 1 << (8 * hole)
        if not self.occupied & bit:
            return  # a lift from an empty hole: a glitch, ignore it
        self.occupied &= ~bit
        self._worlds.lift(hole, self._base_colour(self._turn, hole))
        if self._prev is not None:
            if self._base_colour(self._turn, hole) in self._next_movers:
                self._prev = None  # the next seat has begun: the last move stands
            else:
                self._prev[2].lift(hole, self._base_colour(self._prev[0], hole))

    def _place(self, hole: int) -> None:
        bit = 1 << (8 * hole)
        if self.occupied & bit:
            return
        self.occupied |= bit
        self._worlds.place(hole)
        if self._prev is not None:
            self._prev[2].place(hole)

    # -- judging ---------------------------------------------------------------------

    def _judge(self, commit: bool) -> Report:
        if self._hold:
            board = self.occupied & self._board_only
            starts = self.physical.start_counts(self.occupied)
            if board == self._turn.mask and starts == self._turn.starts:
                self._hold = False
            else:
                back = self._fixes(board, starts, self._turn.mask, self._turn.starts)
                guidance: dict[str, Role] = {f.hole: ("wrong" if f.action == "remove" else "put-back") for f in back}
                return Report("illegal", guidance=guidance, back=back)
        report = self._evaluate(self._turn, self._worlds, exclude=None)
        if report.status == "illegal" and self._prev is not None:
            amended = self._evaluate(self._prev[0], self._prev[2], exclude=self._prev[1])
            if amended.status in ("moving", "move"):
                report = amended
                report.amend = True
        if report.status == "move" and commit:
            assert report.move is not None
            result = report.move.result.occupancy
            if report.amend and self._prev is not None:
                # Back to the seat that moved, with the amended result committed instead.
                self._turn, self._worlds, self._prev = self._prev[0], self._prev[2], None
                self._committed = result
                report.committed = True
            elif result != self._committed:
                self._committed = result
                report.committed = True
        return report

    def _evaluate(self, turn: _Turn, worlds: _Worlds, exclude: bytes | None) -> Report:
        physical, occupied = self.physical, self.occupied
        board = occupied & self._board_only
        starts = physical.start_counts(occupied)
        in_hand = 5 * len(turn.position.board.seats) - occupied.bit_count()
        if board == turn.mask and starts == turn.starts and exclude is None and worlds.untouched():
            return Report("synced")  # nothing lifted yet this turn: no need to wait for the index
        turn.build()
        if in_hand == 0:
            exact = [c for c in turn.by_signature.get((board, starts), ())
                     if c.occupancy != exclude and self._explains(worlds, c)]  # fmt: skip
            if board == turn.mask and starts == turn.starts and exclude is None:
                if not exact:
                    return Report("synced")
                if self._explains_nothing_moved(turn, worlds):  # pegs lifted and put back, or swapped?
                    return Report("ambiguous", candidates=tuple(c.move for c in exact))
            if exact:
                return self._one_or_many(exact)
        on_the_way = self._on_the_way(turn, board, starts)
        if on_the_way:
            back = self._fixes(board, starts, turn.mask, turn.starts)
            return Report("moving", guidance=self._guide(on_the_way, board, starts), back=back)
        return self._illegal(turn, board, starts)

    def _one_or_many(self, exact: list[_Candidate]) -> Report:
        if len(exact) == 1:
            return Report("move", move=exact[0].move, candidates=(exact[0].move,))
        return Report("ambiguous", candidates=tuple(c.move for c in exact))

    def _explains(self, worlds: _Worlds, candidate: _Candidate) -> bool:
        """Some world of colours agrees with the candidate on every occupied hole."""
        if worlds.worlds is None:
            return True
        occupancy = candidate.occupancy
        moved = self.physical.holes(candidate.changed & self.occupied)
        for overrides, _hand in worlds.worlds:
            if any(hole not in overrides for hole in moved):
                continue
            if all(self._agrees(hole, colour, occupancy) for hole, colour in overrides.items()):
                return True
        return False

    def _explains_nothing_moved(self, turn: _Turn, worlds: _Worlds) -> bool:
        if worlds.worlds is None:
            return True
        return any(all(colour is None or colour == self._base_colour(turn, hole) for hole, colour in o.items())
                   for o, _ in worlds.worlds)  # fmt: skip

    def _agrees(self, hole: int, colour: int | None, occupancy: bytes) -> bool:
        if colour is None:
            return True
        seat = self.physical.seat_of_start(hole)
        if seat is not None:
            return colour == seat
        return occupancy[hole] == colour + 1

    def _on_the_way(self, turn: _Turn, board: int, starts: tuple[int, ...]) -> list[_Candidate]:
        """Results this board could still become: every new peg is where the result has one,
        every emptied hole is one the move changes, start counts between before and after."""
        new, emptied = board & ~turn.mask, turn.mask & ~board
        if emptied:
            pool = turn.by_changed.get(self.physical.holes(emptied)[0], [])
        elif new:
            pool = turn.by_changed.get(self.physical.holes(new)[0], [])
        elif starts != turn.starts:
            pool = self._start_pool(turn, starts)
        else:
            pool = []
        if starts == turn.starts:
            return [c for c in pool if not (new & ~c.mask or emptied & ~c.changed)]
        return [c for c in pool if not (new & ~c.mask or emptied & ~c.changed)
                and all(min(a, b) <= s <= max(a, b) for s, a, b in zip(starts, turn.starts, c.starts))]  # fmt: skip

    def _start_pool(self, turn: _Turn, starts: tuple[int, ...]) -> list[_Candidate]:
        """Results that take pegs out of (or send pegs to) a start area whose count changed."""
        for side, (now, before) in enumerate(zip(starts, turn.starts)):
            if now != before:
                return turn.by_start.get((side, 1 if now > before else -1), [])
        return []

    def _guide(self, candidates: list[_Candidate], board: int, starts: tuple[int, ...]) -> dict[str, Role]:
        physical = self.physical
        guidance: dict[str, Role] = {}
        needed = bumps = 0
        for candidate in candidates:
            needed |= candidate.mask & ~board
            bumps |= candidate.bumped & ~board
        for hole in physical.holes(self._turn_start & ~self.occupied):
            guidance[physical.name(hole)] = "selected"
        for hole in physical.holes(needed & ~bumps):
            guidance[physical.name(hole)] = "destination"
        for hole in physical.holes(needed & bumps):
            guidance[physical.name(hole)] = "bump"
        for seat, now in enumerate(starts):
            if any(c.starts[seat] > now for c in candidates):
                for hole in physical.start_holes(seat):
                    if not self.occupied & (1 << (8 * hole)):
                        guidance[physical.name(hole)] = "bump"
        return guidance

    def _illegal(self, turn: _Turn, board: int, starts: tuple[int, ...]) -> Report:
        turn.build()
        back = self._fixes(board, starts, turn.mask, turn.starts)
        guidance: dict[str, Role] = {fix.hole: ("wrong" if fix.action == "remove" else "put-back") for fix in back}
        forward: tuple[Fix, ...] = ()
        # The nearest legal result changes at least one of the holes that differ now.
        pool = {id(c): c for hole in self.physical.holes(board ^ turn.mask) for c in turn.by_changed.get(hole, ())}
        if not pool and starts != turn.starts:
            pool = {id(c): c for c in self._start_pool(turn, starts)}
        if pool:
            nearest = min(pool.values(), key=lambda c: ((board ^ c.mask).bit_count() +
                                                       sum(abs(a - b) for a, b in zip(starts, c.starts))))  # fmt: skip
            forward = self._fixes(board, starts, nearest.mask, nearest.starts)
        return Report("illegal", guidance=guidance, back=back, forward=forward)

    def _fixes(self, board: int, starts: tuple[int, ...], mask: int, wanted: tuple[int, ...]) -> tuple[Fix, ...]:
        """Take off what should not be there, then fill what is missing. Extra start pegs
        come off the holes filled most recently; missing ones go in any free start hole."""
        physical = self.physical
        removes = [Fix("remove", physical.name(hole)) for hole in physical.holes(board & ~mask)]
        places = [Fix("place", physical.name(hole)) for hole in physical.holes(mask & ~board)]
        for seat, (now, want) in enumerate(zip(starts, wanted)):
            holes = physical.start_holes(seat)
            full = sorted((h for h in holes if self.occupied >> (8 * h) & 1), key=lambda h: self._turn_start >> (8 * h) & 1)
            empty = [h for h in holes if not self.occupied >> (8 * h) & 1]
            removes += [Fix("remove", physical.name(h)) for h in full[: max(0, now - want)]]
            places += [Fix("place", physical.name(h)) for h in empty[: max(0, want - now)]]
        return tuple(removes + places)


class EventsError(ValueError):
    """An events file line that is not ``[ms] lift|place HOLE``, ``[ms] snapshot HOLE ...`` or ``[ms] done``."""


def parse_events(text: str, physical: PhysicalBoard) -> list[SensorEvent]:
    """Read an events file: one event a line, an optional time in ms first; ``#`` comments."""
    events: list[SensorEvent] = []
    last_ms = 0
    for number, line in enumerate(text.splitlines(), 1):
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        ms = last_ms
        if words[0].isdigit():
            ms, words = int(words[0]), words[1:]
        if ms < last_ms:
            raise EventsError(f"events line {number}: time {ms} ms goes backwards (after {last_ms} ms)")
        if not words or words[0] not in ("lift", "place", "snapshot", "done"):
            raise EventsError(f"events line {number}: expected '[ms] lift HOLE', '[ms] place HOLE', "
                              f"'[ms] snapshot HOLE ...' or '[ms] done', not {line.strip()!r}")  # fmt: skip
        kind, names = words[0], words[1:]
        if kind in ("lift", "place") and len(names) != 1:
            raise EventsError(f"events line {number}: {kind} takes exactly one hole")
        if kind == "done" and names:
            raise EventsError(f"events line {number}: done takes no hole")
        try:
            holes = tuple(physical.index(name) for name in names)
        except ValueError as error:
            raise EventsError(f"events line {number}: {error}") from None
        events.append(SensorEvent(ms, kind, holes))  # type: ignore[arg-type]
        last_ms = ms
    return events
