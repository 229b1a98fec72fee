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

    >>> position = Position.from_json({"players": 4, "turn": 0, "pegs": {}})  # every peg in start
    >>> tracker = Tracker(position, Ruleset.preset("basic"), card="K")
    >>> physical = tracker.physical  # hole names to the sensors' indices
    >>> tracker.feed(SensorEvent(0, "lift", (physical.index("S0:1"),))).status
    'moving'
    >>> tracker.feed(SensorEvent(350, "place", (physical.index("T0:8"),))).status
    'move'
    >>> report = tracker.poll(1100)  # 700 ms after the board went still
    >>> report.committed, str(report.move)
    (True, 'K S0-T0:8')

Identity: lifting a peg puts its colour "in hand"; placing one takes any colour from the
hand. The tracker keeps every assignment the events allow (a few "worlds") and accepts
a result only if some world explains it, so the history of lifts and places can tell
apart results that plain occupancy cannot.

Beside it: ``referee.seen`` (what the sensors have shown this turn), ``referee.colour_reading``
(which colour stands where, and what to put back), ``referee.on_the_way`` (the results the
board may still become, and the lights for them), ``referee.report`` (what it says),
``referee.fixes`` (what to take off and put where), ``referee.amendment`` (the last seat's
move, still open to be finished) and ``referee.worlds`` (every reading of the colours).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from referee import fixes
from referee.amendment import Window, either
from referee.colour_reading import ColourReading
from referee.events_file import EventsError, parse_events
from referee.fixes import Fix, Role
from referee.movegen import mover_seats, parse_move
from referee.moves import Move, Step
from referee.on_the_way import OnTheWay
from referee.physical import PhysicalBoard, SensorEvent
from referee.position import Position
from referee.report import Report, Status
from referee.rulesets import Ruleset
from referee.seen import Colours, Seen
from referee.turns import Candidates, IndexedResult, Turn, extends
from referee.worlds import Worlds

__all__ = [
    "Candidates",
    "Colours",
    "EventsError",
    "Fix",
    "Report",
    "Role",
    "Status",
    "Tracker",
    "Unfinished",
    "parse_events",
]

SETTLE_MS = 700


class Unfinished(NamedTuple):
    """A split half made: the seat whose move it is, and each way to finish it (its card,
    the steps still to make)."""

    seat: int
    ways: tuple[tuple[str, tuple[Step, ...]], ...]


class Tracker:
    """Follows one physical board through the turns of a game.

    After a commit the amendment window stays open for one purpose: the rest of the same
    seat's move (the second part of a split after a pause, a bumped peg reaching its
    start). Only a result that *extends* the committed move can amend it; the window
    closes with ``confirm()`` (the Done button, the next seat declaring a card) or when
    the next seat's move is committed.
    """

    _last_seen: int
    _changed_ms: int
    _committed: bytes | None  # the result committed this turn
    _committed_move: Move | None

    def __init__(
        self,
        position: Position,
        rules: Ruleset,
        *,
        card: str | None = None,
        allowed: Candidates | None = None,
        settle_ms: int = SETTLE_MS,
        occupied: Sequence[int] | None = None,
        board: Sequence[int] | None = None,
    ) -> None:
        """``allowed``: the moves to accept (default: ``card``'s, or every card's);
        ``board``: the physical holes filled when the turn begins (default: start pegs in
        holes 1 up); ``occupied``: what the sensors see now, if that differs (a restart)."""
        self.rules = rules
        self.physical = PhysicalBoard(position.board)
        self.settle_ms = settle_ms
        filled = self.physical.fill(position) if board is None else self.physical.mask(board)
        self.seen = Seen(self.physical, filled)  # what the sensors show, shared with the two below
        self._reading = ColourReading(self.seen)  # which colour is where, and what to put back
        self._ways = OnTheWay(self.seen)  # the results on their way, and their lights
        self._prev: Window | None = None  # the amendment window: the turn before, its move, its colours
        self._begin(position, allowed or Candidates((card,) if card else None))
        if occupied is not None:  # start-up: what the sensors see now, against what was stored
            self.feed(SensorEvent(0, "snapshot", tuple(occupied)))

    @property
    def occupied(self) -> int:
        """The physical holes holding a peg now, as a byte mask (``referee.physical``)."""
        return self.seen.occupied

    @occupied.setter
    def occupied(self, mask: int) -> None:
        self.seen.occupied = mask

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
        return self._judge(commit=self.settled(now_ms))

    def report(self) -> Report:
        return self._judge(commit=False)

    def settled(self, now_ms: int) -> bool:
        """The board has been still for the settle time: what it shows now is meant."""
        return now_ms - self._changed_ms >= self.settle_ms

    def restrict(self, allowed: Candidates) -> None:
        """Narrow (or widen) this turn's candidates, e.g. to a card just declared, keeping
        what the sensors have seen so far."""
        self.seen.turn = Turn(self.physical, self.seen.turn.position, self.rules, allowed)

    def forget_colours(self) -> None:
        """Someone at the table says every peg is where it belongs (nothing moved, or the
        board is put back): stop guessing colours from the history."""
        if self.seen.restoring is not None:
            self.seen.restoring = None
            self.seen.turn_start = self._last_seen = self.occupied
        self.seen.worlds = Worlds()

    def retract(self) -> None:
        """The owner could not accept the committed move (its store failed): offer it again."""
        self._committed = None

    def confirm(self) -> bool:
        """The last move stands as committed (Done, or the next seat began deliberately):
        close the amendment window. Whether there was one open."""
        was_open = self._prev is not None
        self._prev = None
        return was_open

    def take(self, move: Move, amend: bool) -> None:
        """The table chose ``move`` of several that fit (an ambiguous report): commit it;
        ``amend``: it finishes the last seat's move (one of the report's ``amendments``)."""
        if self._prev is not None and amend:
            self.seen.turn, self.seen.worlds, self._prev = self._prev.turn, self._prev.worlds, None
        self._committed, self._committed_move = move.result.occupancy, move

    def next_turn(self, position: Position, allowed: Candidates | None = None) -> None:
        """The game accepted the committed move: follow the next seat from ``position``.
        Until the window closes, the committed move may still be extended."""
        committed = self._committed_move
        turn, worlds = self.seen.turn, self.seen.worlds
        self._begin(position, allowed or Candidates())
        self._prev = Window(turn, committed, worlds) if committed is not None else None

    def restore(self, position: Position, allowed: Candidates | None = None) -> None:
        """The game went back (undo) or a penalty moved a peg: the board must be made to show
        ``position``, colour by colour, before anything else counts."""
        turn, worlds = self.seen.turn, self.seen.worlds
        colours = self._reading.colours(turn, self._reading.best_world(turn, worlds, self.expected)).snapshot()
        self._begin(position, allowed or Candidates())
        self._prev = None
        self.seen.restoring = colours
        self._judge(commit=False)

    @property
    def restoring(self) -> bool:
        return self.seen.restoring is not None

    @property
    def position(self) -> Position:
        return self.seen.turn.position

    @property
    def turn(self) -> Turn:
        """The turn being followed: its legal results, as far as they have been asked for."""
        return self.seen.turn

    @property
    def expected(self) -> Position:
        """What the board should show now: the committed result, or the turn's position."""
        move = self._committed_move
        return move.result if move is not None else self.seen.turn.position

    def unfinished(self, report: Report) -> Unfinished | None:
        """A split half made, as ``report`` reads the board (a move on its way, the last seat's
        after a pause, or this seat's with part of it down): whose it is and, for each way to
        finish it, its card and the steps still to make. None when no step is down yet."""
        if report.status != "moving" or self.seen.restoring is not None:
            return None
        window = self._prev if report.amend else None
        turn, worlds = (window.turn, window.worlds) if window is not None else (self.seen.turn, self.seen.worlds)
        board, starts = self._board_and_starts()
        if window is None and not board & ~turn.mask:
            return None  # nothing put down yet: a move begun, not half made
        ways = self._ways.on_the_way(turn, self._ways.pool(turn, worlds, board, starts), board, starts)
        placed = {h for world in worlds.worlds or () for h, colour in world[0].items() if colour is not None}
        left: dict[tuple[str, tuple[Step, ...]], None] = {}
        for result in ways:
            if window is not None and not extends(result, window.move):
                continue
            done = [self._ways.step_down(turn, step, board, starts, placed) for step in result.steps]
            if window is not None:
                made = {(step.source, step.target) for step in window.move.steps}
                done = [(step.source, step.target) in made for step in result.steps]
            if any(done) and not all(done):
                left[result.card, tuple(s for s, down in zip(result.steps, done, strict=True) if not down)] = None
        return Unfinished(turn.position.turn, tuple(left)) if left else None

    # -- keeping a turn across a restart ------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """Everything the tracker knows of the turn so far, as JSON (the daemon stores it so
        that a half-made move is exactly as pending after a power cut)."""
        return {
            "occupied": self.physical.holes(self.occupied),
            "turn_start": self.physical.holes(self.seen.turn_start),
            "turn": self.seen.turn.to_json(),
            "worlds": self.seen.worlds.to_json(),
            "committed": self._committed_move.text if self._committed_move else None,
            "prev": self._prev.to_json() if self._prev is not None else None,
            "restoring": sorted([h, c] for h, c in self.seen.restoring.items())
            if self.seen.restoring is not None
            else None,
            "asked": sorted([hole, seat] for hole, seat in self.seen.asked.items()),
            "following": self.seen.following,
            "trusted": sorted(self.seen.trusted),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any], rules: Ruleset, *, settle_ms: int = SETTLE_MS) -> Tracker:
        """The tracker ``to_json`` described. Bad data raises ``ValueError``."""
        try:
            turn = data["turn"]
            position = Position.from_json(turn["position"])
            tracker = cls(
                position, rules, allowed=Candidates.from_json(turn), settle_ms=settle_ms, board=data["turn_start"]
            )
            tracker.occupied = tracker.physical.mask(data["occupied"])
            tracker._last_seen = tracker.occupied
            seen = tracker.seen
            seen.worlds = Worlds.from_json(data["worlds"])
            if data["committed"]:
                tracker._committed_move = parse_move(position, data["committed"], rules)
                tracker._committed = tracker._committed_move.result.occupancy
            if data["prev"]:
                tracker._prev = Window.from_json(data["prev"], tracker.physical, rules)
            if data["restoring"] is not None:
                seen.restoring = {int(h): c for h, c in data["restoring"]}
            seen.asked = {int(hole): int(seat) for hole, seat in data.get("asked", ())}
            seen.following = bool(data.get("following", True))
            seen.trusted = {int(hole) for hole in data.get("trusted", ())}
        except (KeyError, TypeError, IndexError) as error:
            raise ValueError(f"not a stored tracker state: {error!r}") from None
        return tracker

    # -- the physical board ---------------------------------------------------------

    def _begin(self, position: Position, allowed: Candidates) -> None:
        self.seen.turn = Turn(self.physical, position, self.rules, allowed)
        self.seen.worlds = Worlds()
        self.seen.turn_start = self.occupied
        self._last_seen = self.occupied
        self._changed_ms = 0
        self._committed = None
        self._committed_move = None
        self.seen.restoring = None
        self.seen.asked, self.seen.following, self.seen.trusted = {}, True, set()
        self._ways.forget()

    def _lift(self, hole: int) -> None:
        bit = 1 << (8 * hole)
        if not self.occupied & bit:
            return  # a lift from an empty hole: a glitch, ignore it
        self.occupied &= ~bit
        self.seen.worlds.lift(hole, self._reading.base_colour(self.seen.turn, hole))
        self.seen.trusted.discard(hole)
        self.seen.following = self.seen.following or self._reading.certain()
        if self._prev is not None:
            self._prev.worlds.lift(hole, self._reading.base_colour(self._prev.turn, hole))

    def _place(self, hole: int) -> None:
        bit = 1 << (8 * hole)
        if self.occupied & bit:
            return
        self.occupied |= bit
        seat = self.physical.seat_of_start(hole)
        if self.seen.asked and hole not in self.seen.asked:
            self.seen.following = False  # not what the lights asked: stop reading places as asked
            self.seen.trusted.clear()
        elif self.seen.following and hole in self.seen.asked:
            self.seen.trusted.add(hole)
        self.seen.worlds.place(hole, seat, self.seen.asked.get(hole))
        self.seen.following = self.seen.following or self._reading.certain()
        if self._prev is not None:
            self._prev.worlds.place(hole, seat)

    def known_colours(self) -> Colours:
        """The colour in each occupied hole, when the sensors leave one reading of them (a peg
        placed on its way is then known by its colour, not shown as a stray); else nothing."""
        return self._reading.known()

    # -- judging the board -------------------------------------------------------------

    def _judge(self, commit: bool) -> Report:
        report = self._judge_board(commit)
        # While the board is being put right, a peg placed where the lights asked for a colour
        # is most likely that colour (as long as the places follow the lights at all).
        self.seen.asked = {
            self.physical.index(fix.hole) if fix.at is None else fix.at: fix.seat
            for fix in report.back
            if report.status in ("illegal", "moving") and fix.action == "place" and fix.seat is not None
        }
        return report

    def _judge_board(self, commit: bool) -> Report:
        if self.seen.restoring is not None:
            report = self._judge_restore()
            if report is not None:
                return report
        report = self._evaluate(self.seen.turn, self.seen.worlds, committed=None)
        if self._prev is not None and not (report.status == "synced" and self.seen.worlds.untouched()):
            amended = self._evaluate(self._prev.turn, self._prev.worlds, committed=self._prev.move)
            report = self._finishing(report, amended) or either(report, amended)
        if report.status == "move" and commit:
            assert report.move is not None
            result = report.move.result.occupancy
            if report.amend and self._prev is not None:
                # Back to the seat that moved, with the amended result committed instead.
                self.seen.turn, self.seen.worlds, self._prev = self._prev.turn, self._prev.worlds, None
                self.seen.restoring = None
                self._committed, self._committed_move = result, report.move
                report.committed = True
            elif result != self._committed:
                self._committed, self._committed_move = result, report.move
                report.committed = True
        return report

    def _finishing(self, current: Report, amended: Report) -> Report | None:
        """Both readings on their way, and every peg taken off the board is one the last seat
        moves: the rest of its split (a pause after the first part), not the next seat's move
        begun. The lights show where the second part may go, and nothing is called wrong."""
        if current.status != "moving" or amended.status != "moving" or self._prev is None:
            return None
        board, _ = self._board_and_starts()
        emptied = self.physical.holes(self.seen.turn.mask & ~board)
        movers = mover_seats(self._prev.turn.position, self.rules)
        if not emptied or any(self.seen.turn.position.colour_at(hole) not in movers for hole in emptied):
            return None
        amended.amend = True
        amended.back = current.back  # going back means back to this turn's start, not the last one's
        return amended

    def _judge_restore(self) -> Report | None:
        """While the board is being put back: the fixes, or None once it shows the position."""
        turn = self.seen.turn
        if self._matches(turn):
            agree = self._reading.agree(turn, self.seen.worlds, turn.position)
            if agree == "everywhere":
                self.seen.restoring = None  # the board is right again: a new start for this turn
                self.seen.worlds = Worlds()
                self.seen.turn_start = self._last_seen = self.occupied
                return None
            if agree == "somewhere":
                return Report("ambiguous")  # pegs of two colours were in hand at once: the table checks
        back = self._reading.back(turn, self.seen.worlds, *self._board_and_starts())
        return Report("illegal", guidance=fixes.guidance(back), back=back)

    def _matches(self, turn: Turn) -> bool:
        board, starts = self._board_and_starts()
        return board == turn.mask and starts == turn.starts

    def _board_and_starts(self) -> tuple[int, tuple[int, ...]]:
        return self.seen.board_and_starts()

    def _evaluate(self, turn: Turn, worlds: Worlds, committed: Move | None) -> Report:
        board, starts = self._board_and_starts()
        in_hand = 5 * len(turn.position.board.seats) - self.occupied.bit_count()
        unchanged = board == turn.mask and starts == turn.starts
        if unchanged and committed is None and worlds.untouched():
            return Report("synced")  # nothing lifted yet this turn: no need to wait for the index
        pool = self._ways.pool(turn, worlds, board, starts)
        if in_hand == 0:
            exact = [
                c
                for c in pool
                if c.mask == board
                and c.starts == starts
                and self._reading.explains(turn, worlds, c)
                and (committed is None or extends(c, committed))
            ]
            if unchanged and committed is None:
                nothing_moved = self._reading.explains_nothing_moved(turn, worlds)
                if exact and nothing_moved:  # pegs lifted and put back, or swapped?
                    return Report("ambiguous", candidates=tuple(c.move for c in exact))
                if not exact:
                    if nothing_moved and self._reading.agree(turn, worlds, turn.position) == "everywhere":
                        return Report("synced")
                    if nothing_moved:  # two colours were in hand at once: back as they were, or swapped?
                        return Report("ambiguous")
                    return self._illegal(turn, worlds, board, starts)  # the same holes, other colours
            if exact:
                return self._one_or_many(exact)
        on_the_way = self._ways.on_the_way(turn, pool, board, starts)
        if committed is not None:
            on_the_way = [c for c in on_the_way if extends(c, committed)]
        if on_the_way:
            return Report(
                "moving",
                guidance=self._ways.guide(turn, worlds, on_the_way, board, starts),
                back=self._reading.back(turn, worlds, board, starts),
            )
        return self._illegal(turn, worlds, board, starts)

    def _one_or_many(self, exact: list[IndexedResult]) -> Report:
        if len(exact) == 1:
            return Report("move", move=exact[0].move, candidates=(exact[0].move,))
        return Report("ambiguous", candidates=tuple(c.move for c in exact))

    def _illegal(self, turn: Turn, worlds: Worlds, board: int, starts: tuple[int, ...]) -> Report:
        back = self._reading.back(turn, worlds, board, starts)
        forward: tuple[Fix, ...] = ()
        # The nearest legal result among those that change the board's first changed hole.
        pool = self._ways.pool(turn, worlds, board, starts) if (board != turn.mask or starts != turn.starts) else []
        if pool:
            nearest = min(
                pool,
                key=lambda c: (
                    (board ^ c.mask).bit_count() + sum(abs(a - b) for a, b in zip(starts, c.starts, strict=False))
                ),
            )
            forward = self._reading.occupancy_fixes(board, starts, nearest.mask, nearest.starts)
        return Report("illegal", guidance=fixes.guidance(back), back=back, forward=forward)
