"""The events a game is made of, one frozen class per kind, and their JSON at the edge.

A game is a list of events (``referee.game``); inside the engine each is one of the classes
below and is told apart by its class (``match event: case Move(): ...``), never by a string.
Where events cross to disk or HTTP (the store, record files, the page's record download)
they are JSON objects with their kind under ``"event"``: ``event_from_json`` checks one
(every key, every type) and refuses a bad one with an ``EventError`` naming the kind and the
field; ``event_to_json`` gives back exactly the object the game has always written (the
same keys in the same order, optional keys left out as before), so stored games and
records read and write byte for byte as they did.

A record redacted for a seat (``referee.record.redacted``) leaves out cards and the seed;
the fields that may be missing there are ``None`` (``Play.hidden``: a face-down card left
out, where a real table's unnamed card is ``None`` and written ``null``).
"""

from __future__ import annotations

import reprlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import ClassVar, Literal, TypeAlias

Mode = Literal["digital", "table"]
Json: TypeAlias = dict[str, object]


class EventError(ValueError):
    """A JSON event that is not one the game writes: an unknown kind, or a field missing or
    of the wrong type."""


@dataclass(frozen=True, slots=True)
class Start:
    """Everything needed to set the game up again; ``seed`` is None in a redacted record."""

    kind: ClassVar[str] = "start"
    players: int
    teams: tuple[tuple[int, ...], ...]
    rules: Mapping[str, object]
    mode: Mode
    seed: int | None
    first: int
    pegs: Mapping[str, tuple[str, ...]] | None = None
    table: Mapping[str, object] | None = None
    redacted: bool = False


@dataclass(frozen=True, slots=True)
class Deal:
    """Every hand (seat -> cards) and the stock left; ``stock`` None in a redacted record."""

    kind: ClassVar[str] = "deal"
    hands: Mapping[int, tuple[str, ...]]
    stock: tuple[str, ...] | None


@dataclass(frozen=True, slots=True)
class Turn:
    """A seat's turn begins: its number in the game, and whether it is an extra turn won by a doubt."""

    kind: ClassVar[str] = "turn"
    seat: int
    number: int
    extra: bool


@dataclass(frozen=True, slots=True)
class Draw:
    """A card drawn from the stock by the seat to play."""

    kind: ClassVar[str] = "draw"
    seat: int
    card: str | None  # None: left out of a redacted record


@dataclass(frozen=True, slots=True)
class Reshuffle:
    """The played cards shuffled into a new stock, once the stock has run out."""

    kind: ClassVar[str] = "reshuffle"
    stock: tuple[str, ...] | None  # None: left out of a redacted record


@dataclass(frozen=True, slots=True)
class Play:
    """A card played: ``declared`` and ``text`` for a Bluffing Joker card played face down,
    ``free`` for counting's free come-out; ``card`` None at a real table when nobody named it."""

    kind: ClassVar[str] = "play"
    seat: int
    card: str | None
    declared: str | None = None
    text: str | None = None
    free: bool = False
    hidden: bool = False  # the card left out of a redacted record (no "card" key at all)


@dataclass(frozen=True, slots=True)
class Move:
    """The pegs moved, in move notation (``free``: counting's free come-out)."""

    kind: ClassVar[str] = "move"
    seat: int
    text: str
    free: bool = False


@dataclass(frozen=True, slots=True)
class Bump:
    """A peg sent back to start (``source`` and ``target`` are the JSON's "from" and "to")."""

    kind: ClassVar[str] = "bump"
    seat: int
    by: int
    source: str
    target: str
    penalty: bool = False


@dataclass(frozen=True, slots=True)
class Discard:
    """A card discarded without moving a peg."""

    kind: ClassVar[str] = "discard"
    seat: int
    card: str | None


@dataclass(frozen=True, slots=True)
class Settle:
    """Bluffing Joker: the doubts about a declared card are answered and settled."""

    kind: ClassVar[str] = "settle"
    seat: int


@dataclass(frozen=True, slots=True)
class Doubt:
    """Bluffing Joker: one opponent doubts the declared card (``doubt``) or lets it pass."""

    kind: ClassVar[str] = "doubt"
    seat: int
    doubt: bool


@dataclass(frozen=True, slots=True)
class Decline:
    """An extra turn won by a doubt, declined."""

    kind: ClassVar[str] = "decline"
    seat: int


@dataclass(frozen=True, slots=True)
class Reveal:
    """Bluffing Joker at a real table: the doubted card turned face up."""

    kind: ClassVar[str] = "reveal"
    seat: int
    card: str


@dataclass(frozen=True, slots=True)
class PenaltyDue:
    """Bluffing Joker: ``chooser`` is to send one of ``victim``'s track pegs back to start."""

    kind: ClassVar[str] = "penalty-due"
    chooser: int
    victim: int


@dataclass(frozen=True, slots=True)
class Penalty:
    """Bluffing Joker: ``by`` sent ``seat``'s peg in ``hole`` back to start."""

    kind: ClassVar[str] = "penalty"
    seat: int
    hole: str
    by: int


@dataclass(frozen=True, slots=True)
class Extra:
    """Bluffing Joker: an extra turn won (the loser of a doubt had no peg out to lose)."""

    kind: ClassVar[str] = "extra"
    seat: int


@dataclass(frozen=True, slots=True)
class Undo:
    """The last turn taken back (replayed, never applied: ``Game.undo``)."""

    kind: ClassVar[str] = "undo"


@dataclass(frozen=True, slots=True)
class Seated:
    """Who plays a seat from now on, when the table hands it over mid-game (issue 36, a seat
    played from a phone that went quiet): ``by`` is "phone" (back to the phone), "board" (a
    person at the board) or a bot's kind. Undo never takes it back: it is the table's choice,
    not part of a turn."""

    kind: ClassVar[str] = "seat"
    seat: int
    by: str


@dataclass(frozen=True, slots=True)
class Win:
    """The game won by a team: the last event of a game."""

    kind: ClassVar[str] = "win"
    team: tuple[int, ...]


Event: TypeAlias = (
    Start
    | Deal
    | Turn
    | Draw
    | Reshuffle
    | Play
    | Move
    | Bump
    | Discard
    | Settle
    | Doubt
    | Decline
    | Reveal
    | PenaltyDue
    | Penalty
    | Extra
    | Undo
    | Seated
    | Win
)
KINDS: tuple[type[Event], ...] = (
    Start,
    Deal,
    Turn,
    Draw,
    Reshuffle,
    Play,
    Move,
    Bump,
    Discard,
    Settle,
    Doubt,
    Decline,
    Reveal,
    PenaltyDue,
    Penalty,
    Extra,
    Undo,
    Seated,
    Win,
)


# -- JSON in ---------------------------------------------------------------------------


class _Fields:
    """One JSON event being read: each key taken once and checked; a key left over is refused."""

    __slots__ = ("data", "kind", "taken")

    def __init__(self, data: Mapping[str, object], kind: str) -> None:
        self.data, self.kind = data, kind
        self.taken = ["event"]

    def get(self, key: str) -> object:
        if key not in self.data:
            raise EventError(f"a {self.kind} event needs {key!r}")
        self.taken.append(key)
        return self.data[key]

    def has(self, key: str) -> bool:
        return key in self.data

    def wrong(self, key: str, what: str) -> EventError:
        return EventError(f"a {self.kind} event's {key!r} is {what}, not {reprlib.repr(self.data[key])}")

    def number(self, key: str) -> int:
        value = self.get(key)
        if type(value) is not int:
            raise self.wrong(key, "a whole number")
        return value

    def flag(self, key: str) -> bool:
        value = self.get(key)
        if type(value) is not bool:
            raise self.wrong(key, "true or false")
        return value

    def option(self, key: str) -> bool:
        """A flag written only when true (``"free": true``); left out, false."""
        if key not in self.data:
            return False
        if self.get(key) is not True:
            raise self.wrong(key, "true or left out")
        return True

    def text(self, key: str) -> str:
        value = self.get(key)
        if not isinstance(value, str):
            raise self.wrong(key, "a string")
        return value

    def card(self, key: str) -> str | None:
        """A card's name, or null (at a real table nobody named it)."""
        value = self.get(key)
        if value is not None and not isinstance(value, str):
            raise self.wrong(key, "a card or null")
        return value

    def cards(self, key: str) -> tuple[str, ...]:
        value = self.get(key)
        if type(value) is not list or not all(isinstance(card, str) for card in value):
            raise self.wrong(key, "a list of cards")
        return tuple(value)

    def seats(self, key: str) -> tuple[int, ...]:
        value = self.get(key)
        if type(value) is not list or not all(type(seat) is int for seat in value):
            raise self.wrong(key, "a list of seats")
        return tuple(value)

    def mapping(self, key: str) -> dict[str, object]:
        value = self.get(key)
        if type(value) is not dict or not all(isinstance(name, str) for name in value):
            raise self.wrong(key, "an object")
        return value

    def done(self) -> None:
        if len(self.taken) != len(self.data):
            stray = ", ".join(reprlib.repr(key) for key in self.data if key not in self.taken)
            raise EventError(f"a {self.kind} event has no {stray} (or not with these keys)")


def _start(f: _Fields) -> Start:
    players, teams = f.number("players"), f.get("teams")
    if type(teams) is not list or not all(
        type(team) is list and all(type(seat) is int for seat in team) for team in teams
    ):
        raise f.wrong("teams", "a list of lists of seats")
    rules, mode = f.mapping("rules"), f.text("mode")
    if mode not in ("digital", "table"):
        raise f.wrong("mode", "'digital' or 'table'")
    seed = f.number("seed") if f.has("seed") else None
    first = f.number("first")
    pegs = _pegs(f) if f.has("pegs") else None
    return Start(
        players,
        tuple(tuple(team) for team in teams),
        rules,
        "digital" if mode == "digital" else "table",
        seed,
        first,
        pegs,
        f.mapping("table") if f.has("table") else None,
        f.option("redacted"),
    )


def _pegs(f: _Fields) -> dict[str, tuple[str, ...]]:
    """A game begun from pegs already on the board: seat -> the holes of its pegs."""
    pegs: dict[str, tuple[str, ...]] = {}
    for seat, holes in f.mapping("pegs").items():
        if type(holes) is not list or not all(isinstance(hole, str) for hole in holes):
            raise f.wrong("pegs", "an object of seats and their holes")
        pegs[seat] = tuple(holes)
    return pegs


def _deal(f: _Fields) -> Deal:
    dealt: dict[int, tuple[str, ...]] = {}
    for seat, cards in f.mapping("hands").items():
        if not (seat.isascii() and seat.isdigit() and str(int(seat)) == seat) or not (
            type(cards) is list and all(isinstance(card, str) for card in cards)
        ):
            raise f.wrong("hands", "an object of seat numbers and their cards")
        dealt[int(seat)] = tuple(cards)
    return Deal(dealt, f.cards("stock") if f.has("stock") else None)


def _play(f: _Fields) -> Play:
    hidden = not f.has("card")
    card = None if hidden else f.card("card")
    declared = f.text("declared") if f.has("declared") else None
    text = f.text("text") if declared is not None else None
    return Play(f.number("seat"), card, declared, text, f.option("free"), hidden)


_READ: dict[str, Callable[[_Fields], Event]] = {
    "start": _start,
    "deal": _deal,
    "turn": lambda f: Turn(f.number("seat"), f.number("number"), f.flag("extra")),
    "draw": lambda f: Draw(f.number("seat"), f.text("card") if f.has("card") else None),
    "reshuffle": lambda f: Reshuffle(f.cards("stock") if f.has("stock") else None),
    "play": _play,
    "move": lambda f: Move(f.number("seat"), f.text("text"), f.option("free")),
    "bump": lambda f: Bump(f.number("seat"), f.number("by"), f.text("from"), f.text("to"), f.option("penalty")),
    "discard": lambda f: Discard(f.number("seat"), f.card("card")),
    "settle": lambda f: Settle(f.number("seat")),
    "doubt": lambda f: Doubt(f.number("seat"), f.flag("doubt")),
    "decline": lambda f: Decline(f.number("seat")),
    "reveal": lambda f: Reveal(f.number("seat"), f.text("card")),
    "penalty-due": lambda f: PenaltyDue(f.number("chooser"), f.number("victim")),
    "penalty": lambda f: Penalty(f.number("seat"), f.text("hole"), f.number("by")),
    "extra": lambda f: Extra(f.number("seat")),
    "undo": lambda f: Undo(),
    "seat": lambda f: Seated(f.number("seat"), f.text("by")),
    "win": lambda f: Win(f.seats("team")),
}


def event_from_json(data: Mapping[str, object]) -> Event:
    """The event a JSON object records, checked: EventError names the kind and the field."""
    if type(data) is not dict and not isinstance(data, Mapping):  # a dict, as JSON gives, checked first: cheaper
        raise EventError(f"an event is an object with an 'event' name, not {type(data).__name__}")
    kind = data.get("event")
    if not isinstance(kind, str):
        raise EventError("an event is an object with an 'event' name")
    read = _READ.get(kind)
    if read is None:
        raise EventError(f"unknown event {reprlib.repr(kind)}")
    fields = _Fields(data, kind)
    event = read(fields)
    fields.done()
    return event


def as_event(event: Event | Mapping[str, object]) -> Event:
    """A recorded event as the game's own: JSON read and checked, an event kept as it is."""
    return event_from_json(event) if type(event) is dict or isinstance(event, Mapping) else event


# -- JSON out --------------------------------------------------------------------------


def event_to_json(event: Event) -> Json:
    """The JSON object the game writes for ``event``: the same keys, in the same order, as ever."""
    match event:
        case Start():
            return _start_json(event)
        case Deal(hands=hands, stock=stock):
            dealt: Json = {"event": "deal", "hands": {str(seat): list(cards) for seat, cards in hands.items()}}
            return dealt if stock is None else {**dealt, "stock": list(stock)}
        case Turn(seat=seat, number=number, extra=extra):
            return {"event": "turn", "seat": seat, "number": number, "extra": extra}
        case Draw(seat=seat, card=card):
            return {"event": "draw", "seat": seat} if card is None else {"event": "draw", "seat": seat, "card": card}
        case Reshuffle(stock=stock):
            return {"event": "reshuffle"} if stock is None else {"event": "reshuffle", "stock": list(stock)}
        case Play():
            return _play_json(event)
        case Move(seat=seat, text=text, free=free):
            moved: Json = {"event": "move", "seat": seat, "text": text}
            return {**moved, "free": True} if free else moved
        case Bump(seat=seat, by=by, source=source, target=target, penalty=penalty):
            bump: Json = {"event": "bump", "seat": seat, "by": by, "from": source, "to": target}
            return {**bump, "penalty": True} if penalty else bump
        case Discard(seat=seat, card=card):
            return {"event": "discard", "seat": seat, "card": card}
        case Doubt(seat=seat, doubt=doubt):
            return {"event": "doubt", "seat": seat, "doubt": doubt}
        case Reveal(seat=seat, card=card):
            return {"event": "reveal", "seat": seat, "card": card}
        case PenaltyDue(chooser=chooser, victim=victim):
            return {"event": "penalty-due", "chooser": chooser, "victim": victim}
        case Penalty(seat=seat, hole=hole, by=by):
            return {"event": "penalty", "seat": seat, "hole": hole, "by": by}
        case Win(team=team):
            return {"event": "win", "team": list(team)}
        case Undo():
            return {"event": "undo"}
        case Seated(seat=seat, by=by):
            return {"event": "seat", "seat": seat, "by": by}
        case Settle(seat=seat) | Decline(seat=seat) | Extra(seat=seat):
            return {"event": event.kind, "seat": seat}


def _start_json(start: Start) -> Json:
    data: Json = {
        "event": "start",
        "players": start.players,
        "teams": [list(team) for team in start.teams],
        "rules": start.rules,
        "mode": start.mode,
    }
    if start.seed is not None:
        data["seed"] = start.seed
    data["first"] = start.first
    if start.pegs is not None:
        data["pegs"] = {seat: list(holes) for seat, holes in start.pegs.items()}
    if start.table is not None:
        data["table"] = start.table
    if start.redacted:
        data["redacted"] = True
    return data


def _play_json(play: Play) -> Json:
    data: Json = {"event": "play", "seat": play.seat}
    if not play.hidden:
        data["card"] = play.card
    if play.declared is not None:
        data["declared"] = play.declared
        data["text"] = play.text
    if play.free:
        data["free"] = True
    return data
