"""The expert: the hints' best few moves, each tried against sampled deals of the cards the
seat cannot see and the round of replies they lead to.

    ranked = look_ahead(position, rules, hints, hidden, rng)   # hints re-ranked, best first
    advise(position, rules, hints, hidden, rng)[0].why         # "... Looking ahead: Blue would need a 10 ..."

A candidate's value is the race standing after every other seat has replied and the seat has
made its own next move with the cards it keeps (averaged over the deals; the same deals for
every candidate, so they are compared on equal luck), less what that leaves exposed to the
round after, plus what the strategy notes say of it, which one round cannot see.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace

from referee.cards import CARDS, JOKER
from referee.coach.hints import RACE_WEIGHT, Hint
from referee.coach.lookahead import Deal, Hidden, play_round, standing
from referee.coach.race import gain
from referee.coach.strategic import exposure
from referee.movegen import Focus, legal_moves
from referee.position import Position
from referee.rulesets import Ruleset

CANDIDATES = 5  # the hints' best moves that are looked ahead
SAMPLES = 20  # deals of the hidden cards per decision (10 played measurably weaker)
NOTES_WEIGHT = 2.0  # holes of the race per point of the notes' judgement
LEFT_EXPOSED = 2.0  # how much of what the round leaves exposed to the next one counts (the strategic bot's reach)
WORK = 6000  # most replies looked at per decision: on a crowded 8-player board fewer deals are played


@dataclass(frozen=True)
class Judged:
    hint: Hint
    value: float


def notes_value(hint: Hint) -> float:
    """What the strategy notes say of a move beyond the race it wins, in holes of the race."""
    if hint.move is None:
        return hint.value * NOTES_WEIGHT
    board, seat = hint.move.before.board, hint.move.before.turn
    race = gain(board, set(board.team_of[seat]), hint.move) * RACE_WEIGHT
    return (hint.value - race) * NOTES_WEIGHT


def advise(position: Position, rules: Ruleset, hints: Sequence[Hint], hidden: Hidden, rng: random.Random) -> list[Hint]:
    """Hints for the seat to play with the expert's eyes: the best few re-ranked by the
    look-ahead (only among those that break no more notes than the first, so a hint never
    puts first what its own words call a mistake), the first saying what the look-ahead found."""
    if len(hints) < 2:
        return list(hints)
    fair = [hint for hint in hints[:CANDIDATES] if len(hint.breaks) <= len(hints[0].breaks)]
    judged = look_ahead(position, rules, fair, hidden, rng)
    said = judged[0].hint
    found = outlook(position, rules, said, hidden.sample(rng, SAMPLES))
    if found:
        said = replace(said, reason=f"{said.reason} Looking ahead: {found}.")
    rest = [entry.hint for entry in judged[1:]]
    return [said, *rest, *[hint for hint in hints if hint not in fair]]


def look_ahead(
    position: Position, rules: Ruleset, hints: Sequence[Hint], hidden: Hidden, rng: random.Random
) -> list[Judged]:
    """The first ``CANDIDATES`` hints re-ranked by the look-ahead, best first."""
    seat = position.turn
    team = position.board.team_of[seat]
    candidates = list(hints[:CANDIDATES])
    if len(candidates) < 2:
        return [Judged(hint, 0.0) for hint in candidates]
    deals = hidden.sample(rng, SAMPLES)
    replies_per_deal = max(1, len(position.board.seats) - 1) * len(candidates)
    deals = deals[: max(2, WORK // replies_per_deal)]
    judged = []
    for hint in candidates:
        after = hint.move.result if hint.move is not None else position
        total = 0.0
        for deal in deals:
            end = after
            for answer in play_round(after, deal, rules, seat, hidden.kept(hint.card)):
                if answer.move is not None:
                    end = answer.move.result
            total += standing(end, team) - LEFT_EXPOSED * exposure(end, set(team))
        judged.append(Judged(hint, total / len(deals) + notes_value(hint)))
    judged.sort(key=lambda entry: -entry.value)
    return judged


def outlook(position: Position, rules: Ruleset, hint: Hint, deals: Sequence[Deal]) -> str:
    """Who could send the moved peg back next, with which cards, and how many hands hold one."""
    move = hint.move
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
