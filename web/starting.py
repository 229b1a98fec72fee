"""Starting: a new game (``POST /api/games``, the table PIN), its request checked in shape and
built once into a ``NewGame`` for the table to check whole; and the first lesson with its
buttons (``/api/lesson``)."""

from __future__ import annotations

import unicodedata
from typing import Any

from flask import Response, jsonify

from referee.events import Mode
from referee.game import seat_number
from referee.rulesets import PRESETS, Ruleset, RulesetError
from web.admin import need_admin
from web.api import blueprint, json_body, need, table
from web.csrf import state_changing
from web.seats import need_player
from web.table import NewGame

starting = blueprint("starting")


@starting.post("/games")
@state_changing
@need_admin
def new_game() -> Response:
    body = json_body(
        {"players", "rules", "house_rules", "mode", "teams", "names", "colours", "pegs", "bots", "phones", "teaching"},
        required=False,
    )
    players = body.get("players", 4)
    if type(players) is not int or players not in (2, 4, 6, 8, 10):
        raise ValueError("'players' must be 2, 4, 6, 8 or 10")
    phones = body.get("phones")
    need(
        phones is None or isinstance(phones, list) and all(type(seat) is int for seat in phones),
        "'phones' lists the seats played from a phone, like [2]",
    )
    mode: Mode = _mode(body.get("mode", "digital" if phones else "table"))  # a phone seat's cards are the referee's
    rules = _rules(body.get("rules"), body.get("house_rules"))
    _check_seat_looks(body.get("names"), body.get("colours"))
    need(type(body.get("teaching", False)) is bool, "'teaching' is true or false")
    bots = body.get("bots")
    _check_bots(bots)
    _check_pegs(body.get("pegs"))
    request = NewGame(
        players,
        rules,
        mode,
        teams=body.get("teams"),
        names=body.get("names"),
        colours=body.get("colours"),
        pegs=body.get("pegs"),
        bots=bots,
        phones=phones,
        teach=body.get("teaching") is True,
    )
    return jsonify(table().new_game(request))


def _mode(mode: object) -> Mode:
    """Whose cards: "table" (real cards) or "digital" (the referee deals)."""
    if mode == "table":
        return "table"
    if mode == "digital":
        return "digital"
    raise ValueError("'mode' must be 'table' or 'digital'")


def _check_seat_looks(names: object, colours: object) -> None:
    """A new game's seat names and colours: the page shows them, so they are short,
    printable text and colours it can draw."""
    seat_names, seat_colours = _strings("names", names), _strings("colours", colours)
    for colour in seat_colours:
        if len(colour) != 7 or colour[0] != "#" or any(c not in "0123456789abcdefABCDEF" for c in colour[1:]):
            raise ValueError(f"colour {colour!r} is not like #e53935")
    for name in seat_names:
        if not name.strip() or len(name) > 24:
            raise ValueError("'names': a seat name is 1 to 24 characters")
        need(_printable(name), f"'names': a seat name is printable text, not {name!r}")


def _strings(key: str, values: object) -> list[str]:
    """``values`` as the list of strings it must be (none given: an empty one)."""
    if values is None:
        return []
    if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
        raise ValueError(f"'{key}' must be a list of strings")
    return values


def _check_bots(bots: object) -> None:
    """A new game's bots: seat numbers (as JSON keys are text) to a bot's name; the table
    refuses a name it does not know."""
    if bots is not None and (not isinstance(bots, dict) or not all(isinstance(v, str) for v in bots.values())):
        raise ValueError('\'bots\' maps a seat number to a bot: "beginner", "family", "strong" or "expert"')
    for seat in bots or {}:
        need(
            seat_number(seat) is not None,
            f"'bots': a seat is a number like \"1\" (ASCII digits, no leading zero), not {seat!r}",
        )


def _check_pegs(pegs: object) -> None:
    """A new game's starting pegs (a set-up position) in shape; the table checks the holes."""
    if pegs is not None and not isinstance(pegs, dict):
        raise ValueError("'pegs' is an object mapping seat numbers like \"1\" to lists of five holes")
    for seat, holes in (pegs or {}).items():
        need(
            seat_number(seat) is not None,
            f"'pegs': a seat is a number like \"1\" (ASCII digits, no leading zero), not {seat!r}",
        )
        need(
            isinstance(holes, list) and all(isinstance(hole, str) for hole in holes),
            f'\'pegs\': seat {seat} lists its five holes as strings, like ["T0:8", "S", "S", "S", "S"]',
        )


@starting.post("/lesson")
@state_changing
@need_admin
def start_lesson() -> Response:
    """Learn to play: the first lesson, taught on the board (the table PIN, like a new game)."""
    body = json_body({"players", "rules", "house_rules", "learners"}, required=False)
    players = body.get("players", 4)
    if type(players) is not int or players not in (4, 6, 8, 10):
        raise ValueError("'players' must be 4, 6, 8 or 10 for a lesson (partners are part of it)")
    learners = body.get("learners", "one")
    need(learners in ("one", "everyone"), '\'learners\' is "one" (the first seat, the others watch) or "everyone"')
    seats = list(range(players)) if learners == "everyone" else [0]
    return jsonify(table().start_lesson(_rules(body.get("rules"), body.get("house_rules")), players, seats))


LESSON_ACTIONS = {"next", "repeat", "skip", "show", "place"}  # the player at the board (or its phone)
LESSON_TABLE_ACTIONS = {"resume", "leave"}  # the table's choice, like a new game: the table PIN


@starting.post("/lesson/<action>")
@state_changing
def lesson_action(action: str) -> Response:
    if action in LESSON_TABLE_ACTIONS:
        return need_admin(_lesson_action)(action)
    if action in LESSON_ACTIONS:
        return need_player(_lesson_action)(action)
    raise ValueError(f"a lesson's actions are {', '.join(sorted(LESSON_ACTIONS | LESSON_TABLE_ACTIONS))}")


def _lesson_action(action: str) -> Response:
    body = json_body({"place"} if action == "place" else set(), required=action == "place")
    place = body.get("place")
    need(place is None or isinstance(place, str), "'place' names a place of the first step, or null")
    return jsonify(table().lesson_action(action, place))


def _printable(text: str) -> bool:
    """No control characters, lone surrogates, line breaks or bidirectional overrides (an
    emoji joined with zero-width joiners is fine)."""
    return not any(unicodedata.category(c) in ("Cc", "Cs", "Zl", "Zp") or c in _BIDI for c in text)


_BIDI = set("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def _rules(name: Any, house: Any) -> Ruleset:
    if house is not None:
        if not isinstance(house, str):
            raise ValueError("'house_rules' is the text of a house-rules TOML file")
        try:
            return Ruleset.from_toml_text(house)
        except RulesetError as error:
            raise ValueError(f"house rules: {error}") from None
    if name is None:
        return Ruleset.preset("basic")
    if not isinstance(name, str) or name not in PRESETS:
        raise ValueError(f"unknown rule set {name!r}: use one of {', '.join(PRESETS)} or house rules")
    return Ruleset.preset(name)
