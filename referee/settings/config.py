"""The daemon's configuration: one TOML file, or the simulated board's defaults.

    [board]
    players = 4                     # 2, 4, 6, 8 or 10; a two-player game uses a 4-sided board
    layout = "/etc/pegs/layout.toml"   # optional: the standard layout for the sides
    markers = true                  # the standard layout with a colour-marker hole per side

    [sensors]
    backend = "serial"              # "serial", "gpio" or "simulated" (hardware.builtin_backends)
    port = "/dev/pegs-board"        # or vid_pid = "239a:80f4"

    [leds]
    backend = "neopixel"            # "neopixel", "neopixel-spi", "memory" or "none"
    pin = "D18"
    brightness = 0.4
    max_amps = 2.0                  # the power budget of the LED supply
    pixel_order = "GRB"             # the NeoPixels' colour order: "GRB" (most), "RGB", "RBG", "GBR", "BRG", "BGR"

    [controls]                      # optional buttons and buzzer (BCM pin numbers)
    done_pin = 5
    undo_pin = 6
    buzzer_pin = 13

    [game]
    rules = "basic"                 # a preset name or a house-rules .toml file
    mode = "table"                  # "table": real cards; "digital": the referee deals
    settle_ms = 700

    [web]
    host = "0.0.0.0"
    port = 8080
    pin = "4821"                    # the table PIN for setup and undo (default: a new one, logged)
    home = ["192.168.0.0/16", ...]  # the home network (default: HOME below): the owner's pages
                                    # open only to these addresses; any other plays by its seat link

    [data]
    dir = "/var/lib/pegs"

Every key is checked; a mistake is reported with the key's name. A backend's own keys
(``port``, ``pins``, ``pixel_order``, ...) are declared with it, in ``hardware.registry``:
a section accepts the keys of all its backends, and a backend's ``needs`` says what a
config choosing it must also set. ``Config.path`` is the
file a config was read from (absolute; None for the simulated board's defaults): the daemon
says it in its health view, so ``pegs doctor`` can tell its own daemon from another one.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from hardware.builtin_backends import ACTIVE_LOW, LED_PIN, PINS, PIXEL_ORDER, PORT, VID_PID
from hardware.leds import PixelStrip
from hardware.registry import LEDS, SENSORS, Options, Registry, SettingError, flag, text
from hardware.sensors import SensorBoard
from referee.file_reading import TextError, load_toml, read_text
from referee.rulesets import Ruleset, RulesetError


class ConfigError(ValueError):
    """A configuration file that cannot be used."""


HOME = (
    "10.0.0.0/8",
    "172.16.0.0/12",
    "192.168.0.0/16",
    "169.254.0.0/16",
    "127.0.0.0/8",
    "fc00::/7",
    "fe80::/10",
    "::1/128",
)
"""The addresses counted as the home network by default: the private LAN ranges (RFC 1918,
and IPv6's unique local fc00::/7, which home routers hand out), link-local, and the Pi's
own loopback (only a program on the Pi itself has a 127.x address). The tailnet's
addresses (100.64.0.0/10, fd7a:115c:a1e0::/48) are never home, whatever the list says
(``web.home.TAILNET``). A home whose phones come over a global IPv6 prefix lists it
(docs/building.md, "A player away from home")."""


@dataclass(frozen=True)
class Config:
    players: int = 4
    teams: list[list[int]] | None = None
    layout: str | None = None
    markers: bool = False  # the standard layout with a colour-marker hole per side
    sensors: str = "simulated"
    sensor_options: Mapping[str, object] = field(default_factory=dict)  # the backend's keys (hardware.registry)
    leds: str = "memory"
    led_options: Mapping[str, object] = field(default_factory=dict)
    brightness: float = 0.4
    max_amps: float = 2.0
    done_pin: int | None = None
    undo_pin: int | None = None
    buzzer_pin: int | None = None
    rules: str = "basic"
    mode: str = "table"
    settle_ms: int = 700
    host: str = "127.0.0.1"
    web_port: int = 8080
    pin: str | None = None
    allowed_hosts: tuple[str, ...] = ()  # names for the page besides this machine's own
    home: tuple[str, ...] = HOME  # the home network: the owner's pages open only from these addresses
    data_dir: str = "data"
    simulate: bool = False
    path: str | None = None  # the file this config was read from (absolute), None when none was

    # The built-in backends' keys, by their old names (the registry reads them by their Setting).
    @property
    def port(self) -> str | None:
        return Options(self.sensor_options)[PORT]

    @property
    def vid_pid(self) -> str | None:
        return Options(self.sensor_options)[VID_PID]

    @property
    def pins(self) -> dict[str, int]:
        return Options(self.sensor_options)[PINS]

    @property
    def active_low(self) -> bool:
        return Options(self.sensor_options)[ACTIVE_LOW]

    @property
    def led_pin(self) -> str:
        return Options(self.led_options)[LED_PIN]

    @property
    def pixel_order(self) -> str:
        return Options(self.led_options)[PIXEL_ORDER]

    @classmethod
    def simulated(cls, data_dir: str = "data", port: int = 8080, **overrides: Any) -> Config:
        """The newcomer's default: no hardware, a simulated board, LEDs in memory."""
        return replace(
            cls(sensors="simulated", leds="memory", data_dir=data_dir, web_port=port, simulate=True), **overrides
        )

    @classmethod
    def from_toml(cls, path: str | Path) -> Config:
        try:
            data = load_toml(read_text(path, "config"), str(path))
        except TextError as error:
            raise ConfigError(str(error)) from None
        try:
            config = cls.from_mapping(data, base=Path(path).parent)
        except ConfigError as error:
            raise ConfigError(f"{path}: {error}") from None
        return replace(config, path=str(Path(path).resolve()))

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], base: Path = Path(".")) -> Config:
        values: dict[str, Any] = {"sensor_options": {}, "led_options": {}}
        for section, table in data.items():
            if section not in _SECTIONS:
                raise ConfigError(f"unknown section [{section}]: use {', '.join(f'[{s}]' for s in _SECTIONS)}")
            if not isinstance(table, Mapping):
                raise ConfigError(f"[{section}] must be a table")
            for key, value in table.items():
                _read(section, key, value, values)
        for name in ("layout",):  # relative paths are relative to the config file
            if values.get(name):
                values[name] = str((base / values[name]).resolve())
        if values.get("rules", "basic").endswith(".toml"):
            values["rules"] = str((base / values["rules"]).resolve())
        if "data_dir" in values:
            values["data_dir"] = str((base / values["data_dir"]).resolve())
        config = cls(**values)
        _needs("sensors", config.sensors, config.sensor_options)
        _needs("leds", config.leds, config.led_options)
        config.ruleset()  # refuse unknown rules at start, not at the first move
        return config

    def ruleset(self) -> Ruleset:
        try:
            return Ruleset.load(self.rules)
        except RulesetError as error:
            raise ConfigError(f"game.rules: {error}") from None


_SECTIONS: dict[str, dict[str, str]] = {  # the sensors' and LEDs' other keys are their backends' (hardware.registry)
    "board": {"players": "players", "teams": "teams", "layout": "layout", "markers": "markers"},
    "sensors": {"backend": "sensors"},
    "leds": {"backend": "leds", "brightness": "brightness", "max_amps": "max_amps"},
    "controls": {"done_pin": "done_pin", "undo_pin": "undo_pin", "buzzer_pin": "buzzer_pin"},
    "game": {"rules": "rules", "mode": "mode", "settle_ms": "settle_ms"},
    "web": {"host": "host", "port": "web_port", "pin": "pin", "allowed_hosts": "allowed_hosts", "home": "home"},
    "data": {"dir": "data_dir"},
}
_REGISTRIES: dict[str, tuple[str, Registry[SensorBoard] | Registry[PixelStrip]]] = {
    "sensors": ("sensor_options", SENSORS),
    "leds": ("led_options", LEDS),
}

_CHOICES = {
    "mode": ("table", "digital"),
    "players": (2, 4, 6, 8, 10),
}


def _read(section: str, key: str, value: Any, values: dict[str, Any]) -> None:
    """Check one key of the file into ``values``: the Config field's, or the backend option's."""
    where = f"{section}.{key}"
    name = _SECTIONS[section].get(key)
    options, registry = _REGISTRIES.get(section, ("", None))
    setting = registry.setting(key) if registry is not None and name is None else None
    try:
        if name is not None and registry is not None and key == "backend":
            values[name] = registry.get(value).name
        elif name is not None:
            values[name] = _check(where, name, value)
        elif setting is not None:
            values[options][key] = setting.check(where, value)
        else:
            known = list(_SECTIONS[section]) + list(registry.keys if registry is not None else ())
            raise ConfigError(f"unknown key {where}: use {', '.join(known)}")
    except SettingError as error:
        raise ConfigError(str(error)) from None


def _needs(section: str, backend: str, options: Mapping[str, object]) -> None:
    """Refuse a backend whose other keys are missing (``Backend.needs``): gpio without its pins."""
    needs = _REGISTRIES[section][1].get(backend).needs
    missing = needs(Options(options)) if needs is not None else None
    if missing is not None:
        raise ConfigError(f"{section}.backend = {backend!r} needs {missing}")


def _check(where: str, name: str, value: Any) -> Any:
    if name in _CHOICES:
        if value not in _CHOICES[name]:
            raise ConfigError(f"{where} must be one of {', '.join(map(repr, _CHOICES[name]))}, not {value!r}")
        return value
    if name == "pin":
        if not isinstance(value, str) or not value.isdigit() or not 4 <= len(value) <= 8:
            raise ConfigError(f"{where} must be 4 to 8 digits, as a string")
        return value
    if name in ("layout", "rules", "host", "data_dir"):
        return text(where, value)
    if name in ("brightness",):
        if not isinstance(value, int | float) or isinstance(value, bool) or not 0 <= value <= 1:
            raise ConfigError(f"{where} must be a number from 0 to 1")
        return float(value)
    if name == "max_amps":
        if not isinstance(value, int | float) or isinstance(value, bool) or not 0 < value <= 60:
            raise ConfigError(f"{where} must be a number of amps above 0")
        return float(value)
    if name == "markers":
        return flag(where, value)
    if name in ("done_pin", "undo_pin", "buzzer_pin", "settle_ms", "web_port"):
        limits = {"settle_ms": (300, 1000), "web_port": (1, 65535)}.get(name, (0, 40))
        if not isinstance(value, int) or isinstance(value, bool) or not limits[0] <= value <= limits[1]:
            raise ConfigError(f"{where} must be a whole number from {limits[0]} to {limits[1]}")
        return value
    if name == "allowed_hosts":
        if not isinstance(value, list) or not all(isinstance(h, str) and h.strip() for h in value):
            raise ConfigError(f'{where} must be a list of host names or addresses, like ["pegs.example"]')
        return tuple(h.strip() for h in value)
    if name == "home":
        return home_networks(where, value)
    if name == "teams":
        if not isinstance(value, list) or not all(isinstance(t, list) for t in value):
            raise ConfigError(f"{where} must be a list of lists of seats")
        return value
    raise ConfigError(f"unknown key {where}")  # pragma: no cover


def home_networks(where: str, value: Any) -> tuple[str, ...]:
    """``[web] home``: networks in CIDR notation (an address alone is its own /32 or /128),
    each said back as its network (``192.168.1.7/24`` -> ``192.168.1.0/24``)."""
    example = '["192.168.1.0/24", "127.0.0.0/8"]'
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ConfigError(f"{where} must be a list of networks, like {example}")
    if not value:
        raise ConfigError(f"{where} is empty: the owner's pages would open nowhere; list at least 127.0.0.0/8")
    networks = []
    for item in value:
        try:
            networks.append(str(ipaddress.ip_network(item.strip(), strict=False)))
        except ValueError:
            raise ConfigError(f"{where}: {item[:60]!r} is not a network: write one like {example}") from None
    return tuple(networks)
