"""How each event changes a game's state, checked: the only code that changes it.

A game (``referee.game``) checks what a player asks for and emits events; replaying a record
emits the same events. Both come here, so a record is checked exactly as the live actions
were, and undo is "replay all but the last turn". Kept apart from ``referee.game`` because
it is one idea, the meaning of each event, where the game is the actions that make them; the
Bluffing Joker's own events are ``referee.bluff``'s and the cards' ``referee.stock``'s.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from referee import bluff as bluffing
from referee import events as ev
from referee import stock
from referee.board import Board
from referee.cards import parse_card
from referee.events import Event
from referee.game_state import GameError, Mode, State
from referee.movegen import free_come_outs, parse_move
from referee.moves import Move
from referee.rulesets import Ruleset

SEATED_BY = re.compile(r"[a-z][a-z-]{0,23}")  # who a seat is handed to: "phone", "board", a bot's kind


def free_come_out_due(state: State, rules: Ruleset) -> bool:
    """Counting: after ``rules.counting - 1`` turns without moving, this turn may bring a
    peg out for any card (NC rule 9; Becker "on the fourth turn")."""
    counting = rules.counting
    return counting is not None and state.counts.get(state.position.turn, 0) >= counting - 1


def free_come_outs_now(state: State, card: str, rules: Ruleset) -> list[Move]:
    """The counting turn's free come-outs for ``card``, when one is due (else none)."""
    if not free_come_out_due(state, rules):
        return []
    return list(free_come_outs(state.position, card, rules))


@dataclass(frozen=True)
class StateChanges:
    """The events of one game (its board, rules and card mode) applied to its state."""

    board: Board
    rules: Ruleset
    mode: Mode

    def apply(self, state: State, event: Event, known: Move | None = None) -> None:
        """Change ``state`` by one event; ``known``: a move event's move, already checked."""
        match event:
            case ev.Turn():
                self._turn(state, event)
            case ev.Move():
                self._move(state, event, known)
            case ev.Bump():
                state.bumps.append(event)
            case ev.Play() | ev.Discard():
                self._card(state, event)
            case ev.Draw(seat=seat):
                _check_turn(state, seat)
                stock.apply_draw(state, seat, event, self.rules)
            case ev.Deal():
                stock.apply_deal(state, event)
            case ev.Reshuffle():
                stock.apply_reshuffle(state, event)
            case ev.Doubt() | ev.Reveal() | ev.Settle() | ev.PenaltyDue() | ev.Penalty():
                bluffing.apply(state, self.board, event)
            case ev.Extra(seat=seat):
                state.extra_turns.setdefault(seat, []).append(state.turn_number)
            case ev.Decline():
                state.acted = True
            case ev.Win(team=team):
                state.winner, state.phase = team, "over"
            case ev.Seated(seat=seat, by=by):
                if seat not in self.board.seats or not SEATED_BY.fullmatch(by):
                    raise GameError(f"seat {seat} cannot be handed to {by!r}: a seat in play, to a lower-case name")
                state.seated[seat] = by
            case ev.Start():
                pass
            case ev.Undo():
                raise GameError("an undo is replayed, not applied")

    def _turn(self, state: State, event: ev.Turn) -> None:
        seat = event.seat
        if seat not in self.board.seats:
            raise GameError(f"no seat {seat}")
        if event.extra:
            won = [n for n in state.extra_turns.get(seat, []) if n < state.turn_number]
            if not won:
                raise GameError(f"seat {seat} has no extra turn")
            state.extra_turns[seat].remove(won[0])
        state.position = state.position.with_turn(seat)
        state.turn_number = event.number
        state.extra_turn = event.extra
        state.acted = False
        state.phase = "draw" if self.mode == "digital" and self.rules.draw == "before" else "play"

    def _card(self, state: State, event: ev.Play | ev.Discard) -> None:
        """A ``play`` or a ``discard``: the card leaves the hand, and a declared one is doubted."""
        seat = event.seat
        _check_turn(state, seat)
        stock.take_card(state, self.mode, seat, event.card)
        state.acted = True
        if isinstance(event, ev.Discard):
            state.counts[seat] = state.counts.get(seat, 0) + 1
        elif event.declared is not None:
            bluffing.declare(state, self.board, event)

    def _move(self, state: State, event: ev.Move, known: Move | None) -> None:
        _check_turn(state, event.seat)
        if state.bluff is not None and state.bluff.doubter is None and state.bluff.doubters:
            raise GameError("the opponents have not answered the declaration yet")
        if event.free:
            card = parse_card(event.text.split(" ", 1)[0])
            matches = [m for m in free_come_outs_now(state, card, self.rules) if m.text == event.text]
            if not matches:
                raise GameError(f"{event.text!r} is not a free come-out now")
            move = matches[0]
        elif known is not None and known.text == event.text and known.before == state.position:
            move = known
        else:
            move = parse_move(state.position, event.text, self.rules)
        state.position = move.result
        state.made.append(move)
        state.counts[event.seat] = 0
        state.phase = "play"


def _check_turn(state: State, seat: int) -> None:
    if seat != state.position.turn:
        raise GameError(f"it is seat {state.position.turn}'s turn, not seat {seat}'s")
