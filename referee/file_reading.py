"""Reading the files people give the referee: positions, events, records, house rules.

Files come as people save them: UTF-8 with or without a byte-order mark, or UTF-16 from
Notepad (which starts with one). JSON and TOML are read with limits a hand-made file never
reaches (nesting, and Python's 4,300 digits a number), so that a damaged or hostile file
gets one clear line, never a traceback.
"""

from __future__ import annotations

import codecs
import json
import tomllib
from pathlib import Path
from typing import Any

MAX_DEPTH = 64  # brackets nested: a position nests 3, a record event 4, house rules 3
EXCERPT = 60  # characters of a bad value quoted in a message


class TextError(ValueError):
    """A file or text that cannot be read: the message says which and why, in one line."""


def read_text(path: str | Path, what: str) -> str:
    try:
        data = Path(path).read_bytes()
    except OSError as error:
        raise TextError(f"cannot read {what} {str(path)!r}: {error.strerror}") from None
    return decode(data, f"{what} {str(path)!r}")


def decode(data: bytes, name: str) -> str:
    """UTF-8 (a byte-order mark is dropped) or UTF-16 with its byte-order mark."""
    try:
        if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
            return data.decode("utf-16")
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise TextError(f"{name} is not UTF-8 text (byte {error.start}): save it as UTF-8") from None


def load_json(text: str, name: str, depth: int = MAX_DEPTH) -> Any:
    _check_depth(text, name, depth)
    try:
        return json.loads(text, parse_constant=_not_a_number)
    except json.JSONDecodeError as error:
        raise TextError(f"{name} is not valid JSON: {error.msg} at line {error.lineno}") from None
    except ValueError as error:  # a number of over 4,300 digits, NaN or Infinity
        raise TextError(f"{name} is not valid JSON: {excerpt(str(error))}") from None


def load_toml(text: str, name: str) -> dict[str, Any]:
    _check_depth(text, name, MAX_DEPTH)
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise TextError(f"{name} is not valid TOML: {excerpt(str(error))}") from None
    except ValueError as error:  # a number of over 4,300 digits
        raise TextError(f"{name} is not valid TOML: {excerpt(str(error))}") from None


def excerpt(value: object, length: int = EXCERPT) -> str:
    """``value`` as text, on one line, cut to ``length`` characters."""
    text = " ".join(str(value).split())
    return text if len(text) <= length else text[: length - 1] + "…"


def _not_a_number(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


def _check_depth(text: str, name: str, limit: int) -> None:
    """Brackets nested deeper than any real file, counted on the raw text (quoted ones too,
    which only makes the limit stricter)."""
    depth = 0
    for char in text:
        if char in "[{":
            depth += 1
            if depth > limit:
                raise TextError(f"{name} is nested more than {limit} deep")
        elif char in "]}":
            depth -= 1
