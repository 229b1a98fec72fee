"""A whole game: cards, turns and the table procedures, kept as a record of events.

Every change to a game is an event, one class per kind (``referee.events``: start, deal,
turn, draw, play, move, bump, discard, doubt, penalty, win, ...). Actions check what the
player asks for, then *emit* events; ``referee.state_changes`` is the only code that changes state, so
replaying a record rebuilds the game exactly, and undo is "replay all but the last turn".

    >>> game = Game(Ruleset.preset("basic"), players=4, seed=7)
    >>> game.draw()  # basic: draw first (the card drawn), then play one of six cards
    '4'
    >>> game.hand(0)
    ['3', '6', '7', 'J', '7', '4']
    >>> [str(move) for move in game.playable()["J"]]  # only the jack brings a peg out
    ['J S0-T0:8']
    >>> game.play("J", game.playable()["J"][0])
    >>> game.turn, game.phase, [event.kind for event in game.events[-3:]]
    (1, 'draw', ['play', 'move', 'turn'])

Two kinds of card knowledge: in ``digital`` mode the referee deals and knows every hand;
in ``table`` mode the cards are real, players say which card they played (or nothing:
any card that explains the move is accepted) and must-play cannot be checked.

The game's own ideas live beside it: ``referee.game_state`` (the state the events build),
``referee.state_changes`` (what each event does to it, checked), ``referee.action_checks``
(what an action asks for, checked before it emits), ``referee.bluff`` (the Bluffing Joker's
doubts, reveal and penalty), ``referee.stock`` (the deal, the draw and the reshuffle) and
``referee.undo`` (how far undo may go back).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

from referee import bluff as bluffing
from referee import events as ev
from referee import holes, stock
from referee.action_checks import card_from_hand, need_digital, need_phase, resolve
from referee.board import Board
from referee.cards import CARDS, JOKER, parse_card
from referee.events import Event
from referee.game_start import arguments, start_event, start_of
from referee.game_state import MODES, Checkpoint, GameError, Mode, Phase, State
from referee.movegen import legal_moves, parse_move
from referee.moves import Move
from referee.position import Position, PositionError
from referee.rulesets import Ruleset
from referee.state_changes import StateChanges, free_come_out_due, free_come_outs_now
from referee.undo import NEW_INFORMATION, turn_so_far, undo_target

__all__ = ["MODES", "NEW_INFORMATION", "Checkpoint", "Event", "Game", "GameError", "Mode", "Phase", "seat_number"]

_Action = TypeVar("_Action", bound=Callable[..., Any])


def _atomic(action: _Action) -> _Action:
    """An action is all or nothing: every action checks what it is asked before it emits
    anything, and should one still fail part way, the game is put back exactly as it was."""

    @functools.wraps(action)
    def all_or_nothing(self: Game, *args: Any, **kwargs: Any) -> Any:
        checkpoint = self.checkpoint()
        try:
            return action(self, *args, **kwargs)
        except BaseException:
            self.rollback(checkpoint)
            raise

    return all_or_nothing  # type: ignore[return-value]


class Game:
    """One game of Pegs and Jokers under one rule set."""

    def __init__(
        self,
        rules: Ruleset,
        players: int = 4,
        *,
        mode: Mode = "digital",
        seed: int = 0,
        teams: list[list[int]] | None = None,
        first: int | None = None,
        pegs: dict[str, list[str]] | None = None,
        table: dict[str, Any] | None = None,
        _replaying: bool = False,
    ) -> None:
        if mode not in MODES:
            raise GameError(f"card mode must be 'digital' or 'table', not {mode!r}")
        self.rules = rules
        self.mode: Mode = mode
        self.seed = seed
        self.board = Board.for_players(players, teams)
        self._changes = StateChanges(self.board, rules, mode)
        self.first = self.board.seats[0] if first is None else first
        self.table = dict(table or {})  # how the table shows the game (seat names, colours): recorded, not ruled
        if self.first not in self.board.seats:
            raise GameError(f"first player {first} is not a seat in play")
        # A game may start from pegs already on the board (a game begun before the box was on).
        if isinstance(pegs, dict) and any(seat_number(key) is None for key in pegs):
            raise PositionError(
                f"'pegs' keys are seat numbers like \"1\" (no leading zero), not {sorted(map(str, pegs))}"
            )
        self._start = Position.from_json(
            {"players": players, "teams": teams, "turn": self.first, "pegs": {} if pegs is None else pegs}
        )
        self.generations = 0  # legal-move generations asked of this game (for benchmarks)
        self._legal_cache: dict[tuple[bytes, int, str], list[Move]] = {}
        self._known_move: Move | None = None
        self.events: list[Event] = []  # everything that happened, undo included
        self._effective: list[Event] = []  # what the state is built from
        self._state = self._fresh_state()
        if not _replaying:
            self._emit(
                start_event(self.board, rules, mode, seed, self.first, self._start if pegs else None, self.table)
            )
            if mode == "digital":
                self._emit(stock.first_deal(rules, players, self.board.seats, seed))
            self._begin_turn(self.first, extra=False)

    # -- reading the game -------------------------------------------------------------

    @property
    def position(self) -> Position:
        return self._state.position

    @property
    def turn(self) -> int:
        return self._state.position.turn

    @property
    def phase(self) -> Phase:
        return self._state.phase

    @property
    def winner(self) -> tuple[int, ...] | None:
        return self._state.winner

    @property
    def moves(self) -> list[str]:
        """Every accepted move so far, in notation."""
        return [text for _seat, text in self.history]

    @property
    def history(self) -> list[tuple[int, str]]:
        """(seat, move text) of every accepted move, undone ones left out."""
        return [(event.seat, event.text) for event in self._effective if isinstance(event, ev.Move)]

    @property
    def made(self) -> tuple[Move, ...]:
        """The accepted moves themselves (with the position each was made from), as ``history``."""
        return tuple(self._state.made)

    @property
    def bumps(self) -> list[ev.Bump]:
        return list(self._state.bumps)

    @property
    def turn_number(self) -> int:
        return self._state.turn_number

    def hand(self, seat: int) -> list[str]:
        return list(self._state.hands.get(seat, []))

    @property
    def stock_size(self) -> int:
        return len(self._state.stock)

    @property
    def discards(self) -> list[str]:
        return list(self._state.discards)

    def count(self, seat: int) -> int:
        """Consecutive turns this seat has discarded without moving (NC "counting")."""
        return self._state.counts.get(seat, 0)

    @property
    def doubter_to_answer(self) -> int | None:
        bluff = self._state.bluff
        return bluff.doubters[0] if bluff and self.phase == "doubt" else None

    @property
    def penalty(self) -> tuple[int, int] | None:
        """(chooser, victim) while a peg must be chosen to go back to start."""
        penalty = self._state.penalty
        return (penalty.chooser, penalty.victim) if penalty else None

    def legal(self, card: str) -> list[Move]:
        """Legal moves of the seat to play with ``card``, whether or not it holds one."""
        key = (self.position.occupancy, self.turn, card)
        if key not in self._legal_cache:
            if len(self._legal_cache) > 32:
                self._legal_cache.clear()
            self.generations += 1
            self._legal_cache[key] = list(legal_moves(self.position, card, self.rules))
        return list(self._legal_cache[key])

    def playable(self) -> dict[str, list[Move]]:
        """Digital mode: each card in the player's hand that moves, with its moves."""
        need_phase(self._state, "play")
        playable = {}
        for card in dict.fromkeys(self._state.hands.get(self.turn, [])):
            moves = self.legal(card)
            if moves:
                playable[card] = moves
        return playable

    def movable_cards(self) -> list[str]:
        """Digital mode: the cards in the player's hand that move a peg (found without
        listing their moves: the first legal move of each is enough)."""
        need_phase(self._state, "play")
        return [card for card in dict.fromkeys(self._state.hands.get(self.turn, [])) if self._moves_at_all(card)]

    def _moves_at_all(self, card: str) -> bool:
        key = (self.position.occupancy, self.turn, card)
        if key in self._legal_cache:
            return bool(self._legal_cache[key])
        return next(legal_moves(self.position, card, self.rules), None) is not None

    def free_come_out_due(self) -> bool:
        """Counting: after ``rules.counting - 1`` turns without moving, this turn may bring a
        peg out for any card (NC rule 9; Becker "on the fourth turn")."""
        return free_come_out_due(self._state, self.rules)

    def free_come_outs(self, card: str) -> list[Move]:
        return free_come_outs_now(self._state, card, self.rules)

    def must_move(self) -> bool:
        """Digital mode: whether a discard without moving is forbidden now. A joker is never
        forced (the rules page, Basic Game: "A player is never forced to play a joker")."""
        if self.mode == "table":
            return False
        hand = self._state.hands.get(self.turn, [])
        if any(self._moves_at_all(card) for card in set(hand) - {JOKER}):
            return True
        return bool(hand) and any(self.free_come_outs(card) for card in set(hand))

    def turn_so_far(self) -> list[str]:
        """The events of the turn being played, by name, since its ``turn`` event (undone
        ones left out): ``["draw"]`` when the referee's cards have only been drawn."""
        return turn_so_far(self._effective)

    def checkpoint(self) -> Checkpoint:
        """The game as it is now, to go back to with ``rollback``."""
        return Checkpoint(len(self.events), tuple(self._effective), self._state.copy(), self._known_move)

    def rollback(self, checkpoint: Checkpoint) -> None:
        """Back exactly to a ``checkpoint`` of this game: its record, its hands, its phase;
        whatever was done since (a refused action half done, a move the store could not
        save) is forgotten."""
        del self.events[checkpoint.events :]
        self._effective = list(checkpoint.effective)
        self._state = checkpoint.state.copy()
        self._known_move = checkpoint.known_move

    def explain(self, result: Position, card: str | None = None) -> list[Move]:
        """Every legal move (of ``card``, or of any card) that leads to ``result``."""
        cards = [parse_card(card)] if card else list(CARDS)
        found = [
            move
            for c in cards
            for move in legal_moves(self.position, c, self.rules)
            if move.result.occupancy == result.occupancy
        ]
        found += [move for c in cards for move in self.free_come_outs(c) if move.result.occupancy == result.occupancy]
        return found

    # -- actions ----------------------------------------------------------------------

    @_atomic
    def draw(self) -> str:
        """Digital mode: draw the top card of the stock (before playing, or after, per rules)."""
        need_digital(self.mode, "draw")
        need_phase(self._state, "draw")
        if not self._state.stock and not self._state.discards:
            raise GameError("no card to draw: the stock is empty and no card has been played to reshuffle")
        if not self._state.stock:
            self._emit(stock.reshuffle(self._state, self.seed))
        card = self._state.stock[-1]
        self._emit(ev.Draw(self.turn, card))
        if self.rules.draw == "after":
            self._end_turn()
        return card

    @_atomic
    def play(self, card: str | None, move: Move | str, *, declared: str | None = None, free: bool = False) -> None:
        """Play ``card`` and make ``move`` (a Move or its notation).

        ``free``: the counting turn's free come-out, ``card`` being any card discarded for it.
        ``declared``: Bluffing Joker, the card announced for the face-down ``card``.
        At a real table (``table`` mode) ``card`` may be None: any card that explains the
        move is accepted.
        """
        need_phase(self._state, "play")
        seat = self.turn
        card = card_from_hand(self._state, self.mode, card)
        if self.rules.bluffing and not free:
            declared = parse_card(declared) if declared else card
            if declared is None:
                raise GameError("Bluffing Joker: declare the card you play face down")
            chosen = resolve(self._state, self.rules, self.mode, declared, move, free=False)
            self._emit(ev.Play(seat, card, declared, chosen.text))
            return
        chosen = resolve(self._state, self.rules, self.mode, card, move, free)
        self._emit(ev.Play(seat, card, free=free))
        self._make_move(seat, chosen, free)
        self._after_action()

    @_atomic
    def discard(self, card: str | None = None) -> None:
        """Discard without moving: only when nothing (but a joker) moves (the rules page, Basic Game:
        "if you have no cards (except jokers) that enable you to move you may discard one card")."""
        need_phase(self._state, "play")
        card = card_from_hand(self._state, self.mode, card)
        if self.must_move():
            raise GameError(f"seat {self.turn} has a card that moves a peg and must play it")
        self._emit(ev.Discard(self.turn, card))
        self._after_action()

    @_atomic
    def respond(self, seat: int, doubt: bool) -> None:
        """Bluffing Joker: the next opponent clockwise doubts the declaration or lets it pass."""
        if type(doubt) is not bool:
            raise GameError(f"a doubt is true (doubt it) or false (let it pass), not {doubt!r}")
        need_phase(self._state, "doubt")
        if seat != self.doubter_to_answer:
            raise GameError(f"seat {self.doubter_to_answer} answers first, not seat {seat}")
        self._emit(ev.Doubt(seat, doubt))
        self._after_doubt()

    @_atomic
    def reveal(self, card: str) -> None:
        """Bluffing Joker at a real table: the doubted card, turned face up."""
        need_phase(self._state, "reveal")
        shown = parse_card(card)
        self._emit(ev.Reveal(self.turn, shown))
        self._after_doubt()

    @_atomic
    def send_to_start(self, seat: int, hole: str) -> None:
        """Bluffing Joker: the chooser sends one of the victim's track pegs back to start."""
        need_phase(self._state, "penalty")
        penalty = self._state.penalty
        assert penalty is not None
        if not isinstance(hole, str):
            raise GameError(f"a penalty names a track hole like T1:4, not {hole!r}")
        if seat != penalty.chooser:
            raise GameError(f"seat {penalty.chooser} chooses the peg, not seat {seat}")
        bluffing.penalty_hole(self.board, self.position, penalty, hole)
        self._emit(ev.Penalty(penalty.victim, hole, seat))
        self._after_action()

    @_atomic
    def decline_extra_turn(self) -> None:
        """An extra turn won by a doubt is an option (Bluffing Joker); decline it before acting."""
        if not self._state.extra_turn or self._state.acted:
            raise GameError("there is no extra turn to decline now")
        self._emit(ev.Decline(self.turn))
        self._end_turn()

    @_atomic
    def undo(self) -> None:
        """Take back the last turn: back to before its draw, its cards returned in order.

        Undo never goes back past new information: a deal, a reshuffle or a revealed
        bluff card. A turn not begun yet is skipped over to the one before it.
        """
        target = undo_target(self._effective)
        self.events.append(ev.Undo())
        dropped = self._effective[target + 1 :]
        self._rebuild(self._effective[: target + 1])
        for event in dropped:  # who plays a seat is the table's choice, not the turn's: it stays
            if isinstance(event, ev.Seated):
                self._effective.append(event)
                self._apply(event)

    @_atomic
    def hand_seat(self, seat: int, by: str) -> None:
        """The table hands ``seat`` to ``by`` from now on ("phone", "board" or a bot's kind)."""
        if self.phase == "over":
            raise GameError("the game is over: nobody plays a seat now")
        self._emit(ev.Seated(seat, by))

    def seated_by(self, seat: int) -> str | None:
        """Who the table last handed ``seat`` to (``hand_seat``), or None: as the game began."""
        return self._state.seated.get(seat)

    # -- replay -----------------------------------------------------------------------

    @classmethod
    def from_events(cls, events: Iterable[Event | Mapping[str, object]]) -> Game:
        """Rebuild a game from its record (its events, or their JSON, read here), checking
        every event as it is applied."""
        events = list(events)
        game = cls._set_up(start_of(events))
        for number, event in enumerate(events, 1):
            try:
                game.replay_event(ev.as_event(event))
            except (GameError, ValueError) as error:
                raise GameError(f"event {number} ({_kind(event)}): {error}") from None
        return game

    @classmethod
    def _set_up(cls, start: ev.Start) -> Game:
        """The game a start event sets up, before any event is applied."""
        try:
            return cls(**arguments(start), _replaying=True)
        except ValueError as error:
            raise GameError(f"bad start event: {error}") from None

    def replay_event(self, event: Event) -> None:
        """Apply one recorded event, checking it as the live action would have."""
        if isinstance(event, ev.Undo):
            self.undo()
        else:
            self._emit(event)

    def _rebuild(self, effective: list[Event]) -> None:
        self._effective = []
        self._state = self._fresh_state()
        for event in effective:
            self._effective.append(event)
            self._apply(event)

    # -- turn flow ----------------------------------------------------------------------

    def _begin_turn(self, seat: int, extra: bool) -> None:
        self._emit(ev.Turn(seat, self._state.turn_number + 1, extra))

    def _after_action(self) -> None:
        winner = self.position.winner()
        if winner:
            self._emit(ev.Win(tuple(winner)))
        elif self.mode == "digital" and self.rules.draw == "after":
            self._state.phase = "draw"
        else:
            self._end_turn()

    def _end_turn(self) -> None:
        seat, state = self.turn, self._state
        if any(won < state.turn_number for won in state.extra_turns.get(seat, [])):
            self._begin_turn(seat, extra=True)
        else:
            self._begin_turn(self.board.next_seat(seat), extra=False)

    def _after_doubt(self) -> None:
        """Bluffing Joker: "If no doubts are raised, the peg is moved"; a doubt decides who
        loses a peg, and a caught bluff ends the turn with no move."""
        state = self._state
        bluff = state.bluff
        if bluff is None or state.phase in ("doubt", "reveal"):
            return  # more opponents to answer, or the card still to be turned up
        truthful = bluffing.truthful(bluff, self.position, self.rules)
        if bluff.doubter is None or truthful:
            self._make_move(bluff.seat, parse_move(self.position, bluff.text, self.rules), free=False)
        self._emit(ev.Settle(bluff.seat))
        if bluff.doubter is None or self.position.winner():
            self._after_action()
            return
        penalty = bluffing.loser(bluff, truthful)
        if bluffing.on_track(self.board, self.position, penalty.victim):
            self._emit(ev.PenaltyDue(penalty.chooser, penalty.victim))
        else:  # "has no pegs out of start yet": the chooser may take an extra turn
            self._emit(ev.Extra(penalty.chooser))
            self._after_action()

    def _make_move(self, seat: int, move: Move, free: bool) -> None:
        self._known_move = move  # already checked: spare the state change parsing it again
        self._emit(ev.Move(seat, move.text, free))
        for bump in move.bumps:
            target = (
                holes.start_area(bump.seat) if self.board.is_start(bump.target) else self.board.hole_name(bump.target)
            )
            self._emit(ev.Bump(bump.seat, seat, self.board.hole_name(bump.source), target))

    # -- the only code that changes state -------------------------------------------------

    def _emit(self, event: Event) -> None:
        self._apply(event)
        self._effective.append(event)
        self.events.append(event)

    def _fresh_state(self) -> State:
        return State(position=self._start)

    def _apply(self, event: Event) -> None:
        """Change the state by one event (``referee.state_changes``); a move already checked
        as it was made is not parsed again."""
        known = None
        if isinstance(event, ev.Move):
            known, self._known_move = self._known_move, None
        self._changes.apply(self._state, event, known)


def _kind(event: Event | Mapping[str, object]) -> str:
    if not isinstance(event, Mapping):
        return event.kind
    kind = event.get("event")
    return kind if isinstance(kind, str) else "?"


def seat_number(key: object) -> int | None:
    """A seat number as a request or a stored game names it: an int, or its ASCII digits
    without a leading zero ("1", not "01", "+1", " 1" or an Arabic-Indic "١"); None otherwise."""
    if type(key) is int:
        return key
    if isinstance(key, str) and key.isascii() and key.isdigit() and (key == "0" or not key.startswith("0")):
        return int(key)
    return None
