"""Whole games: cards, turns and table procedures, each citing its rule text."""

from __future__ import annotations

from typing import Any

import pytest

from referee import Ruleset
from referee.cards import build_deck
from referee.events import Play, Turn, Undo, Win, event_to_json
from referee.game import Game, GameError

S = "S"
HOME = ["H0:1", "H0:2", "H0:3", "H0:4", "H0:5"]


def rigged(
    rules: str,
    hands: dict[int, list[str]] | None = None,
    *,
    stock: list[str] | None = None,
    pegs: dict[str, list[str]] | None = None,
    players: int = 4,
    mode: str = "digital",
) -> Game:
    """A game whose deal is chosen by the test, built from a record as a replay would."""
    game = Game(Ruleset.preset(rules), players, pegs=pegs, mode=mode)  # type: ignore[arg-type]
    events: list[dict[str, Any]] = [event_to_json(game.events[0])]
    if mode == "digital":
        hands = hands or {}
        dealt = {str(seat): hands.get(seat, ["8", "8", "8", "8", "8"]) for seat in game.board.seats}
        events.append({"event": "deal", "hands": dealt, "stock": stock or ["8"] * 40})
    events.append({"event": "turn", "seat": 0, "number": 1, "extra": False})
    return Game.from_events(events)


# -- cards --------------------------------------------------------------------------------


def test_decks_and_deal() -> None:
    """The rules page, Players and Equipment:
    "Three decks (162 cards including 6 jokers) ... eight players should use four
    decks (216 cards including 8 jokers)"; the club sheet: two players "with the Jokers removed"."""
    basic = Ruleset.preset("basic")
    assert len(build_deck(basic.decks_for(6), basic.jokers_for(6))) == 162
    assert len(build_deck(basic.decks_for(8), basic.jokers_for(8))) == 216
    two = Game(basic, 2, seed=1)
    cards = two.hand(0) + two.hand(2) + two._state.stock
    assert "JOKER" not in cards and len(cards) == 156
    assert Game(basic, 4, seed=9).hand(1) == Game(basic, 4, seed=9).hand(1)  # seeded


@pytest.mark.parametrize(
    ("rules", "held_when_playing"),
    [("basic", 6), ("north-carolina", 6), ("arizona", 5), ("wizard-woodworks", 5), ("kilpatrick", 3)],
)
def test_draw_then_play_or_play_then_draw(rules: str, held_when_playing: int) -> None:
    """The rules page, Basic Game: "Draw one card ... so that you hold six cards"; Arizona rule 1: "first
    playing a card ... finally drawing a card ... so that you have 5 cards again";
    Kilpatrick: "Only 3 cards each are dealt instead of 5"."""
    game = Game(Ruleset.preset(rules), 4, seed=3)
    if game.phase == "draw":
        game.draw()
    assert game.phase == "play" and len(game.hand(0)) == held_when_playing
    game.discard(game.hand(0)[0]) if not game.must_move() else _play_any(game)
    if game.phase == "draw":  # type: ignore[comparison-overlap]  # mypy keeps the phase narrowed by the assert above across the play
        game.draw()
    assert len(game.hand(0)) == Ruleset.preset(rules).hand_size
    assert game.turn == 1


def test_stock_is_reshuffled_when_it_runs_out() -> None:
    """When the stock is empty the played cards become a new stock (the texts are silent;
    docs/rules.md)."""
    game = rigged("basic", {0: ["8"] * 5}, stock=["2", "2"])
    for _ in range(2):
        game.draw()
        game.discard("8")
    assert game.stock_size == 0 and game.discards == ["8", "8"]
    game.draw()  # seat 2: the two played cards are reshuffled, one is drawn
    assert game.events[-2].kind == "reshuffle" and game.stock_size == 1 and game.discards == []
    assert len(game.hand(2)) == 6


# -- must play, discard, jokers -------------------------------------------------------------


def test_must_play_a_card_that_moves() -> None:
    """The rules page, Basic Game:
    "If you have any card (except a joker) that allows you to move a peg, you must
    play such a card, even if the move is disadvantageous." """
    game = rigged("basic", {0: ["5", "8", "8", "8", "8"]}, pegs={"0": ["T0:8", S, S, S, S]}, stock=["3"])
    game.draw()
    assert game.must_move()
    with pytest.raises(GameError, match="must play"):
        game.discard("3")
    game.play("8", "8 T0:8-T0:0")
    assert game.position.pegs_json()["0"][0] == "T0:0"


def test_a_joker_is_never_forced() -> None:
    """The rules page, Basic Game: "A player is never forced to play a joker: if you have no other move you may
    keep the joker and discard another card." """
    game = rigged("basic", {0: ["JOKER", "2", "2", "2", "2"]}, pegs={"1": ["T1:8", S, S, S, S]}, stock=["3"])
    game.draw()
    assert game.playable() == {"JOKER": game.legal("JOKER")} and not game.must_move()
    game.discard("2")
    assert game.turn == 1 and game.count(0) == 1


def test_discard_only_when_nothing_moves() -> None:
    """The rules page, Basic Game:
    "Discarding without moving normally happens only at the start of the game, when
    a player has no aces or pictures to move any peg out of the start area." """
    game = rigged("basic", {0: ["2", "3", "4", "5", "6"]}, stock=["7"])
    game.draw()
    assert game.playable() == {}
    with pytest.raises(GameError, match="does not hold"):
        game.discard("K")
    game.discard("7")
    assert game.hand(0) == ["2", "3", "4", "5", "6"] and game.discards == ["7"]


def test_wrong_phase_and_wrong_card_are_refused_and_change_nothing() -> None:
    game = rigged("basic", {0: ["K", "2", "3", "4", "5"]}, stock=["6"])
    with pytest.raises(GameError, match="waiting for the player to draw"):
        game.play("K", "K S0-T0:8")
    game.draw()
    before = list(game.events)
    with pytest.raises(GameError, match="not a legal move"):
        game.play("K", "K S0-T0:9")
    with pytest.raises(GameError, match="not a move of the card played"):
        game.play("2", "K S0-T0:8")
    assert game.events == before


# -- counting (NC rule 9; Becker) ------------------------------------------------------------


def test_nc_counting_frees_a_peg_on_the_third_turn() -> None:
    """NC rule 9: "If this happens on three consecutive turns, then on the third turn, after
    discarding any card you must move one of your pegs to your 'come out' hole for free."
    "Also on the third turn you have the privilege of discarding any card and coming out
    free even if you drew a 'come out' card." """
    game = rigged("north-carolina", {0: ["2", "3", "4", "5", "6"]}, stock=["K", "9", "9", "9", "9", "9", "9", "9", "9"])
    for _ in range(2):  # two turns unable to move: counting
        game.draw()
        game.discard(game.hand(0)[-1])
        for _ in range(3):
            game.draw()
            game.discard("8")
    assert game.count(0) == 2
    game.draw()  # draws the king: could come out normally, may come out free instead
    assert game.free_come_out_due() and game.must_move()
    with pytest.raises(GameError, match="must play"):
        game.discard("2")
    game.play("2", "2 S0-T0:8", free=True)
    assert game.position.pegs_json()["0"][0] == "T0:8" and game.count(0) == 0
    assert Play(0, "2", free=True) in game.events


def test_becker_counts_to_the_fourth_turn() -> None:
    """Becker: "allowing a player to come out with any card on the fourth turn after being
    stuck for three turns"."""
    game = rigged("becker", {0: ["2", "3", "4", "5", "6"]}, stock=["9"] * 20)
    for turn in range(3):
        game.draw()
        assert not game.free_come_out_due(), turn
        game.discard("9")
        for _ in range(3):
            game.draw()
            game.discard("8")
    game.draw()
    assert game.free_come_out_due() and game.free_come_outs("2")


# -- partner play --------------------------------------------------------------------------


def test_all_home_then_partner_and_the_nc_split() -> None:
    """NC rule 2: "You can use a split move to take your last peg home and move your left
    hand partner's peg with the remainder." """
    pegs = {"0": ["T0:2", "H0:2", "H0:3", "H0:4", "H0:5"], "2": ["T2:10", S, S, S, S]}
    game = rigged("north-carolina", {0: ["7", "2", "2", "2", "2"]}, pegs=pegs, stock=["3"])
    game.draw()
    game.play("7", "7 T0:2-H0:1 T2:10-T2:15")
    assert game.position.all_home(0) and game.position.pegs_json()["2"][0] == "T2:15"


# -- win ----------------------------------------------------------------------------------


def test_the_team_with_every_peg_home_wins() -> None:
    """The rules page, Endgame: "The first team that manages to get all its pegs into their respective home
    areas wins the game." """
    pegs = {"0": ["T0:2", "H0:2", "H0:3", "H0:4", "H0:5"], "2": ["H2:1", "H2:2", "H2:3", "H2:4", "H2:5"]}
    game = rigged("basic", {0: ["2", "2", "2", "2", "2"]}, pegs=pegs, stock=["3"])
    game.draw()
    game.play("2", "2 T0:2-H0:1")
    assert game.phase == "over" and game.winner == (0, 2)
    assert game.events[-1] == Win((0, 2))
    with pytest.raises(GameError, match="the game is over"):
        game.discard("2")


# -- Bluffing Joker -------------------------------------------------------------------------


def bluffing(card: str = "3") -> Game:
    pegs = {"0": ["T0:8", S, S, S, S], "1": ["T1:8", S, S, S, S], "3": ["T3:8", S, S, S, S]}
    game = rigged("bluffing-joker", {0: [card, "2", "2", "2", "2"]}, pegs=pegs, stock=["2"])
    game.draw()
    return game


def test_bluff_unchallenged_moves() -> None:
    """Bluffing Joker: "If no doubts are raised, the peg is moved and the card is discarded,
    still face down, thus ending the turn." Doubts go "next opponent ... clockwise"."""
    game = bluffing()
    game.play("2", "5 T0:8-T0:13", declared="5")
    assert game.phase == "doubt" and game.doubter_to_answer == 1
    with pytest.raises(GameError, match="seat 1 answers first"):
        game.respond(3, True)
    game.respond(1, False)
    game.respond(3, False)
    assert game.position.pegs_json()["0"][0] == "T0:13" and game.turn == 1


def test_bluff_caught() -> None:
    """ "If a bluff is doubted successfully, the team that doubted successfully chooses one
    of the bluffing player's pegs to send back to start and the turn ends immediately." """
    game = bluffing()
    game.play("2", "5 T0:8-T0:13", declared="5")
    game.respond(1, True)
    assert game.phase == "penalty" and game.penalty == (1, 0)
    game.send_to_start(1, "T0:8")
    assert game.position.pegs_json()["0"] == [S] * 5 and game.turn == 1
    assert game.moves == []


def test_doubt_raised_wrongly() -> None:
    """ "If a doubt is raised incorrectly, the truthful player chooses one of the incorrectly
    doubting player's pegs to send back to start." The move stands."""
    game = bluffing("5")
    game.play("5", "5 T0:8-T0:13", declared="5")
    game.respond(1, False)
    game.respond(3, True)
    assert game.penalty == (0, 3) and game.position.pegs_json()["0"][0] == "T0:13"
    with pytest.raises(GameError, match="does not hold a peg of seat 3"):
        game.send_to_start(0, "T1:8")
    game.send_to_start(0, "T3:8")
    assert game.position.pegs_json()["3"] == [S] * 5 and game.turn == 1


def test_doubter_with_no_pegs_out_gives_an_extra_turn() -> None:
    """ "If the unsuccessful doubter has no pegs out of start yet, the truthful player has the
    option to take an extra turn on their next chance to play." """
    pegs = {"0": ["T0:8", S, S, S, S], "1": ["T1:8", S, S, S, S]}
    game = rigged("bluffing-joker", {0: ["5", "2", "2", "2", "2"]}, pegs=pegs, stock=["2"] * 20)
    game.draw()
    game.play("5", "5 T0:8-T0:13", declared="5")
    game.respond(1, False)
    game.respond(3, True)  # seat 3 has nothing out: seat 0 wins an extra turn
    assert game.turn == 1
    for _seat in (1, 2, 3, 0):
        game.draw()
        _play_any(game)
        while game.phase == "doubt":
            game.respond(game.doubter_to_answer, False)  # type: ignore[arg-type]
    assert game.turn == 0 and isinstance(game.events[-1], Turn) and game.events[-1].extra is True
    game.decline_extra_turn()
    assert game.turn == 1


def test_bluff_at_a_real_table_needs_the_card_turned_up() -> None:
    pegs = {"0": ["T0:8", S, S, S, S], "1": ["T1:8", S, S, S, S]}
    game = rigged("bluffing-joker", pegs=pegs, mode="table")
    game.play(None, "5 T0:8-T0:13", declared="5")
    game.respond(1, True)
    assert game.phase == "reveal"
    game.reveal("7")
    assert game.penalty == (1, 0)


# -- table mode, undo, replay ------------------------------------------------------------------


def test_table_mode_accepts_any_card_that_explains_the_move() -> None:
    """At a real table the referee cannot see the cards: an undeclared move is accepted if
    any card explains it, and a declared card must explain it."""
    game = rigged("basic", pegs={"0": ["T0:8", S, S, S, S]}, mode="table")
    explaining = {move.card for move in game.explain(_after(game, "T0:18"))}
    assert explaining == {"10", "J", "Q", "K"}
    with pytest.raises(GameError, match="at a real table"):
        game.draw()
    game.play(None, "10 T0:8-T1:0")
    assert game.turn == 1
    game.discard()  # must-play cannot be checked
    with pytest.raises(GameError, match="not a move of the card played"):
        game.play("A", "K S2-T2:8")


def test_undo_goes_back_to_before_the_draw() -> None:
    game = rigged("basic", {0: ["K", "2", "3", "4", "5"]}, stock=["9", "6"])
    game.draw()
    game.play("K", "K S0-T0:8")
    assert game.turn == 1
    game.undo()  # seat 1 has not begun: back to seat 0, before its draw
    assert game.turn == 0 and game.phase == "draw" and game.hand(0) == ["K", "2", "3", "4", "5"]
    assert game.position.pegs_json()["0"] == [S] * 5 and game.stock_size == 2
    game.draw()
    assert game.hand(0)[-1] == "6"  # the same card again: nothing new was learnt
    assert game.events.count(Undo()) == 1
    assert Game.from_events(game.events).position == game.position
    game.undo()  # the draw again
    with pytest.raises(GameError, match="nothing to undo"):
        game.undo()


def test_undo_never_passes_new_information() -> None:
    game = rigged("basic", {0: ["8"] * 5}, stock=["2"])
    for _ in range(5):
        game.draw()
        game.discard("8")
    assert any(e.kind == "reshuffle" for e in game.events)
    with pytest.raises(GameError, match="new information"):
        game.undo()


def _play_any(game: Game) -> None:
    playable = game.playable()
    if not playable:
        game.discard(game.hand(game.turn)[0])
        return
    card, moves = next(iter(playable.items()))
    game.play(card, moves[0])


def _after(game: Game, hole: str) -> Any:
    move = game.legal("10")[0]
    assert move.result.pegs_json()["0"][0] == "T1:0" and hole == "T0:18"
    return move.result
