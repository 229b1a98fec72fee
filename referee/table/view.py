"""The page's JSON: the state of the table, its seats and its health, in plain words where
a person reads them (colours named, not seat numbers).

``State`` is the one description of the state the page reads (``GET /api/state`` and every
server-sent event): ``game_state`` builds the game's part (``SessionState``), ``state`` adds
the running table's keys (``Table.state`` asks for it once per version, under its lock). The
page's script that reads it (``web/static/app.js``) points here. The page's other reads of
the table are here too: ``overview`` (who may act now) and ``hand`` (a phone's own cards).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NotRequired, TypedDict, cast

from hardware.signals import LEGEND, PATTERNS, ROLE_COLOURS, SEAT_COLOURS, SEAT_NAMES
from referee import events as ev
from referee import record
from referee.events import event_to_json
from referee.game import Game
from referee.moves import Move
from referee.protocol_types import Overview
from referee.rulesets import Ruleset, title_of
from referee.table import last_card, phone_seats, seat_bots, seating, teaching
from referee.table.board_hardware import BoardHardware
from referee.table.bot_driver import BotDriver
from referee.table.lesson_host import LessonHost
from referee.table.presenter import LedPresenter
from referee.table.reading import finishing, finishing_seat, why_not_shown
from referee.table.seating import Seat
from referee.table.session import Session
from referee.table.store import Store
from referee.table.told import Told, told
from referee.table.wiring_check import WiringCheck
from referee.tracker import Fix, Report, Role
from referee.words import fix_words, name_of, say


class FixJson(TypedDict):
    """One correction that puts the board back: take a peg off a hole, or put one on it."""

    action: str  # "remove" or "place"
    hole: str  # a physical hole's name, "T1:8"
    seat: int | None  # whose peg, when known
    words: str  # the correction in words (referee/words.py, fix_words)


class Candidate(TypedDict):
    """A move that fits an ambiguous board (``referee.moves.Move.to_json``), with whose move it would be."""

    text: str  # the move's notation: what ``POST /api/resolve`` takes back
    result: dict[str, list[str]]  # the pegs after it: seat -> holes
    seat: int  # the seat to play, or the last seat when the move finishes that seat's move
    words: str


class Played(TypedDict):
    """A move that stands, in the order played."""

    seat: int
    move: str  # notation
    words: str


class Rules(TypedDict):
    """The rule set in play, for the page's rules panel."""

    name: str
    title: str  # as people say it: "North Carolina"
    summary: str
    cards: dict[str, str]  # card -> what it does
    settings: list[str]  # the rules beyond the cards, in words


class Bluff(TypedDict):
    """The Bluffing Joker's doubt, reveal and penalty, while one is under way."""

    declared: str | None  # the card the seat to play named
    doubter: int | None  # the seat asked whether it doubts it
    chooser: int | None  # penalty: the seat that taps a peg to send back
    victim: int | None  # penalty: the seat whose peg goes back


class SessionState(TypedDict):
    """The game's part of the page's state (``game_state``)."""

    game: int  # the game's id: a seat joined belongs to one game only
    position: dict[str, Any]  # referee.position.Position.to_json: players, turn, pegs (seat -> holes), teams
    turn: int
    phase: str  # "play", "doubt", "reveal", "penalty", "over"
    mode: str  # "table" (real cards) or "digital" (the referee deals)
    winner: list[int] | None  # the winning team's seats
    status: str  # the tracker's reading of the board: "synced", "moving", "move", "ambiguous", "illegal" ("setup": a lesson)
    guidance: dict[str, Role]  # hole -> what its light asks: "selected", "destination", "bump", "wrong", "put-back"
    back: list[str]  # the corrections that put the board back, in words
    forward: list[str]  # or the ones that finish a legal move, in words
    fixes: list[FixJson]  # the corrections of ``back``, hole by hole
    why_not: str | None  # why the board is not a legal move, in words
    finishing: str | None  # a split half made, said as the table says it: "Red: 4 more of the 7"
    finishing_seat: int | None  # ... and whose it is
    restoring: bool  # the board is being put back after an undo: nobody erred
    candidates: list[Candidate]  # status "ambiguous": the moves that fit
    move: str | None  # status "move": the move on the board, notation
    move_words: str | None  # ... in words
    amending: bool  # the move on the board finishes the last seat's move
    moves: list[str]  # every move that stands, notation
    history: list[Played]  # ... with who made it and in words
    bumps: list[dict[str, Any]]  # referee.game.Game.bumps: by, seat, from, to, penalty
    rules: Rules
    occupied: list[str]  # the holes the sensors feel filled
    on_the_way: dict[str, int]  # a peg placed during the move on the board, known by its colour: hole -> seat
    seats: list[Seat]
    teams: list[list[int]]
    sides: int  # the board's sides: a page drawn for another number reloads
    last_card: str | None  # the last card played, when named or only one card makes its move
    last_card_words: str | None  # else the cards that could have made it, in words
    last_card_seat: int | None  # who played or discarded it
    last_card_declared: str | None  # Bluffing Joker: the card declared, when the one turned up is another
    told: list[Told]  # the moves list: moves, discards and doubts that stand, each saying who
    put_back: str | None  # why the board goes back, when a doubt (not an undo) sent it back
    declared: str | None  # the card named for the move on the board
    needs_declaration: bool  # Bluffing Joker at a real table: the move counts once its card is declared
    bluff: Bluff | None
    notice: str | None  # one sentence about the last thing done
    store_error: str | None  # why moves are not being saved


class State(SessionState):
    """The whole state the page reads: the game's part and what the running table adds
    (``referee/table/table.py``, ``Table.state``)."""

    version: int  # grows at every change: a POST's older reply never overwrites a newer state
    wiring: dict[str, Any] | None  # the wiring check: running, step, text
    simulate: bool  # a simulated board: taps on holes lift and place pegs
    store_recovered: str | None  # what was found damaged at start-up, and what was kept
    sensor_error: str | None  # why the sensors are not read
    bots: dict[str, str]  # seat (as a string) -> bot kind: "beginner", "family", "strong", "expert" (or an older name)
    bot: dict[str, Any] | None  # the bot to play's chosen move: seat, kind, card, move, words
    move_marks: dict[str, str]  # hole -> role of a lit move (a bot's, a phone's, a hint's): "lift", "hint", "bump"
    phones: dict[str, str]  # seat (as a string) played from a phone -> who plays it now: "phone", "board", a bot's kind
    phone: dict[str, Any] | None  # the move the phone seat to play sent: seat, card, move, words (issue 36)
    lesson: dict[str, Any] | None  # referee/table/lessons.py, LessonRun.as_json
    lesson_left: dict[str, Any] | None  # a lesson left for a game: id, rules, players, step, steps, title
    teaching: bool  # a teaching game
    hints: NotRequired[list[dict[str, Any]]]  # a teaching game with real cards: card, words, why, note
    teaching_moves: NotRequired[dict[str, dict[str, Any]]]  # ... and each card's moves: card -> moves, more
    leds: NotRequired[dict[str, str]]  # a simulated strip: hole -> the colour its LED shows, "#rrggbb"


def light_legend() -> tuple[tuple[str, str, str, str], ...]:
    """The LEDs' legend for the page: role, colour, rhythm ("steady", "blink", "pulse"), words."""
    rows = []
    for role, words in LEGEND:
        colour = ROLE_COLOURS.get(role, SEAT_COLOURS[0])
        rows.append(
            (role, "#{:02x}{:02x}{:02x}".format(*colour), PATTERNS[role].name if role in PATTERNS else "dim", words)
        )
    return tuple(rows)


def session_state(session: Session) -> dict[str, Any]:
    """``game_state`` as a plain mapping, which the running table extends with its own keys
    into a ``State`` (``Table.state``)."""
    return cast("dict[str, Any]", game_state(session))


def game_state(session: Session) -> SessionState:
    """Everything the page shows of the game and the board's reading of it."""
    game, report = session.game, session.report
    seated = seating.seat_list(game)
    colour = _colour_of(game)
    said = tuple(colour(seat) for seat in range(game.board.sides))
    card, card_words = last_card.last_played(game)
    said_history, told_list = _record_words(game, said, colour)
    restoring = session.tracker.restoring  # nobody erred: the board goes back (undo, a doubt)
    return {
        "game": session.game_id,
        "position": game.position.to_json(),
        "turn": game.turn,
        "phase": game.phase,
        "mode": game.mode,
        "winner": list(game.winner) if game.winner else None,
        "status": report.status,
        "guidance": report.guidance,
        "back": [fix_words(f.action, f.hole, f.seat, colour) for f in report.back],
        "forward": [fix_words(f.action, f.hole, f.seat, colour) for f in report.forward],
        "fixes": _fixes(report.back, colour),
        "why_not": why_not_shown(session) if report.status in ("illegal", "moving") and not restoring else None,
        "finishing": finishing(session, colour),
        "finishing_seat": finishing_seat(session),
        "restoring": restoring,
        "candidates": _candidates(report, game.history[-1][0] if game.history else game.turn, game.turn, said),
        "move": report.move.text if report.move else None,
        "move_words": _move_words_on_board(session, said),
        "amending": report.amend,
        "moves": game.moves,
        "history": said_history,
        "told": told_list,
        "put_back": _put_back(game, told_list) if restoring else None,
        "bumps": [event_to_json(bump) for bump in game.bumps],
        "rules": rules_state(game),
        "occupied": [session.physical.name(h) for h in session.physical.holes(session.tracker.occupied)],
        "on_the_way": _on_the_way(session) if report.status in ("moving", "move") else {},
        "seats": seated,
        "teams": [list(team) for team in game.board.teams],
        "sides": game.board.sides,
        "last_card": card,
        "last_card_words": card_words,
        "last_card_seat": last_card.card_seat(game.events) if card or card_words else None,
        "last_card_declared": last_card.declared_instead(game.events, card),
        "declared": session.declared,
        "needs_declaration": game.rules.bluffing and game.mode == "table" and game.phase == "play",
        "bluff": bluff_state(game),
        "notice": session.notice,
        "store_error": session.store_error,
    }


def _colour_of(game: Game) -> Callable[[int], str]:
    """How the page names a seat: the name the table chose, else its colour's (``seating``)."""
    return functools.partial(name_of, seating.names(game))


def _fixes(found: tuple[Fix, ...], colour: Callable[[int], str]) -> list[FixJson]:
    return [
        {"action": f.action, "hole": f.hole, "seat": f.seat, "words": fix_words(f.action, f.hole, f.seat, colour)}
        for f in found
    ]


def _move_words_on_board(session: Session, said: tuple[str, ...]) -> str | None:
    move = session.report.move
    return move_words(move, said, session.game.rules, _pending_card(session, move)) if move else None


def rules_state(game: Game) -> Rules:
    """The rules in force as the page lists them: a line per card and the table's settings."""
    return {
        "name": game.rules.name,
        "title": title_of(game.rules.name),
        "summary": game.rules.summary,
        "cards": {card: power.describe() for card, power in game.rules.cards},
        "settings": table_settings(game),
    }


@functools.lru_cache(maxsize=4096)
def move_words(move: Move, names: tuple[str, ...], rules: Ruleset | None = None, card: str | None = None) -> str:
    """A move in plain words (referee/words.py), kept: the page asks at every change. With
    ``rules``, its card is named only when it was (``card``: declared, dealt or free) or when
    only one card of those rules makes it; else the cards that do, "(an ace or a face card)"."""
    if rules is None:
        return say(move, dict(enumerate(names)))
    return record.move_said(move, dict(enumerate(names)), rules, card)


def history(game: Game, names: tuple[str, ...]) -> list[Played]:
    """Every move that stands, in words: a card nobody named is not said as a fact."""
    named = _named_cards(game)
    return [
        {"seat": seat, "move": text, "words": move_words(move, names, game.rules, card)}
        for (seat, text), move, card in zip(game.history, game.made, named, strict=True)
    ]


def _named_cards(game: Game) -> list[str | None]:
    """The card named for each move in ``game.history`` (a digital game's are all named)."""
    if game.mode == "digital":
        return [move.card for move in game.made]
    named = record.named_cards(game.events)
    return named if len(named) == len(game.made) else [None] * len(game.made)


def _pending_card(session: Session, move: Move) -> str | None:
    """The card of the move on the board, when it is known: dealt (digital) or declared."""
    if session.game.mode == "digital" or session.declared == move.card:
        return move.card
    return None


def table_settings(game: Game) -> list[str]:
    """The rules beyond the cards that a table sets (house rules change them): the panel lists them."""
    return game.rules.settings(game.board.players)


def _record_words(game: Game, said: tuple[str, ...], colour: Callable[[int], str]) -> tuple[list[Played], list[Told]]:
    """The moves that stand in words, and the moves list as the table tells it."""
    moves = history(game, said)
    return moves, told(game, moves, colour)


def _candidates(report: Report, last: int, turn: int, names: tuple[str, ...]) -> list[Candidate]:
    """The moves that fit an ambiguous board, each with the seat whose move it would be and in words."""
    if report.status != "ambiguous":
        return []
    amending = {move.text for move in report.amendments}
    return [
        {
            "text": move.text,
            "result": move.result.pegs_json(),
            "seat": last if move.text in amending else turn,
            "words": move_words(move, names),
        }
        for move in report.candidates
    ]


def bluff_state(game: Game) -> Bluff | None:
    if not game.rules.bluffing or game.phase not in ("doubt", "reveal", "penalty"):
        return None
    penalty = game.penalty
    return {
        "declared": last_card.last_card(game.events),
        "doubter": game.doubter_to_answer,
        "chooser": penalty[0] if penalty else None,
        "victim": penalty[1] if penalty else None,
    }


def _on_the_way(session: Session) -> dict[str, int]:
    """The pegs placed during the move on the board whose colour the sensors leave certain, in
    holes where the game has no peg of that colour yet."""
    stands = {hole: int(seat) for seat, holes in session.game.position.to_json()["pegs"].items() for hole in holes}
    named = ((session.physical.name(hole), seat) for hole, seat in session.tracker.known_colours().items())
    return {name: seat for name, seat in named if seat is not None and name[0] in "TH" and stands.get(name) != seat}


def _put_back(game: Game, said: list[Told]) -> str | None:
    """While the board goes back: a doubt's outcome (a caught bluff, a peg sent back) when that
    is what changed the game last, not an undo or a move."""
    for event in reversed(game.events):
        if isinstance(event, (ev.Undo, ev.Move)):
            return None
        if isinstance(event, (ev.PenaltyDue, ev.Extra, ev.Penalty)):
            doubt = list(itertools.takewhile(lambda entry: entry["kind"] == "doubt", reversed(said)))[::-1]
            return " ".join([*(entry["words"] for entry in doubt), "Put the board back as the lights show."])
    return None


# -- the running table's reads: the page's state, who may act, a phone's hand ------------------


@dataclass(frozen=True)
class Parts:
    """The running table's collaborators whose state the page reads (``Table``)."""

    store: Store
    hardware: BoardHardware
    bots: BotDriver
    lights: LedPresenter
    lessons: LessonHost
    teaching: teaching.PerTurn
    wiring: WiringCheck


def state(session: Session, version: int, parts: Parts) -> State:
    """The whole state the page reads: the game's (``game_state``) and the running table's."""
    data: dict[str, Any] = {
        "version": version,
        **session_state(session),
        "wiring": parts.wiring.status,
        "simulate": parts.hardware.simulated,
        "store_recovered": parts.store.recovered,
        "sensor_error": parts.hardware.sensors.fault,
        "bots": parts.bots.kinds(),
        "bot": None,
    }
    names = {seat["seat"]: seat["name"] for seat in data["seats"]}
    data["bot"] = parts.bots.plan_json(names)
    data["phones"] = phone_seats.kinds(session.game)
    data["phone"] = seat_bots.plan_json(seat_bots.chosen_plan(session), names)
    data["move_marks"] = dict(parts.lights.move_marks)
    game = session.game
    if game.mode == "digital" and not parts.bots.is_bot(game.turn):
        data["declared"] = None  # a card tapped on a phone stays on it until played (/api/hand)
    parts.lessons.page(data, session)
    data["store_recovered"] = parts.store.recovered  # a lesson left may have been found damaged just now
    data["teaching"] = bool(game.table.get("teaching"))
    if data["teaching"] and game.mode == "table":  # digital: the seat's cards, for its team (lesson)
        taught = parts.teaching.get(session, names)
        data["hints"], data["teaching_moves"] = taught.hints, taught.moves
    leds = parts.lights.page_leds(parts.wiring.running)
    if leds is not None:
        data["leds"] = leds
    return cast("State", data)


def overview(session: Session, hardware: BoardHardware) -> Overview:
    """Who may act now, read in one go (``Overview``)."""
    game = session.game
    penalty = game.penalty
    return Overview(
        session.game_id,
        game.turn,
        game.board.sides,
        tuple(game.board.seats),
        game.doubter_to_answer,
        penalty[0] if penalty else None,
        tuple(seating.seat_default(side) for side in range(len(SEAT_NAMES))),
        any(hole.startswith("C") for hole in hardware.layout.pixel_of),
        light_legend(),
        teaching.hand_seen_by(game),
        tuple(int(seat) for seat in game.table.get("bots", {})),
    )


def hand(session: Session, seat: int) -> dict[str, Any]:
    """A phone's view of its own cards (digital card mode)."""
    game = session.game
    if game.mode != "digital":
        raise ValueError("the cards are real at this table: there is no hand to show")
    if seat not in game.board.seats:
        raise ValueError(f"no seat {seat} in this game")
    mine = seat == game.turn and game.phase == "play"
    return {
        "seat": seat,
        "hand": game.hand(seat),
        "playable": sorted(game.movable_cards()) if mine else [],
        "your_turn": mine,
        "must_move": game.must_move() if mine else False,
        "free_come_out": mine and game.free_come_out_due(),
        "declared": session.declared if mine else None,
        **_phone_hand(session, seat, mine),
    }


def _phone_hand(session: Session, seat: int, mine: bool) -> dict[str, Any]:
    """A phone seat's own view (issue 36): who plays it now, and on its turn each card's
    moves in words and the move it sent, if any."""
    game = session.game
    by = phone_seats.played_by(game, seat)
    if by is None:
        return {}
    names = {row["seat"]: row["name"] for row in seating.seats(game)}
    moves = phone_seats.options(game, seat) if mine and by == phone_seats.PHONE else {}
    return {
        "phone": by,
        "moves": {card: [{"text": m.text, "words": say(m, names)} for m in found] for card, found in moves.items()},
        "chosen": seat_bots.plan_json(seat_bots.chosen_plan(session), names) if mine else None,
    }
