"""Seats played from a phone, away from the board (issue 36, "A seat played from a phone").

A phone seat chooses its card and its move on its phone; the LEDs show that move as they show
a bot's (``seat_bots.Plan``), whoever is nearest carries it out, and the tracker takes exactly
that move (``Candidates.only``). Which seats are phones is the game's table settings,
``{"phones": [2]}``; who plays a phone seat now is the game's record (``events.Seated``): the
phone, a person at the board or a bot standing in while the phone is quiet. It reads the
game only: the phone's chosen move as a plan to light is ``seat_bots.chosen_plan``.

    phone_seats({"phones": [2]}, (0, 1, 2, 3), bots={})   # (2,)
    played_by(game, 2)                                      # "phone", "board", a bot's kind, or None
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from referee.game import Game, GameError, seat_number
from referee.moves import Move

PHONE, BOARD = "phone", "board"


def phone_seats(table: Mapping[str, Any], seats: tuple[int, ...], bots: Mapping[int, str]) -> tuple[int, ...]:
    """The seats a game's table settings play from a phone; refuses a seat not in play, a
    bot's seat, or a game with nobody at the board to move the pegs."""
    given = table.get("phones") or []
    if not isinstance(given, list):
        raise ValueError("'phones' lists the seats played from a phone, like [2]")  # noqa: TRY004 (a 400)
    phones: list[int] = []
    for seat in given:
        number = seat_number(seat)
        if number is None or number not in seats:
            raise ValueError(f"'phones': no seat {seat!r} in this game (seats {', '.join(map(str, seats))})")
        if number in bots:
            raise ValueError(f"'phones': seat {number} is a bot's: a seat is a person, a bot or a phone")
        if number not in phones:
            phones.append(number)
    if phones and len(set(phones) | set(bots)) == len(seats):
        raise ValueError("at least one seat must be at the board, to move the pegs for the phones")
    return tuple(phones)


def game_phones(game: Game) -> tuple[int, ...]:
    """The phone seats of a game as it was started (its table settings, checked then)."""
    phones = game.table.get("phones")
    return tuple(seat for seat in phones if type(seat) is int) if isinstance(phones, list) else ()


def played_by(game: Game, seat: int) -> str | None:
    """Who plays a phone seat now: "phone", "board" or a bot's kind; None for other seats."""
    if seat not in game_phones(game):
        return None
    return game.seated_by(seat) or PHONE


def standing_bots(game: Game) -> dict[int, str]:
    """The phone seats a bot plays for now, with its kind (``SeatBots`` seats them)."""
    return {seat: by for seat in game_phones(game) if (by := played_by(game, seat)) not in (PHONE, BOARD, None)}


def kinds(game: Game) -> dict[str, str]:
    """``{seat: who plays it}`` of the phone seats, as the page reads them."""
    return {str(seat): played_by(game, seat) or PHONE for seat in game_phones(game)}


def options(game: Game, seat: int) -> dict[str, list[Move]]:
    """Each card of ``seat``'s hand with the moves it can make now (a counting turn's free
    come-outs too): what its phone chooses from, on its turn."""
    if game.phase != "play" or game.turn != seat or game.mode != "digital":
        return {}
    return {card: _moves_of(game, card) for card in dict.fromkeys(game.hand(seat))}


def _moves_of(game: Game, card: str) -> list[Move]:
    """The moves ``card`` makes now, a counting turn's free come-outs too, each once."""
    return list({move.text: move for move in [*game.legal(card), *game.free_come_outs(card)]}.values())


@functools.lru_cache(maxsize=2)
def chosen_move(game: Game, events: int, card: str, text: str) -> Move | None:
    """The chosen move, worked out once for a state of the game (``events``: its length, so
    a game moved on asks again): the table's ticker looks for it twenty times a second, and
    on a crowded board a card's moves take milliseconds to list."""
    return next((move for move in _moves_of(game, card) if move.text == text), None)


def find(game: Game, seat: int, card: str, text: str, name: str) -> Move:
    """The move a phone sent: a card ``seat`` (called ``name``) holds, and a move that card makes now."""
    if card not in game.hand(seat):
        raise ValueError(f"{name} does not hold {card}: choose a card of the hand")
    for move in options(game, seat).get(card, []):
        if move.text == text:
            return move
    raise ValueError(f"{text!r} is not a move the {card} can make now: choose one of its moves")


def check_hand_over(game: Game, seat: int, by: str, bots: tuple[str, ...]) -> None:
    """A phone seat may be handed to a bot, to the board or back to its phone."""
    if seat not in game_phones(game):
        raise ValueError(f"seat {seat} is not played from a phone in this game: only a phone seat is handed over")
    if by not in (PHONE, BOARD, *bots):
        raise ValueError(f"a phone seat is handed to 'phone', 'board' or a bot: {', '.join(bots)}; not {by!r}")
    if played_by(game, seat) == by:
        raise GameError(f"seat {seat} is played that way already")
