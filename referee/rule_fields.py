"""House-rules keys declared once: a dataclass field that carries its own check and words.

    forward: tuple[int, ...] = field(default=(), metadata=rule("hole counts the card moves forward, e.g. [10]",
                                     hole_counts, words=lambda counts: [f"{n} forward" for n in counts]))

A field declared with :func:`rule` metadata is a house-rules key of the same name (one
without a default is a key its table must have): :func:`read_table` checks a table against the
declarations (an unknown key, and a bad value, are refused with a message naming them),
:func:`read_onto` checks a table that changes an existing value (a house-rules file over
its ``base`` preset), :func:`said` puts the values into words for the rules summary,
:func:`stored` back into the house-rules format, and :func:`described` lists the keys with
what they mean.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import MISSING, dataclass, fields
from typing import Any, Generic, TypeVar

T = TypeVar("T")


class RulesetError(ValueError):
    """A preset name or house-rules file that cannot be used."""


def _no_words(value: object) -> list[str]:
    return []


def _as_is(value: object) -> object:
    return list(value) if isinstance(value, tuple) else value


def _given(given: T, base: T) -> T:
    """A file's value replaces the base's (most keys)."""
    return given


@dataclass(frozen=True)
class Rule(Generic[T]):
    """What a key means (one line), its check ``check(where, value)`` (raises ``RulesetError``
    naming ``where``), its words in the rules summary, its stored form, its place in the
    summary's line (``said_at``: lower comes first) and how a file's value goes onto the value
    it changes (``onto(given, base)``: the file's value replaces it, unless the key says
    otherwise, as a table by player count fills only the counts it gives)."""

    about: str
    check: Callable[[str, object], T]
    words: Callable[[T], list[str]]
    store: Callable[[T], object]
    said_at: int
    onto: Callable[[T, T], T]


def rule(
    about: str,
    check: Callable[[str, object], T],
    *,
    words: Callable[[T], list[str]] = _no_words,
    store: Callable[[T], object] = _as_is,
    said_at: int = 0,
    onto: Callable[[T, T], T] = _given,
) -> dict[str, Rule[Any]]:
    """The metadata that makes a dataclass field a house-rules key: ``field(default=..., metadata=rule(...))``;
    a field without a default is a key every table of its kind must have."""
    return {"rule": Rule(about, check, words, store, said_at, onto)}


def declared(cls: type) -> dict[str, tuple[Rule[Any], bool]]:
    """The declared keys of dataclass ``cls``, in field order: each one's rule, and whether it is needed."""
    return {f.name: (f.metadata["rule"], f.default is MISSING) for f in fields(cls) if "rule" in f.metadata}


def read_table(cls: type, where: str, table: Mapping[str, object]) -> dict[str, object]:
    """The checked values of ``table`` by key; an unknown key, a missing needed key or a bad
    value is refused naming it (``where.key``)."""
    keys = declared(cls)
    _refuse_unknown(keys, where, table)
    missing = [key for key, (_rule, need) in keys.items() if need and key not in table]
    if missing:
        raise RulesetError(f"{where} needs a {missing[0]}")
    return {key: keys[key][0].check(_at(where, key), value) for key, value in table.items()}


def read_onto(base: object, where: str, table: Mapping[str, object]) -> dict[str, object]:
    """The checked values of ``table``, each put onto ``base``'s value of its key (``Rule.onto``):
    the changes that make ``base``, a dataclass instance, what the table says. No key is needed
    (``base`` has them all); an unknown key or a bad value is refused naming it. ``where`` is
    the table's place, "" for the top of a file."""
    keys = declared(type(base))
    _refuse_unknown(keys, where, table)
    return {
        key: keys[key][0].onto(keys[key][0].check(_at(where, key), value), getattr(base, key))
        for key, value in table.items()
    }


def _refuse_unknown(keys: Mapping[str, object], where: str, table: Mapping[str, object]) -> None:
    for key in table:
        if key not in keys:
            raise RulesetError(f"unknown key {_at(where, key)!r}: use {_or(list(keys))}")


def _at(where: str, key: str) -> str:
    """A key's name in a message: ``where.key``, or ``key`` at the top of a file."""
    return f"{where}.{key}" if where else key


def said(value: object) -> list[str]:
    """The words of each declared field of dataclass instance ``value``, in ``said_at`` order."""
    rules = sorted(declared(type(value)).items(), key=lambda item: item[1][0].said_at)
    return [words for key, (rule, _need) in rules for words in rule.words(getattr(value, key))]


def stored(value: object) -> dict[str, object]:
    """Every declared field of ``value`` in the house-rules format: ``read_table`` takes it back."""
    return {key: rule.store(getattr(value, key)) for key, (rule, _need) in declared(type(value)).items()}


def described(cls: type, prefix: str) -> list[str]:
    """One line per declared key: ``prefix.key: what it means`` (``key: ...`` with no prefix)."""
    return [f"{_at(prefix, key)}: {rule.about}" for key, (rule, _need) in declared(cls).items()]


def _or(keys: list[str]) -> str:
    return ", ".join(keys[:-1]) + f" or {keys[-1]}" if len(keys) > 1 else "".join(keys)


# -- checks -------------------------------------------------------------------------------


def whole(where: str, value: object, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise RulesetError(f"{where} must be a whole number from {low} to {high}, not {value!r}")
    return value


def between(low: int, high: int) -> Callable[[str, object], int]:
    """The check of a key that takes a whole number from ``low`` to ``high``."""
    return lambda where, value: whole(where, value, low, high)


def true_or_false(where: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise RulesetError(f"{where} must be true or false, not {value!r}")
    return value


def text(where: str, value: object) -> str:
    if not isinstance(value, str) or not value.strip():
        raise RulesetError(f"{where} must be a non-empty string")
    return value


def one_of(*choices: T) -> Callable[[str, object], T]:
    """The check of a key that takes one of ``choices`` (a ``Literal``'s, through ``typing.get_args``)."""

    def check(where: str, value: object) -> T:
        for choice in choices:
            if value == choice:
                return choice
        raise RulesetError(f"{where} must be one of {', '.join(map(repr, choices))}, not {value!r}")

    return check
