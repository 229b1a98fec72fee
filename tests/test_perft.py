"""Perft-style fixtures (tests/data/perft.json): position + card + rules -> distinct results.

Like chess perft counts, these pin the generator down on whole positions; each count was
checked against the replay-everything reference generator when it was recorded.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from referee import Position, Ruleset, legal_moves

CASES: list[dict[str, Any]] = json.loads((Path(__file__).parent / "data" / "perft.json").read_text())["cases"]


@pytest.mark.parametrize("case", CASES, ids=[f"{c['note']}-{c['rules']}-{c['card']}" for c in CASES])
def test_perft_count(case: dict[str, Any]) -> None:
    position = Position.from_json(case["position"])
    moves = list(legal_moves(position, case["card"], Ruleset.preset(case["rules"])))
    assert len(moves) == case["count"]
    assert len({move.result for move in moves}) == case["count"]
