"""One game at one table: the game, the tracker that follows its board, and the store.

The session is the turn state machine of the daemon, with no threads and no hardware:
sensor events, the clock, the Done button and the page's requests go in; reports, a
notice for the page and stored events come out. Every accepted move is on disk before
``report`` or ``game`` shows it, and whatever was pending (a half-made move, a question
to the table) is stored with the turn, so a restart finds it exactly as it was.

    session = Session.new(Store.open("data"), Ruleset.preset("basic"), players=4)
    session.sense(0, "lift", "S0:1")
    session.sense(300, "place", "T0:8")
    session.done(400)              # confirms the move; a second press changes nothing
    session.game.history           # [(0, 'A S0-T0:8')]

What the table's people do, and what it means here:

- **Done** confirms the move just made, committed by the settle time or not. It never
  discards: a seat that cannot move says so with ``discard`` (the page's "Can't move"
  button, or holding the Done button).
- **The amendment window** after a commit is for the rest of the same seat's move only
  (a split's second part after a pause, a bumped peg reaching start). Done, the next
  seat declaring a card or saying it can't move, and the next seat's committed move
  close it. A board that both finishes the last move and is the next seat's move is
  asked about, never guessed.
- **Undo** takes back the last turn; the board is then put back peg by peg, colours
  named, and nothing counts until it shows the position again.
- **Bluffing Joker at a real table**: the card is declared on the page before the move
  counts; a revealed card is honest when it explains the move.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Any, Protocol

from referee.cards import parse_card
from referee.events import Event
from referee.game import Game, GameError, Mode
from referee.movegen import legal_moves, parse_move
from referee.moves import Move, NotationError
from referee.physical import PhysicalBoard, SensorEvent
from referee.rulesets import Ruleset
from referee.table import notices, phone_seats, seating
from referee.table.reading import why_not_shown
from referee.tracker import Candidates, Report, Role, Tracker, Unfinished

log = logging.getLogger("pegs.session")
RETRY_MS = 2000  # after the store failed, the settle time tries again this often (Done at once)


class StoreFailure(RuntimeError):
    """The store could not save: nothing was accepted (raised by a ``GameLog``)."""


class GameLog(Protocol):
    """What a session needs of the store (``referee.table.store.Store``)."""

    def create(self, events: list[Event]) -> int: ...

    def append(self, game_id: int, events: list[Event], first_seq: int, turn: dict[str, Any] | None = None) -> None: ...

    def save_turn(self, game_id: int, turn: dict[str, Any], durable: bool) -> None: ...

    def events(self, game_id: int) -> list[Event]: ...

    def turn(self, game_id: int) -> dict[str, Any] | None: ...


class Session:
    """One game at one table and the turn in play: the game, its tracker and its store."""

    def __init__(
        self, store: GameLog, game: Game, game_id: int, tracker: Tracker, saved: int, declared: str | None = None
    ) -> None:
        self.store = store
        self.game = game
        self.game_id = game_id
        self.tracker = tracker
        self.physical = tracker.physical
        self.declared = declared
        # (seat, move) a bot seat chose: when several moves fit the board, it is the one made
        self.intended: tuple[int, str] | None = None
        self.notice: str | None = None  # one sentence for the page about the last thing done
        # Done was pressed on a move still on its way: it is meant as it stands, so a half-made
        # split that breaks a rule by itself is called wrong now (until the next peg moves)
        self.insisted = False
        self._unfinished: tuple[Report, Unfinished | None] | None = None  # the last report's, worked out once
        self.store_error: str | None = None
        self._saved = saved  # events on disk
        self._retry_at = 0
        self._turn_dirty = False
        self._undurable = False
        self._seq = 0  # turn states saved: the newest is the one to resume from
        _auto_draw(self.game)
        self.report = self.tracker.report()

    # -- starting ---------------------------------------------------------------------

    @classmethod
    def new(
        cls,
        store: GameLog,
        rules: Ruleset,
        players: int = 4,
        *,
        mode: Mode = "table",
        seed: int | None = None,
        teams: list[list[int]] | None = None,
        pegs: dict[str, list[str]] | None = None,
        table: dict[str, Any] | None = None,
        settle_ms: int = 700,
        sensed: Iterable[str] | None = None,
        first: int | None = None,
    ) -> Session:
        """A new game, stored at once. ``sensed``: the holes the sensors see filled now;
        ``first``: the seat to play first (a lesson's learner)."""
        seed = random.randrange(2**31) if seed is None else seed
        game = Game(rules, players, mode=mode, seed=seed, teams=teams, pegs=pegs, table=table, first=first)
        game_id = store.create(game.events)
        return cls._open(store, game, game_id, len(game.events), None, settle_ms, sensed)

    @classmethod
    def resume(
        cls, store: GameLog, game_id: int, *, settle_ms: int = 700, sensed: Iterable[str] | None = None
    ) -> Session:
        """The stored game, with its turn as it was when the daemon stopped."""
        game = Game.from_events(store.events(game_id))
        return cls._open(store, game, game_id, len(game.events), store.turn(game_id), settle_ms, sensed)

    @classmethod
    def _open(
        cls,
        store: GameLog,
        game: Game,
        game_id: int,
        saved: int,
        turn: dict[str, Any] | None,
        settle_ms: int,
        sensed: Iterable[str] | None,
    ) -> Session:
        tracker, declared = _tracker_for(game, turn, settle_ms, sensed)
        session = cls(store, game, game_id, tracker, saved, declared)
        seq = turn.get("seq") if turn else None
        session._seq = seq if isinstance(seq, int) else 0
        return session

    # -- the board --------------------------------------------------------------------

    def sense(self, ms: int, kind: str, hole: str) -> Report:
        """A peg lifted from or placed in ``hole`` (a physical name, start holes numbered)."""
        if kind not in ("lift", "place"):
            raise ValueError(f"a sensor event is 'lift' or 'place', not {kind!r}")
        report = self.tracker.feed(SensorEvent(ms, kind, (self.physical.index(hole),)))  # type: ignore[arg-type]
        self._turn_dirty = True
        self.notice = None
        self.insisted = False
        return self._react(report)

    def tick(self, ms: int) -> Report:
        """Time passes: a move the board has shown for the settle time is committed."""
        if self.store_error is not None and ms < self._retry_at:
            return self._show(self.tracker.report())
        try:
            report = self._react(self.tracker.poll(ms))
            return self._take_intended(report) if self.tracker.settled(ms) else report
        except StoreFailure:
            self._retry_at = ms + RETRY_MS
            return self.report

    def done(self, ms: int) -> Report:
        """The Done button: commit the move the board shows and close its window."""
        if self.game.phase in ("doubt", "reveal", "penalty"):
            self.notice = notices.WAITING_FOR[self.game.phase]
            return self.report
        before = len(self.game.history)
        report = self._take_intended(self._react(self.tracker.feed(SensorEvent(ms, "done"))))
        accepted = len(self.game.history) != before
        # Done confirms a move just made; it never answers a question the table was asked.
        confirmed = self.tracker.confirm() if accepted or report.status == "synced" else False
        if accepted or report.status == "synced" and confirmed:
            self._turn_dirty = True
            last = self.game.history[-1][0] if self.game.history else None
            self.notice = None if last is None else f"{notices.whose(self.game, last)} move stands."
        elif report.status == "synced" and self.game.phase == "over":
            self.notice = "The game is over: nothing more to play. New game… on the page starts the next one."
        elif report.status == "synced":
            self.notice = notices.nothing_moved(self.game, self.declared, self.chosen)
        elif self.tracker.restoring:
            self.notice = notices.restoring(self.game)
        else:
            self._not_done(report)
        return self.report

    def _not_done(self, report: Report) -> None:
        """Done on a board that shows no move: what is missing, or what is wrong and why."""
        self.insisted = report.status == "moving"
        why = why_not_shown(self) if report.status in ("moving", "illegal") else None
        self.notice = notices.not_done(report.status, why, self.chosen is not None) or self.notice

    def unfinished(self) -> Unfinished | None:
        """The split the board shows half made (``Tracker.unfinished``), worked out once a report."""
        if self._unfinished is None or self._unfinished[0] is not self.report:
            self._unfinished = (self.report, self.tracker.unfinished(self.report))
        return self._unfinished[1]

    def _take_intended(self, report: Report) -> Report:
        """Several moves fit the board (two pegs lifted and two placed look alike to the
        sensors) and the seat to play is a bot whose chosen move is one of them: the person
        made the move the lights showed, so it is taken, as a tap on the page would take it."""
        intended = self.intended
        if report.status != "ambiguous" or intended is None or intended[0] != self.game.turn:
            return report
        if not any(move.text == intended[1] for move in report.candidates):
            return report
        self.resolve(intended[1])
        return self.report

    # -- the page's requests ----------------------------------------------------------

    def discard(self, seat: int, card: str | None) -> None:
        """The seat to play says it can't move: discard ``card`` (None at a real table)."""
        _check_turn(self.game, seat)
        self._change(lambda: self.game.discard(card if self.game.mode == "digital" else None))
        self.notice = f"{seating.name(self.game, seat)} could not move."

    def undo(self) -> None:
        """Take back the last turn; the board must then be put back before play goes on.
        With the referee's cards, a turn that has only drawn has not begun: the daemon drew
        for the player, so Undo takes back the turn before it (the card goes back on the
        stock and is drawn again), or has nothing to undo."""

        def undo() -> None:
            drawn_only = self.game.mode == "digital" and self.game.turn_so_far() == ["draw"]
            self.game.undo()
            if drawn_only:
                self.game.undo()

        self._change(undo)
        self.notice = f"Undone. {notices.restoring(self.game)}" if self.tracker.restoring else "Undone."

    def declare(self, seat: int, card: str) -> None:
        """The player to move names the card played: only its moves count now, and the
        last seat's move stands as it is."""
        _check_turn(self.game, seat)
        card, name = parse_card(card), seating.name(self.game, seat)
        if self.chosen is not None:
            raise GameError(f"{name} chose a move on the phone: take it back there first")
        if self.game.mode == "digital" and card not in self.game.hand(seat):
            raise ValueError(f"{name} does not hold {card}")
        if not _plays(self.game, card) and str(seat) not in (self.game.table.get("bots") or {}):
            raise GameError(notices.unplayable(self.game, card))
        self.tracker.confirm()
        self.declared = card
        self.notice = None
        self.tracker.restrict(_allowed(self.game, card))
        self._turn_dirty = True
        self._react(self.tracker.report())

    def resolve(self, text: str | None) -> None:
        """Someone taps the move that was made, of several that fit (None: "nothing moved")."""
        report = self.report
        if report.status != "ambiguous":
            raise ValueError("there is no ambiguous move to resolve now")
        if text is None:
            self.tracker.forget_colours()
            self._turn_dirty = True
            self._show(self.tracker.report())
            return
        chosen = [move for move in report.candidates if move.text == text]
        if not chosen:
            raise ValueError(f"{text!r} is not one of the moves that fit: {[m.text for m in report.candidates]}")
        amend = chosen[0] in report.amendments
        tracker_before = self.tracker.to_json()
        self.tracker.take(chosen[0], amend)
        try:
            self._accept(chosen[0], amend)
        except (GameError, ValueError):  # the game refused it: the board's question is still open
            self.tracker = Tracker.from_json(tracker_before, self.game.rules, settle_ms=self.tracker.settle_ms)
            raise

    def doubt(self, seat: int, doubt: bool) -> None:
        self._change(lambda: self.game.respond(seat, doubt))

    def reveal(self, card: str) -> None:
        self._change(lambda: self.game.reveal(card))

    def send_to_start(self, seat: int, hole: str) -> None:
        self._change(lambda: self.game.send_to_start(seat, hole))

    # -- a seat played from a phone (issue 36; referee/table/phone_seats.py) ---------------

    @property
    def chosen(self) -> str | None:
        """The move the seat to play chose on its phone (its notation), until it is made: the
        only move the tracker takes. Kept with the turn, so a restart finds it."""
        return self.tracker.turn.allowed.only

    def choose(self, seat: int, card: str, text: str) -> None:
        """A phone seat's choice: that card and that move, and no other, is the turn now. On
        disk (fsync) before this returns; refused, nothing changes."""
        _check_turn(self.game, seat)
        name = seating.name(self.game, seat)
        if phone_seats.played_by(self.game, seat) != phone_seats.PHONE:
            raise GameError(f"{name} is not played from the phone now: the table hands the seat back first")
        if self.chosen is not None:
            raise GameError(f"{name} has chosen already: take that move back first to choose another")
        self._check_board_still(f"{name}'s move can be sent")
        move = phone_seats.find(self.game, seat, parse_card(card), text, name)
        self._restrict_durably(move.card, move.text)

    def take_back(self, seat: int) -> None:
        """The phone takes its choice back, while nobody has begun to carry it out."""
        _check_turn(self.game, seat)
        if self.chosen is None:
            raise GameError(f"{seating.name(self.game, seat)} has no move sent to take back")
        self._check_board_still("the move can be taken back")
        self._restrict_durably(None, None)

    def hand_seat(self, seat: int, by: str) -> None:
        """Hand a phone seat to the phone, the board or a bot standing in, between moves."""
        if self.chosen is not None:
            raise GameError(
                f"{notices.whose(self.game, self.game.turn)} move is chosen: carry it out or take it back first"
            )
        self._check_board_still("the seat can be handed over")
        self._change(lambda: self.game.hand_seat(seat, by))
        self.notice = None

    def _check_board_still(self, what: str) -> None:
        """Nothing may change under hands carrying out a move: the board must show the game."""
        if self.tracker.restoring or self.report.status != "synced":
            raise GameError(f"pegs are being moved on the board: once they are down as the game stands, {what}")

    def _restrict_durably(self, card: str | None, only: str | None) -> None:
        """Narrow the turn to ``only`` (None: back to the hand) and store the turn, fsynced,
        before anything shows it; a failing disk puts everything back."""
        tracker_before, declared_before = self.tracker.to_json(), self.declared
        self.tracker.confirm()
        self.declared = card
        self.tracker.restrict(_allowed(self.game, card, only))
        turn, drawn = self._turn_state(), self.game.events[self._saved :]  # the turn's draw, if not yet stored
        try:
            if drawn:  # with it, or a restart would find the turn for another state of the game
                self.store.append(self.game_id, drawn, self._saved, turn)
            else:
                self.store.save_turn(self.game_id, turn, durable=True)
        except StoreFailure as error:
            self.tracker = Tracker.from_json(tracker_before, self.game.rules, settle_ms=self.tracker.settle_ms)
            self.declared = declared_before
            self.store_error = str(error)
            raise
        self._saved = len(self.game.events)
        self._turn_dirty = self._undurable = False
        self.notice = None
        self._show(self.tracker.report())

    def save_turn(self, durable: bool = False) -> None:
        """Store what the tracker knows of the turn so far (after each sensor event; the
        owner makes it durable now and then). A failure here loses no accepted move."""
        pending = self.turn_to_save(durable)
        if pending is not None:
            self.write_turn(pending, durable)

    def turn_to_save(self, durable: bool) -> dict[str, Any] | None:
        """The turn state to store now, if it changed (or is not yet durable, for ``durable``)."""
        if not self._turn_dirty and not (durable and self._undurable):
            return None
        self._turn_dirty, self._undurable = False, not durable
        return self._turn_state()

    def write_turn(self, turn: dict[str, Any], durable: bool) -> None:
        """Store a state from ``turn_to_save``; safe without the owner's lock (an older state
        never replaces a newer one)."""
        try:
            self.store.save_turn(self.game_id, turn, durable)
        except StoreFailure as error:
            self.store_error = str(error)
            self._turn_dirty = True

    def _turn_state(self) -> dict[str, Any]:
        self._seq += 1
        return {
            "tracker": self.tracker.to_json(),
            "declared": self.declared,
            "events": len(self.game.events),
            "seq": self._seq,
        }

    def reconcile(self, sensed: Iterable[str]) -> None:
        """Compare the game with the board afresh (after a wiring check, or a new game on a
        wooden board): what differs is a move on its way, or something to put back."""
        holes = [self.physical.index(name) for name in sensed]
        self.tracker = Tracker(
            self.game.position,
            self.game.rules,
            allowed=_allowed(self.game, self.declared, self.chosen),
            settle_ms=self.tracker.settle_ms,
            board=self.physical.arrange(self.game.position, holes),
        )
        self.tracker.feed(SensorEvent(0, "snapshot", tuple(holes)))
        self._turn_dirty = True
        self._show(self.tracker.report())

    # -- accepting --------------------------------------------------------------------

    def _react(self, report: Report) -> Report:
        if report.committed and self.game.phase in ("doubt", "reveal", "penalty"):
            report.committed = False  # the move already stands, waiting for the opponents' doubts
        if report.committed and self._needs_declaration():
            self.tracker.retract()
            report.committed = False
            self.notice = "Bluffing Joker: declare the card you played on the page before the move counts."
        if report.committed and report.move is not None and self._which_card_unsaid(report.move):
            self.tracker.retract()
            report.committed = False
        if report.committed and report.move is not None:
            self._accept(report.move, report.amend)
            return self.report
        return self._show(report)

    def _which_card_unsaid(self, move: Move) -> bool:
        """The referee's cards, none tapped, and cards of several ranks in the hand make the
        move on the board: which one leaves the hand is the player's choice, so it asks."""
        game = self.game
        if game.mode != "digital" or self.declared is not None or _is_free(self.game, move):
            return False
        ranks = _cards_making(game, move)
        if len(ranks) < 2:
            return False
        self.notice = notices.which_card(game, ranks)
        return True

    def _needs_declaration(self) -> bool:
        return self.game.rules.bluffing and self.game.mode == "table" and self.declared is None

    def _accept(self, move: Move, amend: bool) -> None:
        def play() -> None:
            if amend:
                self.game.undo()  # back to before that turn's draw: draw again, then the amended move
                _auto_draw(self.game)
            free = _is_free(self.game, move)
            card = move.card if self.game.mode == "digital" or free else None  # a free come-out names its card
            if card is None and not self.game.rules.bluffing and self.declared == move.card:
                card = self.declared  # a card declared at a real table is recorded: the review judges its move
            declared = (self.declared or move.card) if self.game.rules.bluffing else None
            self.game.play(card, move, free=free, declared=declared)

        try:
            self._change(play)
        except StoreFailure:
            self.tracker.retract()  # not saved, so not taken: the next "done" or the settle time tries again
            raise
        log.info("move", extra={"game": self.game_id, "move": move.text, "amend": amend})

    def _change(self, action: Callable[[], None]) -> None:
        """Do something to the game, follow it on the board, and store both: all or nothing.
        A refused action changes nothing at all, in memory or on disk, not even the notice:
        the game goes back to its checkpoint (its events, hands and phase, a digital turn's
        draw not yet stored included), however far the action got."""
        checkpoint = self.game.checkpoint()
        tracker_before, declared_before, notice_before = self.tracker.to_json(), self.declared, self.notice
        try:
            action()
        except BaseException:
            self.game.rollback(checkpoint)
            raise
        try:
            self.notice = None
            self.declared = None
            _auto_draw(self.game)
            self._follow_game()
            new = self.game.events[self._saved :]
            self.store.append(self.game_id, new, self._saved, self._turn_state())
        except BaseException as error:
            # Not on disk, so not accepted: back to exactly where it was (the store holds that).
            self.game.rollback(checkpoint)
            self.tracker = Tracker.from_json(tracker_before, self.game.rules, settle_ms=self.tracker.settle_ms)
            self.declared = declared_before
            self.notice = notice_before
            if not isinstance(error, StoreFailure):
                raise
            self.store_error = str(error)
            self.notice = f"Not saved, so not accepted: {error}. Fix the disk and make the move again."
            self.report = self.tracker.report()
            log.error("store failed", extra={"game": self.game_id, "error": str(error)})
            raise
        self._saved = len(self.game.events)
        self._turn_dirty = False
        self.store_error = None
        self.insisted = False
        self._show(self.tracker.report())

    def _follow_game(self) -> None:
        """After the game changed: the next turn, or (undo, penalty, a caught bluff) the
        board must first be put back as the game now stands."""
        game, tracker = self.game, self.tracker
        if game.phase in ("doubt", "reveal"):
            return  # the board shows the declared move while the opponents doubt
        allowed = _allowed(game, self.declared)
        if game.position.occupancy == tracker.expected.occupancy:
            tracker.next_turn(game.position, allowed)
        else:
            tracker.restore(game.position, allowed)

    def _show(self, report: Report) -> Report:
        if self._hand_unplayed():
            report = replace(report, guidance=_without_destinations(report.guidance))
        self.report = report
        return report

    def _hand_unplayed(self) -> bool:
        """The referee's cards, none tapped yet: where a lifted peg may go would say which
        cards the hand holds (one lit hole: "an ace, and no 2, 3 or 5"), to everyone who sees
        the lights or the page. Nothing is lit for it until a card is played."""
        game = self.game
        return game.mode == "digital" and self.declared is None and game.phase == "play"


def _auto_draw(game: Game) -> None:
    """With the referee's cards, the draw is a formality the daemon does for the player."""
    while game.mode == "digital" and game.phase == "draw":
        game.draw()


def _plays(game: Game, card: str) -> bool:
    """Whether some legal move (a counting turn's free come-out too) uses ``card`` now."""
    return next(legal_moves(game.position, card, game.rules), None) is not None or bool(game.free_come_outs(card))


def _is_free(game: Game, move: Move) -> bool:
    """The counting turn's free come-out, not a come-out the card makes anyway."""
    if not game.free_come_out_due():
        return False
    try:
        parse_move(game.position, move.text, game.rules)  # only the moves from its hole
        return False
    except NotationError:
        return any(m.key == move.key for m in game.free_come_outs(move.card))


def _check_turn(game: Game, seat: int | None) -> None:
    if game.phase != "play":
        raise GameError(f"cannot play now: the game is in its {game.phase} phase")
    if seat is not None and seat != game.turn:
        raise PermissionError(f"it is {notices.whose(game, game.turn)} turn, not {notices.whose(game, seat)}")


def _cards_making(game: Game, move: Move) -> list[str]:
    """The ranks of the hand to play that make ``move``, each once."""
    return [
        card
        for card in dict.fromkeys(game.hand(game.turn))
        if any(other.key == move.key for other in legal_moves(game.position, card, game.rules))
    ]


def _allowed(game: Game, declared: str | None, only: str | None = None) -> Candidates:
    """The moves the tracker may accept: any card at a real table, the hand's otherwise;
    ``only``: the one move a phone chose."""
    if game.phase == "over":
        return Candidates(())
    free = game.phase == "play" and game.free_come_out_due()
    if declared is not None:
        return Candidates((declared,), free, only)
    if game.mode == "table":
        return Candidates(None, free)
    return Candidates(tuple(dict.fromkeys(game.hand(game.turn))), free)


def _tracker_for(
    game: Game, turn: dict[str, Any] | None, settle_ms: int, sensed: Iterable[str] | None
) -> tuple[Tracker, str | None]:
    """The tracker a game opens with: the one stored with its turn if it fits the game, else a
    new one; then what the sensors feel now (``sensed``: changed while the daemon was off)."""
    physical = PhysicalBoard(game.board)
    holes = [physical.index(name) for name in sensed] if sensed is not None else None
    tracker, declared = _stored_tracker(turn, game, settle_ms)
    if tracker is None:
        board = physical.arrange(game.position, holes or ())
        tracker = Tracker(game.position, game.rules, allowed=_allowed(game, None), settle_ms=settle_ms, board=board)
    if holes is not None:
        tracker.feed(SensorEvent(0, "snapshot", tuple(holes)))
    return tracker, declared


def _stored_tracker(turn: dict[str, Any] | None, game: Game, settle_ms: int) -> tuple[Tracker | None, str | None]:
    """The tracker stored with the turn, if it belongs to this game's position."""
    if not turn:
        return None, None
    try:
        tracker = Tracker.from_json(turn["tracker"], game.rules, settle_ms=settle_ms)
        declared = turn.get("declared")
    except (KeyError, TypeError, ValueError) as error:
        log.warning("stored turn not used", extra={"error": str(error)})
        return None, None
    if turn.get("events") not in (None, len(game.events)) or tracker.position != game.position:
        log.warning("stored turn is for another position: not used")
        return None, None
    return tracker, declared if isinstance(declared, str) else None


def _without_destinations(guidance: dict[str, Role]) -> dict[str, Role]:
    return {hole: role for hole, role in guidance.items() if role not in ("destination", "bump")}
