"""What the session says on the page when Done finds nothing to confirm or a card is refused:
one sentence each, naming the seats as the table does (``seating``). The session decides
when; the words are here, so that its state machine reads without them.
"""

from __future__ import annotations

from referee.game import Game
from referee.table import phone_seats, seating
from referee.words import CARD_WORDS

# A card that cannot move is refused before anyone sees it: declare only what is played. (A bot
# seat's card at a real table is turned up for all to see: it may be entered, and the bot discards.)
UNPLAYABLE = {
    "digital": "{card} can't move any peg now, so it was not played and nobody saw it: choose another card, "
    "or discard one if none moves",
    "table": "{card} can't move any peg now, so it was not declared and nobody saw it: play another card, "
    "or press Can't move",
}

WAITING_FOR = {
    "doubt": "Waiting for the opponents to doubt or let the card pass.",
    "reveal": "Waiting for the doubted card to be turned up.",
    "penalty": "Waiting for a peg to be chosen to go back to start.",
}
_NOT_DONE = {
    "moving": "The move is not finished yet: the lights show where pegs still have to go.",
    "illegal": "This is not a legal move: put the pegs back where the lights show.",
    "ambiguous": "Several moves fit this board: choose the one you made on the page.",
}


def whose(game: Game, seat: int) -> str:
    return f"{seating.name(game, seat)}'s"


def nothing_moved(game: Game, declared: str | None, chosen: str | None) -> str:
    """Done on a board with nothing new on it: a bot's turn waits for its card or its move
    to be carried out; a person's may be one that can't move."""
    turn = game.turn
    name = seating.name(game, turn)
    phone = _phone_words(game, turn, chosen)
    if phone is not None:
        return phone
    if str(turn) in game.table.get("bots", {}):
        if game.mode == "table" and declared is None:
            return f"{name} is a bot: turn up a card for it and tap that card on the page."
        return f"{name} is a bot: move its pegs as the page and the lights show."
    return f"Nothing has moved. If {name} can't move, press \"Can't move\" on the page or hold Done for two seconds."


def _phone_words(game: Game, seat: int, chosen: str | None) -> str | None:
    """Done with nothing moved on a phone seat's turn: it chooses on its phone (issue 36)."""
    by = phone_seats.played_by(game, seat)
    if by is None or by == phone_seats.BOARD:
        return None
    name = seating.name(game, seat)
    if by != phone_seats.PHONE:
        return f"A {by} bot stands in for {name}: move its pegs as the page and the lights show."
    if chosen is None:
        return f"{name} chooses on the phone: the lights will show the move to make."
    return f"{name} chose on the phone: move the pegs as the page and the lights show."


def not_done(status: str, why: str | None, chosen: bool) -> str | None:
    """Done on a board that shows no move: what is missing, or what is wrong and why (None:
    nothing new to say)."""
    if why:
        legal = "" if chosen else "This is not a legal move. "
        return f"{legal}{why} Put the pegs back where the lights show."
    return _NOT_DONE.get(status)


def restoring(game: Game) -> str:
    """After Undo: nobody made a mistake, the board goes back to how it stood."""
    return f"Put the board back as before {whose(game, game.turn)} move: the lights show where."


def which_card(game: Game, ranks: list[str]) -> str:
    """Several cards of the hand make the move on the board: the player says which it was."""
    said = " or ".join(CARD_WORDS.get(card, f"a {card}") for card in ranks)
    return f"{seating.name(game, game.turn)}: {said} makes this move. Tap the card you played."


def unplayable(game: Game, card: str) -> str:
    said = CARD_WORDS.get(card, f"a {card}")
    return UNPLAYABLE[game.mode].format(card=said[0].upper() + said[1:])
