"""The sensor and LED backends by name: each one's factory, its config keys and their checks.

A backend is one module and one line. The module declares its keys (``Setting``) and
registers its factory; the line names the module in ``BACKEND_MODULES`` (a backend that
lives outside the package, e.g. in a test, registers itself the same way)::

    PERIOD: Setting[int] = Setting("period_ms", "how often the board is read, in ms",
                                   whole_number(1, 1000), 10)
    SENSORS.register(Backend("polled", lambda setup: PolledSensors(setup.layout, setup[PERIOD]),
                             settings=(PERIOD,), words=lambda options: f"polled every {options[PERIOD]} ms"))

The config then accepts ``backend = "polled"`` and ``period_ms`` under ``[sensors]``,
refuses a bad ``period_ms`` with the setting's own message, and ``pegs doctor`` says
the backend in its words. A key belongs to its section, whichever backend is chosen; two
backends share a key by naming the same ``Setting``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar, cast

from hardware.layout import Layout

if TYPE_CHECKING:
    from hardware.leds import PixelStrip
    from hardware.sensors import SensorBoard

T = TypeVar("T")
P = TypeVar("P")

BACKEND_MODULES = ("hardware.builtin_backends",)
"""The modules that register the backends that come with pegs: a new one is one line here."""


class SettingError(ValueError):
    """A config value a setting refuses; the message names the key (``where``)."""


@dataclass(frozen=True)
class Setting(Generic[T]):
    """One config key of a backend: its name, what it is (one line), its check and its default.

    ``check(where, value)`` returns the value to use, or raises ``SettingError`` naming ``where``
    (the key as the config spells it, e.g. ``sensors.port``)."""

    key: str
    about: str
    check: Callable[[str, object], T]
    default: T


class Options:
    """A section's checked values, read by their ``Setting`` (its default when the key is absent)."""

    def __init__(self, values: Mapping[str, object]) -> None:
        self.values = values

    def __getitem__(self, setting: Setting[T]) -> T:
        return cast(T, self.values.get(setting.key, setting.default))


@dataclass(frozen=True)
class Setup:
    """What a factory builds a backend from: the board's layout, its file, and the section's values."""

    layout: Layout
    options: Options
    layout_file: str | None = None

    def __getitem__(self, setting: Setting[T]) -> T:
        return self.options[setting]


@dataclass(frozen=True)
class Backend(Generic[P]):
    """A backend: its name in the config, its factory and its keys.

    ``words(options)``: the backend as ``pegs doctor`` says it (default: its name).
    ``needs(options)``: what a config choosing it lacks (e.g. ``sensors.pins = {...}``), or None.
    ``on_pi``: it opens a Pi's hardware, and a failure to open it is said as the config key
    with ``pegs serve --simulate`` for a machine that is not a Pi."""

    name: str
    build: Callable[[Setup], P]
    settings: tuple[Setting[Any], ...] = ()
    words: Callable[[Options], str] | None = None
    needs: Callable[[Options], str | None] | None = None
    on_pi: bool = False

    def say(self, options: Options) -> str:
        return self.words(options) if self.words is not None else self.name


class Registry(Generic[P]):
    """The backends of one config section (``sensors`` or ``leds``), in the order registered."""

    def __init__(self, section: str) -> None:
        self.section = section
        self._backends: dict[str, Backend[P]] = {}
        self._loaded = False

    def register(self, backend: Backend[P]) -> Backend[P]:
        """Add ``backend``; a name taken, or a key declared otherwise by another backend, is refused."""
        if backend.name in self._backends:
            raise ValueError(f"{self.section} backend {backend.name!r} is registered already")
        known = self._settings()
        for setting in backend.settings:
            if known.get(setting.key, setting) != setting:
                raise ValueError(f"{self.section}.{setting.key} is declared otherwise by another backend")
        self._backends[backend.name] = backend
        return backend

    def unregister(self, name: str) -> None:
        self._backends.pop(name, None)

    @contextmanager
    def registered(self, backend: Backend[P]) -> Iterator[Backend[P]]:
        """``backend`` registered for the ``with`` block only (tests)."""
        self.register(backend)
        try:
            yield backend
        finally:
            self.unregister(backend.name)

    @property
    def names(self) -> tuple[str, ...]:
        self._load()
        return tuple(self._backends)

    def get(self, name: object) -> Backend[P]:
        """The backend called ``name``; any other value is refused naming ``<section>.backend``."""
        self._load()
        backend = self._backends.get(name) if isinstance(name, str) else None
        if backend is None:
            raise SettingError(
                f"{self.section}.backend must be one of {', '.join(map(repr, self._backends))}, not {name!r}"
            )
        return backend

    def setting(self, key: str) -> Setting[Any] | None:
        """The setting of ``key`` in this section, whichever backend declares it."""
        return self._settings().get(key)

    @property
    def keys(self) -> tuple[str, ...]:
        return tuple(self._settings())

    def describe(self) -> list[str]:
        """One line per backend and per key: what the section accepts."""
        self._load()
        lines = []
        for backend in self._backends.values():
            keys = ", ".join(setting.key for setting in backend.settings)
            lines.append(f"{self.section}.backend = {backend.name!r}" + (f" (uses {keys})" if keys else ""))
        lines += [f"{self.section}.{setting.key}: {setting.about}" for setting in self._settings().values()]
        return lines

    def _settings(self) -> dict[str, Setting[Any]]:
        self._load()
        return {setting.key: setting for backend in self._backends.values() for setting in backend.settings}

    def _load(self) -> None:
        if not self._loaded:
            self._loaded = True
            for module in BACKEND_MODULES:
                importlib.import_module(module)


SENSORS: Registry[SensorBoard] = Registry("sensors")
LEDS: Registry[PixelStrip] = Registry("leds")


# -- checks for settings ----------------------------------------------------------------------


def text(where: str, value: object) -> str:
    if not isinstance(value, str) or not value:
        raise SettingError(f"{where} must be a non-empty string")
    return value


def flag(where: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise SettingError(f"{where} must be true or false")
    return value


def one_of(*choices: str) -> Callable[[str, object], str]:
    def check(where: str, value: object) -> str:
        if not isinstance(value, str) or value not in choices:
            raise SettingError(f"{where} must be one of {', '.join(map(repr, choices))}, not {value!r}")
        return value

    return check


def whole_number(low: int, high: int) -> Callable[[str, object], int]:
    def check(where: str, value: object) -> int:
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            raise SettingError(f"{where} must be a whole number from {low} to {high}")
        return value

    return check
