"""The reference judge itself (tests/reference_judge.py): the yardstick the teaching is
measured by (issue 31) must be right where the answer is plain."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.cards import build_deck
from referee.events import Deal, Start, Turn
from referee.game import Game
from referee.rulesets import Ruleset
from tests.reference_judge import Option, real_mistake, reference, sample_world, unseen_cards, within_noise

BASIC = Ruleset.preset("basic")
NEARLY_HOME = {
    "0": ("H0:5", "H0:4", "H0:3", "H0:2", "T0:0"),
    "1": ("H1:5", "H1:4", "H1:3", "H1:2", "T1:0"),
    "2": ("H2:5", "H2:4", "H2:3", "H2:2", "H2:1"),
    "3": ("H3:5", "H3:4", "H3:3", "H3:2", "H3:1"),
}


def end_game(hand: tuple[str, ...]) -> Game:
    """Seat 0 to play with ``hand``, each team one peg short of home (seat 0's and seat 1's
    last pegs 4 holes from it):
    the rules page, Endgame, "all its pegs must be in their respective home areas"; a peg on
    T0:0 goes home with a 4 by exact count (T0:0 to the in-spot T0:3 is 3, then H0:1)."""
    deck = build_deck(BASIC.decks_for(4), BASIC.jokers_for(4))
    for card in hand:
        deck.remove(card)
    others = {seat: tuple(deck[5 * seat : 5 * seat + 5]) for seat in (1, 2, 3)}
    start = Start(4, ((0, 2), (1, 3)), BASIC.to_mapping(), "digital", 7, 0, NEARLY_HOME, None)
    deal = Deal({0: hand, **others}, tuple(deck[15:]))
    game = Game.from_events([start, deal, Turn(0, 1, False)])
    game.draw()  # basic: draw first; the stock's top card joins the hand
    return game


def by_text(estimates: list, text: str):  # type: ignore[no-untyped-def, type-arg]
    return next(e for e in estimates if (e.move.text if e.move else f"discard {e.card}") == text)


def test_the_move_that_wins_at_once_is_judged_a_sure_win() -> None:
    game = end_game(("4", "2", "3", "5", "6"))
    estimates = reference(game, 20, random.Random(1))
    winning = by_text(estimates, "4 T0:0-H0:1")
    assert winning.mean == 1.0 and winning.se == 0.0 and winning.n == 20
    assert estimates[0] is winning


def test_walking_away_from_the_exact_count_is_a_real_mistake() -> None:
    """A 9 takes the last peg past its in-spot (the rules page, Basic Game: a peg "may take
    the branch into its safe home track" only on reaching its in-spot): a whole lap more,
    while the opponents need one 4."""
    game = end_game(("4", "9", "9", "9", "9"))
    estimates = reference(game, 40, random.Random(2))
    best, away = estimates[0], by_text(estimates, "9 T0:0-T0:9")
    assert best.move is not None and best.move.text == "4 T0:0-H0:1"
    assert real_mistake(best, away) and not within_noise(best, away)


def test_the_same_rng_gives_the_same_estimates() -> None:
    game = end_game(("2", "3", "5", "6", "7"))
    first = reference(game, 8, random.Random(5))
    again = reference(game, 8, random.Random(5))
    assert [(e.card, e.move, e.mean, e.outcomes) for e in first] == [
        (e.card, e.move, e.mean, e.outcomes) for e in again
    ]


def mid_game(seed: int, actions: int) -> Game:
    """A digital game some way in, played by a simple policy (reshuffles included)."""
    from tests.reference_judge import greedy_action

    game, rng = Game(BASIC, 4, seed=seed), random.Random(seed)
    for _ in range(actions):
        if game.phase == "over":
            break
        greedy_action(game, {}, rng)
    while game.phase not in ("play", "over"):
        greedy_action(game, {}, rng)
    return game


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10_000), actions=st.integers(0, 600), draw=st.randoms(use_true_random=False))
def test_a_sampled_deal_never_holds_a_card_the_seat_has_seen(seed: int, actions: int, draw: random.Random) -> None:
    """The hidden cards agree with every card seen: the deck's composition (the rules page,
    Players and Equipment: decks and jokers by the number of players) less the seat's hand
    and the played cards on the pile."""
    game = mid_game(seed, actions)
    if game.phase == "over":
        return
    seat = game.turn
    world = sample_world(game, seat, draw)
    dealt = Counter(card for hand in world.hands.values() for card in hand) + Counter(world.stock)
    assert dealt == unseen_cards(game, seat)
    deck = Counter(build_deck(BASIC.decks_for(4), BASIC.jokers_for(4)))
    assert dealt + Counter(game.hand(seat)) + Counter(game.discards) == deck
    assert {other: len(cards) for other, cards in world.hands.items()} == {
        other: len(game.hand(other)) for other in game.board.seats if other != seat
    }
    assert len(world.stock) == game.stock_size


def test_keeping_a_joker_is_an_option_only_where_the_rules_allow_it() -> None:
    """The rules page, Basic Game: "A player is never forced to play a joker"; but a card
    that moves must be played."""
    from tests.reference_judge import options_of

    game = end_game(("JOKER", "4", "2", "3", "5"))
    assert all(option.move is not None for option in options_of(game))
    assert Option("4", None) not in options_of(game)
