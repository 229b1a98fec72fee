"""Hints ranked by the one judge (the chance to win a choice leaves) and explained by the notes
they follow: the rules page's "Notes on Strategy" and "Common Errors", the club sheet's "Hints
for good play" and Larry Hatcher's variations. A note never ranks a move; each note's scenario
here checks that a move which follows (or breaks) it says so. Basic rules, 4 players, seat 0
to play, partners 0 and 2 (the rules page: "two teams of alternating seats")."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.board import Board
from referee.cards import RANKS
from referee.coach.hints import Hint, rank
from referee.coach.notes import CLUB, ERRORS, HATCHER, NOTES, STRATEGY
from referee.position import Position
from referee.rulesets import Ruleset
from tests.strategies import positions

BASIC = Ruleset.preset("basic")
BOARD = Board.for_players(4)
CODE = re.compile(r"\b[THSC]\d+(:\d+)?\b")
NAMES = {0: "Red", 1: "Sky blue", 2: "Green", 3: "Yellow"}


def _position(pegs: dict[int, list[str]], turn: int = 0) -> Position:
    full = {seat: pegs.get(seat, []) + ["S"] * (5 - len(pegs.get(seat, []))) for seat in range(4)}
    return Position.from_pegs(BOARD, turn, full)


def _text(hint: Hint) -> str:
    return hint.move.text if hint.move else f"discard {hint.card}"


def _hint(pegs: dict[int, list[str]], hand: str, move: str) -> Hint:
    return _hint_in(BASIC, pegs, hand, move)


def _hint_in(rules: Ruleset, pegs: dict[int, list[str]], hand: str, move: str) -> Hint:
    return next(h for h in rank(_position(pegs), rules, hand.split()) if _text(h) == move)


def test_the_exact_count_goes_all_the_way_home_first() -> None:
    """Common Errors: "It is best to wait until an exact count card can be played to move all
    the way into Home". Red waits on its in-spot with another peg out and holds a 5 and a 4:
    the 5 takes the waiting peg all the way in, and the hint names that peg; walking it off
    round the board again gives chances away."""
    hints = rank(_position({0: ["T0:3", "T0:12"]}), BASIC, ["5", "4"])
    first = hints[0]
    assert _text(first) == "5 T0:3-H0:5"
    assert first.words(NAMES) == "Red moves 5 into home (the peg on Red's in-spot)"
    assert "all the way in" in first.why and first.lost == 0
    away = next(h for h in hints if _text(h) == "5 T0:3-T0:8")
    assert away.lost > 0.02 and "fewer chances to win" in away.why


def test_the_first_peg_home_goes_all_the_way_in() -> None:
    """The rules page, Endgame: "the first peg to arrive must eventually be moved all the way
    to the end of the home track to leave room for the others"; Common Errors: "Getting bound
    up ... the Kiss of Death". Red's peg 2 short of its in-spot, a 7 in hand: 2 and 5 deep."""
    hints = rank(_position({0: ["T0:1", "T0:12", "T1:4"]}), BASIC, ["7"])
    assert _text(hints[0]) == "7 T0:1-H0:5"
    assert hints[0].why.startswith("Your peg goes into home, all the way in")


def test_a_peg_in_home_moves_deeper_not_into_home() -> None:
    """The rules page, Endgame: a peg in home "must eventually be moved all the way to the end
    of the home track". Red's peg on its home's 1st hole, a 4: it moves deeper, it does not
    go into home again."""
    hint = _hint({0: ["H0:1", "T0:12"]}, "4", "4 H0:1-H0:5")
    assert hint.why.startswith("Your peg moves deeper into home, all the way in"), hint.why


def test_a_hand_whose_only_move_is_a_joker_may_keep_it() -> None:
    """The rules page, Basic Game: "A player is never forced to play a joker: if you have no
    other move you may keep the joker and discard another card"."""
    hints = rank(_position({1: ["T1:10"]}), BASIC, ["JOKER", "5", "6", "2", "3"])
    kept = next(h for h in hints if h.move is None)
    assert kept.card in ["5", "6", "2", "3"] and kept.as_json({})["discard"] == kept.card
    assert "keep" in kept.as_json({})["words"].lower() and kept.note == ERRORS
    assert any(h.card == "JOKER" for h in hints)


# Each note's scenario: the position, the hand, a move the note speaks to, and whether that move
# follows it or breaks it (against another move on offer that keeps it).
SCENARIOS = [
    # Notes on Strategy: "after coming out of Start it is good to begin by moving 1, 2 or 3 spaces forwards"
    ("short hop", STRATEGY, {0: ["T0:8"]}, "8 3", "3 T0:8-T0:11", "follows"),
    # Common Errors: "a minimum of 2 movable pegs per player on the board at all times"
    ("two pegs out", ERRORS, {0: ["T0:12"]}, "K", "K T0:12-T1:4", "breaks"),
    # Common Errors: "Playing a joker too soon. Hold it until you can get a double or triple play"
    ("joker", ERRORS, {0: ["T0:14", "T1:5"], 1: ["T1:10", "T2:2"], 3: ["T3:4"]}, "JOKER 4", "4 T0:14-T1:0", "follows"),
    # Hints for good play: avoid "any of the corners"
    ("corner", CLUB, {0: ["T1:13", "T2:14"]}, "5 4", "5 T1:13-T2:0", "breaks"),
    # Hints for good play: avoid "the opponents COME OUT spot"
    ("come-out", CLUB, {0: ["T1:5", "T2:14"]}, "3 2", "3 T1:5-T1:8", "breaks"),
    # Hints for good play: avoid "the opponents IN SPOT"
    ("in-spot", CLUB, {0: ["T0:17", "T2:14"]}, "4 5", "4 T0:17-T1:3", "breaks"),
    # Larry Hatcher: "the area between the opponents COME OUT and IN SPOT tends to be a safe area"
    ("safe stretch", HATCHER, {0: ["T1:0", "H0:5"]}, "4 9", "4 T1:0-T1:4", "follows"),
    # Notes on Strategy: "lurk 10 spaces short of partner's come-out hole"
    ("lurk for a partner", STRATEGY, {0: ["T1:10", "T3:14"]}, "6 5", "6 T1:10-T1:16", "follows"),
    # Notes on Strategy: lurk 10 spaces short of "opponent's in-spot"
    ("lurk for an in-spot", STRATEGY, {0: ["T2:5", "T0:14"]}, "6 5", "6 T2:5-T2:11", "follows"),
    # Notes on Strategy: a "home run": "position your 'runner' peg in teammate's come-out hole"
    ("home run", STRATEGY, {0: ["T2:2", "T0:14"]}, "6 5", "6 T2:2-T2:8", "follows"),
    # Notes on Strategy: "When a player sees a runner approaching a start area ..."
    ("ready for a runner", STRATEGY, {0: ["T1:12", "T2:14"], 2: ["T3:16"]}, "K 5", "K S0-T0:8", "follows"),
    # Common Errors: "putting a teammate into a scoring position"
    ("teammate", ERRORS, {0: ["T1:5", "T3:14"], 1: ["T1:11"], 2: ["T1:10"]}, "5 6", "5 T1:5-T1:10x", "follows"),
    # Common Errors: "Attacking an opponent instead of putting a teammate into a scoring position"
    ("attack instead", ERRORS, {0: ["T1:5", "T3:14"], 1: ["T1:11"], 2: ["T1:10"]}, "5 6", "6 T1:5-T1:11x", "breaks"),
    # Common Errors: "wait until an exact count card can be played to move all the way into Home"
    ("into home short", ERRORS, {0: ["T0:1", "T1:5", "T2:14"]}, "3 4", "3 T0:1-H0:1", "breaks"),
    # Common Errors: "Getting bound up: one or more pegs in HOME area but not all the way in"
    ("all the way in", ERRORS, {0: ["H0:1", "T0:12"]}, "4", "4 H0:1-H0:5", "follows"),
    # Notes on Strategy: "the last several moves are 10's"
    ("tens to go", STRATEGY, {0: ["H0:2", "H0:3", "H0:4", "H0:5", "T3:5"], 2: ["H2:1", "H2:2", "H2:3", "H2:4", "H2:5"]}, "7 5", "7 T3:5-T3:12", "follows"),
    # Common Errors: "If you can't go all the way HOME, play your smallest card"
    ("smallest card", ERRORS, {0: ["H0:2", "H0:3", "H0:4", "H0:5", "T3:15"], 2: ["H2:1", "H2:2", "H2:3", "H2:4", "H2:5"]}, "9 2", "9 T3:15-T0:6", "breaks"),
]  # fmt: skip


@pytest.mark.parametrize(("name", "source", "pegs", "hand", "move", "how"), SCENARIOS, ids=[s[0] for s in SCENARIOS])
def test_each_note_explains_the_moves_it_speaks_to(
    name: str, source: str, pegs: dict[int, list[str]], hand: str, move: str, how: str
) -> None:
    hints = rank(_position(pegs), BASIC, hand.split())
    hint = next(h for h in hints if _text(h) == move)
    assert name in (hint.follows if how == "follows" else hint.breaks), (hint.follows, hint.breaks)
    if how == "breaks" and hint.lost == 0:  # the best move breaking a note says why the note gives way
        keeper = next(h for h in hints if name not in h.breaks)  # the best move that keeps the note
        gain = hint.chance - keeper.chance  # the words claim a gain only where the judge found one
        assert "Usually" in hint.why and ("worth more" if gain >= 0.005 else "does as well") in hint.why, hint.why
    if hint.note == source:
        assert hint.why


def test_an_attack_is_not_blamed_for_a_teammate_move_nobody_could_make() -> None:
    """Common Errors: "Attacking an opponent instead of putting a teammate into a scoring
    position". Red's 4 sends Sky blue's peg back or moves Red's other peg on: no choice puts a
    teammate anywhere, so the hint does not say it could have."""
    hints = rank(_position({0: ["T0:12", "T0:1"], 1: ["T0:16"], 2: ["T2:5"]}), BASIC, ["4"])
    attack = next(h for h in hints if _text(h) == "4 T0:12-T0:16x")
    assert "attack instead" not in attack.breaks and "teammate" not in attack.why, attack.why


def test_a_partners_peg_is_not_called_yours() -> None:
    """The rules page, Advanced Game: Arizona Rules, rule 2: "any peg of your team" may be moved.
    Red, all in start, moves Yellow's peg: the note it follows speaks of "the peg", not "your
    peg", and the one the other move breaks says what a move usually does with "a peg"."""
    hints = {_text(h): h for h in rank(_position({2: ["T1:15"]}), Ruleset.preset("arizona"), ["3", "5"])}
    keeps, breaks = hints["5 T1:15-T2:2"], hints["3 T1:15-T2:0"]
    assert "corner" in keeps.follows and "corner" in breaks.breaks
    if keeps.lost < 0.005:  # as good as the best: the warning it keeps is its praise
        assert "it keeps the peg off the corners" in keeps.why
    assert "Usually a move keeps a peg off the corners" in breaks.why or "it leaves the peg on a corner" in breaks.why
    assert not any("your peg" in h.why.lower() for h in hints.values())
    deeper = _hint_in(Ruleset.preset("arizona"), {2: ["H2:1", "T1:2"]}, "4", "4 H2:1-H2:5")  # Yellow's home
    assert deeper.why.endswith("it leaves room behind it, so its home does not bind up."), deeper.why


def test_the_first_seats_peg_moved_by_a_partner_is_called_by_its_colour() -> None:
    """Arizona Rules, rule 2: "you may move any of the pegs belonging to your team". Green, all
    in start, moves Red's peg (seat 0) 3 or 5 holes: a move no note speaks to says whose peg
    it is by the board, Red's, not Green's own ("your peg": seat 0 was read as no colour)."""
    hints = rank(_position({0: ["T2:10"]}, turn=2), Ruleset.preset("arizona"), ["3", "5"])
    plain = [h for h in hints if "holes further round" in h.why]
    assert plain, [h.why for h in hints]
    for hint in plain:
        assert hint.words_why(NAMES).startswith("Red's peg moves"), hint.words_why(NAMES)


def test_a_note_about_the_moved_peg_names_it_after_a_bump() -> None:
    """Larry Hatcher's variations, as the club sheet gives them: a peg "between an opponent's
    in-spot and come-out hole" tends to be safe. Red's jack sends Yellow's peg back to start and
    stops in that stretch: after the bump's words, the note names Red's peg, not "it" (which
    read as Yellow's peg, just sent to start)."""
    bump = _hint({0: ["T2:15", "T1:4"], 3: ["T3:7"]}, "J", "J T2:15-T3:7x")
    assert bump.words_why(NAMES).startswith("Yellow's peg goes back to start: your peg stops between"), bump.why


def test_a_split_between_a_partners_peg_and_yours_calls_neither_yours() -> None:
    """Arizona Rules, rule 2 (any peg of your team may be moved), with the Basic Game's split 7.
    Red splits the 7 between Green's peg on its come-out hole and Red's own: the note the move
    follows (a short hop past a come-out hole) speaks of Green's peg, so the clause says "a
    peg", never "your peg"."""
    hop = _hint_in(Ruleset.preset("arizona"), {0: ["T0:12"], 2: ["T2:8"]}, "7", "7 T2:8-T2:10 T0:12-T0:17")
    assert "short hop" in hop.follows
    assert "It keeps a peg 1 to 3 holes past its come-out hole" in hop.why, hop.why
    assert "your peg" not in hop.why.lower()


def test_a_split_of_two_partners_pegs_says_a_peg_where_the_note_may_mean_either() -> None:
    """Arizona Rules, rules 2 and 5: a 7 split may move "any two different pegs belonging to
    your team". Red splits it between Green's two pegs: one stops on Green's in-spot, the other
    3 holes past Green's come-out hole. The short-hop note speaks of the second, so after words
    naming the first it says "a peg", not "the peg" (the one just named)."""
    split = _hint_in(Ruleset.preset("arizona"), {2: ["T2:8", "T1:17"]}, "7", "7 T2:8-T2:11 T1:17-T2:3")
    assert "stops on its in-spot, ready to go home: it keeps a peg 1 to 3 holes past" in split.why, split.why


@pytest.mark.parametrize(
    ("rules", "tens"),
    [("basic", "a 10 or a face card"), ("social-security", "a 10"), ("north-carolina", "a face card")],
)
def test_the_notes_name_the_cards_that_move_10_in_the_rules_played(rules: str, tens: str) -> None:
    """The rules page's Notes on Strategy count on "a 10 or a face card" to move a peg 10 holes:
    so in the basic game. Larry Hatcher's Social Security makes "J=11, Q=12, K=13", and North
    Carolina's 10 must be split between two pegs: there the notes name the cards that do."""
    hints = rank(_position({0: ["T0:12", "T2:5"]}), Ruleset.preset(rules), ["6", "4"])
    lurk = next(h for h in hints if _text(h) == "6 T2:5-T2:11")
    assert f"where {tens} catches their pegs going home" in lurk.why, lurk.why
    kept = next(h for h in hints if _text(h) == "4 T0:12-T0:16")
    assert f"where a peg that comes out and plays {tens} lands" in kept.why, kept.why


def test_every_note_has_a_scenario_here() -> None:
    assert {scenario[0] for scenario in SCENARIOS} == {note.name for note in NOTES}


def test_every_warning_says_what_a_move_that_keeps_it_does() -> None:
    """Where the best move breaks a warning, the hint says "Usually a move <heed>, but ...":
    each warning's heed is a clause that reads after "a move" (the endgame's aside apart)."""
    for note in NOTES:
        if note.kind == "warning":
            assert note.heed.removeprefix("in the endgame ").startswith("it "), note.name


@settings(max_examples=25, deadline=None)
@given(positions(players=st.sampled_from((4, 6))), st.lists(st.sampled_from(RANKS), min_size=1, max_size=6))
def test_hints_are_ranked_by_the_chance_to_win_and_say_what_they_give_away(position: Position, hand: list[str]) -> None:
    """Best first by the judge alone; the first gives nothing away and never breaks a note
    without saying why it gives way; every reason is words, never hole codes."""
    hints = rank(position, BASIC, hand)
    if not hints:
        return
    chances = [hint.chance for hint in hints]
    assert chances == sorted(chances, reverse=True)
    assert hints[0].lost == 0
    for hint in hints:
        assert hint.lost == pytest.approx(hints[0].chance - hint.chance, abs=1e-9)
        assert 0.0 <= hint.chance <= 1.0
        why = hint.words_why(NAMES)
        assert why and "{" not in why and not CODE.search(why)
        if hint.lost >= 0.005:
            assert "fewer chances to win than the best move" in why
    if hints[0].breaks:
        assert "Usually" in hints[0].why


def test_pegs_hint_prints_json_best_first_and_refuses_bad_input() -> None:
    def pegs(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "referee.cli", "hint", *args],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
            cwd=Path(__file__).resolve().parent.parent,
        )

    position = json.dumps({"players": 4, "turn": 0, "pegs": {"0": ["T0:3", "T0:12", "S", "S", "S"]}})
    done = pegs(position, "--hand", "5 4", "--rules", "basic")
    assert done.returncode == 0 and done.stderr == ""
    hints = json.loads(done.stdout)["hints"]
    assert {"move", "words", "why", "note", "chance", "lost"} <= set(hints[0])
    assert hints[0]["move"] == "5 T0:3-H0:5" and hints[0]["lost"] == 0
    assert [h["chance"] for h in hints] == sorted((h["chance"] for h in hints), reverse=True)
    assert pegs(position, "--hand", "5 4", "--rules", "basic").stdout == done.stdout  # the same answer twice
    bad = pegs(position, "--hand", "5 X", "--rules", "basic")
    assert bad.returncode == 2 and bad.stdout == "" and len(bad.stderr.strip().splitlines()) == 1
