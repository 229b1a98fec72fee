"""Malformed input to the ``pegs`` command and the file readers gets one line, never a
traceback (issue "Hardening": "out of 6,000 malformed inputs to `pegs moves`, `pegs track`
and `pegs replay`, 864 gave a traceback, from four causes: integers over 4,300 digits,
nesting about 3,000 deep (TOML, JSON, records), files that are not UTF-8 ... and `pegs
replay` of records with missing fields").

Inputs are files as people make them: UTF-8 with and without a byte-order mark, UTF-16
from Notepad, Latin-1, cut short, nested thousands deep, numbers thousands of digits long,
and records with fields missing or of the wrong type.
"""

from __future__ import annotations

import codecs
import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee import Ruleset
from referee.cli.main import main
from referee.coach.selfplay import play_one
from referee.events import event_to_json
from referee.settings.config import Config, ConfigError

POSITION = {"players": 4, "turn": 0, "pegs": {"0": ["T0:8", "S", "S", "S", "S"], "1": ["T1:3", "S", "S", "S", "S"]}}
RECORD = play_one(Ruleset.preset("basic"), 4, seed=5, bot_name="random")[0].events[:40]

values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.text(max_size=8)
    | st.sampled_from(["T0:8", "S", "H0:5", "T9:9", 4, 10, -1, "basic", "lift", "7"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=10,
)


@st.composite
def mangled(draw: st.DrawFn, text: str) -> bytes:
    """``text`` saved in some encoding, perhaps cut, nested, lengthened or sprinkled with junk."""
    how = draw(st.sampled_from(["as is", "bom", "utf-16", "latin-1", "cut", "deep", "long number", "junk"]))
    if how == "bom":
        return codecs.BOM_UTF8 + text.encode()
    if how == "utf-16":
        return text.encode("utf-16")
    if how == "latin-1":
        return (text + " é").encode("latin-1", "replace")
    if how == "cut":
        return text.encode()[: draw(st.integers(0, max(0, len(text) - 1)))]
    if how == "deep":
        depth = draw(st.integers(50, 5000))
        return ("[" * depth + "]" * depth).encode() if draw(st.booleans()) else ("a = " + "[" * depth).encode()
    if how == "long number":
        return text.replace("0", "9" * draw(st.integers(4301, 6000)), 1).encode()
    if how == "junk":
        return draw(st.binary(max_size=40)) + text.encode()[: draw(st.integers(0, 40))]
    return text.encode()


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> int:
    code = main(list(argv))
    out = capsys.readouterr()
    assert code in (0, 2), code
    if code == 2:
        lines = out.err.strip().splitlines()
        assert len(lines) == 1 and "Traceback" not in out.err, out.err[:500]
        assert len(lines[0]) < 400, lines[0][:100]
    return code


def write(path: Path, data: bytes) -> str:
    path.write_bytes(data)
    return str(path)


SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))


@SETTINGS
@given(st.data())
def test_moves_and_track_read_any_position(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], data: st.DataObject
) -> None:
    position = dict(POSITION)
    if data.draw(st.booleans()):
        position[data.draw(st.sampled_from(["players", "turn", "pegs", "teams", "extra"]))] = data.draw(values)
    source = write(tmp_path / "p.json", data.draw(mangled(json.dumps(position))))
    events = write(tmp_path / "e.txt", data.draw(mangled("0 lift T0:8\n250 place T0:13\n")))
    rules = write(tmp_path / "r.toml", data.draw(mangled('base = "basic"\nhand_size = 5\n')))
    card = data.draw(st.sampled_from(["5", "7", "JOKER", "Z", ""]))
    run(capsys, "moves", source, "--card", card, "--rules", data.draw(st.sampled_from(["basic", rules])))
    run(capsys, "track", source, "--events", events, "--card", "5")


@SETTINGS
@given(st.data())
def test_replay_reads_any_record(tmp_path: Path, capsys: pytest.CaptureFixture[str], data: st.DataObject) -> None:
    events = [event_to_json(event) for event in RECORD]
    for _ in range(data.draw(st.integers(0, 3))):
        event = events[data.draw(st.integers(0, len(events) - 1))]
        key = data.draw(st.sampled_from(sorted(event)))
        if data.draw(st.booleans()):
            del event[key]
        else:
            event[key] = data.draw(values)
    text = "".join(json.dumps(event) + "\n" for event in events)
    run(capsys, "replay", write(tmp_path / "game.jsonl", data.draw(mangled(text))))


@SETTINGS
@given(st.data())
def test_replay_reads_any_record_with_events_out_of_place(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], data: st.DataObject
) -> None:
    """A record's events in another order: an undo before any turn (found: an IndexError
    traceback), any event again somewhere else, one left out. One line, never a traceback."""
    events = [event_to_json(event) for event in RECORD]
    for _ in range(data.draw(st.integers(1, 3))):
        where = data.draw(st.integers(0, len(events)))
        what = data.draw(st.sampled_from(["undo", "again", "drop"]))
        if what == "undo":
            events.insert(where, {"event": "undo"})
        elif what == "again":
            events.insert(where, dict(events[data.draw(st.integers(0, len(events) - 1))]))
        elif events:
            events.pop(min(where, len(events) - 1))
    text = "".join(json.dumps(event) + "\n" for event in events)
    run(capsys, "replay", write(tmp_path / "game.jsonl", text.encode()))


def test_an_undo_before_any_turn_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    events = [event_to_json(event) for event in RECORD]
    first_turn = next(n for n, event in enumerate(events) if event["event"] == "turn")
    events.insert(first_turn, {"event": "undo"})
    text = "".join(json.dumps(event) + "\n" for event in events)
    assert run(capsys, "replay", write(tmp_path / "game.jsonl", text.encode())) == 2


@pytest.mark.parametrize("argument", ["[1,2]", '{"players": 4', "{}", "  [ ", "-"])
def test_a_position_given_inline_is_read_as_json(
    capsys: pytest.CaptureFixture[str], monkeypatch: Any, argument: str
) -> None:
    """The issue: "`pegs moves '[1,2]'` says "No such file or directory"."""
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(codecs.BOM_UTF8 + b"[1, 2]")))
    assert run(capsys, "moves", argument, "--card", "5") == 2
    assert "No such file" not in capsys.readouterr().err


def test_a_file_saved_with_a_byte_order_mark_or_by_notepad_is_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """ "a UTF-8 file with a byte-order mark is refused, where it should simply be read"."""
    for i, data in enumerate([codecs.BOM_UTF8 + json.dumps(POSITION).encode(), json.dumps(POSITION).encode("utf-16")]):
        assert run(capsys, "moves", write(tmp_path / f"p{i}.json", data), "--card", "5") == 0


@SETTINGS
@given(st.data())
def test_the_config_reader_refuses_bad_files_in_one_line(tmp_path: Path, data: st.DataObject) -> None:
    text = '[board]\nplayers = 4\n[web]\nport = 8080\nallowed_hosts = ["pegs.example"]\n[game]\nrules = "basic"\n'
    path = tmp_path / "pegs.toml"
    path.write_bytes(data.draw(mangled(text)))
    try:
        Config.from_toml(path)
    except ConfigError as error:  # a mangled file may still be a good one: only a refusal is checked
        message = str(error)
    else:
        return
    assert "\n" not in message and len(message) < 400


def test_selfplay_records_into_a_file_path_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The issue: "`pegs selfplay --record` on a path that is a file or cannot be made"."""
    (tmp_path / "taken").write_text("not a directory")
    assert run(capsys, "selfplay", "--games", "1", "--record", str(tmp_path / "taken")) == 2
    assert run(capsys, "selfplay", "--games", "1", "--record", "/proc/no/such/dir") == 2


def test_serving_pi_hardware_elsewhere_is_one_line(tmp_path: Path) -> None:
    """The issue: "`pegs serve --config deploy/pegs.toml` on a machine that is not a Pi
    (`AttributeError: module 'board' has no attribute 'SPI'`)"."""
    config = tmp_path / "pegs.toml"
    config.write_text('[leds]\nbackend = "neopixel-spi"\n[data]\ndir = "d"\n')
    done = subprocess.run(
        [sys.executable, "-m", "referee.cli", "serve", "--config", str(config), "--port", "0"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "leds.backend = 'neopixel-spi': cannot be opened on this machine" in done.stderr.strip().splitlines()[-1]


def test_the_fake_device_refuses_an_impossible_channel_in_one_line() -> None:
    """The issue: "`python -m firmware_bridge.fake_device` on `set 1e400 1`"."""
    done = subprocess.run(
        [sys.executable, "-m", "firmware_bridge.fake_device"],
        input="set 1e400 1\nquit\n",
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert done.returncode == 0 and "Traceback" not in done.stderr and "bad command 'set 1e400 1'" in done.stderr
