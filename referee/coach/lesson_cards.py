"""The first lesson's steps about what the cards do: coming out, the picture cards and the ace
on the track, the number cards, the 8, each split, swap and move back a card has in this rule
set, and the joker. Each step's words are made from the card powers (``Ruleset.cards``), so a
house-rules file changes only the steps of the cards it changes."""

from __future__ import annotations

from referee.board import Board
from referee.cards import JOKER
from referee.coach.lesson_sources import CARDS, GENERAL, cites
from referee.coach.lesson_step import Seats, Step, and_list, card_list, moves, the_card, whose
from referee.moves import Move
from referee.rulesets import CardPower, Ruleset

NUMBER_CARDS = ("2", "3", "4", "5", "6", "7", "9", "10")


def come_out_cards(rules: Ruleset) -> list[str]:
    return [card for card, power in rules.cards if power.come_out]


def come_out(seats: Seats, rules: Ruleset) -> Step:
    cards = come_out_cards(rules)
    card = cards[0]
    position = seats.position({})
    start = seats.board.start(seats.learner)
    passes = moves(position, card, rules, lambda move: move.steps[0].source == start)
    out = f"{card_list(cards).capitalize()} brings a peg out of your start onto your own come-out hole"
    teach = [f"{out} {cites(rules, 'come out')}."]
    if rules.jokers_for(seats.board.players) and rules.power(JOKER).joker:
        teach.append(f"The joker brings one out too, onto another colour's peg: a later step shows it ({CARDS}).")
    if rules.counting:
        teach.append(f"Counting brings one out free: the next step says when {cites(rules, 'counting')}.")
    teach.append(f"No peg ever goes into another colour's start or home ({GENERAL}).")
    return Step(
        "come-out",
        "Coming out",
        " ".join(teach),
        position,
        card,
        f"Play {the_card(card)}: bring a peg out of your start onto your come-out hole.",
        passes,
    )


def track(seats: Seats, rules: Ruleset) -> Step | None:
    """What the cards that come out do on the track: the ace and the pictures (the face cards)."""
    cards = [card for card in come_out_cards(rules) if rules.power(card).forward]
    if not cards:
        return None
    card = next((card for card in cards if card != "A"), cards[0])
    position = seats.position({seats.learner: [seats.hole(seats.learner, 9)]})
    passes = moves(position, card, rules, lambda move: seats.board.is_track(move.steps[0].source))
    if not passes:
        return None
    groups: dict[tuple[int, ...], list[str]] = {}
    for each in cards:
        groups.setdefault(rules.power(each).forward, []).append(the_card(each))
    said = and_list([f"{_counts(counts)} forward with {and_list(named, 'or')}" for counts, named in groups.items()])
    return Step(
        "track",
        "The ace and the pictures on the track",
        f"Out on the track, a peg moves {said} {cites(rules, *(f'card {card}' for card in cards))}.",
        position,
        card,
        f"Play {the_card(card)}: move your peg along the track, not a new one out.",
        passes,
    )


def _counts(counts: tuple[int, ...]) -> str:
    """ "1", "1 or 11"."""
    return " or ".join(str(count) for count in counts)


def forward(seats: Seats, rules: Ruleset) -> Step | None:
    cards = [card for card in NUMBER_CARDS if int(card) in rules.power(card).forward]
    if "5" not in cards:
        return None
    position = seats.position({seats.learner: [seats.hole(seats.learner, 9), seats.hole(seats.learner, 13)]})
    passes = moves(position, "5", rules)
    if not passes:
        return None
    return Step(
        "forward",
        "Moving forward",
        f"{card_list(cards).capitalize()} moves {whose(rules)} forward that many holes, the full count, no less "
        f"({CARDS}). A peg may never land on or pass over a peg of "
        f"its own colour ({GENERAL}).",
        position,
        "5",
        "Play the 5. One of your pegs can't use it: it would pass your other peg.",
        passes,
    )


def eight_back(seats: Seats, rules: Ruleset) -> Step | None:
    if 8 not in rules.power("8").backward:
        return None
    position = seats.position({seats.learner: [seats.hole(seats.learner, 11)]})
    in_spot = seats.board.in_spot(seats.learner)
    passes = moves(position, "8", rules, lambda move: move.steps[0].target == in_spot)
    return Step(
        "eight-back",
        "The 8 goes backwards",
        f"An 8 moves a peg 8 holes backwards {cites(rules, 'card 8')}. That is why, after coming out, it is "
        "good to move 1, 2 or 3 forward: an 8 then takes the peg back to or past its in-spot, ready to go "
        "home (the rules page, Notes on Strategy).",
        position,
        "8",
        "Your peg is 3 past its come-out hole. Play the 8: take it back to your in-spot.",
        passes,
    )


def special(seats: Seats, rules: Ruleset, card: str, power: CardPower) -> list[Step]:
    """A step for each thing a card does beyond moving one peg forward: a split, a swap, a move back."""
    steps = (
        _split_step(seats, rules, card, power),
        _swap_step(seats, rules, card, power),
        _back_step(seats, rules, card, power),
    )
    return [step for step in steps if step is not None]


def _split_step(seats: Seats, rules: Ruleset, card: str, power: CardPower) -> Step | None:
    """Two of the learner's pegs to share the count between, when the card splits; any two
    pegs, an opponent's too, when the split may move any peg."""
    split = power.split
    if split is None:
        return None
    learner, opponent = seats.learner, seats.opponent
    if split.any_peg:
        position = seats.position({learner: [seats.hole(learner, 10)], opponent: [seats.hole(opponent, 12)]})
        passes = moves(position, card, rules, lambda move: _moved_unbumped(move, opponent))
        task = f"Play {the_card(card)} and split it between your peg and {seats.name(opponent)}'s."
    else:
        position = seats.position({learner: [seats.hole(learner, 10), seats.hole(opponent, 2)]})
        passes = moves(position, card, rules, lambda move: len(move.steps) == 2 and not move.steps[0].swap)
        task = f"Play {the_card(card)} and split it between your two pegs."
    if not passes:
        return None
    how = {
        "forward": "both forward",
        "forward-backward": "one forward and the other backward",
        "any": "each part forward or backward",
    }[split.directions]
    must = "must be split" if split.required else "may be split"
    return Step(
        f"split-{card}",
        f"Splitting the {card}",
        f"The {card} {must} between {_split_pegs(rules, split.any_peg)}, {how}; the two parts add up to "
        f"{split.total} {cites(rules, f'card {card}', *(['movers'] if rules.movers == 'team' else []))}."
        + (" You may not move one peg the whole count." if split.required else ""),
        position,
        card,
        task,
        passes,
    )


def _split_pegs(rules: Ruleset, any_peg: bool) -> str:
    if any_peg:
        return "any two pegs on the board, your partners' and your opponents' too (an opponent's only along the main track)"
    return "two different pegs of your team" if rules.movers == "team" else "two of your pegs"


def _moved_unbumped(move: Move, seat: int) -> bool:
    """A split part moved ``seat``'s peg (to another hole, not back to its start)."""
    before, after = move.before, move.result
    return before.on_board(seat) != after.on_board(seat) and before.in_start(seat) == after.in_start(seat)


def _swap_step(seats: Seats, rules: Ruleset, card: str, power: CardPower) -> Step | None:
    """The learner's peg and an opponent's on the main track, when the card swaps."""
    if not power.swap:
        return None
    position = seats.position(
        {seats.learner: [seats.hole(seats.learner, 12)], seats.opponent: [seats.hole(seats.opponent, 15)]}
    )
    passes = moves(position, card, rules, lambda move: move.steps[0].swap)
    if not passes:
        return None
    return Step(
        f"swap-{card}",
        f"{the_card(card).capitalize()} swaps",
        f"The {card} may swap the places of any two pegs of different colours on the main track, whoever's they "
        f"are; nobody is sent anywhere {cites(rules, f'card {card}')}.",
        position,
        card,
        f"Play {the_card(card)}: swap your peg with {seats.name(seats.opponent)}'s.",
        passes,
    )


def _back_step(seats: Seats, rules: Ruleset, card: str, power: CardPower) -> Step | None:
    """A peg to move back, when a card other than the 8 (which has its own step) also goes back."""
    backward = [n for n in power.backward if card != "8"]
    if not backward:
        return None
    position = seats.position({seats.learner: [seats.hole(seats.learner, 12)]})
    passes = moves(position, card, rules, lambda move: _went_back(seats.board, move))
    if not passes:
        return None
    holes = " or ".join(str(n) for n in backward)
    return Step(
        f"back-{card}",
        f"{the_card(card).capitalize()} can go back",
        f"{card_list([card]).capitalize()} may also move a peg {holes} hole{'s' if backward != [1] else ''} "
        f"backwards {cites(rules, f'card {card}')}.",
        position,
        card,
        f"Play {the_card(card)} and move your peg backwards.",
        passes,
    )


def _went_back(board: Board, move: Move) -> bool:
    step = move.steps[0]
    return (
        board.is_track(step.source)
        and board.is_track(step.target)
        and (step.source - step.target) % board.track_length < 18
    )


def joker(seats: Seats, rules: Ruleset) -> Step | None:
    if not rules.jokers_for(seats.board.players) or not rules.power(JOKER).joker:
        return None
    opponent = seats.opponent
    position = seats.position({opponent: [seats.hole(opponent, 12)]})
    start = seats.board.start(seats.learner)
    passes = moves(
        position,
        JOKER,
        rules,
        lambda move: move.steps[0].source == start and any(bump.seat == opponent for bump in move.bumps),
    )
    if not passes:
        return None
    return Step(
        "joker",
        "The joker",
        _joker_words(rules),
        position,
        JOKER,
        f"Play the joker: jump a peg from your start onto {seats.name(opponent)}'s peg.",
        passes,
    )


def _joker_words(rules: Ruleset) -> str:
    moved = whose(rules)
    if rules.joker_from == "team-start-first":
        source = (
            f"A joker moves a peg of your team onto any other colour's peg on the main track, never to an empty "
            f"hole. While your team has pegs in start, it must be one of those; only when all your team's starts "
            f"are empty may it be a peg from the main track {cites(rules, 'joker_from')}."
        )
    else:
        source = (
            f"A joker moves {moved}, from start or from the main track, onto any other colour's peg on the main "
            f"track, never to an empty hole ({CARDS})."
        )
    return (
        f"{source} The peg it lands on goes back to its start, or on to its in-spot if it is a partner's. "
        "Nobody is forced to play a joker: keep it for a double play if you can (the rules page, Basic Game; "
        "Common Errors)."
    )
