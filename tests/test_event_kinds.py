"""Every kind of event a game writes, read into ``referee.events`` and written back the same.

The records of ``tests/records.py`` were written by the game before its events had classes of
their own (``referee.events``) or, the phone game's, when its seat could first be handed over:
stored records must read, replay and write back byte for byte. Between them they hold every
kind of event. Anything else is refused with one ``EventError``
naming the kind and the field, never a KeyError or a TypeError.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee import record
from referee.events import KINDS, EventError, Start, event_from_json, event_to_json
from referee.game import Game
from tests.records import DIGITAL, PHONE, TABLE

RECORDS = {"digital": DIGITAL, "table": TABLE, "phone": PHONE}
LINES = [json.loads(line) for text in RECORDS.values() for line in text.splitlines()]
OPTIONAL = {  # keys a kind may leave out (a record redacted for a seat leaves out cards and the seed)
    "start": {"seed", "pegs", "table", "redacted"},
    "deal": {"stock"},
    "draw": {"card"},
    "reshuffle": {"stock"},
    "play": {"card", "free"},
    "move": {"free"},
    "bump": {"penalty"},
}
WRONG: dict[type, Any] = {  # for a value of each JSON type, values of other types
    int: st.one_of(st.text(max_size=3), st.none(), st.booleans(), st.floats(), st.lists(st.integers(), max_size=2)),
    str: st.one_of(
        st.integers(),
        st.booleans(),
        st.lists(st.text(max_size=2), max_size=2),
        st.dictionaries(st.text(max_size=2), st.integers(), max_size=2),
    ),
    bool: st.one_of(st.integers(), st.text(max_size=3), st.none(), st.floats()),
    list: st.one_of(
        st.integers(), st.text(max_size=3), st.none(), st.dictionaries(st.text(max_size=2), st.integers(), max_size=2)
    ),
    dict: st.one_of(st.integers(), st.text(max_size=3), st.none(), st.lists(st.integers(), max_size=2)),
    type(None): st.one_of(  # a card nobody named at a real table: a text would be a card
        st.integers(),
        st.booleans(),
        st.lists(st.text(max_size=2), max_size=2),
        st.dictionaries(st.text(max_size=2), st.integers(), max_size=2),
    ),
}
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=6) | st.sampled_from(["T0:8", "S0", "K", "JOKER"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=8,
)


def test_the_records_hold_every_kind() -> None:
    assert {line["event"] for line in LINES} == {kind.kind for kind in KINDS}
    assert len(KINDS) == 19


@pytest.mark.parametrize("name", RECORDS)
def test_a_stored_record_reads_and_writes_back_byte_for_byte(name: str) -> None:
    text = RECORDS[name]
    for line in text.splitlines():
        data = json.loads(line)
        assert event_to_json(event_from_json(data)) == data
    assert record.dumps(record.loads(text)) == text


@pytest.mark.parametrize("name", RECORDS)
def test_a_stored_record_replays_to_the_same_game(name: str) -> None:
    """The game rebuilt from the typed events is the one rebuilt from the JSON, move for move."""
    text = RECORDS[name]
    events = record.loads(text)
    game = record.replay(events)
    from_json = Game.from_events(json.loads(line) for line in text.splitlines())
    assert record.dumps(game.events) == record.dumps(from_json.events) == text
    assert game.history == from_json.history and game.position == from_json.position
    assert (game.phase, game.winner, game.turn_number) == (from_json.phase, from_json.winner, from_json.turn_number)
    moves = [line for line in map(json.loads, text.splitlines()) if line["event"] == "move"]
    assert len(game.history) <= len(moves) and game.history[0] == (moves[0]["seat"], moves[0]["text"])
    if name == "table":
        assert game.phase == "over" and list(game.winner or ()) == json.loads(text.splitlines()[-1])["team"]


@pytest.mark.parametrize("name", RECORDS)
@pytest.mark.parametrize("seat", [None, 0, 2])
def test_a_redacted_record_reads_and_writes_back_too(name: str, seat: int | None) -> None:
    """What the page gives a seat while a game is on is told, not replayed (``record.redacted``)."""
    shown = record.dumps(record.redacted(record.loads(RECORDS[name]), seat))
    assert record.dumps(record.loads(shown)) == shown
    start = record.loads(shown)[0]
    assert isinstance(start, Start) and start.redacted and start.seed is None
    told = list(record.narrate(record.loads(shown)))
    assert told[-1] == list(record.narrate(record.loads(RECORDS[name])))[-1]  # the same board at the end
    if name == "table":
        assert "== seat 1 win" in "\n".join(told)
    with pytest.raises(record.RecordError, match="leaves out cards"):
        record.replay(record.loads(shown))


@given(st.sampled_from(LINES), st.data())
def test_a_missing_key_is_refused(line: dict[str, Any], data: st.DataObject) -> None:
    required = sorted(set(line) - {"event"} - OPTIONAL.get(line["event"], set()))
    if not required:
        return
    key = data.draw(st.sampled_from(required))
    with pytest.raises(EventError, match=f"{line['event']} event"):
        event_from_json({k: v for k, v in line.items() if k != key})


@given(st.sampled_from(LINES), st.data())
def test_a_value_of_the_wrong_type_is_refused(line: dict[str, Any], data: st.DataObject) -> None:
    keys = sorted(set(line) - {"event"})
    if not keys:
        return
    key = data.draw(st.sampled_from(keys))
    value = line[key]
    wrong = data.draw(WRONG[type(value)])
    if key == "card" and wrong is None and line["event"] in ("play", "discard"):
        return  # at a real table nobody named the card: null is right
    with pytest.raises(EventError, match=rf"{line['event']} event's '{key}'"):
        event_from_json({**line, key: wrong})


@given(st.sampled_from(LINES), st.text(min_size=1, max_size=8), json_values)
def test_an_unknown_key_is_refused(line: dict[str, Any], key: str, value: object) -> None:
    if (
        key in line
        or key in OPTIONAL.get(line["event"], set())
        or (line["event"] == "play" and key in ("declared", "text"))
    ):
        return
    with pytest.raises(EventError, match=f"{line['event']} event has no"):
        event_from_json({**line, key: value})


@given(st.sampled_from(LINES), json_values)
def test_an_unknown_kind_or_not_an_object_is_refused(line: dict[str, Any], kind: object) -> None:
    if kind in [k.kind for k in KINDS]:
        return
    with pytest.raises(EventError):
        event_from_json({**line, "event": kind})
    with pytest.raises(EventError, match="an event is an object"):
        event_from_json(kind)  # type: ignore[arg-type]


@given(st.sampled_from(LINES), st.lists(st.tuples(st.text(max_size=8), json_values), max_size=3), st.data())
def test_anything_mangled_is_refused_or_written_back_exactly(
    line: dict[str, Any], changes: list[tuple[str, object]], data: st.DataObject
) -> None:
    """Keys dropped, changed or added, values of any JSON shape: EventError and nothing else,
    and an event that is read is written back exactly as it was."""
    mangled = dict(line)
    for key, value in changes:
        if bool(mangled) and data.draw(st.booleans()):  # bool(): mypy reads the draw's type from its left
            key = data.draw(st.sampled_from(sorted(mangled)))
        if data.draw(st.booleans()):
            mangled.pop(key, None)
        else:
            mangled[key] = value
    try:
        event = event_from_json(mangled)
    except EventError:
        return
    assert event_to_json(event) == mangled


def test_the_message_names_the_kind_and_the_field() -> None:
    with pytest.raises(EventError, match="a turn event's 'number' is a whole number, not '1'"):
        event_from_json({"event": "turn", "seat": 0, "number": "1", "extra": False})
    with pytest.raises(EventError, match="a move event needs 'text'"):
        event_from_json({"event": "move", "seat": 0})
    with pytest.raises(EventError, match="unknown event 'jump'"):
        event_from_json({"event": "jump"})
    with pytest.raises(record.RecordError, match="record line 2: a move event needs 'seat'"):
        record.loads(DIGITAL.splitlines()[0] + '\n{"event": "move", "text": "K S0-T0:8"}\n')
