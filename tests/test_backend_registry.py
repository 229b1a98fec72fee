"""A backend is one module and one line (issue 24, item 6 "Backends chosen by if-chains").

This module is such a module: it declares a sensor backend with one config key and
registers it, and the config, ``backends.sensors_for`` and ``pegs doctor`` take it
without a line of theirs changed.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from hardware.layout import Layout, default_layout
from hardware.registry import LEDS, SENSORS, Backend, Setting, whole_number
from hardware.sensors import SensorBoard, SimulatedSensors
from referee.kit.doctor import examine
from referee.kit.doctor_machine import Machine
from referee.settings import backends
from referee.settings.config import Config, ConfigError

THRESHOLD: Setting[int] = Setting(
    "threshold", "the field, in millitesla, that reads as a peg", whole_number(1, 100), 30
)


class HallSensors(SimulatedSensors):
    """Analog hall sensors read against a threshold (simulated here)."""

    backend = "hall"

    def __init__(self, layout: Layout, threshold: int) -> None:
        super().__init__(layout)
        self.threshold = threshold


HALL: Backend[SensorBoard] = Backend(
    "hall",
    lambda setup: HallSensors(setup.layout, setup[THRESHOLD]),
    settings=(THRESHOLD,),
    words=lambda options: f"hall at {options[THRESHOLD]} mT",
)


@pytest.fixture
def hall() -> Iterator[Backend[SensorBoard]]:
    with SENSORS.registered(HALL) as backend:
        yield backend


def test_a_registered_backend_and_its_key_are_accepted_and_built(hall: Backend[SensorBoard]) -> None:
    config = Config.from_mapping({"sensors": {"backend": "hall", "threshold": 40}})
    assert config.sensors == "hall" and config.sensor_options == {"threshold": 40}
    with backends.sensors_for(config, default_layout(4)) as sensors:
        assert isinstance(sensors, HallSensors) and sensors.threshold == 40
        assert sensors.health()["backend"] == "hall"
    with backends.sensors_for(Config.from_mapping({"sensors": {"backend": "hall"}}), default_layout(4)) as sensors:
        assert isinstance(sensors, HallSensors) and sensors.threshold == 30  # the setting's default


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ({"backend": "hall", "threshold": 0}, "sensors.threshold must be a whole number from 1 to 100"),
        ({"backend": "hall", "threshold": True}, "sensors.threshold must be a whole number from 1 to 100"),
        (
            {"backend": "hall", "treshold": 40},
            "unknown key sensors.treshold: use backend, port, vid_pid, pins, active_low, threshold$",
        ),
        ({"backend": "magnet"}, "sensors.backend must be one of 'simulated', 'serial', 'gpio', 'hall', not 'magnet'"),
    ],
)
def test_the_backends_key_is_refused_by_its_own_check(
    hall: Backend[SensorBoard], table: dict[str, object], message: str
) -> None:
    with pytest.raises(ConfigError, match=message):
        Config.from_mapping({"sensors": table})


def test_without_the_module_the_backend_and_its_key_are_unknown() -> None:
    with pytest.raises(ConfigError, match="sensors.backend must be one of 'simulated', 'serial', 'gpio', not 'hall'"):
        Config.from_mapping({"sensors": {"backend": "hall"}})
    with pytest.raises(
        ConfigError, match="unknown key sensors.threshold: use backend, port, vid_pid, pins, active_low$"
    ):
        Config.from_mapping({"sensors": {"threshold": 40}})


def test_doctor_says_the_backend_in_its_own_words(hall: Backend[SensorBoard], tmp_path: Path) -> None:
    config = tmp_path / "etc/pegs/pegs.toml"
    config.parent.mkdir(parents=True)
    config.write_text('[sensors]\nbackend = "hall"\nthreshold = 45\n[leds]\nbackend = "neopixel-spi"\n')
    machine = Machine(tmp_path, run=lambda argv: None, web_port=1)  # not a Pi, another machine's card
    (found,) = [finding for finding in examine(machine) if finding.what == "config"]
    assert found.ok and "sensors hall at 45 mT, LEDs neopixel-spi, colour order GRB" in found.words


def test_the_declaration_describes_the_key(hall: Backend[SensorBoard]) -> None:
    lines = SENSORS.describe()
    assert "sensors.backend = 'hall' (uses threshold)" in lines
    assert "sensors.threshold: the field, in millitesla, that reads as a peg" in lines
    assert 'leds.pixel_order: the NeoPixels\' colour order: "GRB" (most) or "RGB", ...' in LEDS.describe()


def test_a_name_or_a_key_declared_twice_is_refused(hall: Backend[SensorBoard]) -> None:
    with pytest.raises(ValueError, match="'hall' is registered already"):
        SENSORS.register(HALL)
    other_port: Setting[str] = Setting("port", "a port of another kind", lambda where, value: str(value), "")
    with pytest.raises(ValueError, match="sensors.port is declared otherwise by another backend"):
        SENSORS.register(Backend("usb", lambda setup: SimulatedSensors(setup.layout), settings=(other_port,)))
    assert "usb" not in SENSORS.names


def test_a_pi_only_backend_that_cannot_open_names_the_config_key() -> None:
    def missing(setup: object) -> SensorBoard:
        raise ImportError("No module named 'hallboard'")

    with SENSORS.registered(Backend("hallboard", missing, on_pi=True)):
        config = Config.from_mapping({"sensors": {"backend": "hallboard"}})
        with pytest.raises(
            ConfigError,
            match=r"sensors.backend = 'hallboard': cannot be opened on this machine "
            r"\(No module named 'hallboard'\)",
        ):
            backends.sensors_for(config, default_layout(4))


def test_a_backends_needs_are_said_with_the_backend() -> None:
    with pytest.raises(ConfigError, match=r"sensors.backend = 'gpio' needs sensors.pins = \{"):
        Config.from_mapping({"sensors": {"backend": "gpio", "active_low": False}})
    config = Config.from_mapping({"sensors": {"backend": "gpio", "pins": {"T0:0": 17}}, "leds": {"pin": "D21"}})
    assert (config.pins, config.active_low, config.led_pin, config.pixel_order) == ({"T0:0": 17}, True, "D21", "GRB")
