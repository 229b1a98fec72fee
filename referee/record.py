"""Game records as JSON lines, one event a line, and their replay as text.

A record holds everything needed to rebuild a game exactly (``Game.from_events``): the
start (players, teams, the full rule set, card mode, seed), the deal and stock order,
and every draw, play, move, bump, discard, doubt and win. Here the record meets the disk:
each line is read into the game's own events (``referee.events``), checked on the way in.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

from referee import events as ev
from referee.board import BoardError, seating
from referee.board_picture import picture
from referee.events import Event, EventError, event_from_json, event_to_json
from referee.file_reading import TextError, load_json, read_text
from referee.game import Game, GameError
from referee.movegen import parse_move
from referee.moves import Move, NotationError
from referee.rulesets import Ruleset
from referee.undo import begun
from referee.words import Names, cards_for, say


class RecordError(ValueError):
    """A record file that cannot be read as a game."""


def dumps(events: Iterable[Event]) -> str:
    return "".join(json.dumps(event_to_json(event), separators=(",", ":")) + "\n" for event in events)


def write(path: str | Path, events: Iterable[Event]) -> None:
    Path(path).write_text(dumps(events), encoding="utf-8")


def read(path: str | Path) -> list[Event]:
    try:
        text = read_text(path, "record")
    except TextError as error:
        raise RecordError(str(error)) from None
    return loads(text, str(path))


def loads(text: str, name: str = "record") -> list[Event]:
    """The events of a record's JSON lines, each checked: one RecordError naming the line."""
    events: list[Event] = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            data = load_json(line, f"{name} line {number}")
        except TextError as error:
            raise RecordError(str(error)) from None
        if not isinstance(data, dict) or not isinstance(data.get("event"), str):
            raise RecordError(f"{name} line {number}: an event is an object with an 'event' name")
        if not events and data["event"] != "start":
            raise RecordError(f"{name} line {number}: a game record starts with a start event")
        try:
            events.append(event_from_json(data))
        except EventError as error:
            raise RecordError(f"{name} line {number}: {error}") from None
    return events


def redacted(events: Iterable[Event], seat: int | None) -> list[Event]:
    """The record as ``seat`` may see it while the game is on (None: someone without a
    seat): no seed, no stock, no hand but its own, no card another seat drew, no card
    another seat played face down (one turned up after a doubt is in its ``reveal``). The
    start event says so (``"redacted": true``): ``replay`` refuses such a record (a game
    cannot be rebuilt from it), and ``narrate`` tells what is there (``opening``)."""
    return [_redacted(event, seat) for event in events]


def _redacted(event: Event, seat: int | None) -> Event:
    match event:
        case ev.Start():
            return replace(event, seed=None, redacted=True)
        case ev.Deal(hands=hands):
            return ev.Deal({s: cards for s, cards in hands.items() if s == seat}, None)
        case ev.Reshuffle():
            return ev.Reshuffle(None)
        case ev.Draw(seat=drew) if drew != seat:
            return ev.Draw(drew, None)
        case ev.Play(seat=played, declared=str()) if played != seat:
            return replace(event, card=None, hidden=True)
    return event


def _is_redacted(events: Sequence[Event | Mapping[str, object]]) -> bool:
    first = events[0] if events else None
    return bool(first.get("redacted")) if isinstance(first, Mapping) else isinstance(first, ev.Start) and first.redacted


def replay(events: Sequence[Event | Mapping[str, object]]) -> Game:
    """The game a whole record rebuilds (its events, or their JSON); RecordError if it does not."""
    if _is_redacted(events):
        raise RecordError(
            "this record leaves out cards (it was exported before the game was over): replaying needs the whole record"
        )
    try:
        return Game.from_events(events)
    except GameError as error:
        raise RecordError(str(error)) from None


def narrate(events: list[Event]) -> Iterator[str]:
    """The game move by move, with a picture of the board after each turn. Worked out
    whole before the first line is given: a broken record prints nothing but its error."""
    return iter([*hidden_notice(events), *_narration(events)])


HIDDEN = "a hidden card"
"""How the narration shows a card the record leaves out."""
CARD_ONLY = (ev.Deal, ev.Draw, ev.Reshuffle)
"""Events that move cards and no peg: a record without the cards still tells the board."""


class _WithoutCards(Game):
    """A game told from a record that leaves out cards (``redacted``): as at a real table,
    the referee holds no hand; deals, draws and reshuffles are told, not checked (their
    cards are not there), and every move is checked against the board as ever."""

    def _apply(self, event: Event) -> None:
        # Kept in the record though not applied: Undo counts a turn that only drew as begun.
        if not isinstance(event, CARD_ONLY):
            super()._apply(event)


def opening(events: list[Event]) -> Game:
    """The game at the record's start, to be walked through (``walk``): the whole game, or
    for a record that leaves out cards (downloaded without the PIN while the game was on)
    one told without them."""
    if not _is_redacted(events):
        return replay(events[:1])
    assert isinstance(events[0], ev.Start)
    start = replace(events[0], seed=0, mode="table", redacted=False)  # the seed is left out; no card is held
    try:
        return _WithoutCards.from_events([start])
    except GameError as error:
        raise RecordError(str(error)) from None


def hidden_notice(events: list[Event]) -> list[str]:
    """The narration's first line for a record that leaves out cards, else nothing."""
    if _is_redacted(events):
        notice = (
            "(this record was saved before the game was over and leaves out the cards the others "
            f"could not see: each is shown as {HIDDEN})"
        )
        return [notice, ""]
    return []


def seat_names(start: Event) -> dict[int, str]:
    """What the table called its seats (the start event's ``table``), else "seat 1" up: people count from 1."""
    players = start.players if isinstance(start, ev.Start) else 0
    try:
        seats = list(seating(players)[1])
    except BoardError:  # a damaged count: its seats as numbered
        seats = list(range(players))
    names = _table(start).get("names")
    if isinstance(names, list) and len(names) == len(seats):
        return {seat: str(name) for seat, name in zip(seats, names, strict=True)}
    return {seat: f"seat {seat + 1}" for seat in seats}


def side_names(start: Event) -> dict[int, str]:
    """``seat_names``, and the sides of the board nobody plays by the names the table gave them
    (the start event's ``table``: ``{"sides": {"1": "Sky blue"}}``), so that a move's words name
    a corner of a 2-player board as the table did, never after a "seat 4" nobody sits at."""
    sides = _table(start).get("sides")
    empty = (
        {
            int(side): name
            for side, name in sides.items()
            if isinstance(side, str) and side.isdigit() and isinstance(name, str)
        }
        if isinstance(sides, dict)
        else {}
    )
    return {**empty, **seat_names(start)}


def _table(start: Event) -> Mapping[str, object]:
    """How the table showed the game (the start event's ``table``), or nothing."""
    return (start.table or {}) if isinstance(start, ev.Start) else {}


def bot_seats(start: Event) -> dict[int, str]:
    """The seats the referee's bots played (the start event's ``table``: ``{"bots": {"2": "greedy"}}``)."""
    bots = _table(start).get("bots")
    if not isinstance(bots, dict):
        return {}
    return {int(seat): str(kind) for seat, kind in bots.items() if isinstance(seat, str) and seat.isdigit()}


def phone_seats(start: Event) -> tuple[int, ...]:
    """The seats played from a phone, away from the board (the start event's ``table``:
    ``{"phones": [2]}``; issue 36)."""
    phones = _table(start).get("phones")
    return tuple(seat for seat in phones if type(seat) is int) if isinstance(phones, list) else ()


def shown_names(start: Event) -> dict[int, str]:
    """``seat_names``, a bot's seat marked as one: "Blue (bot)", a phone's: "Grandma (phone)"."""
    bots, phones = bot_seats(start), phone_seats(start)
    marks = {**dict.fromkeys(phones, " (phone)"), **dict.fromkeys(bots, " (bot)")}
    return {seat: name + marks.get(seat, "") for seat, name in seat_names(start).items()}


def seated_words(name: str, by: str) -> str:
    """Who plays a seat handed over mid-game (``events.Seated``), in words."""
    if by == "phone":
        return f"{name} plays from the phone again"
    if by == "board":
        return f"{name}'s turns are played by someone at the board"
    return f"{name}'s turns are played by a {by} bot (standing in)"


def effective(events: Iterable[Event]) -> list[Event]:
    """The events that still stand: each ``undo`` takes back the last turn (back to its ``turn``
    event, or the turn before when the last one has not begun), as ``Game.undo`` does."""
    kept: list[Event] = []
    for event in events:
        if not isinstance(event, ev.Undo):
            kept.append(event)
            continue
        markers = [n for n, earlier in enumerate(kept) if isinstance(earlier, ev.Turn)]
        if not markers:
            continue
        target = markers[-1]
        if not begun(kept[target + 1 :]) and len(markers) > 1:
            target = markers[-2]
        kept[target + 1 :] = [later for later in kept[target + 1 :] if isinstance(later, ev.Seated)]
    return kept


def named_card(play: ev.Play | ev.Discard | None) -> str | None:
    """The card a play (or discard) event names (declared, or played and recorded), else None: at
    a real table nobody named it, and only the move tells which cards it could have been."""
    if play is None:
        return None
    declared = play.declared if isinstance(play, ev.Play) else None
    return declared or play.card or None


def named_cards(events: Iterable[Event]) -> list[str | None]:
    """For every move that still stands, in order (``Game.history``), the card named for it or None."""
    named: list[str | None] = []
    play: ev.Play | None = None
    for event in effective(events):
        match event:
            case ev.Play():
                play = event
            case ev.Move():
                named.append(named_card(play))
                play = None
            case ev.Turn():
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
    """A bad event read as a game or described: one RecordError naming its kind."""
    try:
        yield
    except GameError as error:
        raise RecordError(str(error)) from None
    except ValueError as error:  # the engine's own: a move's notation, a card's name
        raise RecordError(f"a {event.kind} event: {error}") from None


def _narration(events: list[Event]) -> list[str]:
    game = opening(events)
    names, marked = side_names(events[0]), shown_names(events[0])
    lines: list[str] = []
    pending: list[str] = []
    play: ev.Play | None = None
    for event in walk(game, events[1:]):
        with checked(event):
            if isinstance(event, ev.Turn):
                line = _describe(event, lambda seat: marked.get(seat, f"seat {seat + 1}"), game)
            else:
                line = _describe(event, lambda seat: names.get(seat, f"seat {seat + 1}"), game, named_card(play))
            play = event if isinstance(event, ev.Play) else None if isinstance(event, (ev.Move, ev.Turn)) else play
        if isinstance(event, ev.Turn) and pending:
            lines += [*pending, picture(game.position, names), ""]
            pending = []
        if line:
            pending.append(line)
    return [*lines, *pending, picture(game.position, names)]


def _describe(event: Event, name: Callable[[int], str], game: Game, card: str | None = None) -> str | None:
    """One event in words, as ``pegs replay`` prints it (None: nothing to tell)."""
    match event:
        case ev.Turn(seat=seat, number=number, extra=extra):
            return f"-- turn {number}: {name(seat)}{' (extra turn)' if extra else ''}"
        case ev.Draw(seat=seat, card=drawn):
            return f"   {name(seat)} draws {drawn or HIDDEN}"
        case ev.Play(seat=seat, declared=str(declared)):
            return f"   {name(seat)} plays face down, declaring {declared}"
        case ev.Move():
            return _described_move(event, name, game, card)
        case ev.Bump(seat=seat, source=source, target=target):
            return f"   {name(seat)}'s peg bumped from {source} to {'start' if target.startswith('S') else target}"
        case ev.Discard(seat=seat, card=discarded):
            return f"   {name(seat)} could not move" + (f" and discards {discarded}" if discarded else "")
        case ev.Doubt(seat=seat, doubt=doubt):
            return f"   {name(seat)} {'doubts' if doubt else 'lets it pass'}"
        case ev.Reveal(card=shown):
            return f"   the card is {shown}"
        case ev.Penalty(seat=seat, hole=hole, by=by):
            return f"   {name(by)} sends {name(seat)}'s peg on {hole} back to start"
        case ev.Extra(seat=seat):
            return f"   {name(seat)} may take an extra turn"
        case ev.Reshuffle():
            return "   the played cards are reshuffled into a new stock"
        case ev.Win(team=team):
            return "== " + " & ".join(name(seat) for seat in team) + " win"
        case ev.Undo():
            return "   (the last turn is taken back)"
        case ev.Seated(seat=seat, by=by):
            return f"   {seated_words(name(seat), by)}"
    return None


def _described_move(event: ev.Move, name: Callable[[int], str], game: Game, card: str | None) -> str:
    try:
        move = parse_move(game.position, event.text, game.rules)
    except NotationError:
        return f"   {name(event.seat)} moves ({event.text})"
    said, text = move_said(move, name, game.rules, card), move_text(move, card)
    return f"   {said} ({text})" + (" (free come-out)" if event.free else "")
