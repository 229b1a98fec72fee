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

Beside it: ``referee.report`` (what it says), ``referee.fixes`` (what to take off and put
where), ``referee.amendment`` (the last seat's move, still open to be finished) and
``referee.worlds`` (which colour may be where).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal, NamedTuple

from referee import fixes
from referee.amendment import Window, either
from referee.events_file import EventsError, parse_events
from referee.fixes import Fix, Role
from referee.movegen import Focus, mover_seats, parse_move
from referee.moves import Move, Step
from referee.physical import PhysicalBoard, SensorEvent
from referee.position import Position
from referee.report import Report, Status
from referee.rulesets import Ruleset
from referee.turns import Candidates, IndexedResult, Pool, Reach, Turn, extends
from referee.worlds import World, Worlds

__all__ = ["Candidates", "EventsError", "Fix", "Report", "Role", "Status", "Tracker", "Unfinished", "parse_events"]

SETTLE_MS = 700
Colours = dict[int, int | None]  # physical hole -> seat of the peg there (None: colour unknown)


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

    _turn: Turn
    _worlds: Worlds
    _turn_start: int
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
        self.occupied = self.physical.fill(position) if board is None else self.physical.mask(board)
        self._board_only = self.physical.mask(range(position.board.board_holes))
        self._prev: Window | None = None  # the amendment window: the turn before, its move, its colours
        self._asked: dict[int, int] = {}  # hole -> the colour the last fixes asked to put there
        self._following = True  # the places so far went where the lights asked
        self._trusted: set[int] = set()  # holes filled where the lights asked, while followed
        self._restoring: Colours | None = None
        self._landed: dict[int, tuple[list[IndexedResult], int]] = {}  # a pool's landings, by id
        self._begin(position, allowed or Candidates((card,) if card else None))
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
        return self._judge(commit=self.settled(now_ms))

    def report(self) -> Report:
        return self._judge(commit=False)

    def settled(self, now_ms: int) -> bool:
        """The board has been still for the settle time: what it shows now is meant."""
        return now_ms - self._changed_ms >= self.settle_ms

    def restrict(self, allowed: Candidates) -> None:
        """Narrow (or widen) this turn's candidates, e.g. to a card just declared, keeping
        what the sensors have seen so far."""
        self._turn = Turn(self.physical, self._turn.position, self.rules, allowed)

    def forget_colours(self) -> None:
        """Someone at the table says every peg is where it belongs (nothing moved, or the
        board is put back): stop guessing colours from the history."""
        if self._restoring is not None:
            self._restoring = None
            self._turn_start = self._last_seen = self.occupied
        self._worlds = Worlds()

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
            self._turn, self._worlds, self._prev = self._prev.turn, self._prev.worlds, None
        self._committed, self._committed_move = move.result.occupancy, move

    def next_turn(self, position: Position, allowed: Candidates | None = None) -> None:
        """The game accepted the committed move: follow the next seat from ``position``.
        Until the window closes, the committed move may still be extended."""
        committed = self._committed_move
        turn, worlds = self._turn, self._worlds
        self._begin(position, allowed or Candidates())
        self._prev = Window(turn, committed, worlds) if committed is not None else None

    def restore(self, position: Position, allowed: Candidates | None = None) -> None:
        """The game went back (undo) or a penalty moved a peg: the board must be made to show
        ``position``, colour by colour, before anything else counts."""
        colours = self._colours(self._turn, self._best_world(self._turn, self._worlds, self.expected)).snapshot()
        self._begin(position, allowed or Candidates())
        self._prev = None
        self._restoring = colours
        self._judge(commit=False)

    @property
    def restoring(self) -> bool:
        return self._restoring is not None

    @property
    def position(self) -> Position:
        return self._turn.position

    @property
    def turn(self) -> Turn:
        """The turn being followed: its legal results, as far as they have been asked for."""
        return self._turn

    @property
    def expected(self) -> Position:
        """What the board should show now: the committed result, or the turn's position."""
        move = self._committed_move
        return move.result if move is not None else self._turn.position

    def unfinished(self, report: Report) -> Unfinished | None:
        """A split half made, as ``report`` reads the board (a move on its way, the last seat's
        after a pause, or this seat's with part of it down): whose it is and, for each way to
        finish it, its card and the steps still to make. None when no step is down yet."""
        if report.status != "moving" or self._restoring is not None:
            return None
        window = self._prev if report.amend else None
        turn, worlds = (window.turn, window.worlds) if window is not None else (self._turn, self._worlds)
        board, starts = self._board_and_starts()
        if window is None and not board & ~turn.mask:
            return None  # nothing put down yet: a move begun, not half made
        ways = self._on_the_way(turn, self._pool(turn, worlds, board, starts), board, starts)
        placed = {h for world in worlds.worlds or () for h, colour in world[0].items() if colour is not None}
        left: dict[tuple[str, tuple[Step, ...]], None] = {}
        for result in ways:
            if window is not None and not extends(result, window.move):
                continue
            done = [self._step_down(turn, step, board, starts, placed) for step in result.steps]
            if window is not None:
                made = {(step.source, step.target) for step in window.move.steps}
                done = [(step.source, step.target) in made for step in result.steps]
            if any(done) and not all(done):
                left[result.card, tuple(s for s, down in zip(result.steps, done, strict=True) if not down)] = None
        return Unfinished(turn.position.turn, tuple(left)) if left else None

    def _step_down(self, turn: Turn, step: Step, board: int, starts: tuple[int, ...], placed: set[int]) -> bool:
        """Whether the board shows ``step`` made: its peg gone from where it stood, one in its
        target (a hole that held a peg then must have been filled again this turn)."""
        size = turn.before.size
        if step.source >= size:
            gone = starts[step.source - size] < turn.starts[step.source - size]
        else:
            gone = not board >> (8 * step.source) & 1
        if step.target >= size or not board >> (8 * step.target) & 1:
            return False
        return gone and (not turn.mask >> (8 * step.target) & 1 or step.target in placed)

    # -- keeping a turn across a restart ------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """Everything the tracker knows of the turn so far, as JSON (the daemon stores it so
        that a half-made move is exactly as pending after a power cut)."""
        return {
            "occupied": self.physical.holes(self.occupied),
            "turn_start": self.physical.holes(self._turn_start),
            "turn": self._turn.to_json(),
            "worlds": self._worlds.to_json(),
            "committed": self._committed_move.text if self._committed_move else None,
            "prev": self._prev.to_json() if self._prev is not None else None,
            "restoring": sorted([h, c] for h, c in self._restoring.items()) if self._restoring is not None else None,
            "asked": sorted([hole, seat] for hole, seat in self._asked.items()),
            "following": self._following,
            "trusted": sorted(self._trusted),
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
            tracker._worlds = Worlds.from_json(data["worlds"])
            if data["committed"]:
                tracker._committed_move = parse_move(position, data["committed"], rules)
                tracker._committed = tracker._committed_move.result.occupancy
            if data["prev"]:
                tracker._prev = Window.from_json(data["prev"], tracker.physical, rules)
            if data["restoring"] is not None:
                tracker._restoring = {int(h): c for h, c in data["restoring"]}
            tracker._asked = {int(hole): int(seat) for hole, seat in data.get("asked", ())}
            tracker._following = bool(data.get("following", True))
            tracker._trusted = {int(hole) for hole in data.get("trusted", ())}
        except (KeyError, TypeError, IndexError) as error:
            raise ValueError(f"not a stored tracker state: {error!r}") from None
        return tracker

    # -- the physical board ---------------------------------------------------------

    def _begin(self, position: Position, allowed: Candidates) -> None:
        self._turn = Turn(self.physical, position, self.rules, allowed)
        self._worlds = Worlds()
        self._turn_start = self.occupied
        self._last_seen = self.occupied
        self._changed_ms = 0
        self._committed = None
        self._committed_move = None
        self._restoring = None
        self._asked, self._following, self._trusted = {}, True, set()
        self._landed = {}

    def _base_colour(self, turn: Turn, hole: int) -> int | None:
        """The colour in ``hole`` when ``turn`` began (while restoring: as the board stood)."""
        if self._restoring is not None and turn is self._turn:
            return self._restoring.get(hole)
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
        self._trusted.discard(hole)
        self._following = self._following or self._certain()
        if self._prev is not None:
            self._prev.worlds.lift(hole, self._base_colour(self._prev.turn, hole))

    def _place(self, hole: int) -> None:
        bit = 1 << (8 * hole)
        if self.occupied & bit:
            return
        self.occupied |= bit
        seat = self.physical.seat_of_start(hole)
        if self._asked and hole not in self._asked:
            self._following = False  # not what the lights asked: stop reading places as asked
            self._trusted.clear()
        elif self._following and hole in self._asked:
            self._trusted.add(hole)
        self._worlds.place(hole, seat, self._asked.get(hole))
        self._following = self._following or self._certain()
        if self._prev is not None:
            self._prev.worlds.place(hole, seat)

    # -- colours ---------------------------------------------------------------------

    def known_colours(self) -> Colours:
        """The colour in each occupied hole, when the sensors leave one reading of them (a peg
        placed on its way is then known by its colour, not shown as a stray); else nothing."""
        worlds = self._worlds.worlds
        if worlds is None or len(worlds) != 1 or self._restoring is not None:
            return {}
        return self._colours(self._turn, worlds[0]).snapshot()

    def _certain(self) -> bool:
        """Every colour's whereabouts known (one reading left)."""
        return self._worlds.worlds is not None and len(self._worlds.worlds) == 1

    def _colours(self, turn: Turn, world: World | None) -> _BoardColours:
        """Which colour stands in each occupied hole, in ``world`` (None: colours unknown
        where pegs moved), read hole by hole as asked."""
        return _BoardColours(self, turn, world)

    def _best_world(self, turn: Turn, worlds: Worlds, target: Position | None = None) -> World | None:
        """The world with the fewest holes off ``target`` (default: the turn's position)."""
        if worlds.worlds is None:
            return None
        goal = target or turn.position
        if len(worlds.worlds) == 1:
            return worlds.worlds[0]

        def distance(world: World) -> int:
            return len(self._colour_fixes(self._colours(turn, world), goal, self._touched(turn, world)))

        return min(self._plausible(worlds.worlds), key=distance)

    def _touched(self, turn: Turn, world: World) -> list[int] | None:
        """The board holes that can be off the turn's position: re-coloured ones and those
        whose occupancy changed (None while restoring: any hole may be)."""
        if self._restoring is not None:
            return None
        changed = (self.occupied & self._board_only) ^ turn.mask
        return sorted({*self.physical.holes(changed), *(h for h in world[0] if h < turn.position.board.board_holes)})

    def _colour_fixes(
        self, colours: fixes.BoardColours, target: Position, holes: Sequence[int] | None = None
    ) -> tuple[Fix, ...]:
        """What to take off and put where, colour by colour, for the board to show ``target``."""
        return fixes.colour_fixes(self.physical, self._turn_start, colours, target, holes)

    def _colours_agree(
        self, turn: Turn, worlds: Worlds, target: Position
    ) -> Literal["everywhere", "somewhere", "nowhere"]:
        """Whether the board's colours are ``target``'s in every likely reading, in some, or none."""
        if worlds.worlds is None:
            return "everywhere"
        agree = [not self._colour_fixes(self._colours(turn, world), target) for world in self._plausible(worlds.worlds)]
        return "everywhere" if all(agree) else "somewhere" if any(agree) else "nowhere"

    def _plausible(self, worlds: list[World]) -> list[World]:
        """The likeliest readings: those with the fewest surprises (``Worlds.likely``)."""
        if len(worlds) == 1:
            return worlds
        return Worlds(worlds).likely(self._following) or worlds

    def _judge(self, commit: bool) -> Report:
        report = self._judge_board(commit)
        # While the board is being put right, a peg placed where the lights asked for a colour
        # is most likely that colour (as long as the places follow the lights at all).
        self._asked = {
            self.physical.index(fix.hole): fix.seat
            for fix in report.back
            if report.status in ("illegal", "moving") and fix.action == "place" and fix.seat is not None
        }
        return report

    def _judge_board(self, commit: bool) -> Report:
        if self._restoring is not None:
            report = self._judge_restore()
            if report is not None:
                return report
        report = self._evaluate(self._turn, self._worlds, committed=None)
        if self._prev is not None and not (report.status == "synced" and self._worlds.untouched()):
            amended = self._evaluate(self._prev.turn, self._prev.worlds, committed=self._prev.move)
            report = self._finishing(report, amended) or either(report, amended)
        if report.status == "move" and commit:
            assert report.move is not None
            result = report.move.result.occupancy
            if report.amend and self._prev is not None:
                # Back to the seat that moved, with the amended result committed instead.
                self._turn, self._worlds, self._prev = self._prev.turn, self._prev.worlds, None
                self._restoring = None
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
        emptied = self.physical.holes(self._turn.mask & ~board)
        movers = mover_seats(self._prev.turn.position, self.rules)
        if not emptied or any(self._turn.position.colour_at(hole) not in movers for hole in emptied):
            return None
        amended.amend = True
        amended.back = current.back  # going back means back to this turn's start, not the last one's
        return amended

    def _judge_restore(self) -> Report | None:
        """While the board is being put back: the fixes, or None once it shows the position."""
        turn = self._turn
        if self._matches(turn):
            agree = self._colours_agree(turn, self._worlds, turn.position)
            if agree == "everywhere":
                self._restoring = None  # the board is right again: a new start for this turn
                self._worlds = Worlds()
                self._turn_start = self._last_seen = self.occupied
                return None
            if agree == "somewhere":
                return Report("ambiguous")  # pegs of two colours were in hand at once: the table checks
        back = self._back(turn, self._worlds, *self._board_and_starts())
        return Report("illegal", guidance=fixes.guidance(back), back=back)

    def _matches(self, turn: Turn) -> bool:
        board, starts = self._board_and_starts()
        return board == turn.mask and starts == turn.starts

    def _board_and_starts(self) -> tuple[int, tuple[int, ...]]:
        return self.occupied & self._board_only, self.physical.start_counts(self.occupied)

    def _evaluate(self, turn: Turn, worlds: Worlds, committed: Move | None) -> Report:
        board, starts = self._board_and_starts()
        in_hand = 5 * len(turn.position.board.seats) - self.occupied.bit_count()
        unchanged = board == turn.mask and starts == turn.starts
        if unchanged and committed is None and worlds.untouched():
            return Report("synced")  # nothing lifted yet this turn: no need to wait for the index
        pool = self._pool(turn, worlds, board, starts)
        if in_hand == 0:
            exact = [
                c
                for c in pool
                if c.mask == board
                and c.starts == starts
                and self._explains(turn, worlds, c)
                and (committed is None or extends(c, committed))
            ]
            if unchanged and committed is None:
                nothing_moved = self._explains_nothing_moved(turn, worlds)
                if exact and nothing_moved:  # pegs lifted and put back, or swapped?
                    return Report("ambiguous", candidates=tuple(c.move for c in exact))
                if not exact:
                    if nothing_moved and self._colours_agree(turn, worlds, turn.position) == "everywhere":
                        return Report("synced")
                    if nothing_moved:  # two colours were in hand at once: back as they were, or swapped?
                        return Report("ambiguous")
                    return self._illegal(turn, worlds, board, starts)  # the same holes, other colours
            if exact:
                return self._one_or_many(exact)
        on_the_way = self._on_the_way(turn, pool, board, starts)
        if committed is not None:
            on_the_way = [c for c in on_the_way if extends(c, committed)]
        if on_the_way:
            return Report(
                "moving",
                guidance=self._guide(turn, worlds, on_the_way, board, starts),
                back=self._back(turn, worlds, board, starts),
            )
        return self._illegal(turn, worlds, board, starts)

    def _one_or_many(self, exact: list[IndexedResult]) -> Report:
        if len(exact) == 1:
            return Report("move", move=exact[0].move, candidates=(exact[0].move,))
        return Report("ambiguous", candidates=tuple(c.move for c in exact))

    def _explains(self, turn: Turn, worlds: Worlds, candidate: IndexedResult) -> bool:
        """Some world of colours agrees with the candidate on every occupied hole."""
        if worlds.worlds is None:
            return True
        occupancy = candidate.occupancy
        moved = self.physical.holes(candidate.changed & self.occupied)
        for overrides, *_rest in worlds.worlds:
            if any(hole not in overrides for hole in moved):
                continue
            if all(self._agrees(hole, colour, occupancy) for hole, colour in overrides.items()):
                return True
        return False

    def _explains_nothing_moved(self, turn: Turn, worlds: Worlds) -> bool:
        if worlds.worlds is None:
            return True
        return any(
            all(colour is None or colour == self._base_colour(turn, hole) for hole, colour in o.items())
            for o, *_rest in worlds.worlds
        )

    def _agrees(self, hole: int, colour: int | None, occupancy: bytes) -> bool:
        if colour is None:
            return True
        seat = self.physical.seat_of_start(hole)
        if seat is not None:
            return colour == seat
        return occupancy[hole] == colour + 1

    def _pool(self, turn: Turn, worlds: Worlds, board: int, starts: tuple[int, ...]) -> Pool:
        """The results that could explain this board or be on their way to it: those that
        change its first emptied hole (or else its first new one: a result that explains
        the board changes every hole it differs in), or else a start area whose count
        changed, or else, the board looking as the turn began, a hole a peg was lifted
        from or put in. The lift and the place of one move ask for the same results."""
        physical = self.physical
        emptied, new = turn.mask & ~board, board & ~turn.mask
        if emptied or new:
            return turn.changing([physical.holes(emptied or new)[0]])
        sides = [side for side, (now, before) in enumerate(zip(starts, turn.starts)) if now != before]
        if sides:
            return turn.changing(starts=sides[:1])
        if worlds.worlds is None:
            return turn.every()  # colours lost track of: any result that keeps this board
        handled = {hole for world in worlds.worlds for hole in world[0]}
        sides = [seat for seat in map(physical.seat_of_start, handled) if seat is not None]
        return turn.changing([hole for hole in handled if hole < self._turn_board_holes], sides)

    def _on_the_way(self, turn: Turn, pool: Pool, board: int, starts: tuple[int, ...]) -> list[IndexedResult]:
        """Results this board could still become: every new peg is where the result has one,
        every emptied hole is one the move changes, start counts between before and after."""
        new, emptied = self.physical.holes(board & ~turn.mask), self.physical.holes(turn.mask & ~board)
        if not (new or emptied or starts != turn.starts):
            return []
        if starts == turn.starts:
            if not new and pool.focus == Focus.of(emptied):
                return pool  # one peg lifted: every result that changes its hole
            return [c for c in pool if c.fills(new) and c.changes(emptied)]
        return [
            c
            for c in pool
            if c.fills(new)
            and c.changes(emptied)
            and all(min(a, b) <= s <= max(a, b) for s, a, b in zip(starts, turn.starts, c.starts))
        ]

    def _guide(
        self, turn: Turn, worlds: Worlds, candidates: list[IndexedResult], board: int, starts: tuple[int, ...]
    ) -> dict[str, Role]:
        physical = self.physical
        guidance: dict[str, Role] = {}
        reach = candidates.reach if isinstance(candidates, Pool) else Reach.of(candidates, turn.before.ones)
        needed, bumps = reach.fills & ~board, reach.bumps & ~board
        for hole in physical.holes(self._turn_start & ~self.occupied):
            guidance[physical.name(hole)] = "selected"
        for hole in physical.holes(needed & ~bumps | self._landings(turn, worlds, candidates, board)):
            guidance[physical.name(hole)] = "destination"
        for hole in physical.holes(needed & bumps):
            guidance[physical.name(hole)] = "bump"
        for seat, now in enumerate(starts):
            if reach.starts_up >> seat & 1 if starts == turn.starts else any(c.starts[seat] > now for c in candidates):
                for hole in physical.start_holes(seat):
                    if not self.occupied & (1 << (8 * hole)):
                        guidance[physical.name(hole)] = "bump"
        return guidance

    def _landings(self, turn: Turn, worlds: Worlds, candidates: list[IndexedResult], board: int) -> int:
        """Holes still holding the peg they held when the turn began that a result lands on,
        bumping it or swapping with it: legal destinations too (a 5 onto an opponent's peg,
        the joker's targets), though no empty hole. The landings of a lift's pool are kept
        with it for the rest of the turn."""
        if worlds.worlds is None:
            return 0  # colours lost track of: which peg stands where is not known
        cached = self._landed.get(id(candidates))
        if cached is not None and cached[0] is candidates:
            lands = cached[1]
        else:
            lands = _landing_mask(candidates, turn.before.size)
            if isinstance(candidates, Pool):
                self._landed[id(candidates)] = (candidates, lands)
        colour = turn.position.colour_at
        handled = {
            h for world in worlds.worlds for h, seat in world[0].items() if h >= turn.before.size or seat != colour(h)
        }
        handled_mask = sum(1 << (8 * hole) for hole in handled)  # holes whose peg may have changed
        return lands & board & turn.mask & ~handled_mask

    def _back(self, turn: Turn, worlds: Worlds, board: int, starts: tuple[int, ...]) -> tuple[Fix, ...]:
        """What to do to put the board back as the turn began. Where a colour must go is
        always named; whose peg stands in a hole only when every reading agrees. A peg whose
        colour the lifts left open (two pegs in hand, put down in either order) comes off
        first if any reading has it wrong, unless it was put where the lights asked while
        they were being followed."""
        world = self._best_world(turn, worlds)
        if world is None or worlds.worlds is None:
            return self._fixes(board, starts, turn.mask, turn.starts)
        open_holes = self._disputed(turn, worlds.worlds) if len(worlds.worlds) > 1 else []
        readings = [_BoardColours(self, turn, reading) for reading in worlds.worlds]
        disputed = [
            hole
            for hole in open_holes
            if hole not in self._trusted
            and any(view[hole] != self._wanted_colour(turn.position, hole) for view in readings)
        ]
        colours = _BoardColours(self, turn, world, absent=set(disputed))
        touched = self._touched(turn, world)
        holes = None if touched is None else sorted({*touched, *(h for h in disputed if h < self._turn_board_holes)})
        unsure = {self.physical.name(hole) for hole in open_holes}
        fixes = [
            Fix(f.action, f.hole, None if f.action == "remove" and f.hole in unsure else f.seat)
            for f in self._colour_fixes(colours, turn.position, holes)
        ]
        removes = [Fix("remove", self.physical.name(hole)) for hole in disputed]
        return tuple(removes + [f for f in fixes if f.action == "remove"] + [f for f in fixes if f.action == "place"])

    @property
    def _turn_board_holes(self) -> int:
        return self.physical.board.board_holes

    def _wanted_colour(self, target: Position, hole: int) -> int | None:
        seat = self.physical.seat_of_start(hole)
        return seat if seat is not None else target.colour_at(hole)

    def _disputed(self, turn: Turn, worlds: list[World]) -> list[int]:
        """Occupied holes whose colour the worlds disagree on."""
        holes = {hole for world in worlds for hole in world[0] if self.occupied >> (8 * hole) & 1}
        views = [_BoardColours(self, turn, world) for world in worlds]
        return sorted(hole for hole in holes if len({view[hole] for view in views}) > 1)

    def _illegal(self, turn: Turn, worlds: Worlds, board: int, starts: tuple[int, ...]) -> Report:
        back = self._back(turn, worlds, board, starts)
        forward: tuple[Fix, ...] = ()
        # The nearest legal result among those that change the board's first changed hole.
        pool = self._pool(turn, worlds, board, starts) if (board != turn.mask or starts != turn.starts) else []
        if pool:
            nearest = min(
                pool, key=lambda c: (board ^ c.mask).bit_count() + sum(abs(a - b) for a, b in zip(starts, c.starts))
            )
            forward = self._fixes(board, starts, nearest.mask, nearest.starts)
        return Report("illegal", guidance=fixes.guidance(back), back=back, forward=forward)

    def _fixes(self, board: int, starts: tuple[int, ...], mask: int, wanted: tuple[int, ...]) -> tuple[Fix, ...]:
        """Occupancy only: what to take off and fill for ``board`` to become ``mask``."""
        return fixes.occupancy_fixes(self.physical, self.occupied, self._turn_start, board, starts, mask, wanted)


def _landing_mask(results: list[IndexedResult], size: int) -> int:
    """The board holes some result's step lands on while a peg stands there (a bump, a swap)."""
    lands = 0
    for result in results:
        for step in result.steps:
            if (step.bumps or step.swap) and step.target < size:
                lands |= 1 << (8 * step.target)
    return lands


class _BoardColours:
    """The colours on the board in one world, worked out only for the holes asked about."""

    def __init__(self, tracker: Tracker, turn: Turn, world: World | None, absent: set[int] | None = None) -> None:
        self._tracker, self._turn = tracker, turn
        self._known = world is not None
        self._overrides = world[0] if world is not None else {}
        self._absent = absent or set()  # holes to treat as emptied (their pegs come off first)

    def __contains__(self, hole: int) -> bool:
        return bool(self._tracker.occupied >> (8 * hole) & 1) and hole not in self._absent

    def __getitem__(self, hole: int) -> int | None:
        if hole in self._overrides:
            return self._overrides[hole]
        if not self._known and not self._tracker._turn_start >> (8 * hole) & 1:
            return None  # a peg placed while colours could not be followed
        return self._tracker._base_colour(self._turn, hole)

    def snapshot(self) -> Colours:
        return {hole: self[hole] for hole in self._tracker.physical.holes(self._tracker.occupied) if hole in self}
