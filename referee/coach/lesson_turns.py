"""The first lesson's steps about the turn itself: drawing and playing in this rule set's order,
having to move when a card can, counting where the rule set has it, and Bluffing Joker's
cards played face down. Made from the rule set's fields (``draw``, ``hand_size``, ``counting``,
``bluffing``), so a house-rules file that changes one changes that step's words."""

from __future__ import annotations

from referee.coach.lesson_cards import come_out_cards
from referee.coach.lesson_sources import cites
from referee.coach.lesson_step import Seats, Step, moves, ordinal, the_card
from referee.rulesets import CardPower, Ruleset
from referee.words import card_word

PLAIN = ("3", "4", "2", "5", "6", "9", "10")  # the cards a turn step may use, the first that only moves forward


def plain_card(rules: Ruleset) -> str | None:
    """A card that does nothing but move one peg forward its number (a 3 in every preset)."""
    return next((card for card in PLAIN if rules.power(card) == CardPower(forward=(int(card),))), None)


def turn(seats: Seats, rules: Ruleset) -> Step | None:
    card = plain_card(rules)
    if card is None:
        return None
    position = seats.position({seats.learner: [seats.hole(seats.learner, 9)]})
    passes = moves(position, card, rules)
    if not passes:
        return None
    hand = rules.hand_size
    order = (
        f"At your turn you first draw one card from the stock, so you hold {hand + 1}, then play one of them and "
        "move as it says"
        if rules.draw == "before"
        else f"At your turn you first play one of your {hand} cards and move as it says, then draw one from the "
        f"stock to hold {hand} again"
    )
    return Step(
        "turn",
        "Your turn",
        f"{order} {cites(rules, 'draw', 'hand_size')}. If any card you hold, but a joker, can move a peg, you "
        "must play one that does, even if the move is bad for you; only when none can do you discard a card "
        f"without moving, and that ends your turn {cites(rules, 'bluffing', *(['movers'] if rules.movers == 'team' else []))}.",
        position,
        card,
        f"Play {the_card(card)} and move your peg: a card that can move must be played.",
        passes,
    )


def counting(seats: Seats, rules: Ruleset) -> Step | None:
    """Counting: nothing to play, the rule said on the starting position."""
    turn = rules.counting
    if turn is None:
        return None
    before = turn - 1
    out = (
        "a peg of your team out onto its come-out hole"
        if rules.movers == "team"
        else "a peg out onto your come-out hole"
    )
    return Step(
        "counting",
        "Counting",
        "If none of your cards can move a peg, for example when all your pegs are in start and you hold no card "
        "that comes out, you discard one: that is counting. After "
        f"{before} such turn{'s' if before > 1 else ''} in a row, on the {ordinal(turn)} you discard any card and "
        f"bring {out} free, even if you hold a card that comes out "
        f"{cites(rules, 'counting')}.",
        seats.position({}),
        None,
        "Nothing to play in this step: read it, then go on.",
        (),
    )


def bluff(seats: Seats, rules: Ruleset) -> Step | None:
    """Bluffing Joker: the learner's card laid face down and declared (by the lesson, for all to see)."""
    if not rules.bluffing:
        return None
    card = come_out_cards(rules)[0]
    position = seats.position({})
    start = seats.board.start(seats.learner)
    passes = moves(position, card, rules, lambda move: move.steps[0].source == start)
    cited = cites(rules, "bluffing")
    return Step(
        "bluff",
        "Bluffing",
        f"Every card is played face down and declared: you may declare it to be any card you like, and move as "
        f"that card moves {cited}. Before you move, your opponents may doubt it, the next one clockwise first, "
        f"then the others round the table {cited}. A doubt that catches a bluff lets the doubter send one of the "
        f"bluffer's pegs on the track back to start, and the bluffer does not move; a wrong doubt lets the player "
        f"move and send one of the doubter's pegs back to start {cited}. Whoever has no peg on the track to lose "
        f"gives the other an extra turn instead, to take or leave {cited}.",
        position,
        card,
        f"Your card is laid face down and declared {card_word(card)}: bring a peg out. Nobody doubts it in this step.",
        passes,
    )
