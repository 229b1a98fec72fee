"""Property tests over random legal positions (hypothesis), for every preset and card.

The fast generator must agree exactly with the replay-everything reference in
``reference_movegen.py``; every result must be a valid position in which no peg left
home; every move's text must parse back to the same move.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee import CARDS, PRESETS, Position, Ruleset, legal_moves, parse_move
from tests.reference_movegen import reference_results
from tests.strategies import crowded_position, positions

rule_sets = st.sampled_from(sorted(PRESETS)).map(Ruleset.preset)
cards = st.sampled_from(CARDS)


@given(positions(), cards, rule_sets)
def test_fast_generator_agrees_with_the_reference(position: Position, card: str, rules: Ruleset) -> None:
    fast = [move.result.occupancy for move in legal_moves(position, card, rules)]
    assert len(fast) == len(set(fast)), "one move per distinct result"
    assert set(fast) == reference_results(position, card, rules)


@given(positions(), st.sampled_from(["7", "9", "10", "2", "JOKER", "A"]), rule_sets)
def test_results_are_valid_and_home_pegs_never_leave_home(position: Position, card: str, rules: Ruleset) -> None:
    board = position.board
    for move in legal_moves(position, card, rules):
        after = move.result
        assert Position.from_json(after.to_json()) == after  # five pegs a seat, no shared hole
        for seat in board.seats:  # home pegs only ever go deeper
            before = sorted((board.depth(h) for h in position.on_board(seat) if board.is_home(h)), reverse=True)
            later = sorted((board.depth(h) for h in after.on_board(seat) if board.is_home(h)), reverse=True)
            assert len(later) >= len(before) and all(a >= b for a, b in zip(later, before, strict=False))
        assert not any(board.is_home(bump.source) for bump in move.bumps)
        assert after.turn == position.turn


@given(positions(), cards, rule_sets, st.randoms(use_true_random=False))
def test_move_text_round_trips(position: Position, card: str, rules: Ruleset, random) -> None:  # type: ignore[no-untyped-def]
    moves = list(legal_moves(position, card, rules))
    for move in random.sample(moves, min(5, len(moves))):
        again = parse_move(position, move.text, rules)
        assert again.text == move.text
        assert again.result == move.result
        assert again.steps == move.steps


@pytest.mark.parametrize("players", [4, 6, 8, 10])
@pytest.mark.parametrize("seed", range(3))
def test_crowded_boards_agree_with_the_reference(players: int, seed: int) -> None:
    """Hypothesis finds small positions; the split combinations matter most on full ones."""
    position = crowded_position(players, 4 * players, seed, teams="opposite" if seed == 2 else "default")
    for name, card in [
        ("north-carolina", "10"),
        ("arizona", "9"),
        ("arizona", "7"),
        ("kilpatrick", "9"),
        ("north-carolina", "2"),
        ("arizona", "JOKER"),
        ("social-security", "9"),
    ]:
        rules = Ruleset.preset(name)
        fast = {move.result.occupancy for move in legal_moves(position, card, rules)}
        assert fast == reference_results(position, card, rules), (name, card)
