"""What a player's action asks of a game, checked before it emits anything: the phase it
needs, the card it names (from the hand, with the referee's cards) and the legal move meant.

Kept apart from ``referee.game`` because every action asks the same few questions of the
state, and a refusal says one clear line whichever action asked (an action is all or
nothing: ``Game`` checks first, then emits).
"""

from __future__ import annotations

from referee.cards import JOKER, parse_card
from referee.game_state import GameError, Mode, Phase, State
from referee.movegen import parse_move
from referee.moves import Move, NotationError
from referee.rulesets import Ruleset
from referee.state_changes import free_come_outs_now

VERBS: dict[str, str] = {
    "draw": "draw",
    "play": "play or discard",
    "doubt": "doubt",
    "reveal": "turn up the card",
    "penalty": "choose a peg",
    "over": "play",
}
WAITING: dict[str, str] = {
    "draw": "the player to draw a card",
    "play": "the player to play a card",
    "doubt": "the opponents to doubt or pass",
    "reveal": "the doubted card to be turned up",
    "penalty": "a peg to be chosen to go back to start",
    "over": "nothing: the game is over",
}


def need_phase(state: State, phase: Phase) -> None:
    """Refuse an action of ``phase`` while the game waits for something else."""
    if state.phase == "over":
        raise GameError(f"the game is over: team {list(state.winner or ())} won")
    if state.phase != phase:
        raise GameError(f"cannot {VERBS[phase]} now: waiting for {WAITING[state.phase]}")


def need_digital(mode: Mode, action: str) -> None:
    if mode != "digital":
        raise GameError(f"cannot {action} at a real table: the referee does not hold the cards")


def card_from_hand(state: State, mode: Mode, card: str | None) -> str | None:
    """The card named, read; with the referee's cards it must be in the hand of the seat to play."""
    if card is None:
        if mode == "digital":
            raise GameError("say which card is played")
        return None
    card = parse_card(card)
    seat = state.position.turn
    hand = state.hands.get(seat, [])
    if mode == "digital" and card not in hand:
        raise GameError(f"seat {seat} does not hold {card}: hand {list(hand)}")
    return card


def resolve(state: State, rules: Ruleset, mode: Mode, card: str | None, move: Move | str, free: bool) -> Move:
    """The legal move meant, for the card played (or for any card, undeclared)."""
    text = move if isinstance(move, str) else move.text
    if free:
        if card is None and mode == "digital":
            raise GameError("say which card is discarded for the free come-out")
        for candidate in free_come_outs_now(state, card or JOKER, rules):
            if candidate.text.split()[1:] == text.split()[-1:]:
                return candidate
        raise GameError(f"{text!r} is not a free come-out for seat {state.position.turn} now")
    if card is None:
        written = text.split()[0] if text.split() else ""
        if isinstance(move, Move):
            written = move.card
        card = parse_card(written)
    try:
        chosen = parse_move(state.position, text, rules)
    except NotationError as error:
        raise GameError(str(error)) from None
    if chosen.card != card:
        raise GameError(f"{text!r} is not a move of the card played ({card})")
    return chosen
