"""Game records as JSON lines, one event a line, and their replay as text.

A record holds everything needed to rebuild a game exactly (``Game.from_events``): the
start (players, teams, the full rule set, card mode, seed), the deal and stock order,
and every draw, play, move, bump, discard, doubt and win.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from referee.game import Event, Game, GameError
from referee.movegen import parse_move
from referee.moves import Move, NotationError
from referee.render import picture
from referee.rulesets import Ruleset
from referee.text import TextError, excerpt, load_json, read_text
from referee.words import Names, cards_for, say


class RecordError(ValueError):
    """A record file that cannot be read as a game."""


def dumps(events: Iterable[Event]) -> str:
    return "".join(json.dumps(event, separators=(",", ":")) + "\n" for event in events)


def write(path: str | Path, events: Iterable[Event]) -> None:
    Path(path).write_text(dumps(events), encoding="utf-8")


def read(path: str | Path) -> list[Event]:
    try:
        text = read_text(path, "record")
    except TextError as error:
        raise RecordError(str(error)) from None
    return loads(text, str(path))


def loads(text: str, name: str = "record") -> list[Event]:
    events = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            event = load_json(line, f"{name} line {number}")
        except TextError as error:
            raise RecordError(str(error)) from None
        if not isinstance(event, dict) or not isinstance(event.get("event"), str):
            raise RecordError(f"{name} line {number}: an event is an object with an 'event' name")
        events.append(event)
    return events


def redacted(events: Iterable[Event], seat: int | None) -> list[Event]:
    """The record as ``seat`` may see it while the game is on (None: someone without a
    seat): no seed, no stock, no hand but its own, no card another seat drew, no card
    another seat played face down (one turned up after a doubt is in its ``reveal``). The
    start event says so (``"redacted": true``): ``replay`` refuses such a record (a game
    cannot be rebuilt from it), and ``narrate`` tells what is there (``opening``)."""
    shown: list[Event] = []
    for event in events:
        kind, own = event.get("event"), event.get("seat") == seat
        if kind == "start":
            event = {**{k: v for k, v in event.items() if k != "seed"}, "redacted": True}
        elif kind == "deal":
            hands = event.get("hands")
            mine = {s: h for s, h in hands.items() if s == str(seat)} if isinstance(hands, dict) else {}
            event = {**_without(event, "stock"), "hands": mine}
        elif kind == "reshuffle":
            event = _without(event, "stock")
        elif kind == "draw" and not own or kind == "play" and "declared" in event and not own:
            event = _without(event, "card")
        shown.append(event)
    return shown


def _without(event: Event, key: str) -> Event:
    return {k: v for k, v in event.items() if k != key}


def replay(events: list[Event]) -> Game:
    if events and events[0].get("redacted"):
        raise RecordError(
            "this record leaves out cards (it was exported before the game was over): replaying needs the whole record"
        )
    try:
        return Game.from_events(events)
    except GameError as error:
        raise RecordError(str(error)) from None
    except (KeyError, TypeError, AttributeError, IndexError, ValueError) as error:
        raise RecordError(f"an event is missing a field or has one of the wrong kind: {excerpt(error)}") from None


def narrate(events: list[Event]) -> Iterator[str]:
    """The game move by move, with a picture of the board after each turn. Worked out
    whole before the first line is given: a broken record prints nothing but its error."""
    return iter([*hidden_notice(events), *_narration(events)])


HIDDEN = "a hidden card"
"""How the narration shows a card the record leaves out."""
CARD_ONLY = ("deal", "draw", "reshuffle")
"""Events that move cards and no peg: a record without the cards still tells the board."""


class _WithoutCards(Game):
    """A game told from a record that leaves out cards (``redacted``): as at a real table,
    the referee holds no hand; deals, draws and reshuffles are told, not checked (their
    cards are not there), and every move is checked against the board as ever."""

    def replay_event(self, event: Event) -> None:
        if not (isinstance(event, dict) and event.get("event") in CARD_ONLY):
            super().replay_event(event)


def opening(events: list[Event]) -> Game:
    """The game at the record's start, to be walked through (``walk``): the whole game, or
    for a record that leaves out cards (downloaded without the PIN while the game was on)
    one told without them."""
    if not (events and events[0].get("redacted")):
        return replay(events[:1])
    start = {**events[0], "seed": 0, "mode": "table"}  # the seed is left out; the cards are not held
    try:
        return _WithoutCards.from_events([start])
    except GameError as error:
        raise RecordError(str(error)) from None


def hidden_notice(events: list[Event]) -> list[str]:
    """The narration's first line for a record that leaves out cards, else nothing."""
    if events and events[0].get("redacted"):
        notice = (
            "(this record was saved before the game was over and leaves out the cards the others "
            f"could not see: each is shown as {HIDDEN})"
        )
        return [notice, ""]
    return []


def seat_names(start: Event) -> dict[int, str]:
    """What the table called its seats (the start event's ``table``), else "seat 1" up: people count from 1."""
    players = start.get("players")
    seats = [0, 2] if players == 2 else list(range(players if isinstance(players, int) else 0))
    names = (start.get("table") or {}).get("names") if isinstance(start.get("table"), dict) else None
    if isinstance(names, list) and len(names) == len(seats):
        return {seat: str(name) for seat, name in zip(seats, names, strict=True)}
    return {seat: f"seat {seat + 1}" for seat in seats}


def bot_seats(start: Event) -> dict[int, str]:
    """The seats the referee's bots played (the start event's ``table``: ``{"bots": {"2": "greedy"}}``)."""
    table = start.get("table")
    bots = table.get("bots") if isinstance(table, dict) else None
    if not isinstance(bots, dict):
        return {}
    return {int(seat): str(kind) for seat, kind in bots.items() if isinstance(seat, str) and seat.isdigit()}


def shown_names(start: Event) -> dict[int, str]:
    """``seat_names``, a bot's seat marked as one: "Blue (bot)"."""
    bots = bot_seats(start)
    return {seat: f"{name} (bot)" if seat in bots else name for seat, name in seat_names(start).items()}


def effective(events: Iterable[Event]) -> list[Event]:
    """The events that still stand: each ``undo`` takes back the last turn (back to its ``turn``
    event, or the turn before when the last one has not begun), as ``Game.undo`` does."""
    kept: list[Event] = []
    for event in events:
        if event.get("event") != "undo":
            kept.append(event)
            continue
        markers = [n for n, earlier in enumerate(kept) if earlier.get("event") == "turn"]
        if not markers:
            continue
        target = markers[-1]
        if target == len(kept) - 1 and len(markers) > 1:
            target = markers[-2]
        del kept[target + 1 :]
    return kept


def named_card(play: Event | None) -> str | None:
    """The card a play event names (declared, or played and recorded), else None: at a real
    table nobody named it, and only the move tells which cards it could have been."""
    if play is None:
        return None
    card = play.get("declared") or play.get("card")
    return str(card) if card else None


def named_cards(events: Iterable[Event]) -> list[str | None]:
    """For every move that still stands, in order (``Game.history``), the card named for it or None."""
    named: list[str | None] = []
    play: Event | None = None
    for event in effective(events):
        if event.get("event") == "play":
            play = event
        elif event.get("event") == "move":
            named.append(named_card(play))
            play = None
        elif event.get("event") == "turn":
            play = None
    return named


def move_said(move: Move, names: Names, rules: Ruleset, card: str | None) -> str:
    """A move in words, its card named only when it was (``card``) or when only one card makes it."""
    return say(move, names) if card else say(move, names, cards_for(move, rules))


def move_text(move: Move, card: str | None) -> str:
    """The move's notation, without the card when nobody named one: "S0-T0:8", not "A S0-T0:8"."""
    return move.text if card else move.text.split(" ", 1)[1]


def walk(game: Game, events: Iterable[Event]) -> Iterator[Event]:
    """Replay ``events`` onto ``game`` one at a time, giving each before it is applied, so
    that a reader sees the game just before every event (the narration, the review). A
    broken event raises RecordError, here or in the reader's ``with checked(event)``."""
    for event in events:
        yield event
        with checked(event):
            game.replay_event(event)


@contextmanager
def checked(event: Event) -> Iterator[None]:
    """A bad event read as a game or described: one RecordError, never a KeyError."""
    try:
        yield
    except GameError as error:
        raise RecordError(str(error)) from None
    except (KeyError, TypeError, AttributeError, IndexError, ValueError) as error:
        raise RecordError(
            f"a {excerpt(event.get('event'))} event is missing a field or has one of the wrong kind: {excerpt(error)}"
        ) from None


def _narration(events: list[Event]) -> list[str]:
    game = opening(events)
    names, marked = seat_names(events[0]), shown_names(events[0])
    lines: list[str] = []
    pending: list[str] = []
    play: Event | None = None
    for event in walk(game, events[1:]):
        with checked(event):
            if event["event"] == "turn":
                line = _describe(event, lambda seat: marked.get(seat, f"seat {seat + 1}"), game)
            else:
                line = _describe(event, lambda seat: names.get(seat, f"seat {seat + 1}"), game, named_card(play))
            play = event if event["event"] == "play" else None if event["event"] in ("move", "turn") else play
        if event["event"] == "turn" and pending:
            lines += [*pending, picture(game.position, names), ""]
            pending = []
        if line:
            pending.append(line)
    return [*lines, *pending, picture(game.position, names)]


def _describe(event: dict[str, Any], name: Callable[[int], str], game: Game, card: str | None = None) -> str | None:
    kind, seat = event["event"], event.get("seat")
    who = name(seat) if isinstance(seat, int) else ""
    if kind == "turn":
        return f"-- turn {event['number']}: {who}{' (extra turn)' if event['extra'] else ''}"
    if kind == "draw":
        return f"   {who} draws {event.get('card', HIDDEN)}"
    if kind == "play" and "declared" in event:
        return f"   {who} plays face down, declaring {event['declared']}"
    if kind == "move":
        try:
            move = parse_move(game.position, event["text"], game.rules)
        except NotationError:
            return f"   {who} moves ({event['text']})"
        said, text = move_said(move, name, game.rules, card), move_text(move, card)
        return f"   {said} ({text})" + (" (free come-out)" if event.get("free") else "")
    if kind == "bump":
        return (
            f"   {who}'s peg bumped from {event['from']} to {'start' if event['to'].startswith('S') else event['to']}"
        )
    if kind == "discard":
        return f"   {who} could not move" + (f" and discards {event['card']}" if event.get("card") else "")
    if kind == "doubt":
        return f"   {who} {'doubts' if event['doubt'] else 'lets it pass'}"
    if kind == "reveal":
        return f"   the card is {event['card']}"
    if kind == "penalty":
        return f"   {name(event['by'])} sends {who}'s peg on {event['hole']} back to start"
    if kind == "extra":
        return f"   {who} may take an extra turn"
    if kind == "reshuffle":
        return "   the played cards are reshuffled into a new stock"
    if kind == "win":
        return "== " + " & ".join(name(seat) for seat in event["team"]) + " win"
    if kind == "undo":
        return "   (the last turn is taken back)"
    return None
