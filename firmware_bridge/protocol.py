"""Frames of the sensor link, shared by the Pi and the microcontroller.

This file runs unchanged on CircuitPython (it is copied next to ``code.py`` on the
CIRCUITPY drive), so it uses only builtins: no imports at run time, no dataclasses,
no f-strings, only the bytes and str methods MicroPython also has. Annotations are
plain names or strings: CircuitPython ignores them, CPython evaluates them.
See PROTOCOL.md for the grammar.

A frame is one line of printable ASCII, e.g. ``$C,17,42,1,123456*5456`` + newline::

    "$" KIND "," SEQ {"," FIELD} "*" CRC16-HEX "\\n"

Decoding never raises on garbage: ``decode`` returns None, and ``FrameReader`` counts
what it rejects and yields only valid frames.
"""

try:  # noqa: SIM105 - for type checkers only; CircuitPython has no typing module (nor contextlib.suppress)
    from typing import Sequence  # noqa: UP035 - the guarded import the CircuitPython docs use
except ImportError:
    pass

PROTOCOL_VERSION = 1

HELLO = "H"  # device -> host: H,seq,protocol,channels,firmware
SNAPSHOT = "S"  # device -> host: S,seq,channels,HEXBITMAP
CHANGE = "C"  # device -> host: C,seq,channel,level,ms
HEARTBEAT = "B"  # device -> host: B,seq,ms
ERROR = "E"  # device -> host: E,seq,code
REQUEST = "R"  # host -> device: R,seq,S (snapshot) or R,seq,H (hello)
KINDS = "HSCBER"

SEQ_MOD = 0x10000  # sequence numbers count 0..65535 and wrap to 0
MS_MOD = 0x100000000  # device milliseconds are reported modulo 2**32
MAX_CHANNELS = 1024
MAX_LINE = 300  # bytes before the newline; a 1024-channel snapshot needs 275
MAX_TOKEN = 16  # firmware version and error code length

HEARTBEAT_S = 1.0  # the device sends a heartbeat this often
SNAPSHOT_S = 10.0  # ... and an unrequested snapshot this often

_DIGITS = "0123456789"
_HEX = "0123456789ABCDEF"
_TOKEN = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz._+-"


def _crc_table() -> "tuple[int, ...]":
    table = []  # type: list[int]
    for nibble in range(16):
        crc = nibble << 12
        for _ in range(4):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table.append(crc & 0xFFFF)
    return tuple(table)


_CRC_TABLE = _crc_table()


def crc16(data: bytes, crc: int = 0xFFFF) -> int:
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF): ``crc16(b"123456789") == 0x29B1``.

    Nibble-table driven: two table steps per byte instead of eight bit steps, for a table
    of only 16 entries on the microcontroller (which has no ``binascii.crc_hqx``).
    """
    table = _CRC_TABLE
    for byte in data:
        crc = ((crc << 4) & 0xFFFF) ^ table[(crc >> 12) ^ (byte >> 4)]
        crc = ((crc << 4) & 0xFFFF) ^ table[(crc >> 12) ^ (byte & 0x0F)]
    return crc


def next_seq(seq: int) -> int:
    """The sequence number after ``seq``: 65535 is followed by 0."""
    return (seq + 1) % SEQ_MOD


class Frame:
    """One frame. Attributes a kind does not use are None.

    hello: proto, channels, version; snapshot: channels, levels (tuple of bool);
    change: channel, level (bool), ms; heartbeat: ms; error: code; request: what.
    """

    def __init__(
        self,
        kind: str,
        seq: int,
        proto: "int | None" = None,
        channels: "int | None" = None,
        version: "str | None" = None,
        levels: "tuple[bool, ...] | None" = None,
        channel: "int | None" = None,
        level: "bool | None" = None,
        ms: "int | None" = None,
        code: "str | None" = None,
        what: "str | None" = None,
    ) -> None:
        self.kind = kind
        self.seq = seq
        self.proto = proto
        self.channels = channels
        self.version = version
        self.levels = levels
        self.channel = channel
        self.level = level
        self.ms = ms
        self.code = code
        self.what = what

    def _key(self) -> "tuple[object, ...]":
        return (
            self.kind,
            self.seq,
            self.proto,
            self.channels,
            self.version,
            self.levels,
            self.channel,
            self.level,
            self.ms,
            self.code,
            self.what,
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Frame) and self._key() == other._key()

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        try:
            return "Frame({!r})".format(encode(self).decode().strip())  # noqa: UP032 - no f-strings here
        except ValueError:  # a frame too odd to encode still prints
            return "Frame({!r})".format(self._key())  # noqa: UP032


def hello(seq: int, channels: int, version: str, proto: int = PROTOCOL_VERSION) -> Frame:
    return Frame(HELLO, seq, proto=proto, channels=channels, version=version)


def snapshot(seq: int, levels: "Sequence[object]") -> Frame:
    values = tuple(bool(level) for level in levels)
    return Frame(SNAPSHOT, seq, channels=len(values), levels=values)


def change(seq: int, channel: int, level: object, ms: int) -> Frame:
    return Frame(CHANGE, seq, channel=channel, level=bool(level), ms=ms % MS_MOD)


def heartbeat(seq: int, ms: int) -> Frame:
    return Frame(HEARTBEAT, seq, ms=ms % MS_MOD)


def error(seq: int, code: str) -> Frame:
    return Frame(ERROR, seq, code=code)


def request(seq: int, what: str = SNAPSHOT) -> Frame:
    """Host -> device: ``what`` is SNAPSHOT or HELLO."""
    return Frame(REQUEST, seq, what=what)


def bitmap(levels: "Sequence[object]") -> str:
    """Levels as hex, channel 0 in the lowest bit of the last digit; ceil(n/4) digits."""
    count = len(levels)
    digits = []  # type: list[str]
    for start in range(0, count, 4):
        value = 0
        for bit in range(4):
            if start + bit < count and levels[start + bit]:
                value |= 1 << bit
        digits.append(_HEX[value])
    digits.reverse()
    return "".join(digits)


def _check(condition: object) -> None:
    if not condition:
        raise ValueError("bad frame")


def _int(value: object, low: int, limit: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value < limit:
        raise ValueError("bad frame")
    return value


def _token(value: object) -> str:
    if not isinstance(value, str) or not 0 < len(value) <= MAX_TOKEN:
        raise ValueError("bad frame")
    for char in value:
        _check(char in _TOKEN)
    return value


def encode(frame: Frame) -> bytes:
    """The frame as one line, newline included. Raises ValueError on impossible values."""
    kind = frame.kind
    if kind == HELLO:
        fields = [
            str(_int(frame.proto, 0, SEQ_MOD)),
            str(_int(frame.channels, 1, MAX_CHANNELS + 1)),
            _token(frame.version),
        ]
    elif kind == SNAPSHOT:
        levels = frame.levels
        if levels is None or not 0 < len(levels) <= MAX_CHANNELS:
            raise ValueError("bad frame")
        fields = [str(len(levels)), bitmap(levels)]
    elif kind == CHANGE:
        fields = [
            str(_int(frame.channel, 0, MAX_CHANNELS)),
            "1" if frame.level else "0",
            str(_int(frame.ms, 0, MS_MOD)),
        ]
    elif kind == HEARTBEAT:
        fields = [str(_int(frame.ms, 0, MS_MOD))]
    elif kind == ERROR:
        fields = [_token(frame.code)]
    elif kind == REQUEST and (frame.what == SNAPSHOT or frame.what == HELLO):
        fields = [frame.what]
    else:
        raise ValueError("bad frame")
    raw = ",".join([kind, str(_int(frame.seq, 0, SEQ_MOD))] + fields).encode()
    return b"$" + raw + "*{:04X}\n".format(crc16(raw)).encode()  # noqa: UP032


def _uint(text: str, limit: int) -> int:
    """A canonical decimal (no sign, no leading zero) below ``limit``."""
    _check(0 < len(text) <= 10)
    for char in text:
        _check(char in _DIGITS)
    _check(text == "0" or text[0] != "0")
    value = int(text)
    _check(value < limit)
    return value


def _positive(text: str) -> int:
    value = _uint(text, MAX_CHANNELS + 1)
    _check(value > 0)
    return value


def _levels(count: int, digits: str) -> "tuple[bool, ...]":
    _check(len(digits) == (count + 3) // 4)
    values = []  # type: list[int]
    for char in digits:
        _check(char in _HEX)
        values.append(_HEX.index(char))
    values.reverse()  # values[k] holds channels 4k .. 4k+3
    _check(values[-1] >> (count - 4 * (len(values) - 1)) == 0)  # no bits past the last channel
    return tuple(bool((values[i >> 2] >> (i & 3)) & 1) for i in range(count))


def decode_strict(line: bytes) -> Frame:
    """Like ``decode``, but raises ValueError (saying only "bad frame") instead of None."""
    line = bytes(line)
    if line[-1:] == b"\n":
        line = line[:-1]
    if line[-1:] == b"\r":
        line = line[:-1]
    _check(9 <= len(line) <= MAX_LINE and line[0] == 0x24 and line[-5] == 0x2A)  # "$" ... "*"
    for byte in line:
        _check(0x21 <= byte <= 0x7E)  # printable, no spaces
    for byte in line[-4:]:
        _check(0x30 <= byte <= 0x39 or 0x41 <= byte <= 0x46)  # upper-case hex only
    raw = line[1:-5]
    _check(crc16(raw) == int(line[-4:].decode(), 16))
    parts = raw.decode().split(",")
    kind = parts[0]
    _check(len(kind) == 1 and kind in KINDS and len(parts) >= 2)
    seq = _uint(parts[1], SEQ_MOD)
    args = parts[2:]
    if kind == HELLO:
        _check(len(args) == 3)
        return Frame(HELLO, seq, proto=_uint(args[0], SEQ_MOD), channels=_positive(args[1]), version=_token(args[2]))
    if kind == SNAPSHOT:
        _check(len(args) == 2)
        count = _positive(args[0])
        return Frame(SNAPSHOT, seq, channels=count, levels=_levels(count, args[1]))
    if kind == CHANGE:
        _check(len(args) == 3 and (args[1] == "0" or args[1] == "1"))
        channel = _uint(args[0], MAX_CHANNELS)
        return Frame(CHANGE, seq, channel=channel, level=args[1] == "1", ms=_uint(args[2], MS_MOD))
    if kind == HEARTBEAT:
        _check(len(args) == 1)
        return Frame(HEARTBEAT, seq, ms=_uint(args[0], MS_MOD))
    if kind == ERROR:
        _check(len(args) == 1)
        return Frame(ERROR, seq, code=_token(args[0]))
    _check(len(args) == 1 and (args[0] == SNAPSHOT or args[0] == HELLO))
    return Frame(REQUEST, seq, what=args[0])


def decode(line: bytes) -> "Frame | None":
    """One line (newline optional) -> Frame, or None when it is not exactly a valid frame."""
    try:
        return decode_strict(line)
    except Exception:  # noqa: BLE001 - garbage must never stop a reader, whatever it trips over
        return None


class FrameReader:
    """Splits a byte stream into lines and returns the valid frames in it.

    Memory is bounded: at most ``max_line`` bytes wait for a newline. When a line holds
    junk before a ``$`` (a cut-off frame, noise), the junk counts as one error and the
    frame after the last ``$`` is still decoded: ``$`` never occurs inside a frame.
    ``errors`` counts rejected pieces; the link resynchronises whenever it grows.
    """

    def __init__(self, max_line: int = MAX_LINE) -> None:
        self.max_line = max_line
        self.errors = 0
        self.frames = 0
        self._buf = b""
        self._overflowed = False

    def reset(self) -> None:
        """Forget any partial line (e.g. after reopening the port)."""
        self._buf = b""
        self._overflowed = False

    def feed(self, data: bytes) -> "list[Frame]":
        """Take a chunk of any size; return the frames it completes, in order."""
        frames = []  # type: list[Frame]
        data = bytes(data)
        start = 0
        end = len(data)
        while start < end:
            newline = data.find(b"\n", start)
            if newline < 0:
                self._append(data[start:])
                break
            self._append(data[start:newline])
            start = newline + 1
            line = self._buf
            overflowed = self._overflowed
            self.reset()
            frame = self._line(line, overflowed)
            if frame is not None:
                frames.append(frame)
        return frames

    def _append(self, piece: bytes) -> None:
        buf = self._buf + piece
        if len(buf) > self.max_line:
            # Too long for a frame: keep only what could still start one.
            if not self._overflowed:
                self.errors += 1
            self._overflowed = True
            dollar = buf.rfind(b"$")
            buf = buf[dollar:] if dollar >= 0 and len(buf) - dollar <= self.max_line else b""
        self._buf = buf

    def _line(self, line: bytes, overflowed: bool) -> "Frame | None":
        dollar = line.rfind(b"$")
        if dollar < 0:
            if line.strip() and not overflowed:
                self.errors += 1  # a line with no frame start at all
            return None
        if dollar > 0 and not overflowed:
            self.errors += 1  # junk (a cut-off frame?) before this frame
        frame = decode(line[dollar:])
        if frame is None:
            self.errors += 1
        else:
            self.frames += 1
        return frame
