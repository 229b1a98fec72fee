"""The first lesson's steps about other colours and the way home: landing on an opponent and on
a partner, the in-spot (may or must turn home), going home, whose pegs you move and winning as a
team, and North Carolina's split that takes the last peg home. Made from the rule set's fields
(``home_entry``, ``movers``, ``split_into_partner``)."""

from __future__ import annotations

from referee.coach.lesson_sources import CARDS, ENDGAME, GENERAL, cites
from referee.coach.lesson_step import Seats, Step, moves
from referee.rulesets import Ruleset


def landing_on(seats: Seats, rules: Ruleset, victim: int) -> Step:
    """A 5 that lands on ``victim``'s peg: an opponent's goes back to start, a partner's on to its in-spot."""
    position = seats.position({seats.learner: [seats.hole(seats.learner, 12)], victim: [seats.hole(seats.learner, 17)]})
    passes = moves(position, "5", rules, lambda move: any(bump.seat == victim for bump in move.bumps))
    if victim == seats.opponent:
        return Step(
            "bump-opponent",
            "Landing on an opponent",
            f"Land exactly on an opponent's peg and it goes back to its start ({GENERAL}). Passing over a peg of "
            f"another colour does nothing to it ({GENERAL}).",
            position,
            "5",
            f"Play the 5: land on {seats.name(victim)}'s peg.",
            passes,
        )
    return Step(
        "bump-partner",
        "Landing on your partner",
        f"Land exactly on a partner's peg and it jumps ahead to its own in-spot, ready to go home ({GENERAL}). If "
        f"that partner already has a peg on its in-spot, landing on its peg is not allowed ({GENERAL}).",
        position,
        "5",
        f"Play the 5: land on {seats.name(victim)}'s peg and send it to its in-spot.",
        passes,
    )


def in_spot(seats: Seats, rules: Ruleset) -> Step | None:
    """A peg on its in-spot and a 6, which home has no room for (the rules page's own example):
    it goes on along the track, or, where a peg must turn home there, it cannot move."""
    if 6 not in rules.power("6").forward:
        return None
    learner, board = seats.learner, seats.board
    spot = board.in_spot(learner)
    position = seats.position({learner: [seats.hole(learner, 3), seats.hole(learner, 12)]})
    if rules.home_entry == "must":
        passes = moves(position, "6", rules, lambda move: move.steps[0].source != spot)
        teach = (
            "A peg may not go forward along the main track past its in-spot: there it must turn into its home, "
            "and when home has no room for the card's full count, that peg cannot move this turn "
            f"{cites(rules, 'home_entry')}."
        )
        task = "Play the 6: your peg on its in-spot must turn home, where 6 does not fit, so move your other peg."
    else:
        passes = moves(
            position, "6", rules, lambda move: move.steps[0].source == spot and board.is_track(move.steps[0].target)
        )
        teach = (
            f"At its in-spot a peg may turn into its home, or go on round the track {cites(rules, 'home_entry')}. "
            "A card's full count must always be used: a 6 does not fit into the five holes of home, so a peg on "
            f"its in-spot goes on along the track ({CARDS})."
        )
        task = "Play the 6 with your peg on its in-spot: home has no room for 6, so it goes on along the track."
    if not passes:
        return None
    return Step("in-spot", "At the in-spot", teach, position, "6", task, passes)


def home(seats: Seats, rules: Ruleset) -> Step:
    position = seats.position({seats.learner: [seats.hole(seats.learner, 1)]})
    deepest = seats.board.home(seats.learner, 5)
    passes = moves(position, "7", rules, lambda move: move.steps[-1].target == deepest)
    return Step(
        "home",
        "Going home",
        f"Going into home takes the exact count too ({CARDS}). A peg turns into home only moving forward: no "
        f"backing in, and pegs in home never move back ({ENDGAME}). The first one home goes all the way to the "
        "end, or the others get stuck behind it: the Kiss of Death (the rules page, Endgame; Common Errors).",
        position,
        "7",
        "Play the 7: 2 to your in-spot and 5 into home, all the way to the end.",
        passes,
    )


def partners_pegs(seats: Seats, rules: Ruleset) -> Step:
    left = seats.partner
    others = seats.partners[1:]
    pegs = {partner: [seats.hole(partner, 12)] for partner in seats.partners}
    if rules.movers == "team":
        pegs[seats.learner] = [seats.hole(seats.learner, 9)]
        whose = (
            f"You may move any peg of your team at any time, your partners' too {cites(rules, 'movers')}. "
            f"{seats.named(seats.partners)} {'is' if not others else 'are'} on your team."
        )
        task = f"Play the 3 with {seats.name(left)}'s peg."
    else:
        pegs[seats.learner] = seats.home(seats.learner)
        whose = f"When all five of your pegs are home, you use your turns to move the pegs of {seats.name(left)}, " + (
            f"your partner {cites(rules, 'movers')}."
            if not others
            else f"your left-hand partner, the next partner clockwise; once {seats.name(left)}'s are home too, "
            f"those of the next partner round the table who still has pegs to move: "
            f"{', then '.join(seats.name(seat) for seat in others)} {cites(rules, 'movers')}."
        )
        task = f"All your pegs are home. Play the 3 with {seats.name(left)}'s peg."
    position = seats.position(pegs)
    passes = moves(position, "3", rules, lambda move: move.before.colour_at(move.steps[0].source) == left)
    return Step(
        "partners-pegs",
        "Moving your partners' pegs",
        f"{whose} Your team wins together: the first team with every one of its pegs home wins ({ENDGAME}).",
        position,
        "3",
        task,
        passes,
    )


def split_into_partner(seats: Seats, rules: Ruleset) -> Step | None:
    """North Carolina rule 2: a split takes the last peg home and moves the partner's with the rest."""
    if not rules.split_into_partner or rules.movers == "team":
        return None
    learner, left = seats.learner, seats.partner
    last_home = seats.board.home(learner, 1)
    position = seats.position(
        {learner: [seats.hole(learner, 1), *seats.home(learner, range(2, 6))], left: [seats.hole(left, 12)]}
    )
    for card, power in rules.cards:
        split = power.split
        if split is None or split.any_peg or split.directions == "forward-backward":
            continue
        passes = moves(
            position,
            card,
            rules,
            lambda move: (
                len(move.steps) == 2
                and move.steps[0].target == last_home
                and move.before.colour_at(move.steps[1].source) == left
            ),
        )
        if passes:
            rest = split.total - 3
            return Step(
                "split-partner",
                "Home, and on with your partner's peg",
                "A split may take your last peg home and move your left-hand partner's peg with the rest "
                f"{cites(rules, 'split_into_partner')}.",
                position,
                card,
                f"Play the {card}: 3 to take your last peg home, {rest} with {seats.name(left)}'s peg.",
                passes,
            )
    return None
