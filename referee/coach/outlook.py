"""Who could send a moved peg back before the seat plays again: the threat a hint names.

    outlook(position, rules, move, deals)   # "{s1} would need a 10 or a face card to send this peg back; ..."

The judge counts such threats in its chance to win; this says one of them in words, with how
many of the sampled hands hold a card that does it.
"""

from __future__ import annotations

from collections.abc import Sequence

from referee.cards import CARDS, JOKER
from referee.coach.lookahead import Deal
from referee.movegen import Focus, legal_moves
from referee.moves import Move
from referee.position import Position
from referee.rulesets import Ruleset


def outlook(position: Position, rules: Ruleset, move: Move | None, deals: Sequence[Deal]) -> str:
    """Who could send the moved peg back next, with which cards, and how many hands hold one."""
    if move is None or not deals:
        return ""
    board, seat = position.board, position.turn
    team = board.team_of[seat]
    after = move.result
    ours = [step.target for step in move.steps if board.is_track(step.target) and after.colour_at(step.target) in team]
    if not ours:
        return ""
    hole = ours[-1]
    turn = board.next_seat(seat)
    while turn != seat:
        if turn not in team:
            facing = after.with_turn(turn)
            killers = [
                card
                for card in CARDS
                if card != JOKER
                and any(
                    any(bump.source == hole for bump in m.bumps)
                    for m in legal_moves(facing, card, rules, Focus.of([hole]))
                )
            ]
            if killers:
                holding = sum(1 for deal in deals if set(deal.hands.get(turn, ())) & set(killers))
                cards = _card_list(killers)
                return (
                    f"{{s{turn}}} would need {cards} to send this peg back; about {round(10 * holding / len(deals))} "
                    f"in 10 of the hands {{s{turn}}} may hold have one"
                )
        turn = board.next_seat(turn)
    return "no opponent can reach this peg with one card before your next turn"


def _card_list(cards: Sequence[str]) -> str:
    words = {"A": "an ace", "8": "an 8", "J": "a jack", "Q": "a queen", "K": "a king"}
    said = [words.get(card, f"a {card}") for card in cards]
    if {"10", "J", "Q", "K"} <= set(cards):
        said = [word for word, card in zip(said, cards, strict=True) if card not in ("J", "Q", "K")]
        said = [("a 10 or a face card" if word == "a 10" else word) for word in said]
    return said[0] if len(said) == 1 else ", ".join(said[:-1]) + " or " + said[-1]
