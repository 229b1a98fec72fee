"""Hand-computed scenarios for the reference move generator, so it can be trusted as an oracle.

Rule texts: the rules page and the rules page, numbered version
(docs/rules.md lists them). Hole names as in docs/design.md, "Seats, holes and teams":
``T<s>:<k>`` is track index 18s+k,
``T<s>:3`` the in-spot, ``T<s>:8`` the come-out hole; a 4-player track has 72 holes.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings

from referee.board import Board
from referee.position import Position
from referee.rulesets import PRESETS, Ruleset
from tests.reference_movegen import BACKWARD, FORWARD, _walks, reference_results
from tests.strategies import crowded_position, positions

Pegs = dict[int, list[str]]  # holes by seat; the rest of five pegs are in start
BASIC, ARIZONA, NC, KILPATRICK = (PRESETS[name] for name in ("basic", "arizona", "north-carolina", "kilpatrick"))


def position(
    pegs: dict[str, list[str]], players: int = 4, turn: int = 0, teams: list[list[int]] | None = None
) -> Position:
    data: dict[str, object] = {"players": players, "turn": turn, "pegs": pegs}
    if teams:
        data["teams"] = teams
    return Position.from_json(data)


def seats(*placements: Pegs, players: int = 4, teams: list[list[int]] | None = None) -> bytes:
    """The occupancy of a result, from ``{seat: [holes]}`` dicts (bare ``S`` for start)."""
    pegs: Pegs = {}
    for placement in placements:
        pegs.update(placement)
    full = {str(seat): holes + ["S"] * (5 - len(holes)) for seat, holes in pegs.items()}
    return position(full, players, teams=teams).occupancy


def results(
    pegs: Pegs, card: str, rules: Ruleset, players: int = 4, turn: int = 0, teams: list[list[int]] | None = None
) -> set[bytes]:
    full = {str(seat): holes + ["S"] * (5 - len(holes)) for seat, holes in pegs.items()}
    return reference_results(position(full, players, turn, teams), card, rules)


# -- one peg, one number ------------------------------------------------------------


def test_own_peg_blocks_passing_and_landing() -> None:
    # The rules page, numbered version, general rules:
    # "You may never land on or pass over a hole occupied by one of your own pegs"
    assert results({0: ["T0:8", "T0:10"]}, "5", BASIC) == {seats({0: ["T0:8", "T0:15"]})}


def test_passing_others_is_free_and_landing_sends_an_opponent_to_start() -> None:
    # The rules page, numbered version, general rules:
    # "Passing over a peg of a different color has no effect on it" / "When a peg lands
    # on an opponent's peg, the opponent's peg is immediately moved back to its start area."
    got = results({0: ["T0:8"], 1: ["T0:10", "T0:13"]}, "5", BASIC)
    assert got == {seats({0: ["T0:13"], 1: ["T0:10"]})}


def test_landing_on_a_partner_sends_it_to_its_in_spot() -> None:
    # The rules page, numbered version, general rules:
    # "When a peg lands on a partner's peg, the partner's peg is immediately moved to
    # its 'in-spot', provided the partner does not already have a peg there."
    got = results({0: ["T0:8"], 2: ["T0:13"]}, "5", BASIC)
    assert got == {seats({0: ["T0:13"], 2: ["T2:3"]})}


@pytest.mark.parametrize(
    "pegs",
    [
        {0: ["T0:8"], 2: ["T0:13", "T2:3"]},  # the partner already has a peg on its in-spot
        {0: ["T2:0"], 2: ["T2:3"]},  # the partner's peg *is* on its in-spot
    ],
)
def test_landing_on_a_partner_is_illegal_when_its_in_spot_is_taken(pegs: Pegs) -> None:
    # The rules page, numbered version, general rules:
    # "It is illegal to land on your partner's peg if that partner already has a peg on
    # his or her own in-spot."
    assert results(pegs, {"T0:8": "5", "T2:0": "3"}[pegs[0][0]], BASIC) == set()


def test_a_peg_may_branch_home_or_stay_on_the_track() -> None:
    # The rules page, general rules:
    # "On reaching its own 'in-spot' a peg may take the branch into its safe 'home'
    # track." T0:1 is two holes short of the in-spot: 5 = 2 to T0:3 + 3 into home.
    assert results({0: ["T0:1"]}, "5", BASIC) == {seats({0: ["H0:3"]}), seats({0: ["T0:6"]})}
    assert results({0: ["T0:1"]}, "7", BASIC) == {seats({0: ["H0:5"]}), seats({0: ["T0:8"]})}
    assert results({0: ["T0:3"]}, "5", BASIC) == {seats({0: ["H0:5"]}), seats({0: ["T0:8"]})}


def test_no_room_at_home_means_the_track() -> None:
    # The rules page, effects of individual cards:
    # "If you play a 6 when you have a peg on your in-spot and all your other pegs in the
    # start area, you must move your peg on along the main track, since there is not room in
    # the home track for a move of 6."
    assert results({0: ["T0:3"]}, "6", BASIC) == {seats({0: ["T0:9"]})}


def test_kilpatrick_must_turn_home_or_cannot_move() -> None:
    # The rules page, Kilpatrick Rules: "A peg cannot be moved forwards along the main track past its in-spot.
    # When moving forwards it must turn into its home track when it reaches the in-spot and if
    # there is not enough clear space there for the value of the played card to be fully
    # used, that peg cannot be moved on that turn."
    assert results({0: ["T0:1"]}, "5", KILPATRICK) == {seats({0: ["H0:3"]})}
    assert results({0: ["T0:1"]}, "10", KILPATRICK) == set()
    assert results({0: ["T0:1", "H0:3"]}, "5", KILPATRICK) == set()
    assert results({0: ["T0:0"]}, "3", KILPATRICK) == {seats({0: ["T0:3"]})}  # lands on, not past


def test_backward_stays_on_the_track_and_never_leaves_home() -> None:
    # The rules page, Endgame: "use an 8 to move back 8 spaces to the corner (NOT into the home track)";
    # "pegs cannot turn into their home track while moving backwards. Also, pegs that are
    # already in their home areas are not allowed to move backwards."
    assert results({0: ["T0:8"]}, "8", BASIC) == {seats({0: ["T0:0"]})}
    # T0:5 passes its in-spot going back and wraps round to seat 3's side (5 - 8 = -3 = 69).
    assert results({0: ["T0:5", "H0:2"]}, "8", BASIC) == {seats({0: ["T3:15", "H0:2"]})}


def test_pegs_move_on_inside_home_without_passing_each_other() -> None:
    # The rules page, Endgame: "Pegs move along the home tracks in the usual way. Since they cannot land
    # on or pass over each other, the first peg to arrive must eventually be moved all the
    # way to the end of the home track"
    assert results({0: ["H0:1", "H0:4"]}, "2", BASIC) == {seats({0: ["H0:3", "H0:4"]})}
    assert results({0: ["H0:1", "H0:4"]}, "3", BASIC) == set()  # lands on H0:4; H0:4 has no room
    assert results({0: ["H0:1", "H0:4"]}, "4", BASIC) == set()  # passes H0:4


# -- come out, chains, whose pegs ------------------------------------------------------------


def test_coming_out_starts_a_chain_reaction() -> None:
    # The rules page, Notes on Strategy, note 3: "a peg is left in its own come-out hole so that a teammate's
    # arriving runner sends come-out peg directly to its in-spot" ... "a longer 'chain
    # reaction' in which a series of different colored pegs displace each other".
    # Seat 0 comes out onto seat 2's runner on T0:8; it goes to T2:3, where seat 0's peg
    # sits, which goes on to T0:3.
    got = results({0: ["T2:3"], 2: ["T0:8"]}, "K", BASIC)
    assert got == {seats({0: ["T0:8", "T0:3"], 2: ["T2:3"]}), seats({0: ["T2:13"], 2: ["T0:8"]})}
    # With T0:3 already holding seat 0's own peg the chain, and so the come-out, is illegal.
    got = results({0: ["T2:3", "T0:3"], 2: ["T0:8"]}, "K", BASIC)
    assert got == {seats({0: ["T2:13", "T0:3"], 2: ["T0:8"]}), seats({0: ["T2:3", "T0:13"], 2: ["T0:8"]})}


def test_basic_moves_the_left_hand_partner_once_all_home() -> None:
    # The rules page, Endgame: "When, and only when, all five of your pegs are in the home ... you use your turn
    # to move the pegs of your left-hand partner ... If left partner's pegs are also all home,
    # you move the pegs of the next partner around the table who still has playable pegs."
    def all_home(seat: int) -> list[str]:
        return [f"H{seat}:{depth}" for depth in range(1, 6)]

    got = results({0: all_home(0), 2: ["T2:8"], 4: ["T4:8"]}, "5", BASIC, players=6)
    assert got == {seats({0: all_home(0), 2: ["T2:13"], 4: ["T4:8"]}, players=6)}
    got = results({0: all_home(0), 2: all_home(2), 4: ["T4:8"]}, "5", BASIC, players=6)
    assert got == {seats({0: all_home(0), 2: all_home(2), 4: ["T4:13"]}, players=6)}
    assert results({0: all_home(0), 2: all_home(2), 4: all_home(4)}, "5", BASIC, players=6) == set()
    # Seat 4's left-hand (clockwise) partner is seat 0, not seat 2.
    got = results({4: all_home(4), 0: ["T0:8"], 2: ["T2:8"]}, "5", BASIC, turn=4, players=6)
    assert got == {seats({4: all_home(4), 0: ["T0:13"], 2: ["T2:8"]}, players=6)}


# -- splits ---------------------------------------------------------------------------------


def test_seven_moves_one_peg_or_splits_between_two() -> None:
    # The rules page, effects of individual cards:
    # "When playing a 7, you may either move one of your pegs forward 7 holes, or split
    # the 7 between two of your pegs, moving them 1 and 6, 2 and 5 or 3 and 4 holes forwards."
    got = results({0: ["T0:8", "T1:2"]}, "7", BASIC)
    whole = {seats({0: ["T0:15", "T1:2"]}), seats({0: ["T0:8", "T1:9"]})}
    split = {seats({0: [f"T0:{8 + a}", f"T1:{2 + 7 - a}"]}) for a in range(1, 7)}
    assert got == whole | split


def test_arizona_nine_splits_forward_and_backward() -> None:
    # Arizona rule 4: "split the 9 between two different pegs belonging to your team, moving
    # one forward and the other backward - for example moving one peg 3 holes forward and
    # another 6 holes backward."
    got = results({0: ["T0:8"], 2: ["T2:8"]}, "9", ARIZONA)
    assert seats({0: ["T0:11"], 2: ["T2:2"]}) in got and seats({0: ["T0:2"], 2: ["T2:11"]}) in got
    whole = {seats({0: ["T0:17"], 2: ["T2:8"]}), seats({0: ["T0:8"], 2: ["T2:17"]})}
    ahead = {seats({0: [f"T0:{8 + a}"], 2: [f"T2:{8 - (9 - a)}"]}) for a in range(1, 9)}
    behind = {seats({0: [f"T0:{8 - b}"], 2: [f"T2:{8 + 9 - b}"]}) for b in range(1, 9)}
    assert got == whole | ahead | behind


def test_split_bumps_a_partner_to_its_in_spot_then_takes_it_home() -> None:
    # The rules page, Notes on Strategy, note 3:
    # "Also a 7 or 9 could be split to use one part to send a partner's
    # peg to its in-spot and the other part to move that peg home." (Arizona: team pegs.)
    # 2 takes seat 0's T2:0 onto seat 2's T2:2 (-> T2:3); 5 takes it from T2:3 to H2:5.
    pegs = {0: ["T2:0"], 2: ["T2:2"]}
    assert seats({0: ["T2:2"], 2: ["H2:5"]}) in results(pegs, "7", ARIZONA)
    # In the basic game seat 0 moves only its own pegs, and one peg cannot split.
    assert results(pegs, "7", BASIC) == {seats({0: ["T2:7"], 2: ["T2:2"]})}


def test_north_carolina_split_takes_the_last_peg_home_and_moves_the_partner() -> None:
    # NC rule 2: "You can use a split move to take your last peg home and move your left hand
    # partner's peg with the remainder."
    pegs = {0: ["H0:2", "H0:3", "H0:4", "H0:5", "T0:2"], 2: ["T2:8"]}
    done = seats({0: ["H0:1", "H0:2", "H0:3", "H0:4", "H0:5"], 2: ["T2:13"]})
    assert done in results(pegs, "7", NC)
    assert done not in results(pegs, "7", BASIC)  # the basic 7 stays with seat 0's pegs


def test_north_carolina_ten_moves_any_pegs_and_team_is_relative_to_the_player() -> None:
    # NC rule 8: "For example you could move two of your team's pegs from their come out spots
    # back 5 to their in spots. But you cannot move a single peg 10 holes."
    got = results({0: ["T0:8"], 2: ["T2:8"]}, "10", NC)
    assert seats({0: ["T0:3"], 2: ["T2:3"]}) in got
    assert seats({0: ["T1:0"], 2: ["T2:8"]}) not in got
    # "If you 'hit' one of your team's pegs it goes to its in spot, even if you hit it using
    # an opponent's peg; if you hit an opponent's peg it goes to back its start area, even if
    # you hit it using a peg of another color from the same team."
    pegs = {0: ["T0:8"], 1: ["T2:0"], 2: ["T2:2"], 3: ["T2:5"]}
    got = results(pegs, "10", NC)
    assert seats({0: ["T0:16"], 1: ["T2:2"], 2: ["T2:3"], 3: ["T2:5"]}) in got  # 1 hits 2
    assert seats({0: ["T0:13"], 1: ["T2:5"], 2: ["T2:2"], 3: []}) in got  # 1 hits 3


def test_north_carolina_ten_keeps_opponents_out_of_home() -> None:
    # NC rule 8: "opponents' pegs can only be moved on the main track, not if they are within
    # their safe area or castle" - but a partner's peg may go home.
    pegs = {0: ["T0:8"], 1: ["T1:1", "H1:1"], 2: ["T2:1"]}
    got = results(pegs, "10", NC)
    assert seats({0: ["T0:15"], 1: ["T1:1", "H1:1"], 2: ["H2:1"]}) in got
    assert seats({0: ["T0:15"], 1: ["T1:4", "H1:1"], 2: ["T2:1"]}) in got  # 3 along the track
    board = Board.for_players(4)
    for occupancy in got:
        assert occupancy[board.home(1, 1)] == 2  # never moved
        assert sum(occupancy[board.home(1, depth)] == 2 for depth in range(1, 6)) == 1  # none entered


def test_the_second_part_never_moves_the_peg_the_first_part_moved() -> None:
    # A literal chain (the bump rules of the rules page, numbered version,
    # relative to the player): on 8 players (team
    # 0, 2, 4, 6) seat 4's peg M on T2:0 goes 3 onto seat 0's peg on T2:3 (seat 2's
    # in-spot), which goes to T0:3, bumping seat 2's peg there to T2:3, where it bumps M
    # to T4:3. M is still "the peg part 1 moved", though it no longer sits where it landed.
    pegs = {0: ["T2:3"], 2: ["T0:3"], 4: ["T2:0"]}
    chained = {0: ["T0:3"], 2: ["T2:3"], 4: ["T4:3"]}
    got = results(pegs, "3", ARIZONA, players=8)
    assert got == {
        seats(chained, players=8),
        seats(pegs, {0: ["T2:6"]}, players=8),
        seats(pegs, {2: ["T0:6"]}, players=8),
    }
    got = results(pegs, "7", ARIZONA, players=8)
    assert seats(chained, {2: ["H2:4"]}, players=8) in got  # then 4 on seat 2's peg: in-spot, home
    assert seats(chained, {4: ["H4:4"]}, players=8) not in got  # M may not move again


# -- swap and joker --------------------------------------------------------------------------


def test_two_swaps_pegs_of_different_colours_on_the_track() -> None:
    # NC rule 5: "exchange the positions of any two different coloured marbles/pegs that are
    # on the main track (not in the start or home areas)."
    pegs = {0: ["T0:8", "T0:9", "H0:5"], 1: ["T1:8"], 3: ["H3:5"]}
    got = results(pegs, "2", NC)
    assert got == {
        seats(pegs, {0: ["T0:8", "T0:11", "H0:5"]}),  # 2 forward; T0:8 is blocked by T0:9
        seats(pegs, {0: ["T1:8", "T0:9", "H0:5"], 1: ["T0:8"]}),
        seats(pegs, {0: ["T0:8", "T1:8", "H0:5"], 1: ["T0:9"]}),
    }


def test_joker_jumps_onto_another_colour_only() -> None:
    # The rules page, numbered version, effects of individual cards:
    # "you move any one of your pegs (for example one in the start area) into a hole on
    # the main track that is occupied by another player's peg ... A joker cannot be used to
    # move to an empty hole"
    pegs = {0: ["T0:8", "H0:5"], 1: ["T1:0"], 2: ["T2:8"]}
    got = results(pegs, "JOKER", BASIC)
    assert got == {
        seats({0: ["T0:8", "H0:5", "T1:0"], 2: ["T2:8"]}),
        seats({0: ["T0:8", "H0:5", "T2:8"], 1: ["T1:0"], 2: ["T2:3"]}),
        seats({0: ["T1:0", "H0:5"], 2: ["T2:8"]}),
        seats({0: ["T2:8", "H0:5"], 1: ["T1:0"], 2: ["T2:3"]}),
    }
    # Seat 2's pegs: one on its in-spot, one that would have to go there. Only seat 1 is hit.
    pegs = {0: ["T0:8", "H0:5"], 1: ["T1:0"], 2: ["T2:8", "T2:3"]}
    got = results(pegs, "JOKER", BASIC)
    assert got == {
        seats({0: ["T0:8", "H0:5", "T1:0"], 2: ["T2:8", "T2:3"]}),
        seats({0: ["T1:0", "H0:5"], 2: ["T2:8", "T2:3"]}),
    }


def test_arizona_joker_comes_from_the_team_start_first() -> None:
    # Arizona rule 6: "if your team has any pegs in their start areas, you must move one of
    # these pegs to replace any peg of a different color ... If your team's start areas are
    # all empty (but only in that case), you can move one of your team's pegs from anywhere
    # on the main track".
    zero = {0: ["T0:8", "T1:5", "H0:5", "H0:4", "H0:3"]}
    got = results({**zero, 1: ["T1:0"], 2: ["T2:8"]}, "JOKER", ARIZONA)
    assert got == {
        seats({0: ["T0:3", "T1:5", "H0:5", "H0:4", "H0:3"], 1: ["T1:0"], 2: ["T2:8", "T0:8"]}),
        seats({0: ["T0:8", "T0:3", "H0:5", "H0:4", "H0:3"], 1: ["T1:0"], 2: ["T2:8", "T1:5"]}),
        seats(zero, {2: ["T2:8", "T1:0"]}),
    }
    full = {2: ["T2:8", "H2:5", "H2:4", "H2:3", "H2:2"]}
    got = results({**zero, 1: ["T1:0"], **full}, "JOKER", ARIZONA)
    assert len(got) == 7  # 2 targets for each seat-0 track peg, 3 for seat 2's
    assert seats({0: ["T1:0", "T1:5", "H0:5", "H0:4", "H0:3"]}, full) in got


# -- the reference's own pieces ------------------------------------------------------------


@pytest.mark.parametrize("sides", [4, 6, 8, 10])
def test_walks_agree_with_the_board_paths(sides: int) -> None:
    """Independently walked paths equal Board.forward/backward (both are checked)."""
    board = Board.for_players(sides)
    holes = list(range(board.track_length)) + [board.home(c, d) for c in range(sides) for d in range(1, 6)]
    for colour in range(sides):
        for hole in holes:
            if board.is_home(hole) and board.owner(hole) != colour:
                continue
            for steps in range(1, 18):
                for home in ("may", "must"):
                    mine = {(w[-1], tuple(w[:-1])) for w in _walks(board, hole, steps, colour, FORWARD, home)}
                    theirs = {(p.landing, p.passed) for p in board.forward(hole, steps, colour, home)}
                    assert mine == theirs, (board.hole_name(hole), steps, colour, home)
                    if home == "may":  # "never" (an opponent moved by an NC ten): the track paths
                        never = _walks(board, hole, steps, colour, FORWARD, "never")
                        on_track = {path for path in theirs if not board.is_home(path[0]) or board.is_home(hole)}
                        assert {(w[-1], tuple(w[:-1])) for w in never} == on_track
                back = _walks(board, hole, steps, colour, BACKWARD, "may")
                path = board.backward(hole, steps)
                assert {(w[-1], tuple(w[:-1])) for w in back} == ({(path.landing, path.passed)} if path else set())


@settings(max_examples=150, deadline=None)
@given(positions())
def test_generated_positions_are_legal_and_playable(position: Position) -> None:
    board = position.board
    for seat in board.seats:
        holes = position.on_board(seat)
        assert len(holes) <= 5
        assert all(board.is_track(h) or board.owner(h) == seat for h in holes)
    assert set(position.occupancy) <= {0} | {seat + 1 for seat in board.seats}
    for rules, card in ((BASIC, "7"), (NC, "2"), (ARIZONA, "JOKER")):
        for occupancy in reference_results(position, card, rules):
            # Every result is again a legal position with the same pegs.
            after = position.with_occupancy(occupancy)
            assert all(len(after.on_board(seat)) <= 5 for seat in board.seats)


def test_crowded_position_is_deterministic_and_crowded() -> None:
    one, two = crowded_position(8, 30, seed=7), crowded_position(8, 30, seed=7)
    assert one == two
    board = one.board
    assert sum(1 for hole in range(board.track_length) if one.occupancy[hole]) == 30
    assert len(reference_results(one, "10", NC)) > 1000
