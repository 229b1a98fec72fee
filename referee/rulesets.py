"""Rule sets as data: what each card does, whose pegs move, and the table procedures.

Every variant in the rule texts is a :class:`Ruleset` value built from ``BASIC`` with
a few fields replaced, so a family's house rules are just more data (a TOML file)::

    base = "arizona"
    name = "Grandma's rules"
    hand_size = 6
    [cards.10]
    backward = [1]

Every key is a field declared once with its check, its meaning, its words and its stored
form (``referee.rule_fields``): a ``[cards.X]`` table's keys are ``CardPower``'s fields
(``referee.card_powers``), the top-level keys ``Ruleset``'s here. A new top-level key is
one field of ``Ruleset``, plus its use.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, replace
from functools import cached_property
from pathlib import Path
from typing import Any, Literal, get_args

from referee.board import PEGS_PER_SEAT
from referee.card_powers import MAX_STEPS, CardPower, Split, SplitDirections, card_changes, power_mapping
from referee.cards import CARDS, JOKER, CardError, parse_card
from referee.file_reading import TextError, load_toml, read_text
from referee.rule_fields import (
    RulesetError,
    between,
    declared,
    one_of,
    read_onto,
    rule,
    said,
    stored,
    text,
    true_or_false,
    whole,
)

Movers = Literal["own-then-partner", "team"]
JokerFrom = Literal["own", "team-start-first"]
HomeEntry = Literal["may", "must"]
Draw = Literal["before", "after"]
__all__ = ["MAX_STEPS", "CardPower", "Ruleset", "RulesetError", "Split", "SplitDirections", "from_mapping"]


PLAYER_COUNTS = ("2", "4", "6", "8", "10")


def per_players(low: int, high: int) -> Callable[[str, object], tuple[tuple[int, int], ...]]:
    """The check of a table by player count, e.g. ``{8 = 4, 10 = 5}``: the counts it gives,
    each from ``low`` to ``high`` (``_fill`` puts them onto the base's)."""

    def check(where: str, value: object) -> tuple[tuple[int, int], ...]:
        if not isinstance(value, Mapping):
            raise RulesetError(f"{where} must be a table like {{4 = 3, 6 = 3, 8 = 4, 10 = 5}}")
        given = {}
        for players, count in value.items():
            if str(players) not in PLAYER_COUNTS:
                raise RulesetError(f"{where}: {players!r} is not a player count (2, 4, 6, 8 or 10)")
            given[int(players)] = whole(f"{where}.{players}", count, low, high)
        return tuple(sorted(given.items()))

    return check


def _fill(given: tuple[tuple[int, int], ...], base: tuple[tuple[int, int], ...]) -> tuple[tuple[int, int], ...]:
    """A file's table by player count over its base preset's: the counts it leaves out stay the base's."""
    return tuple(sorted({**dict(base), **dict(given)}.items()))


def _by_players(table: tuple[tuple[int, int], ...]) -> dict[str, int]:
    return {str(players): count for players, count in table}


def _counting(where: str, value: object) -> int | None:
    return None if value is False else whole(where, value, 2, 10)


_MOVERS_SAID = {"own-then-partner": "your own pegs, then a partner's once yours are home"}


@dataclass(frozen=True)
class Ruleset:
    """One complete set of rules. Build variants with :func:`dataclasses.replace`.

    Every field but ``cards`` is a top-level house-rules key (``referee.rule_fields``);
    ``cards`` is the ``[cards.X]`` tables (``referee.card_powers``)."""

    name: str = field(metadata=rule("the rules' name, as the page and the records show it", text))
    summary: str = field(metadata=rule("one line saying how these rules differ", text))
    cards: tuple[tuple[str, CardPower], ...]
    movers: Movers = field(
        default="own-then-partner",
        metadata=rule(
            'whose pegs a player moves: "own-then-partner" (a partner\'s once all one\'s own are home) or "team"',
            one_of(*get_args(Movers)),
            words=lambda movers: [_MOVERS_SAID.get(movers, f"pegs you may move: {movers}")],
            said_at=4,
        ),
    )
    split_into_partner: bool = field(
        default=False,
        metadata=rule("a split may take a player's last peg home and move a partner's with the rest", true_or_false),
    )
    joker_from: JokerFrom = field(
        default="own",
        metadata=rule(
            'where a joker\'s peg comes from: "own" or "team-start-first" (a team peg from start first)',
            one_of(*get_args(JokerFrom)),
        ),
    )
    home_entry: HomeEntry = field(
        default="may",
        metadata=rule(
            'a peg at its in-spot "may" turn home, or "must" (else it cannot move)', one_of(*get_args(HomeEntry))
        ),
    )
    hand_size: int = field(
        default=5,
        metadata=rule(
            "cards in a player's hand, 1 to 13", between(1, 13), words=lambda size: [f"{size} cards in hand"]
        ),
    )
    draw: Draw = field(
        default="before",
        metadata=rule('draw "before" or "after" playing a card', one_of(*get_args(Draw))),
    )
    decks: tuple[tuple[int, int], ...] = field(
        default=((2, 3), (4, 3), (6, 3), (8, 4), (10, 5)),
        metadata=rule(
            "decks by player count, 1 to 8, e.g. {8 = 4, 10 = 5}; a count not given stays the base's",
            per_players(1, 8),
            store=_by_players,
            onto=_fill,
        ),
    )
    jokers_per_deck: int = field(default=2, metadata=rule("jokers each deck brings, 0 to 16", between(0, 16)))
    extra_jokers: int = field(
        default=0, metadata=rule("jokers added at every player count but two, 0 to 16", between(0, 16))
    )
    added_jokers: tuple[tuple[int, int], ...] = field(
        default=((10, 4),),  # Hatcher's variations: ten players, "at least four more Jokers"
        metadata=rule(
            "jokers added by player count, 0 to 16, e.g. {10 = 4}; a count not given stays the base's",
            per_players(0, 16),
            store=_by_players,
            onto=_fill,
        ),
    )
    counting: int | None = field(
        default=None,
        metadata=rule(
            "counting: the turn, 2 to 10, on which a player who has not moved brings a peg out with any card, or false",
            _counting,
            words=lambda turn: (
                [f"counting: after {turn - 1} turns without moving, any card brings a peg out"] if turn else []
            ),
            store=lambda turn: False if turn is None else turn,
            said_at=2,
        ),
    )
    bluffing: bool = field(
        default=False,
        metadata=rule(
            "cards are played face down and declared; opponents may doubt",
            true_or_false,
            words=lambda on: ["Bluffing Joker: cards are played face down and may be doubted"] if on else [],
            said_at=3,
        ),
    )

    @cached_property
    def _powers(self) -> dict[str, CardPower]:
        return dict(self.cards)

    def power(self, card: str) -> CardPower:
        return self._powers[parse_card(card)]

    @cached_property
    def split_weight(self) -> int:
        """What a lift costs the referee at worst, as a number: for every card that splits,
        its part pairs times the pegs a part may move on the most crowded board (every peg
        with ``any_peg``, a team's when the team moves, else the player's own). North
        Carolina, the heaviest preset, weighs 1,005."""
        own = MOST_PEGS // 2 if self.movers == "team" else PEGS_PER_SEAT
        return sum(
            len(power.split.parts()) * (MOST_PEGS if power.split.any_peg else own)
            for _card, power in self.cards
            if power.split
        )

    def card_weight(self, card: str) -> int:
        return replace(self, cards=((card, self.power(card)),)).split_weight

    def decks_for(self, players: int) -> int:
        return dict(self.decks)[players]

    def jokers_for(self, players: int) -> int:
        """Two players play without jokers (the club sheet: "Jokers removed")."""
        if players == 2:
            return 0
        added = dict(self.added_jokers).get(players, 0)
        return self.decks_for(players) * self.jokers_per_deck + added + self.extra_jokers

    def with_card(self, card: str, **changes: Any) -> Ruleset:
        powers = dict(self.cards)
        powers[card] = replace(powers[card], **changes)
        return replace(self, cards=tuple((name, powers[name]) for name in CARDS))

    def settings(self, players: int) -> list[str]:
        """The rules beyond the cards, in words, for a table of ``players``: each key's words
        (``hand_size`` first, always said) with the decks and jokers after the hand."""
        hand, *rest = said(self)
        decks = f"{self.decks_for(players)} decks and {self.jokers_for(players)} jokers for {players} players"
        return [hand, decks, *rest]

    def to_mapping(self) -> dict[str, Any]:
        """Every field, in the house-rules format: ``from_mapping(r.to_mapping()) == r``.
        Game records store this, so a replay never depends on a preset or file changing."""
        keys = stored(self)
        data: dict[str, Any] = {"base": "basic"}
        for f in fields(self):
            if f.name == "cards":
                data["cards"] = {card: power_mapping(power) for card, power in self.cards}
            else:
                data[f.name] = keys[f.name]
        return data

    @staticmethod
    def preset(name: str) -> Ruleset:
        try:
            return PRESETS[name]
        except KeyError:
            raise RulesetError(f"unknown rule set {name!r}: use one of {', '.join(PRESETS)} or a .toml file") from None

    @staticmethod
    def load(name_or_path: str) -> Ruleset:
        """A preset name, or a path to a house-rules TOML file."""
        if name_or_path in PRESETS:
            return PRESETS[name_or_path]
        if name_or_path.endswith(".toml") or Path(name_or_path).exists():
            return Ruleset.from_toml(name_or_path)
        return Ruleset.preset(name_or_path)

    @staticmethod
    def from_toml(path: str | Path) -> Ruleset:
        try:
            data = load_toml(read_text(path, "house rules"), str(path))
        except TextError as error:
            raise RulesetError(str(error)) from None
        try:
            return from_mapping(data)
        except RulesetError as error:
            raise RulesetError(f"{path}: {error}") from None

    @staticmethod
    def from_toml_text(text: str) -> Ruleset:
        """House rules sent as text (the page's file), read as a file is: the same checks of
        size and nesting before the TOML reader, whose recursion a deep file would exhaust."""
        try:
            return from_mapping(load_toml(text, "the file"))
        except TextError as error:
            raise RulesetError(str(error)) from None


def _standard_cards(**overrides: CardPower) -> tuple[tuple[str, CardPower], ...]:
    """The basic game's cards (the rules page, "Movement of pegs - effects of individual cards")."""
    come_out_ten = CardPower(forward=(10,), come_out=True)
    powers = {
        "A": CardPower(forward=(1,), come_out=True),
        **{str(n): CardPower(forward=(n,)) for n in (2, 3, 4, 5, 6, 9, 10)},
        "7": CardPower(forward=(7,), split=Split(7, "forward")),
        "8": CardPower(backward=(8,)),
        "J": come_out_ten,
        "Q": come_out_ten,
        "K": come_out_ten,
        JOKER: CardPower(joker=True),
    }
    powers.update({card.replace("_", ""): power for card, power in overrides.items()})
    return tuple((card, powers[card]) for card in CARDS)


NINE_SPLIT = CardPower(forward=(9,), split=Split(9, "forward-backward"))
TWO_SWAP = CardPower(forward=(2,), swap=True)

BASIC = Ruleset(
    name="basic",
    summary="Draw to 6, play one; move only your own pegs until they are all home.",
    cards=_standard_cards(),
)
ARIZONA = replace(
    BASIC,
    name="arizona",
    summary="Play then draw (5 cards); move any team peg; 9 splits forward/back; jokers come from start first.",
    cards=_standard_cards(_9=NINE_SPLIT),
    movers="team",
    joker_from="team-start-first",
    draw="after",
    decks=((2, 4), (4, 4), (6, 4), (8, 4), (10, 4)),
)
NORTH_CAROLINA = replace(
    BASIC,
    name="north-carolina",
    summary="Ace ±1/+11, 2 swaps, 9 splits forward/back, 10 must split over any pegs; counting frees a peg on the 3rd turn.",
    cards=_standard_cards(
        A=CardPower(forward=(1, 11), backward=(1,), come_out=True),
        _2=TWO_SWAP,
        _9=NINE_SPLIT,
        _10=CardPower(split=Split(10, "any", required=True, any_peg=True)),
    ),
    split_into_partner=True,
    counting=3,
)
WIZARD_WOODWORKS = replace(
    BASIC,
    name="wizard-woodworks",
    summary="Basic, but play then draw (5 cards), 2 may swap, 9 splits forward/back.",
    cards=_standard_cards(_2=TWO_SWAP, _9=NINE_SPLIT),
    draw="after",
)
BECKER = replace(
    BASIC,
    name="becker",
    summary="Basic, but 10 goes 10 forward or 1 back; stuck three turns, come out free on the fourth.",
    cards=_standard_cards(_10=CardPower(forward=(10,), backward=(1,))),
    counting=4,
)
KILPATRICK = replace(
    ARIZONA,
    name="kilpatrick",
    summary="Arizona with 3 cards; a peg must turn home at its in-spot, or it cannot move.",
    hand_size=3,
    home_entry="must",
)
BLUFFING_JOKER = replace(
    BASIC,
    name="bluffing-joker",
    summary="Basic, but cards are played face down and declared; opponents may doubt.",
    bluffing=True,
)
SOCIAL_SECURITY = replace(
    BASIC,
    name="social-security",
    summary="Basic, but 9 splits back/forward; J, Q and K move 11, 12 and 13.",
    cards=_standard_cards(
        _9=NINE_SPLIT,
        J=CardPower(forward=(11,), come_out=True),
        Q=CardPower(forward=(12,), come_out=True),
        K=CardPower(forward=(13,), come_out=True),
    ),
)

PRESETS: dict[str, Ruleset] = {
    rules.name: rules
    for rules in (BASIC, ARIZONA, NORTH_CAROLINA, WIZARD_WOODWORKS, BECKER, KILPATRICK, BLUFFING_JOKER, SOCIAL_SECURITY)
}
PRESET_TITLES = {  # as the rules page titles them; the names above are what files and commands take
    "basic": "Basic",
    "arizona": "Arizona",
    "north-carolina": "North Carolina",
    "wizard-woodworks": "Wizard Woodworks",
    "becker": "Becker",
    "kilpatrick": "Kilpatrick",
    "bluffing-joker": "Bluffing Joker",
    "social-security": "Social Security",
}


def title_of(name: str) -> str:
    """A rule set's name as people say it: "North Carolina"; a house file's own name as it is."""
    return PRESET_TITLES.get(name, name)


# -- house rules ------------------------------------------------------------------

MOST_PEGS = 10 * PEGS_PER_SEAT  # ten players
MAX_SPLIT_WEIGHT = 1_050
"""House rules may split up to this weight (``Ruleset.split_weight``): hardly more than
North Carolina's, the heaviest preset, whose worst lift is already near the budget (a
lift must light its holes within a tenth of a second on a Pi Zero 2 W)."""


def from_mapping(data: Mapping[str, Any]) -> Ruleset:
    """Apply a parsed house-rules table to its ``base`` preset; every key is checked (the
    top-level keys by ``Ruleset``'s declarations, the cards' by ``CardPower``'s), and each
    starts from the base's value."""
    data = dict(data)
    base = data.pop("base", "basic")
    if not isinstance(base, str):
        raise RulesetError("'base' must be a preset name")
    rules = Ruleset.preset(base)
    cards = data.pop("cards", {})
    known = set(declared(Ruleset))
    for key in data:
        if key not in known:
            raise RulesetError(f"unknown key {key!r}: use one of {', '.join(sorted(known | {'base', 'cards'}))}")
    changes: dict[str, Any] = {"name": f"{base} (house rules)", **read_onto(rules, "", data)}  # checked: declared
    rules = replace(rules, **changes)
    if not isinstance(cards, Mapping):
        raise RulesetError("'cards' must be a table of card name -> powers")
    for card_name, table in cards.items():
        try:
            card = parse_card(card_name)
        except CardError as error:
            raise RulesetError(f"[cards.{card_name}]: {error}") from None
        if not isinstance(table, Mapping):
            raise RulesetError(f"[cards.{card_name}] must be a table")
        rules = rules.with_card(card, **card_changes(card_name, table))
    _check_weight(rules)
    if "summary" not in data:  # the base's own line would contradict the file ("5 cards" over "6 cards")
        rules = replace(rules, summary=house_summary(Ruleset.preset(base), rules))
    return rules


def house_summary(base: Ruleset, house: Ruleset) -> str:
    """One line saying how house rules differ from their base, from the rules themselves."""
    before = set(said(base))
    changed = [words for words in said(house) if words not in before]
    cards = dict(base.cards)
    changed += [f"{card}: {power.describe()}" for card, power in house.cards if cards.get(card) != power]
    if not changed:
        return f"{title_of(base.name)}, as it is."
    return f"{title_of(base.name)}, with: {'; '.join(changed)}."


def _check_weight(rules: Ruleset) -> None:
    """Refuse splits that give more moves than the referee can check in time (a lift must
    light its holes within a tenth of a second on a Pi Zero 2 W)."""
    if rules.split_weight <= MAX_SPLIT_WEIGHT:
        return
    heaviest = max(CARDS, key=rules.card_weight)
    raise RulesetError(
        f"[cards.{heaviest}]: these splits make too many moves for the referee to check in time on a crowded "
        f"board (they weigh {rules.split_weight:,}; the most allowed is {MAX_SPLIT_WEIGHT:,}, North Carolina's "
        "weigh 1,005): split a smaller total, in fewer directions, or over the player's own pegs only"
    )
