"""Random legal moves, carried out by random plausible hands: the tracker must see them.

The issue: the tracker "ends in `move` with exactly that result, or in `ambiguous`
including it, but only where occupancy truly cannot tell".
"""

from __future__ import annotations

import random

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from referee import CARDS, PRESETS, Position, Ruleset, legal_moves
from referee.physical import PhysicalBoard, by_hand
from referee.tracker import Tracker
from tests.strategies import positions


def signature(physical: PhysicalBoard, position: Position) -> tuple[int, tuple[int, ...]]:
    mask = physical.fill(position)
    return mask & physical.mask(range(position.board.board_holes)), physical.start_counts(mask)


@settings(max_examples=120)
@given(
    positions(players=st.sampled_from([2, 4, 6, 8, 10])),
    st.sampled_from(CARDS),
    st.sampled_from(sorted(PRESETS)),
    st.booleans(),
    st.randoms(use_true_random=False),
)
def test_tracker_sees_every_legal_move(
    position: Position, card: str, rules_name: str, declared: bool, rng: random.Random
) -> None:
    rules = Ruleset.preset(rules_name)
    moves = list(legal_moves(position, card, rules))
    assume(moves)
    move = rng.choice(moves)
    events = by_hand(position, move, random.Random(rng.random()), bounces=2)
    tracker = Tracker(position, rules, card=card if declared else None)
    for event in events:
        tracker.feed(event)
    report = tracker.poll(events[-1].ms + tracker.settle_ms)
    wanted = move.result.occupancy
    if report.status == "move":
        assert report.move is not None and report.move.result.occupancy == wanted
        assert report.committed
        return
    assert report.status == "ambiguous", report
    assert wanted in {candidate.result.occupancy for candidate in report.candidates}
    # Only where occupancy truly cannot tell: another legal result (or no move at all)
    # leaves exactly the same holes filled.
    physical = PhysicalBoard(position.board)
    cards = [card] if declared else list(CARDS)
    alike = {
        m.result.occupancy
        for c in cards
        for m in legal_moves(position, c, rules)
        if signature(physical, m.result) == signature(physical, move.result)
    }
    if signature(physical, position) == signature(physical, move.result):
        alike.add(position.occupancy)
    assert len(alike) >= 2


@settings(max_examples=60)
@given(
    positions(players=st.sampled_from([2, 4, 6, 8, 10])),
    st.sampled_from(CARDS),
    st.sampled_from(sorted(PRESETS)),
    st.randoms(use_true_random=False),
    st.integers(0, 30),
)
def test_a_stored_turn_judges_the_rest_of_the_move_alike(
    position: Position, card: str, rules_name: str, rng: random.Random, cut: int
) -> None:
    """The table-session issue: "Whatever was pending when the power went ... is exactly as
    pending after the restart". A tracker rebuilt from ``to_json`` at any point of a move
    (JSON text in between, as the store keeps it) judges every later event the same."""
    import json

    rules = Ruleset.preset(rules_name)
    moves = list(legal_moves(position, card, rules))
    assume(moves)
    events = by_hand(position, rng.choice(moves), random.Random(rng.random()), bounces=1)
    cut = min(cut, len(events))
    tracker = Tracker(position, rules)
    for event in events[:cut]:
        tracker.feed(event)
    again = Tracker.from_json(json.loads(json.dumps(tracker.to_json())), rules)
    for event in events[cut:]:
        first, second = tracker.feed(event), again.feed(event)
        assert (first.status, first.move, first.candidates, first.guidance) == (
            second.status,
            second.move,
            second.candidates,
            second.guidance,
        )
    end = events[-1].ms + tracker.settle_ms
    assert tracker.poll(end).status == again.poll(end).status
