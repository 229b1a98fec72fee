"""Every kind of event a game writes, read into ``referee.events`` and written back the same.

The two records below were written by the game before its events had classes of their own
(``referee.events``): stored records must read, replay and write back byte for byte. One is
a digital Bluffing Joker game, cut after its undo (a deal, draws, a reshuffle of a short
stock, discards, doubts, penalties, an extra turn declined); the other a whole game at a
real table (a doubted card turned up, a peg bumped, a penalty, an extra turn, the win).
Between them they hold every kind but the seat handed over mid-game (issue 36), which a third,
newer record holds. Anything else is refused with one ``EventError``
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

DIGITAL = """\
{"event":"start","players":2,"teams":[[0],[2]],"rules":{"base":"basic","name":"bluffing-joker","summary":"Basic, but cards are played face down and declared; opponents may doubt.","cards":{"A":{"forward":[1],"backward":[],"come_out":true,"swap":false,"joker":false,"split":false},"2":{"forward":[2],"backward":[],"come_out":false,"swap":false,"joker":false,"split":false},"3":{"forward":[3],"backward":[],"come_out":false,"swap":false,"joker":false,"split":false},"4":{"forward":[4],"backward":[],"come_out":false,"swap":false,"joker":false,"split":false},"5":{"forward":[5],"backward":[],"come_out":false,"swap":false,"joker":false,"split":false},"6":{"forward":[6],"backward":[],"come_out":false,"swap":false,"joker":false,"split":false},"7":{"forward":[7],"backward":[],"come_out":false,"swap":false,"joker":false,"split":{"total":7,"directions":"forward","required":false,"any_peg":false}},"8":{"forward":[],"backward":[8],"come_out":false,"swap":false,"joker":false,"split":false},"9":{"forward":[9],"backward":[],"come_out":false,"swap":false,"joker":false,"split":false},"10":{"forward":[10],"backward":[],"come_out":false,"swap":false,"joker":false,"split":false},"J":{"forward":[10],"backward":[],"come_out":true,"swap":false,"joker":false,"split":false},"Q":{"forward":[10],"backward":[],"come_out":true,"swap":false,"joker":false,"split":false},"K":{"forward":[10],"backward":[],"come_out":true,"swap":false,"joker":false,"split":false},"JOKER":{"forward":[],"backward":[],"come_out":false,"swap":false,"joker":true,"split":false}},"movers":"own-then-partner","split_into_partner":false,"joker_from":"own","home_entry":"may","hand_size":5,"draw":"before","decks":{"2":3,"4":3,"6":3,"8":4,"10":5},"jokers_per_deck":2,"extra_jokers":0,"added_jokers":{"10":4},"counting":false,"bluffing":true},"mode":"digital","seed":58,"first":0,"pegs":{"0":["T0:10","H0:3","H0:4","H0:5","S"],"2":["T2:14","H2:4","H2:5","S","S"]},"table":{"names":["Red","Blue"],"bots":{"2":"random"}}}
{"event":"deal","hands":{"0":["4","A","J","10","3"],"2":["5","9","2","7","8"]},"stock":["7","J","5","8","9","2"]}
{"event":"turn","seat":0,"number":1,"extra":false}
{"event":"draw","seat":0,"card":"2"}
{"event":"play","seat":0,"card":"A","declared":"J","text":"J S0-T0:8"}
{"event":"doubt","seat":2,"doubt":true}
{"event":"move","seat":0,"text":"J S0-T0:8"}
{"event":"settle","seat":0}
{"event":"penalty-due","chooser":0,"victim":2}
{"event":"penalty","seat":2,"hole":"T2:14","by":0}
{"event":"turn","seat":2,"number":2,"extra":false}
{"event":"draw","seat":2,"card":"9"}
{"event":"discard","seat":2,"card":"2"}
{"event":"turn","seat":0,"number":3,"extra":false}
{"event":"draw","seat":0,"card":"8"}
{"event":"play","seat":0,"card":"3","declared":"3","text":"3 T0:10-T0:13"}
{"event":"doubt","seat":2,"doubt":false}
{"event":"move","seat":0,"text":"3 T0:10-T0:13"}
{"event":"settle","seat":0}
{"event":"turn","seat":2,"number":4,"extra":false}
{"event":"draw","seat":2,"card":"5"}
{"event":"discard","seat":2,"card":"9"}
{"event":"turn","seat":0,"number":5,"extra":false}
{"event":"draw","seat":0,"card":"J"}
{"event":"undo"}
{"event":"draw","seat":0,"card":"J"}
{"event":"play","seat":0,"card":"4","declared":"K","text":"K T0:13-T1:5"}
{"event":"doubt","seat":2,"doubt":true}
{"event":"settle","seat":0}
{"event":"penalty-due","chooser":2,"victim":0}
{"event":"penalty","seat":0,"hole":"T0:13","by":2}
{"event":"turn","seat":2,"number":6,"extra":false}
{"event":"draw","seat":2,"card":"7"}
{"event":"discard","seat":2,"card":"5"}
{"event":"turn","seat":0,"number":7,"extra":false}
{"event":"reshuffle","stock":["9","5","4","3","2","A"]}
{"event":"draw","seat":0,"card":"A"}
{"event":"play","seat":0,"card":"2","declared":"3","text":"3 T0:8-T0:11"}
{"event":"doubt","seat":2,"doubt":true}
{"event":"settle","seat":0}
{"event":"penalty-due","chooser":2,"victim":0}
{"event":"penalty","seat":0,"hole":"T0:8","by":2}
{"event":"turn","seat":2,"number":8,"extra":false}
"""
TABLE = """\
{"event":"start","players":2,"teams":[[0],[2]],"rules":{"base":"basic","name":"bluffing-joker","summary":"Basic, but cards are played face down and declared; opponents may doubt.","cards":{"A":{"forward":[1],"backward":[],"come_out":true,"swap":false,"joker":false,"split":false},"2":{"forward":[2],"backward":[],"come_out":false,"swap":false,"joker":false,"split":false},"3":{"forward":[3],"backward":[],"come_out":false,"swap":false,"joker":false,"split":false},"4":{"forward":[4],"backward":[],"come_out":false,"swap":false,"joker":false,"split":false},"5":{"forward":[5],"backward":[],"come_out":false,"swap":false,"joker":false,"split":false},"6":{"forward":[6],"backward":[],"come_out":false,"swap":false,"joker":false,"split":false},"7":{"forward":[7],"backward":[],"come_out":false,"swap":false,"joker":false,"split":{"total":7,"directions":"forward","required":false,"any_peg":false}},"8":{"forward":[],"backward":[8],"come_out":false,"swap":false,"joker":false,"split":false},"9":{"forward":[9],"backward":[],"come_out":false,"swap":false,"joker":false,"split":false},"10":{"forward":[10],"backward":[],"come_out":false,"swap":false,"joker":false,"split":false},"J":{"forward":[10],"backward":[],"come_out":true,"swap":false,"joker":false,"split":false},"Q":{"forward":[10],"backward":[],"come_out":true,"swap":false,"joker":false,"split":false},"K":{"forward":[10],"backward":[],"come_out":true,"swap":false,"joker":false,"split":false},"JOKER":{"forward":[],"backward":[],"come_out":false,"swap":false,"joker":true,"split":false}},"movers":"own-then-partner","split_into_partner":false,"joker_from":"own","home_entry":"may","hand_size":5,"draw":"before","decks":{"2":3,"4":3,"6":3,"8":4,"10":5},"jokers_per_deck":2,"extra_jokers":0,"added_jokers":{"10":4},"counting":false,"bluffing":true},"mode":"table","seed":0,"first":0,"pegs":{"0":["T0:10","H0:3","H0:4","H0:5","S"],"2":["T2:14","H2:4","H2:5","S","S"]}}
{"event":"turn","seat":0,"number":1,"extra":false}
{"event":"play","seat":0,"card":"Q","declared":"Q","text":"Q S0-T0:8"}
{"event":"doubt","seat":2,"doubt":false}
{"event":"move","seat":0,"text":"Q S0-T0:8"}
{"event":"settle","seat":0}
{"event":"turn","seat":2,"number":2,"extra":false}
{"event":"play","seat":2,"card":"K","declared":"K","text":"K S2-T2:8"}
{"event":"doubt","seat":0,"doubt":true}
{"event":"move","seat":2,"text":"K S2-T2:8"}
{"event":"settle","seat":2}
{"event":"penalty-due","chooser":2,"victim":0}
{"event":"penalty","seat":0,"hole":"T0:8","by":2}
{"event":"turn","seat":0,"number":3,"extra":false}
{"event":"play","seat":0,"card":"8","declared":"8","text":"8 T0:10-T0:2"}
{"event":"doubt","seat":2,"doubt":false}
{"event":"move","seat":0,"text":"8 T0:10-T0:2"}
{"event":"settle","seat":0}
{"event":"turn","seat":2,"number":4,"extra":false}
{"event":"play","seat":2,"card":"2","declared":"2","text":"2 T2:14-T2:16"}
{"event":"doubt","seat":0,"doubt":false}
{"event":"move","seat":2,"text":"2 T2:14-T2:16"}
{"event":"settle","seat":2}
{"event":"turn","seat":0,"number":5,"extra":false}
{"event":"play","seat":0,"card":"3","declared":"3","text":"3 T0:2-H0:2"}
{"event":"doubt","seat":2,"doubt":false}
{"event":"move","seat":0,"text":"3 T0:2-H0:2"}
{"event":"settle","seat":0}
{"event":"turn","seat":2,"number":6,"extra":false}
{"event":"play","seat":2,"card":"5","declared":"5","text":"5 T2:8-T2:13"}
{"event":"doubt","seat":0,"doubt":true}
{"event":"move","seat":2,"text":"5 T2:8-T2:13"}
{"event":"settle","seat":2}
{"event":"extra","seat":2}
{"event":"turn","seat":0,"number":7,"extra":false}
{"event":"play","seat":0,"card":"JOKER","declared":"JOKER","text":"JOKER S0-T2:16x"}
{"event":"doubt","seat":2,"doubt":false}
{"event":"move","seat":0,"text":"JOKER S0-T2:16x"}
{"event":"bump","seat":2,"by":0,"from":"T2:16","to":"S2"}
{"event":"settle","seat":0}
{"event":"turn","seat":2,"number":8,"extra":false}
{"event":"play","seat":2,"card":"2","declared":"2","text":"2 T2:13-T2:15"}
{"event":"doubt","seat":0,"doubt":false}
{"event":"move","seat":2,"text":"2 T2:13-T2:15"}
{"event":"settle","seat":2}
{"event":"turn","seat":2,"number":9,"extra":true}
{"event":"decline","seat":2}
{"event":"turn","seat":0,"number":10,"extra":false}
{"event":"undo"}
{"event":"play","seat":2,"card":"2","declared":"2","text":"2 T2:15-T2:17"}
{"event":"doubt","seat":0,"doubt":false}
{"event":"move","seat":2,"text":"2 T2:15-T2:17"}
{"event":"settle","seat":2}
{"event":"turn","seat":0,"number":10,"extra":false}
{"event":"play","seat":0,"card":"5","declared":"5","text":"5 T2:16-T3:3"}
{"event":"doubt","seat":2,"doubt":true}
{"event":"move","seat":0,"text":"5 T2:16-T3:3"}
{"event":"settle","seat":0}
{"event":"penalty-due","chooser":0,"victim":2}
{"event":"penalty","seat":2,"hole":"T2:17","by":0}
{"event":"turn","seat":2,"number":11,"extra":false}
{"event":"play","seat":2,"card":null,"declared":"JOKER","text":"JOKER S2-T3:3x"}
{"event":"doubt","seat":0,"doubt":true}
{"event":"reveal","seat":2,"card":"K"}
{"event":"settle","seat":2}
{"event":"extra","seat":0}
{"event":"turn","seat":0,"number":12,"extra":false}
{"event":"play","seat":0,"card":"10","declared":"10","text":"10 T3:3-T3:13"}
{"event":"doubt","seat":2,"doubt":true}
{"event":"move","seat":0,"text":"10 T3:3-T3:13"}
{"event":"settle","seat":0}
{"event":"extra","seat":0}
{"event":"turn","seat":0,"number":13,"extra":true}
{"event":"play","seat":0,"card":"9","declared":"9","text":"9 T3:13-H0:1"}
{"event":"doubt","seat":2,"doubt":true}
{"event":"move","seat":0,"text":"9 T3:13-H0:1"}
{"event":"settle","seat":0}
{"event":"win","team":[0]}
"""
# Issue 36 ("A seat played from a phone"): a digital game whose seat 2 is played from a phone,
# handed to a family bot for a turn and back; the undo after "back to the phone" takes back
# Red's turn, not the table's choice of who plays Grandma (the "seat" event stays).
PHONE = """\
{"event":"start","players":2,"teams":[[0],[2]],"rules":{"base":"basic","name":"basic","summary":"Draw to 6, play one; move only your own pegs until they are all home.","cards":{"A":{"forward":[1],"backward":[],"come_out":true,"swap":false,"joker":false,"split":false},"2":{"forward":[2],"backward":[],"come_out":false,"swap":false,"joker":false,"split":false},"3":{"forward":[3],"backward":[],"come_out":false,"swap":false,"joker":false,"split":false},"4":{"forward":[4],"backward":[],"come_out":false,"swap":false,"joker":false,"split":false},"5":{"forward":[5],"backward":[],"come_out":false,"swap":false,"joker":false,"split":false},"6":{"forward":[6],"backward":[],"come_out":false,"swap":false,"joker":false,"split":false},"7":{"forward":[7],"backward":[],"come_out":false,"swap":false,"joker":false,"split":{"total":7,"directions":"forward","required":false,"any_peg":false}},"8":{"forward":[],"backward":[8],"come_out":false,"swap":false,"joker":false,"split":false},"9":{"forward":[9],"backward":[],"come_out":false,"swap":false,"joker":false,"split":false},"10":{"forward":[10],"backward":[],"come_out":false,"swap":false,"joker":false,"split":false},"J":{"forward":[10],"backward":[],"come_out":true,"swap":false,"joker":false,"split":false},"Q":{"forward":[10],"backward":[],"come_out":true,"swap":false,"joker":false,"split":false},"K":{"forward":[10],"backward":[],"come_out":true,"swap":false,"joker":false,"split":false},"JOKER":{"forward":[],"backward":[],"come_out":false,"swap":false,"joker":true,"split":false}},"movers":"own-then-partner","split_into_partner":false,"joker_from":"own","home_entry":"may","hand_size":5,"draw":"before","decks":{"2":3,"4":3,"6":3,"8":4,"10":5},"jokers_per_deck":2,"extra_jokers":0,"added_jokers":{"10":4},"counting":false,"bluffing":false},"mode":"digital","seed":11,"first":0,"table":{"names":["Red","Grandma"],"colours":["#e53935","#1e88e5"],"phones":[2]}}
{"event":"deal","hands":{"0":["K","8","10","7","4"],"2":["5","Q","6","Q","3"]},"stock":["10","6","3","A","8","4","7","4","7","Q","9","A","10","Q","7","10","9","J","3","3","9","K","4","5","10","7","3","A","J","8","4","A","K","K","6","2","K","4","8","A","Q","A","9","K","8","4","K","J","Q","5","2","A","6","2","J","Q","2","7","K","5","10","A","7","8","4","J","6","3","8","3","5","5","2","3","A","J","9","6","Q","4","J","J","10","3","7","3","4","J","9","8","4","J","6","8","A","6","8","6","2","7","Q","5","5","K","2","8","3","7","J","2","2","5","K","10","K","Q","6","6","7","9","5","A","A","2","J","10","9","3","10","5","2","4","8","6","7","2","5","9","9","9","10","Q","Q","10","K","9"]}
{"event":"turn","seat":0,"number":1,"extra":false}
{"event":"draw","seat":0,"card":"9"}
{"event":"play","seat":0,"card":"K"}
{"event":"move","seat":0,"text":"K S0-T0:8"}
{"event":"turn","seat":2,"number":2,"extra":false}
{"event":"seat","seat":2,"by":"family"}
{"event":"draw","seat":2,"card":"K"}
{"event":"play","seat":2,"card":"K"}
{"event":"move","seat":2,"text":"K S2-T2:8"}
{"event":"turn","seat":0,"number":3,"extra":false}
{"event":"draw","seat":0,"card":"10"}
{"event":"play","seat":0,"card":"10"}
{"event":"move","seat":0,"text":"10 T0:8-T1:0"}
{"event":"turn","seat":2,"number":4,"extra":false}
{"event":"seat","seat":2,"by":"phone"}
{"event":"undo"}
{"event":"draw","seat":0,"card":"10"}
{"event":"play","seat":0,"card":"10"}
{"event":"move","seat":0,"text":"10 T0:8-T1:0"}
{"event":"turn","seat":2,"number":4,"extra":false}
{"event":"draw","seat":2,"card":"Q"}
{"event":"play","seat":2,"card":"3"}
{"event":"move","seat":2,"text":"3 T2:8-T2:11"}
{"event":"turn","seat":0,"number":5,"extra":false}
{"event":"draw","seat":0,"card":"Q"}
"""
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
        key = data.draw(st.sampled_from(sorted(mangled))) if mangled and data.draw(st.booleans()) else key
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
