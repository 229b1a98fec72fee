"""The frame format: round trips, garbage, damage, and the firmware that speaks it."""

from __future__ import annotations

import ast
import binascii
import contextlib
import itertools
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from firmware_bridge import protocol
from firmware_bridge.protocol import Frame, FrameReader, decode, decode_strict, encode
from tests.circuitpython_standins import Clock, Keys, Port, run_firmware

PACKAGE = Path(protocol.__file__).parent
FIRMWARE = PACKAGE / "firmware"
TOKEN = st.text(alphabet=protocol._TOKEN, min_size=1, max_size=protocol.MAX_TOKEN)
SEQ = st.integers(0, protocol.SEQ_MOD - 1)
MS = st.integers(0, protocol.MS_MOD - 1)

frames = st.one_of(
    st.builds(protocol.hello, SEQ, st.integers(1, protocol.MAX_CHANNELS), TOKEN, st.integers(0, 65535)),
    st.builds(protocol.snapshot, SEQ, st.lists(st.booleans(), min_size=1, max_size=protocol.MAX_CHANNELS)),
    st.builds(protocol.change, SEQ, st.integers(0, protocol.MAX_CHANNELS - 1), st.booleans(), MS),
    st.builds(protocol.heartbeat, SEQ, MS),
    st.builds(protocol.error, SEQ, TOKEN),
    st.builds(protocol.request, SEQ, st.sampled_from([protocol.SNAPSHOT, protocol.HELLO])),
)
EXAMPLES = [
    protocol.hello(0, 96, "1.0.0"),
    protocol.snapshot(1, [True, False, False, True, False, False, False, False, True]),
    protocol.change(17, 42, True, 123456),
    protocol.heartbeat(65535, protocol.MS_MOD - 1),
    protocol.error(3, "overflow"),
    protocol.request(0, protocol.SNAPSHOT),
    protocol.request(1, protocol.HELLO),
]


# -- the format -----------------------------------------------------------------------------


def test_crc_is_crc16_ccitt_false() -> None:
    assert protocol.crc16(b"123456789") == 0x29B1


@given(st.binary(max_size=300))
def test_crc_agrees_with_binascii(data: bytes) -> None:
    assert protocol.crc16(data) == binascii.crc_hqx(data, 0xFFFF)


def test_worked_examples_of_protocol_md() -> None:
    assert encode(protocol.change(17, 42, True, 123456)) == b"$C,17,42,1,123456*5456\n"
    assert encode(protocol.hello(0, 96, "1.0.0")) == b"$H,0,1,96,1.0.0*A672\n"
    assert encode(protocol.snapshot(5, [1, 0, 0, 1, 0, 0, 0, 0, 1])) == b"$S,5,9,109*C19B\n"
    assert encode(protocol.request(0, "S")) == b"$R,0,S*D479\n"


@pytest.mark.parametrize("frame", EXAMPLES, ids=lambda frame: frame.kind)
def test_every_kind_round_trips(frame: Frame) -> None:
    line = encode(frame)
    assert line.endswith(b"\n") and line.count(b"\n") == 1 and len(line) <= protocol.MAX_LINE + 1
    assert decode(line) == frame
    assert decode(line.rstrip(b"\n")) == frame
    assert decode(line.replace(b"\n", b"\r\n")) == frame  # typed in a terminal


@given(frames)
def test_generated_frames_round_trip(frame: Frame) -> None:
    line = encode(frame)
    assert len(line) <= protocol.MAX_LINE + 1
    assert decode(line) == frame


def test_snapshot_bitmap_puts_channel_zero_in_the_lowest_bit() -> None:
    assert protocol.bitmap([True] + [False] * 7) == "01"
    assert protocol.bitmap([False] * 8 + [True]) == "100"
    assert decode_strict(b"$S,5,9,109*C19B").levels == (True, False, False, True, False, False, False, False, True)


def test_sequence_numbers_wrap() -> None:
    assert protocol.next_seq(65535) == 0
    assert protocol.next_seq(0) == 1


@pytest.mark.parametrize(
    "frame",
    [
        Frame("C", 65536, channel=1, level=True, ms=0),
        protocol.change(0, protocol.MAX_CHANNELS, True, 0),
        protocol.hello(0, 0, "x"),
        protocol.hello(0, 8, "has space"),
        protocol.error(0, "$"),
        protocol.request(0, "X"),
        Frame("Z", 0),
    ],
)
def test_encode_refuses_impossible_frames(frame: Frame) -> None:
    with pytest.raises(ValueError):  # noqa: PT011 - each frame is refused for a reason of its own
        encode(frame)


def _with_crc(body: bytes) -> bytes:
    return b"$" + body + b"*%04X" % protocol.crc16(body)


@pytest.mark.parametrize(
    "body",
    [
        b"C,17,042,1,5",  # leading zero: every frame has one spelling
        b"C,17,42,2,5",  # level is 0 or 1
        b"C,17,42,1",  # a field missing
        b"C,17,42,1,5,6",  # a field too many
        b"C,-1,42,1,5",
        b"C,65536,42,1,5",  # past the sequence range
        b"B,1,4294967296",  # past 2**32 ms
        b"S,1,9,209",  # a bit past the last channel
        b"S,1,8,0f0",  # one digit too many
        b"S,1,8,0g",
        b"S,1,0,",
        b"H,1,1,96,",
        b"X,1",
        b"C,,42,1,5",
    ],
)
def test_decode_is_strict_even_when_the_crc_matches(body: bytes) -> None:
    assert decode(_with_crc(body)) is None


def test_decode_wants_upper_case_hex_in_the_checksum() -> None:
    assert decode(b"$H,0,1,96,1.0.0*A672") is not None
    assert decode(b"$H,0,1,96,1.0.0*a672") is None


# -- garbage, damage, truncation ------------------------------------------------------------

# A corrupted frame must never decode as a *different* valid frame (a phantom event).
# Guarantees: every single-bit error anywhere is caught; up to three flipped bits inside the
# body are caught (CRC-16/CCITT has Hamming distance 4 for frames this short); a truncated
# frame always loses its "*" in the fifth place from the end. Anything else that keeps the
# strict grammar passes the CRC with probability 2**-16. These tests are deterministic
# (derandomized hypothesis; exhaustive loops), so that bound cannot make them flaky.


@settings(derandomize=True, max_examples=400)
@given(st.binary(max_size=400))
@example(b"$")
@example(b"$*0000")
@example(b"$C,1,2,1,3*FFFF")
@example(b"\xff" * 10)
def test_decode_never_raises_on_random_bytes(data: bytes) -> None:
    frame = decode(data)
    assert frame is None or encode(frame).strip() == data.strip()  # one spelling per frame
    with contextlib.suppress(ValueError):
        decode_strict(data)


@settings(derandomize=True, max_examples=300)
@given(frames, st.data())
def test_bit_flips_never_yield_another_frame(frame: Frame, data: st.DataObject) -> None:
    line = encode(frame)
    bits = data.draw(st.sets(st.integers(0, (len(line) - 1) * 8 - 1), min_size=1, max_size=6))
    damaged = bytearray(line)
    for bit in bits:
        damaged[bit // 8] ^= 1 << (bit % 8)
    assert decode(bytes(damaged)) in (None, frame)


@pytest.mark.parametrize("frame", EXAMPLES, ids=lambda frame: frame.kind)
def test_every_single_and_double_bit_flip_is_caught(frame: Frame) -> None:
    line = encode(frame)[:-1]
    positions = range(len(line) * 8)
    for bits in itertools.chain(((bit,) for bit in positions), itertools.combinations(positions, 2)):
        damaged = bytearray(line)
        for bit in bits:
            damaged[bit // 8] ^= 1 << (bit % 8)
        assert decode(bytes(damaged)) is None, bits


@given(frames)
def test_every_truncation_is_caught(frame: Frame) -> None:
    line = encode(frame)
    for cut in range(len(line) - 1):
        assert decode(line[:cut]) is None
        assert decode(line[:cut] + b"\n") is None


def test_line_length_is_bounded() -> None:
    assert decode(b"$" + b"9" * protocol.MAX_LINE + b"*0000") is None


# -- the reader -----------------------------------------------------------------------------


def _chunks(stream: bytes, cuts: list[int]) -> list[bytes]:
    points = sorted({cut % (len(stream) + 1) for cut in cuts})
    return [stream[a:b] for a, b in zip([0, *points], [*points, len(stream)], strict=False)]


@settings(derandomize=True)
@given(st.lists(frames, max_size=8), st.lists(st.integers(0, 10_000), max_size=10))
def test_reader_yields_every_frame_whatever_the_chunking(sent: list[Frame], cuts: list[int]) -> None:
    reader = FrameReader()
    got = [frame for chunk in _chunks(b"".join(map(encode, sent)), cuts) for frame in reader.feed(chunk)]
    assert got == sent
    assert reader.errors == 0 and reader.frames == len(sent)


@settings(derandomize=True)
@given(st.lists(st.tuples(st.binary(max_size=40), frames), max_size=8), st.lists(st.integers(0, 10_000), max_size=10))
def test_garbage_between_frames_costs_no_frame(pairs: list[tuple[bytes, Frame]], cuts: list[int]) -> None:
    """The frame after junk is still found: "$" never occurs inside a frame."""
    stream = b"".join(junk + encode(frame) for junk, frame in pairs)
    reader = FrameReader()
    got = [frame for chunk in _chunks(stream, cuts) for frame in reader.feed(chunk)]
    assert got == [frame for _, frame in pairs]
    if any(junk.strip() for junk, _ in pairs):
        assert reader.errors > 0


@settings(derandomize=True, max_examples=200)
@given(st.lists(frames, min_size=1, max_size=8), st.data())
def test_damaged_stream_yields_only_frames_that_were_sent(sent: list[Frame], data: st.DataObject) -> None:
    stream = bytearray(b"".join(map(encode, sent)))
    for _ in range(data.draw(st.integers(1, 4))):
        action = data.draw(st.sampled_from(["flip", "cut", "insert"]))
        at = data.draw(st.integers(0, len(stream) - 1))
        if action == "flip":
            stream[at] ^= 1 << data.draw(st.integers(0, 7))
        elif action == "cut":
            del stream[at : at + data.draw(st.integers(1, 30))]
        else:
            stream[at:at] = data.draw(st.binary(min_size=1, max_size=30))
        if not stream:
            break
    reader = FrameReader()
    got = reader.feed(bytes(stream))
    remaining = iter(sent)
    assert all(any(frame == candidate for candidate in remaining) for frame in got), "a phantom or reordered frame"


def test_reader_memory_is_bounded_without_newlines() -> None:
    reader = FrameReader()
    for _ in range(200):
        assert reader.feed(b"x$" * 500) == []
        assert len(reader._buf) <= protocol.MAX_LINE
    assert reader.errors == 1  # one overlong line, counted once
    frame = protocol.change(1, 2, True, 3)
    assert reader.feed(encode(frame)) == [frame]  # the frame after the junk survives
    assert reader.feed(encode(frame)) == [frame]


def test_reader_ignores_empty_lines() -> None:
    reader = FrameReader()
    assert reader.feed(b"\n\r\n\n") == []
    assert reader.errors == 0


# -- CircuitPython ----------------------------------------------------------------------------

# Methods MicroPython's bytes/str/int lack, or that CPython grew recently.
MISSING_ON_CIRCUITPYTHON = {
    "hex",
    "fromhex",
    "isascii",
    "removeprefix",
    "removesuffix",
    "casefold",
    "format_map",
    "zfill",
    "expandtabs",
    "bit_count",
    "as_integer_ratio",
    "translate",
    "maketrans",
}


def test_protocol_stays_within_circuitpython() -> None:
    tree = ast.parse((PACKAGE / "protocol.py").read_text())
    guarded: set[int] = set()  # imports inside ``try: ... except ImportError: pass``, for type checkers
    for node in ast.walk(tree):
        if isinstance(node, ast.Try) and [ast.unparse(h.type) for h in node.handlers if h.type] == ["ImportError"]:
            guarded.update(id(child) for child in node.body)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            assert id(node) in guarded and getattr(node, "module", None) == "typing", ast.unparse(node)
        assert not isinstance(node, ast.JoinedStr), "no f-strings"
        assert not isinstance(node, ast.NamedExpr), "no walrus"
        assert not isinstance(node, ast.Match | ast.AsyncFunctionDef | ast.Await), "keep to the basics"
        if isinstance(node, ast.Attribute):
            assert node.attr not in MISSING_ON_CIRCUITPYTHON, node.attr
        if isinstance(node, ast.FunctionDef | ast.ClassDef):
            assert not node.decorator_list, "no decorators (dataclasses, properties, staticmethods)"
        if isinstance(node, ast.FunctionDef):
            for annotation in [node.returns, *(arg.annotation for arg in node.args.args)]:
                # CircuitPython ignores annotations, CPython evaluates them: builtin names or strings.
                assert annotation is None or isinstance(annotation, ast.Name | ast.Constant), ast.dump(annotation)


@pytest.mark.parametrize(
    ("name", "allowed"),
    [("boot.py", {"usb_cdc"}), ("code.py", {"time", "board", "keypad", "supervisor", "usb_cdc", "protocol"})],
)
def test_firmware_compiles_and_imports_only_circuitpython_modules(name: str, allowed: set[str]) -> None:
    source = (FIRMWARE / name).read_text()
    tree = ast.parse(source)
    compile(source, name, "exec")
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    assert not [node for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)]
    assert imported <= allowed
    assert not [node for node in ast.walk(tree) if isinstance(node, ast.JoinedStr | ast.NamedExpr)]


def test_boot_enables_the_data_port() -> None:
    calls = []
    stub = SimpleNamespace(enable=lambda **kw: calls.append(kw))
    run_firmware(FIRMWARE / "boot.py", {"usb_cdc": stub})
    assert calls == [{"console": True, "data": True}]


def test_firmware_reports_scans_and_answers_requests() -> None:
    """code.py against stand-ins for board, keypad, supervisor, usb_cdc and time."""
    clock, port = Clock(), Port()
    keys: list[Keys] = []

    def overflow(k: Keys) -> None:
        k.overflowed = True
        k.pressed.add(9)  # its event was lost in the overflow

    script = [
        lambda k: None,
        lambda k: k.press(7),
        lambda k: setattr(port, "inbox", encode(protocol.request(0, protocol.SNAPSHOT))),
        lambda k: setattr(port, "inbox", b"$R,1,S*0000\n"),  # damaged: the device says so
        lambda k: k.press(1, False),
        overflow,
        lambda k: setattr(port, "inbox", encode(protocol.request(1, protocol.HELLO))),
        lambda k: clock.sleep(1.5),  # time for a heartbeat
    ]

    def make_keys(**config: Any) -> Keys:
        keys.append(Keys(clock, port, script, **config))
        keys[-1].pressed.update({1, 5})  # pegs already on the board at power-up
        return keys[-1]

    def reload() -> None:
        raise AssertionError("the firmware crashed and asked for a reload")

    modules = {
        "board": SimpleNamespace(GP2="GP2", GP3="GP3", GP4="GP4"),
        "keypad": SimpleNamespace(ShiftRegisterKeys=make_keys),
        "supervisor": SimpleNamespace(ticks_ms=clock.ticks_ms, reload=reload),
        "usb_cdc": SimpleNamespace(data=port),
        "time": SimpleNamespace(sleep=clock.sleep),
        "protocol": protocol,
    }
    run_firmware(FIRMWARE / "code.py", modules)

    config = keys[0].config
    assert config["clock"] == "GP2" and config["latch"] == "GP3" and config["data"] == ("GP4",)
    assert config["value_to_latch"] is True and config["max_events"] >= sum(config["key_count"])
    assert port.timeout == 0 and port.write_timeout

    reader = FrameReader()
    sent = reader.feed(port.written)
    assert reader.errors == 0
    assert [frame.seq for frame in sent] == list(range(len(sent))), "consecutive sequence numbers"
    channels = sum(config["key_count"])
    assert sent[0] == protocol.hello(0, channels, "1.0.0")

    def levels(*on: int) -> tuple[bool, ...]:
        return tuple(channel in on for channel in range(channels))

    snapshots = [frame.levels for frame in sent if frame.kind == protocol.SNAPSHOT]
    assert snapshots[0] == levels(1, 5)
    assert snapshots[-1] == levels(5, 7, 9)  # relearned after the overflow
    assert [(frame.channel, frame.level) for frame in sent if frame.kind == protocol.CHANGE] == [(7, True), (1, False)]
    assert [frame.code for frame in sent if frame.kind == protocol.ERROR] == ["badframe", "overflow"]
    assert [frame.kind for frame in sent].count(protocol.HELLO) >= 2  # answered the hello request
    assert any(frame.kind == protocol.HEARTBEAT for frame in sent)
