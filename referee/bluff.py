"""The Bluffing Joker protocol (the rules page, Bluffing Joker): a card played face down with
a declared card, the opponents asked clockwise whether they doubt it, the card turned up,
and the penalty, a peg sent back to start by whoever the doubt proved right.

Kept apart from ``referee.game`` because it is one rule's own procedure, with its own
phases (doubt, reveal, penalty): the game emits the events, these functions say what
they mean and check them, for a live action and a replayed record alike.

The protocol's two pieces of state, ``Bluff`` and ``Penalty``, are the game state's
(``referee.game_state``), so that the state never imports the protocol that changes it.
"""

from __future__ import annotations

from referee import holes
from referee.board import Board
from referee.cards import parse_card
from referee.events import Bump, Doubt, Event, PenaltyDue, Play, Reveal, Settle
from referee.events import Penalty as SentBack
from referee.game_state import Bluff, GameError, Penalty, Phase, State
from referee.movegen import parse_move
from referee.moves import NotationError
from referee.position import Position
from referee.rulesets import Ruleset

# Bluff and Penalty are the state's (referee.game_state), named here for the protocol's readers.
__all__ = [
    "EVENTS",
    "Bluff",
    "Penalty",
    "answer",
    "apply",
    "clockwise",
    "declaration",
    "declare",
    "explains",
    "loser",
    "on_track",
    "penalty_hole",
    "send_back",
    "truthful",
]

EVENTS = (Doubt, Reveal, Settle, PenaltyDue, SentBack)  # the events ``apply`` applies


def apply(state: State, board: Board, event: Event) -> None:
    """Apply one of the protocol's ``EVENTS``, checking it."""
    match event:
        case Doubt():
            state.phase = answer(state.bluff, event, state.phase)
        case Reveal(card=card):
            if state.bluff is None or state.phase != "reveal":
                raise GameError("no doubted card to turn up")
            state.bluff.card = parse_card(card)
            state.phase = "play"
        case Settle():
            state.bluff = None
            state.phase = "play"
        case PenaltyDue(chooser=chooser, victim=victim):
            state.penalty = Penalty(chooser, victim)
            state.phase = "penalty"
        case SentBack():
            state.position, bump = send_back(board, state.position, state.penalty, event)
            state.bumps.append(bump)
            state.penalty = None
            state.phase = "play"


def declare(state: State, board: Board, event: Play) -> None:
    """A ``play`` event with a ``declared`` card: the opponents are asked."""
    state.bluff = declaration(board, event)
    state.phase = "doubt"


def declaration(board: Board, event: Play) -> Bluff:
    """The bluff a ``play`` event with a ``declared`` card opens: the opponents answer
    clockwise from the player, partners left out."""
    if event.declared is None or event.text is None:
        raise GameError("a card played face down is declared with its move")
    seat, declared = event.seat, parse_card(event.declared)
    team = board.team_of[seat]
    order = [other for other in clockwise(board, seat) if other not in team]
    return Bluff(seat, declared, event.card, event.text, order)


def answer(bluff: Bluff | None, event: Doubt, phase: Phase) -> Phase:
    """Record one opponent's ``doubt`` event (doubt it, or let it pass); the phase after it."""
    if bluff is None or not bluff.doubters or bluff.doubters[0] != event.seat:
        raise GameError("no doubt is asked of that seat now")
    bluff.doubters.pop(0)
    if event.doubt:
        bluff.doubter = event.seat
        bluff.doubters.clear()
        return "reveal" if bluff.card is None else "play"
    return "play" if not bluff.doubters else phase


def truthful(bluff: Bluff, position: Position, rules: Ruleset) -> bool:
    """The card was the one declared, or could have made the announced move: no bluff."""
    return bluff.card == bluff.declared or explains(position, rules, bluff.card, bluff.text)


def explains(position: Position, rules: Ruleset, card: str | None, text: str) -> bool:
    """The shown card could have made the announced move: then it was no bluff."""
    if card is None:
        return False
    try:
        return (
            parse_move(position, f"{card} {text.split(' ', 1)[1]}", rules).key == parse_move(position, text, rules).key
        )
    except (NotationError, IndexError):
        return False


def loser(bluff: Bluff, was_truthful: bool) -> Penalty:
    """Who chooses a peg to send back, and whose: the doubter was wrong, or the bluffer caught."""
    assert bluff.doubter is not None
    if was_truthful:
        return Penalty(bluff.seat, bluff.doubter)
    return Penalty(bluff.doubter, bluff.seat)


def on_track(board: Board, position: Position, seat: int) -> bool:
    """The seat has a peg on the track to lose ("has no pegs out of start yet": the chooser
    may take an extra turn instead)."""
    return any(board.is_track(hole) for hole in position.on_board(seat))


def penalty_hole(board: Board, position: Position, penalty: Penalty, hole: str) -> int:
    """The track hole of the victim's peg the chooser names; GameError if it is not one."""
    try:
        index = board.hole_index(hole)
    except ValueError as error:
        raise GameError(str(error)) from None
    if not board.is_track(index) or position.colour_at(index) != penalty.victim:
        raise GameError(f"{hole} does not hold a peg of seat {penalty.victim} on the track")
    return index


def send_back(board: Board, position: Position, penalty: Penalty | None, event: SentBack) -> tuple[Position, Bump]:
    """A ``penalty`` event applied: the position with the peg back in start, and the bump it makes."""
    if penalty is None or event.seat != penalty.victim or event.by != penalty.chooser:
        raise GameError("no such penalty is due")
    hole = penalty_hole(board, position, penalty, event.hole)
    occupancy = bytearray(position.occupancy)
    occupancy[hole] = 0
    bump = Bump(penalty.victim, penalty.chooser, event.hole, holes.start_area(penalty.victim), penalty=True)
    return position.with_occupancy(bytes(occupancy)), bump


def clockwise(board: Board, seat: int) -> list[int]:
    """The other seats in play, clockwise from ``seat``."""
    order, current = [], board.next_seat(seat)
    while current != seat:
        order.append(current)
        current = board.next_seat(current)
    return order
