"""Scenario tests for legal move generation, one rule each, citing the rule texts.

Rule texts (docs/rules.md lists them): the rules page, the rules page, numbered version, the
club sheet, Hatcher's variations (Social Security) and the Ukrainian translation (teams of 2
opposite).
"""

from __future__ import annotations

import pytest

from referee import NotationError, Ruleset, legal_moves, parse_move
from tests.positions import is_legal, position, results, texts

S = "S"
START = [S] * 5


# -- the basic game (the rules page and its numbered version, "Basic Game") -----------


def test_come_out_needs_an_ace_or_a_picture() -> None:
    """The rules page, numbered version, effects of individual cards:
    "In order to move your peg out of your start area, you must play a jack,
    queen, king, ace (to move it to its 'come out' hole) or a joker"."""
    opening = position()
    for card in ("A", "J", "Q", "K"):
        assert texts(opening, card) == {f"{card} S0-T0:8"}
    for card in ("2", "3", "4", "5", "6", "7", "8", "9", "10"):
        assert texts(opening, card) == set()


def test_joker_needs_a_peg_on_the_main_track() -> None:
    """The rules page, numbered version, effects of individual cards:
    "A joker cannot be used to move to an empty hole, so if there are no pegs of
    any colour on the main track a joker cannot be played." """
    assert texts(position(), "JOKER") == set()
    board = position(s1=["T1:8", S, S, S, S])
    assert texts(board, "JOKER") == {"JOKER S0-T1:8x"}


def test_full_count_with_no_room_at_home() -> None:
    """The rules page, numbered version, effects of individual cards:
    "If you play a 6 when you have a peg on your in-spot and all your other pegs
    in the start area, you must move your peg on along the main track, since there is
    not room in the home track for a move of 6." """
    on_in_spot = position(s0=["T0:3", S, S, S, S])
    assert texts(on_in_spot, "6") == {"6 T0:3-T0:9"}
    assert texts(on_in_spot, "5") == {"5 T0:3-H0:5", "5 T0:3-T0:8"}


def test_never_land_on_or_pass_own_peg() -> None:
    """The rules page, numbered version, general rules:
    "You may never land on or pass over a hole occupied by one of your own pegs"."""
    pos = position(s0=["T0:10", "T0:13", S, S, S])
    assert texts(pos, "3") == {"3 T0:13-T0:16"}
    assert texts(pos, "5") == {"5 T0:13-T1:0"}


def test_landing_on_opponent_sends_it_to_start_passing_does_nothing() -> None:
    """The rules page, numbered version, general rules:
    "When a peg lands on an opponent's peg, the opponent's peg is immediately
    moved back to its start area." Passing "has no effect on it"."""
    pos = position(s0=["T0:10", S, S, S, S], s1=["T0:12", "T0:14", S, S, S])
    assert texts(pos, "2") == {"2 T0:10-T0:12x"}
    (after,) = results(pos, "2")
    assert after["1"] == ["T0:14", S, S, S, S]
    (passing,) = results(pos, "5")
    assert passing["1"] == ["T0:12", "T0:14", S, S, S]


def test_landing_on_partner_sends_it_to_its_in_spot() -> None:
    """The rules page, numbered version, general rules:
    "When a peg lands on a partner's peg, the partner's peg is immediately moved
    to its 'in-spot', provided the partner does not already have a peg there." """
    pos = position(s0=["T1:10", S, S, S, S], s2=["T1:12", S, S, S, S])
    (move,) = legal_moves(pos, "2", Ruleset.preset("basic"))
    assert move.text == "2 T1:10-T1:12x"
    assert move.result.pegs_json()["2"] == ["T2:3", S, S, S, S]
    assert move.describe_bumps() == ["seat 2 bumped from T1:12 to its in-spot T2:3"]


def test_landing_on_partner_is_illegal_when_its_in_spot_is_taken() -> None:
    """The rules page, numbered version, general rules:
    "It is illegal to land on your partner's peg if that partner already has a
    peg on his or her own in-spot." A partner sitting on its own in-spot counts too."""
    blocked = position(s0=["T1:10", S, S, S, S], s2=["T1:12", "T2:3", S, S, S])
    assert texts(blocked, "2") == set()
    on_own_spot = position(s0=["T2:1", S, S, S, S], s2=["T2:3", S, S, S, S])
    assert texts(on_own_spot, "2") == set()


def test_bumps_chain_through_occupied_in_spots() -> None:
    """The rules page, Notes on Strategy, note 3: "it is even possible to set up a longer 'chain reaction' in
    which a series of different colored pegs displace each other in a single move."
    The partner goes to its in-spot, and the opponent sitting there goes to start."""
    pos = position(s0=["T1:10", S, S, S, S], s1=["T2:3", S, S, S, S], s2=["T1:12", S, S, S, S])
    (move,) = legal_moves(pos, "2", Ruleset.preset("basic"))
    after = move.result.pegs_json()
    assert after["2"] == ["T2:3", S, S, S, S] and after["1"] == START
    assert [b.seat for b in move.bumps] == [2, 1]


def test_no_backing_in_and_no_backward_moves_at_home() -> None:
    """The rules page, numbered version, Endgame:
    "pegs cannot turn into their home track while moving backwards. Also, pegs
    that are already in their home areas are not allowed to move backwards." and "use an
    8 to move back 8 spaces to the corner (NOT into the home track); use a 4, 5, 6 or 7
    to move forward into your home track." """
    come_out = position(s0=["T0:8", "H0:2", S, S, S])
    assert texts(come_out, "8") == {"8 T0:8-T0:0"}
    corner = position(s0=["T0:0", S, S, S, S])
    assert {"4 T0:0-H0:1"} < texts(corner, "4")
    assert texts(corner, "7") == {"7 T0:0-H0:4", "7 T0:0-T0:7"}
    assert texts(corner, "9") == {"9 T0:0-T0:9"}


def test_home_pegs_move_forward_only_within_home() -> None:
    """The rules page, numbered version, Endgame:
    "the first peg to arrive must eventually be moved all the way to the end of
    the home track to leave room for the others"; they cannot pass each other."""
    pos = position(s0=["H0:1", "H0:3", "H0:5", S, S])
    assert texts(pos, "A") == {"A H0:1-H0:2", "A H0:3-H0:4", "A S0-T0:8"}
    assert texts(pos, "2") == set()


def test_seven_splits_between_two_own_pegs_forward() -> None:
    """The rules page, numbered version, effects of individual cards:
    "When playing a 7, you may either move one of your pegs forward 7 holes, or
    split the 7 between two of your pegs, moving them 1 and 6, 2 and 5 or 3 and 4 holes
    forwards. Of course the split move can only be made if you have at least two pegs
    in play." """
    one_peg = position(s0=["T0:8", S, S, S, S])
    assert texts(one_peg, "7") == {"7 T0:8-T0:15"}
    two = position(s0=["T0:8", "T1:8", S, S, S], s2=["T0:10", S, S, S, S])
    moves = texts(two, "7")
    assert len(moves) == 2 + 6
    assert is_legal(two, "7 T0:8-T0:11 T1:8-T1:12")
    assert not any("T0:10-" in text for text in moves)  # partner's pegs are not ours


def test_split_parts_apply_in_order() -> None:
    """The rules page: the peg ahead must move out of the way first: 3 then 4 is legal only in the
    order that clears the way (no passing own pegs)."""
    pos = position(s0=["T0:8", "T0:10", S, S, S])
    moves = texts(pos, "7")
    assert "7 T0:10-T0:14 T0:8-T0:11" in moves
    assert not any(text.startswith("7 T0:8-T0:11 T0:10") for text in moves)


def test_partner_pegs_only_when_all_own_pegs_home() -> None:
    """The rules page, numbered version, Endgame:
    "When, and only when, all five of your pegs are in the home (safe) position
    ... you use your turn to move the pegs of your left-hand partner"."""
    home = ["H0:1", "H0:2", "H0:3", "H0:4", "H0:5"]
    pos = position(s0=home, s2=["T2:10", S, S, S, S])
    assert texts(pos, "3") == {"3 T2:10-T2:13"}
    not_yet = position(s0=["T3:17", "H0:2", "H0:3", "H0:4", "H0:5"], s2=["T2:10", S, S, S, S])
    assert texts(not_yet, "3") == {"3 T3:17-T0:2"}


def test_partner_play_goes_clockwise_past_finished_partners() -> None:
    """The rules page, numbered version, Endgame:
    "If left partner's pegs are also all home, you move the pegs of the next
    partner around the table who still has playable pegs." """
    pos = position(
        players=6,
        turn=0,
        s0=["H0:1", "H0:2", "H0:3", "H0:4", "H0:5"],
        s2=["H2:1", "H2:2", "H2:3", "H2:4", "H2:5"],
        s4=["T4:9", S, S, S, S],
    )
    assert texts(pos, "2") == {"2 T4:9-T4:11"}


# -- Arizona (the rules page, "Advanced Game: Arizona Rules") ---------------------------


def test_arizona_moves_any_team_peg() -> None:
    """Arizona rule 2: "you may move any of the pegs belonging to your team"."""
    pos = position(s0=["T0:8", S, S, S, S], s2=["T2:8", S, S, S, S], s1=["T1:8", S, S, S, S])
    assert texts(pos, "3", "arizona") == {"3 T0:8-T0:11", "3 T2:8-T2:11"}


def test_arizona_nine_splits_forward_and_back() -> None:
    """Arizona rule 4: "split the 9 between two different pegs belonging to your team,
    moving one forward and the other backward"."""
    pos = position(s0=["T0:8", S, S, S, S], s2=["T2:12", S, S, S, S])
    moves = texts(pos, "9", "arizona")
    assert is_legal(pos, "9 T0:8-T0:11 T2:12-T2:6", "arizona")
    assert is_legal(pos, "9 T0:8-T0:2 T2:12-T2:15", "arizona")
    assert len(moves) == 2 + 2 * 8
    assert texts(pos, "9") == {"9 T0:8-T0:17"}  # basic: only your own peg, whole


def test_split_second_part_moves_the_peg_the_first_bumped() -> None:
    """The rules page, Notes on Strategy, note 3: "a 7 or 9 could be split to use one part to send a partner's
    peg to its in-spot and the other part to move that peg home." """
    pos = position(s0=["T2:5", S, S, S, S], s2=["T2:7", S, S, S, S])
    moves = texts(pos, "7", "arizona")
    assert "7 T2:5-T2:7x T2:3-H2:5" in moves


def test_arizona_joker_comes_from_start_first() -> None:
    """Arizona rule 6: "if your team has any pegs in their start areas, you must move one
    of these pegs ... If your team's start areas are all empty (but only in that case),
    you can move one of your team's pegs from anywhere on the main track"."""
    pos = position(s0=["T0:8", S, S, S, S], s1=["T1:8", S, S, S, S])
    assert texts(pos, "JOKER", "arizona") == {"JOKER S0-T1:8x", "JOKER S2-T1:8x", "JOKER S2-T0:8x"}
    assert texts(pos, "JOKER", "basic") == {"JOKER S0-T1:8x", "JOKER T0:8-T1:8x"}
    out = ["T0:8", "T0:9", "T0:10", "T0:11", "H0:5"]
    all_out = position(s0=out, s2=["T2:1", "T2:2", "T2:4", "T2:5", "T2:6"], s1=["T1:8", S, S, S, S])
    moves = texts(all_out, "JOKER", "arizona")
    assert {"JOKER T0:8-T1:8x", "JOKER T2:1-T1:8x"} < moves
    assert not any(text.startswith("JOKER S") for text in moves)


# -- North Carolina (the rules page, "North Carolina Rules") --------------------------


def test_nc_ace_moves_one_either_way_or_eleven() -> None:
    """NC rule 4: "With an ace you can come out, or move one space forwards, or move one
    space backwards, or move 11 spaces forwards." """
    pos = position(s0=["T0:10", "H0:5", "H0:4", "H0:3", "H0:2"])
    assert texts(pos, "A", "north-carolina") == {"A T0:10-T0:11", "A T0:10-T0:9", "A T0:10-T1:3"}


def test_nc_two_swaps_any_two_colours_on_the_main_track() -> None:
    """NC rule 5: "exchange the positions of any two different coloured marbles/pegs that
    are on the main track (not in the start or home areas)." """
    pos = position(s0=["T0:10", "H0:1", S, S, S], s1=["T1:4", S, S, S, S], s3=["T3:4", S, S, S, S])
    moves = texts(pos, "2", "north-carolina")
    assert moves == {"2 T0:10-T0:12", "2 H0:1-H0:3", "2 T0:10<>T1:4", "2 T0:10<>T3:4", "2 T1:4<>T3:4"}
    swapped = parse_move(pos, "2 T1:4<>T3:4", Ruleset.preset("north-carolina")).result.pegs_json()
    assert swapped["1"][0] == "T3:4" and swapped["3"][0] == "T1:4"


def test_nc_nine_split_only_own_pegs() -> None:
    """NC rule 7: "Nines can be split ... but they must both be your own pegs (until all
    your pegs are home)." """
    pos = position(s0=["T0:8", S, S, S, S], s2=["T2:12", S, S, S, S])
    assert texts(pos, "9", "north-carolina") == {"9 T0:8-T0:17"}


def test_nc_ten_must_split_over_any_pegs() -> None:
    """NC rule 8: "Tens must be split between two different pegs. These can be any two
    pegs on the board ... except that opponents' pegs can only be moved on the main
    track ... you cannot move a single peg 10 holes." """
    one = position(s0=["T0:8", S, S, S, S])
    assert texts(one, "10", "north-carolina") == set()
    pos = position(s0=["T0:8", S, S, S, S], s1=["T1:1", "H1:1", S, S, S])
    moves = texts(pos, "10", "north-carolina")
    assert moves and all(len(text.split()) == 3 for text in moves)
    assert "10 T0:8-T0:3 T1:1-T0:14" in moves  # both backward, one of them an opponent's
    assert not any("H1:1-" in text for text in moves)  # opponents' home pegs stay put
    assert not any("-H1:" in text for text in moves)  # and opponents never go home


def test_nc_ten_hits_are_judged_from_the_player() -> None:
    """NC rule 8: "If you 'hit' one of your team's pegs it goes to its in spot, even if
    you hit it using an opponent's peg; if you hit an opponent's peg it goes back to its
    start area, even if you hit it using a peg of another color from the same team." """
    pos = position(s0=["T0:8", S, S, S, S], s1=["T1:1", S, S, S, S], s2=["T1:4", S, S, S, S], s3=["T1:9", S, S, S, S])
    rules = Ruleset.preset("north-carolina")
    by_opponent = parse_move(pos, "10 T1:1-T1:4x T0:8-T0:15", rules).result.pegs_json()
    assert by_opponent["2"] == ["T2:3", S, S, S, S]
    by_partner = parse_move(pos, "10 T1:4-T1:9x T0:8-T0:13", rules).result.pegs_json()
    assert by_partner["3"] == START


def test_nc_split_takes_last_peg_home_then_partner() -> None:
    """NC rule 2: "You can use a split move to take your last peg home and move your left
    hand partner's peg with the remainder." Not in the basic game, where partner play
    starts with the turn after all five are home (our decision, docs/rules.md)."""
    pos = position(s0=["T0:2", "H0:2", "H0:3", "H0:4", "H0:5"], s2=["T2:10", S, S, S, S])
    assert is_legal(pos, "7 T0:2-H0:1 T2:10-T2:15", "north-carolina")
    assert not any("T2:10" in text for text in texts(pos, "7", "basic"))


# -- other variants -----------------------------------------------------------------


def test_becker_ten_goes_back_one() -> None:
    """The rules page, Other Variations (Eileen Becker):
    "a 10 can be used to move a peg either forward 10 spaces or
    backward 1 space." """
    pos = position(s0=["T0:8", S, S, S, S])
    assert texts(pos, "10", "becker") == {"10 T0:8-T0:18".replace("T0:18", "T1:0"), "10 T0:8-T0:7"}


def test_kilpatrick_turns_home_at_the_in_spot() -> None:
    """The rules page, Kilpatrick Rules: "A peg cannot be moved forwards along the main track past its
    in-spot ... if there is not enough clear space there for the value of the played card
    to be fully used, that peg cannot be moved on that turn." """
    pos = position(s0=["T0:1", S, S, S, S])
    assert texts(pos, "4", "kilpatrick") == {"4 T0:1-H0:2"}
    assert texts(pos, "9", "kilpatrick") == set()
    assert texts(pos, "2", "kilpatrick") == {"2 T0:1-T0:3"}
    assert texts(pos, "4", "arizona") == {"4 T0:1-H0:2", "4 T0:1-T0:5"}


def test_social_security_pictures_and_nine() -> None:
    """Hatcher's variations, Social Security: "9 card move is split backward and forward in any
    combination ... Jack moves forward eleven holes, Queen ... twelve, King ... thirteen"."""
    pos = position(s0=["T0:8", "T1:8", S, S, S])
    assert texts(pos, "K", "social-security") == {"K T0:8-T1:3", "K T1:8-T2:3", "K S0-T0:8x"} - {"K S0-T0:8x"}
    assert is_legal(pos, "9 T0:8-T0:16 T1:8-T1:7", "social-security")


def test_two_players_have_no_partners() -> None:
    """The club sheet, Players: "Two players use the inside board and three decks of poker cards with the
    Jokers removed." Seats 0 and 2 sit opposite; every other peg is an opponent."""
    pos = position(players=2, s0=["T2:6", S, S, S, S], s2=["T2:8", S, S, S, S])
    (move,) = legal_moves(pos, "2", Ruleset.preset("basic"))
    assert move.result.pegs_json()["2"] == START
    assert Ruleset.preset("basic").jokers_for(2) == 0


def test_three_teams_of_two_sit_opposite() -> None:
    """The Ukrainian translation, Players and Equipment:
    "6 players can play as 3 teams of 2 ... partners sit opposite each other"."""
    teams = [[0, 3], [1, 4], [2, 5]]
    pos = position(players=6, teams=teams, s0=["T3:5", S, S, S, S], s3=["T3:7", S, S, S, S])
    (move,) = legal_moves(pos, "2", Ruleset.preset("basic"))
    assert move.result.pegs_json()["3"] == ["T3:3", S, S, S, S]


def test_parse_move_rejects_illegal_text() -> None:
    pos = position(s0=["T0:8", S, S, S, S])
    with pytest.raises(NotationError, match="not a legal move"):
        parse_move(pos, "5 T0:8-T0:14", Ruleset.preset("basic"))
    with pytest.raises(NotationError, match="malformed"):
        parse_move(pos, "5 T0:8=T0:13", Ruleset.preset("basic"))
