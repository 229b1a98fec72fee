"""A Raspberry Pi's boot settings as the firmware reads them: config.txt and cmdline.txt.

    boot = BootConfig.read(read_file, pi_family("Raspberry Pi 4 Model B Rev 1.4"))
    boot.dtparam("spi"), boot.value("core_freq"), boot.cmdline_value("spidev.bufsiz")

config.txt applies a line only under a section filter that matches the board (``[all]``,
``[pi4]``, ``[pi5]``, ``[cm4]``...), and the last value of a key wins. Bookworm and later
keep both files in /boot/firmware; older systems in /boot.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

PLACES = ("/boot/firmware", "/boot")
# Model-name prefixes (longest first) -> the config.txt filters that match them, and the family.
MODELS: tuple[tuple[str, frozenset[str], str], ...] = (
    ("Raspberry Pi 500", frozenset({"pi5", "pi500"}), "5"),
    ("Raspberry Pi Compute Module 5", frozenset({"pi5", "cm5"}), "5"),
    ("Raspberry Pi 5", frozenset({"pi5"}), "5"),
    ("Raspberry Pi 400", frozenset({"pi4", "pi400"}), "4"),
    ("Raspberry Pi Compute Module 4S", frozenset({"pi4", "cm4s"}), "4"),
    ("Raspberry Pi Compute Module 4", frozenset({"pi4", "cm4"}), "4"),
    ("Raspberry Pi 4", frozenset({"pi4"}), "4"),
    ("Raspberry Pi 3 Model B Plus", frozenset({"pi3", "pi3+"}), "3"),
    ("Raspberry Pi 3 Model A Plus", frozenset({"pi3", "pi3+"}), "3"),
    ("Raspberry Pi Compute Module 3 Plus", frozenset({"pi3", "cm3", "cm3+"}), "3"),
    ("Raspberry Pi Compute Module 3", frozenset({"pi3", "cm3"}), "3"),
    ("Raspberry Pi 3", frozenset({"pi3"}), "3"),
    ("Raspberry Pi Zero 2", frozenset({"pi0", "pi0w", "pi02"}), "3"),  # the Pi 3's chip (BCM2710)
    ("Raspberry Pi", frozenset({"pi1", "pi2", "pi0"}), "old"),
)
MODEL_FILTERS = frozenset(
    {
        "pi0",
        "pi0w",
        "pi02",
        "pi1",
        "pi2",
        "pi3",
        "pi3+",
        "pi4",
        "pi400",
        "pi5",
        "pi500",
        "cm1",
        "cm3",
        "cm3+",
        "cm4",
        "cm4s",
        "cm5",
    }
)
ON = ("on", "true", "yes", "1", "")


def _model(model: str) -> tuple[frozenset[str], str] | None:
    for prefix, filters, family in MODELS:
        if model.startswith(prefix):
            return filters, family
    return None


def pi_family(model: str) -> str | None:
    """ "5", "4", "3" (Pi 3 and Zero 2 W), "old", or None when ``model`` is not a Raspberry Pi."""
    found = _model(model)
    return found[1] if found else None


@dataclass
class BootConfig:
    """The settings in force for one board (a key's last value under a matching filter)."""

    path: str = "/boot/firmware/config.txt"
    cmdline_path: str = "/boot/firmware/cmdline.txt"
    values: dict[str, str] = field(default_factory=dict)
    dtparams: dict[str, str] = field(default_factory=dict)
    cmdline: tuple[str, ...] = ()

    @classmethod
    def read(cls, read: Callable[[str], str | None], model: str | None) -> BootConfig:
        """``read(path)`` gives a file's text or None; ``model`` is /proc/device-tree/model."""
        place = next((place for place in PLACES if read(f"{place}/config.txt") is not None), PLACES[0])
        boot = cls(f"{place}/config.txt", f"{place}/cmdline.txt")
        found = _model(model or "")
        matches = found[0] if found else frozenset()
        boot.parse(read(boot.path) or "", matches)
        boot.cmdline = tuple((read(boot.cmdline_path) or "").split())
        return boot

    def parse(self, text: str, matches: frozenset[str]) -> None:
        applies = True
        for raw in text.splitlines():
            line = raw.split("#", 1)[0].strip()
            if line.startswith("[") and line.endswith("]"):
                name = line[1:-1].strip().lower()
                applies = name != "none" and (name not in MODEL_FILTERS or name in matches)
                continue
            if not applies or "=" not in line:
                continue
            key, value = (part.strip() for part in line.split("=", 1))
            if key == "dtparam":
                for param in value.split(","):
                    name, _, setting = param.partition("=")
                    self.dtparams[name.strip()] = setting.strip().lower()
            else:
                self.values[key] = value

    def value(self, key: str) -> str | None:
        return self.values.get(key)

    def dtparam(self, name: str) -> bool:
        """Whether ``dtparam=name=on`` (or a bare ``dtparam=name``) is in force."""
        return name in self.dtparams and self.dtparams[name] in ON

    def cmdline_value(self, key: str) -> str | None:
        for token in self.cmdline:
            name, _, value = token.partition("=")
            if name == key:
                return value
        return None
