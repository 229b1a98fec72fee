"""Seeded whole games for every preset (hypothesis over seeds): a win, no broken invariant,
and a record that replays to the same game."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from referee import PRESETS, Position, Ruleset
from referee.cards import build_deck
from referee.coach.bots import BOTS
from referee.game import Game
from referee.record import dumps, loads


def check_invariants(game: Game, homes: dict[int, int]) -> None:
    position = game.position
    assert Position.from_json(position.to_json()) == position  # 5 pegs a seat, no shared hole
    for seat in game.board.seats:  # home pegs never leave home
        assert position.in_home(seat) >= homes.get(seat, 0)
        homes[seat] = position.in_home(seat)
    rules, players = game.rules, game.board.players
    cards = sorted(sum((game.hand(seat) for seat in game.board.seats), game.discards + game._state.stock))
    assert cards == sorted(build_deck(rules.decks_for(players), rules.jokers_for(players)))  # no card lost or made
    for seat in game.board.seats:
        assert len(game.hand(seat)) <= rules.hand_size + (seat == game.turn)


@settings(max_examples=24)
@given(
    seed=st.integers(0, 2**20),
    rules=st.sampled_from(sorted(PRESETS)),
    players=st.sampled_from([2, 4, 6, 8, 10]),
    bot=st.sampled_from(["greedy", "greedy", "random"]),
)
def test_seeded_games_reach_a_win_and_replay(seed: int, rules: str, players: int, bot: str) -> None:
    game = Game(Ruleset.preset(rules), players, seed=seed)
    player = BOTS[bot](random.Random(seed))
    homes: dict[int, int] = {}
    for _ in range(100_000):
        if game.phase == "over":
            break
        if game.phase == "play" and len(game.history) % 7 == 0:  # now and then, as the page asks
            assert sorted(game.movable_cards()) == sorted(game.playable())
        player.act(game)
        check_invariants(game, homes)
    assert game.winner is not None
    assert all(game.position.all_home(seat) for seat in game.winner)
    replayed = Game.from_events(loads(dumps(game.events)))
    assert replayed.position == game.position and replayed.winner == game.winner
    assert replayed.moves == game.moves
