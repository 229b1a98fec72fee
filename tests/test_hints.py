"""Hints that follow the notes they cite: one scenario per note of the rules page's "Notes on
Strategy" and "Common Errors", the club sheet's "Hints for good play" and Larry Hatcher's
variations; each position is one where the note clearly applies, and the top hint must follow
it (or, when it breaks one, say what outweighs it). Basic rules, 4 players, seat 0 to play,
partners 0 and 2 (the rules page: "two teams of alternating seats")."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.board import Board
from referee.cards import RANKS
from referee.coach.hints import Hint, rank
from referee.coach.notes import CLUB, ERRORS, HATCHER, NOTES, RACE, STRATEGY
from referee.movegen import legal_moves
from referee.position import Position
from referee.rulesets import Ruleset
from tests.strategies import positions

BASIC = Ruleset.preset("basic")
BOARD = Board.for_players(4)
CODE = re.compile(r"\b[THSC]\d+(:\d+)?\b")
SUMS = re.compile(r"\d+ holes? (nearer|closer) home|costs your team")


def _position(pegs: dict[int, list[str]], turn: int = 0) -> Position:
    full = {seat: pegs.get(seat, []) + ["S"] * (5 - len(pegs.get(seat, []))) for seat in range(4)}
    return Position.from_pegs(BOARD, turn, full)


def _top(pegs: dict[int, list[str]], hand: str) -> Hint:
    return rank(_position(pegs), BASIC, hand.split())[0]


def _text(hint: Hint) -> str:
    return hint.move.text if hint.move else f"discard {hint.card}"


def test_after_coming_out_move_one_to_three_forward_not_eight_back_to_the_corner() -> None:
    """Notes on Strategy: "8 spaces backward from the start takes you to the corner, which is a
    risky position ... So after coming out of Start it is good to begin by moving 1, 2 or 3
    spaces forwards." The issue's case: peg just out, hand 8 3 5 6 4 9."""
    top = _top({0: ["T0:8"]}, "8 3 5 6 4 9")
    assert _text(top) == "3 T0:8-T0:11" and top.note == STRATEGY
    assert "8 backwards" in top.why and "in-spot" in top.why
    eight = next(h for h in rank(_position({0: ["T0:8"]}), BASIC, ["8"]))
    assert "corner" in eight.why and "holes nearer" not in eight.why


def test_three_forward_is_the_best_hop() -> None:
    """Notes on Strategy: "Another good place to wait is 3 spaces forward from a peg's come-out.
    This is 10 away from opponent's in-spot and also within reach of its own in-spot by moving
    backward 8." The issue's case: hand 3 4 5 6 9 2 ran the new peg 9."""
    hints = rank(_position({0: ["T0:8"]}), BASIC, ["3", "4", "5", "6", "9", "2"])
    assert [_text(h) for h in hints[:2]] == ["3 T0:8-T0:11", "2 T0:8-T0:10"]


def test_keep_two_pegs_out_come_out_rather_than_run_a_lone_peg() -> None:
    """Common Errors: "Not having enough pegs on the board ... a minimum of 2 movable pegs per
    player on the board at all times." The issue's case: one peg out at T0:12, hand K 6 5 3 2 9."""
    top = _top({0: ["T0:12"]}, "K 6 5 3 2 9")
    assert _text(top) == "K S0-T0:8" and top.note == ERRORS and "two pegs out" in top.why
    lone = next(h for h in rank(_position({0: ["T0:12"]}), BASIC, ["K"]) if _text(h) == "K T0:12-T1:4")
    assert lone.breaks == ("two pegs out",)


def test_hold_the_joker_in_a_calm_middle_game() -> None:
    """Common Errors: "Playing a joker too soon. Hold it until you can get a double or triple
    play ... Don't be too eager to play it!" """
    pegs = {0: ["T0:14", "T1:5"], 1: ["T1:10", "T2:2"], 2: ["T2:12"], 3: ["T3:4", "T0:2"]}
    hints = rank(_position(pegs), BASIC, ["JOKER", "4", "5", "6", "9"])
    assert hints[0].card != "JOKER" and "joker" in hints[0].why
    assert all("joker" in h.breaks for h in hints if h.card == "JOKER")


def test_a_hand_whose_only_move_is_a_joker_keeps_it() -> None:
    """The rules page, Basic Game: "A player is never forced to play a joker: if you have no
    other move you may keep the joker and discard another card"; Common Errors: hold it."""
    hints = rank(_position({1: ["T1:10"]}), BASIC, ["JOKER", "5", "6", "2", "3"])
    assert hints[0].move is None and hints[0].card in ["5", "6", "2", "3"]
    assert hints[0].as_json({})["discard"] == hints[0].card and "keep" in hints[0].as_json({})["words"].lower()
    assert any(h.card == "JOKER" for h in hints[1:])


def test_club_sheet_keep_off_the_corners() -> None:
    """Hints for good play: "avoid, if possible, positioning your peg ... at any of the corners"
    (the corner T2:0 is 10 past Sky blue's come-out hole)."""
    top = _top({0: ["T1:13", "T2:14"]}, "5 4 6")
    assert _text(top) != "5 T1:13-T2:0"
    corner = next(h for h in rank(_position({0: ["T1:13", "T2:14"]}), BASIC, ["5"]) if _text(h) == "5 T1:13-T2:0")
    assert corner.note == CLUB and "corner" in corner.why


def test_club_sheet_keep_off_opponents_come_out_holes() -> None:
    """Hints for good play: avoid "the opponents COME OUT spot"."""
    hints = rank(_position({0: ["T1:5", "T2:14"]}), BASIC, ["3", "2", "4"])
    three = next(h for h in hints if _text(h) == "3 T1:5-T1:8")
    assert _text(hints[0]) != "3 T1:5-T1:8" and three.breaks == ("come-out",)
    assert three.note == CLUB and "come-out hole" in three.why


def test_club_sheet_keep_off_opponents_in_spots() -> None:
    """Hints for good play: avoid "the opponents IN SPOT"."""
    top = _top({0: ["T0:17", "T2:14"]}, "4 5 2")
    assert _text(top) != "4 T0:17-T1:3"
    four = next(h for h in rank(_position({0: ["T0:17", "T2:14"]}), BASIC, ["4"]) if _text(h) == "4 T0:17-T1:3")
    assert four.breaks == ("in-spot",) and "in-spot" in four.why


def test_hatcher_the_stretch_between_an_opponents_in_spot_and_come_out_is_safe() -> None:
    """Larry Hatcher: "the area between the opponents COME OUT and IN SPOT tends to be a safe area"."""
    top = _top({0: ["T1:0", "H0:5"]}, "4 9")
    assert _text(top) == "4 T1:0-T1:4" and top.note == HATCHER


def test_lurk_ten_short_of_a_partners_come_out_hole() -> None:
    """Notes on Strategy: "it is good to lurk 10 spaces short of partner's come-out hole"."""
    top = _top({0: ["T1:10", "T3:14"]}, "6 5 4")
    assert _text(top) == "6 T1:10-T1:16" and top.note == STRATEGY and "10 holes before a partner" in top.why


def test_lurk_ten_short_of_an_opponents_in_spot() -> None:
    """Notes on Strategy: lurk 10 spaces short of "opponent's in-spot"."""
    top = _top({0: ["T2:5", "T0:14"]}, "6 5 4")
    assert _text(top) == "6 T2:5-T2:11" and "opponent's in-spot" in top.why


def test_set_up_a_home_run_on_a_partners_come_out_hole() -> None:
    """Notes on Strategy: "position your 'runner' peg in teammate's come-out hole so that a peg
    coming out of START lands on your peg and sends it to its in-spot"."""
    top = _top({0: ["T2:2", "T0:14"]}, "6 5 4")
    assert _text(top) == "6 T2:2-T2:8" and "partner's come-out hole" in top.why


def test_watch_the_board_come_out_ahead_of_a_partners_runner() -> None:
    """Notes on Strategy: "When a player sees a runner approaching a start area, he should
    position a peg in the adjacent come-out hole to allow a home run." Green's runner is 10
    behind Red's come-out hole."""
    top = _top({0: ["T1:12", "T2:14"], 2: ["T3:16"]}, "K 5")
    assert _text(top) == "K S0-T0:8" and "partner's peg" in top.why


def test_put_a_teammate_in_a_scoring_position_rather_than_attack() -> None:
    """Common Errors: "Attacking an opponent instead of putting a teammate into a scoring
    position. An opponent sent to START is after all only two moves from his home entry space."
    Green's peg on T1:10, Sky blue's on T1:11: the 5 sends Green to its in-spot."""
    pegs = {0: ["T1:5", "T3:14"], 1: ["T1:11"], 2: ["T1:10"]}
    hints = rank(_position(pegs), BASIC, ["5", "6"])
    assert _text(hints[0]) == "5 T1:5-T1:10x" and "in-spot" in hints[0].why
    attack = next(h for h in hints if _text(h) == "6 T1:5-T1:11x")
    assert attack.breaks == ("attack instead",) and "start" in attack.why


def test_wait_for_the_exact_count_to_go_home() -> None:
    """Common Errors: "Concentrating on moving into HOME. It is best to wait until an exact
    count card can be played to move all the way into Home (unless the peg is in imminent
    danger of being killed). Rely on your partners." """
    pegs = {0: ["T0:1", "T1:5", "T2:14"]}
    top = _top(pegs, "3 4")
    assert _text(top) == "4 T1:5-T1:9"
    short = next(h for h in rank(_position(pegs), BASIC, ["3"]) if _text(h) == "3 T0:1-H0:1")
    assert short.breaks == ("into home short",)


def test_a_peg_in_danger_may_go_home_short() -> None:
    """Common Errors: "... (unless the peg is in imminent danger of being killed)": Sky blue's
    peg 7 behind on T3:12, Red's peg goes in, and the hint says why."""
    hints = rank(_position({0: ["T0:1", "T1:5", "T2:14"], 3: ["T3:12"]}), BASIC, ["3"])
    short = next(h for h in hints if _text(h) == "3 T0:1-H0:1")
    assert short.breaks == () and "danger" in short.why


def test_go_all_the_way_in_not_bound_up() -> None:
    """Common Errors: "Getting bound up: one or more pegs in HOME area but not all the way in.
    This is the Kiss of Death!" The first arrival goes all the way in."""
    top = _top({0: ["H0:1", "T0:12"]}, "4")
    assert _text(top) == "4 H0:1-H0:5" and "deeper into home" in top.why


def test_the_last_peg_waits_a_run_of_tens_from_home() -> None:
    """Notes on Strategy: "when the team only has one peg left in the game and is approaching
    HOME, they should try to maneuver so the last several moves are 10's". Red's last peg is 17
    from the end of its home: the 7 leaves exactly 10."""
    pegs = {0: ["H0:2", "H0:3", "H0:4", "H0:5", "T3:5"], 2: ["H2:1", "H2:2", "H2:3", "H2:4", "H2:5"]}
    top = _top(pegs, "7 5 6")
    assert _text(top) == "7 T3:5-T3:12" and "10s" in top.why


def test_in_the_endgame_play_the_smallest_card() -> None:
    """Common Errors: "In the endgame: playing high cards so that the team is too close to
    enter HOME on an exact count. If you can't go all the way HOME, play your smallest card." """
    pegs = {0: ["H0:2", "H0:3", "H0:4", "H0:5", "T3:15"], 2: ["H2:1", "H2:2", "H2:3", "H2:4", "H2:5"]}
    hints = rank(_position(pegs), BASIC, ["9", "2", "3"])
    assert hints[0].card == "2"
    assert all("smallest card" in h.breaks and "smallest" in h.why for h in hints if h.card == "9")


def test_every_note_has_a_scenario_here() -> None:
    """Each note of the rule texts is checked by a scenario above (by the name it goes by)."""
    source = Path(__file__).read_text(encoding="utf-8")
    phrases = {
        "corner": "corners",
        "come-out": "COME OUT spot",
        "in-spot": "IN SPOT",
        "safe stretch": "safe area",
        "short hop": "1, 2 or 3",
        "lurk for a partner": "partner's come-out hole",
        "lurk for an in-spot": "opponent's in-spot",
        "home run": "home run",
        "ready for a runner": "runner approaching",
        "teammate": "scoring",
        "attack instead": "Attacking",
        "joker": "joker too soon",
        "into home short": "exact",
        "bound up": "bound up",
        "all the way in": "all the way in",
        "two pegs out": "2 movable pegs",
        "tens to go": "10's",
        "smallest card": "smallest card",
    }
    assert set(phrases) == {note.name for note in NOTES}
    assert all(phrase in source for phrase in phrases.values())


@settings(max_examples=60, deadline=None)
@given(positions(players=st.sampled_from((4, 6))), st.lists(st.sampled_from(RANKS), min_size=1, max_size=6))
def test_no_hint_comes_first_while_its_words_say_it_breaks_a_note(position: Position, hand: list[str]) -> None:
    """The issue's rule for every position: a hint that breaks a note is never first while
    another move breaks none, and if it is first its words say what outweighs the note; no hint
    speaks in sums of holes or hole codes."""
    hints = rank(position, BASIC, hand)
    legal = {(card, move.text) for card in set(hand) for move in legal_moves(position, card, BASIC)}
    assert {(h.card, h.move.text) for h in hints if h.move} == legal
    if not hints:
        return
    assert [h.score for h in hints] == sorted((h.score for h in hints), reverse=True)
    if hints[0].breaks:
        assert all(h.breaks for h in hints) and "every other move breaks a note too" in hints[0].why
    sources = {note.source for note in NOTES} | {RACE}
    for hint in hints[:6]:
        assert not CODE.search(hint.why) and not SUMS.search(hint.why), hint.why
        assert hint.why.endswith(".") and hint.note in sources
        assert not re.search(r"\b00[0-4]\b", hint.note)


def test_pegs_hint_prints_json_best_first_and_refuses_bad_input() -> None:
    position = json.dumps({"players": 4, "turn": 0, "pegs": {"0": ["T0:8", "S", "S", "S", "S"]}})

    def pegs(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "referee.cli", "hint", *args],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )

    done = pegs(position, "--hand", "3 4 K", "--rules", "basic")
    assert done.returncode == 0 and done.stderr == ""
    hints = json.loads(done.stdout)["hints"]
    assert {"move", "words", "why", "note", "score"} <= set(hints[0])
    assert [h["score"] for h in hints] == sorted((h["score"] for h in hints), reverse=True)
    assert all(not CODE.search(h["words"]) and not CODE.search(h["why"]) for h in hints)
    for bad in (["--card", "11"], ["--hand", ""], ["--card", "5", "--rules", "poker"]):
        refused = pegs(position, *bad)
        assert refused.returncode == 2 and refused.stdout == "" and len(refused.stderr.strip().splitlines()) == 1
    refused = pegs("{not json", "--card", "5")
    assert refused.returncode == 2 and "Traceback" not in refused.stderr
