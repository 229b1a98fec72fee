"""``pegs doctor``: is this machine ready for the board its config describes?

    findings = examine(Machine(), "/etc/pegs/pegs.toml")
    print("\\n".join(str(finding) for finding in findings))

Each check reads what a Pi shows (``/proc/device-tree/model``, ``/boot/firmware/config.txt``
and ``cmdline.txt``, ``/sys/module/spidev``, ``/etc/group``, ``/dev``, systemd) and says in
plain words what is missing and the command that fixes it. The checks are the steps of
``deploy/install.sh``; ``Machine(root=...)`` reads a fake tree, so each one is tested
without a Pi. On a machine that is not a Pi the Pi's checks are skipped, and it says so.

The sensor board is asked only on the Pi itself (``--root`` is another machine's SD card):
through the daemon's /api/health when the daemon answering the config's web port runs
this very config, else the board itself when its port is free. Another daemon's answer is
said as such, never taken for this board's.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from hardware.layout import Layout, LayoutError
from hardware.leds import DMA_ALIGN, spi_frame_bytes
from hardware.registry import LEDS, SENSORS, Options
from hardware.sensors import boards_reading, channel_mismatch, channels_needed, firmware_fix
from referee.kit.boot_config import PLACES as BOOT_PLACES
from referee.kit.boot_config import BootConfig, pi_family
from referee.kit.doctor_machine import Health, Machine
from referee.kit.doctor_remote import WebSide, remote_findings
from referee.kit.finding import Finding
from referee.settings.backends import layout_for
from referee.settings.config import Config, ConfigError

__all__ = ["Context", "Finding", "examine"]  # Finding is referee.kit.finding's, said here for the command
SERVICE = "pegs"
GROUPS = ("gpio", "spi", "dialout")
SPI_BUFSIZ = 65536  # what install.sh puts on the kernel command line
CORE_CLOCK = {  # the steady core clock the SPI NeoPixel timing needs, per Pi family (install.sh)
    "4": {"core_freq": "500", "core_freq_min": "500"},
    "3": {"core_freq": "250"},
}
CARD = "card"  # the family of a Pi's SD card checked with --root: any Pi
ON_THE_PI = "is not checked here: on the Pi itself"  # what only the running Pi (its kernel, /dev, /sys) shows
OLDER = "a pegs daemon that does not say which config it runs (one started before an update)"
INSTALL = "sudo deploy/install.sh  (in the pegs checkout; once installed, also /opt/pegs/src/deploy/install.sh)"


@dataclass
class Context:
    machine: Machine
    config: Config | None
    layout: Layout | None
    family: str | None  # "5", "4", "3", "old", or None when not a Pi
    boot: BootConfig
    config_path: str = "/etc/pegs/pegs.toml"  # as named on the checked system
    layout_file: str | None = None  # the config's layout file as named on the checked system
    health: Health = None  # what answers the config's web port (asked on this machine only)


def examine(machine: Machine, config_path: str = "/etc/pegs/pegs.toml") -> list[Finding]:
    """Every check's finding, in the order a builder fixes them."""
    findings: list[Finding] = []
    model = (machine.read("/proc/device-tree/model") or "").strip("\0\n ")
    family = pi_family(model)
    if family is None and not machine.local and any(machine.exists(f"{p}/config.txt") for p in BOOT_PLACES):
        family = CARD  # an SD card has no /proc: it is a Pi's by its boot partition, which Pi is not known
        findings.append(Finding("machine", None, f"a Raspberry Pi OS card: which Pi it goes in {ON_THE_PI}"))
    elif family is None:
        findings.append(
            Finding(
                "machine",
                None,
                "not a Raspberry Pi (no /proc/device-tree/model): "
                "the Pi's checks are skipped; the config, the sensor board and the service are still checked",
            )
        )
    else:
        findings.append(
            Finding(
                "machine",
                family != "old",
                model if family != "old" else f"{model}: too slow for the referee; use a Pi 3, 4, 5 or Zero 2 W",
            )
        )
    config, layout = _load(machine, config_path, family, findings)
    boot = BootConfig.read(machine.read, model)
    layout_file = _pi_path(machine, config.layout) if config is not None and config.layout else None
    health = machine.daemon_health(config.web_port) if config is not None and machine.local else None
    context = Context(machine, config, layout, family, boot, config_path, layout_file, health)
    for check in CHECKS:
        finding = check(context)
        if finding is not None:
            findings.append(finding)
    if config is not None:
        web = WebSide(config.home, config.host, machine.web_port or config.web_port, config.allowed_hosts, config_path)
        findings.extend(remote_findings(machine, web))
    return findings


def _load(
    machine: Machine, config_path: str, family: str | None, findings: list[Finding]
) -> tuple[Config | None, Layout | None]:
    if not machine.exists(config_path):
        missing = f"{config_path} is missing (pegs doctor --config FILE checks another)"
        if family is None:  # not a Pi: nothing to fix here, and install.sh is for a Pi
            findings.append(Finding("config", None, f"{missing}; on the Pi, deploy/install.sh puts it there"))
        else:
            findings.append(
                Finding(
                    "config",
                    False,
                    missing,
                    "sudo deploy/install.sh --players N  (in the pegs "
                    "checkout; N = 2, 4, 6, 8 or 10, the board's size)",
                )
            )
        return None, None
    try:
        config = Config.from_toml(machine.path(config_path))
        if config.layout:
            config = replace(config, layout=str(machine.path(_pi_path(machine, config.layout))))
        layout = layout_for(config)
    except (ConfigError, LayoutError, ValueError) as error:
        findings.append(Finding("config", False, str(error), f"edit {config_path}"))
        return None, None
    board = _board_words(machine, config, layout)
    findings.append(Finding("config", True, f"{config_path}: {config.players} players, {board}"))
    return config, layout


def _board_words(machine: Machine, config: Config, layout: Layout) -> str:
    """The board the daemon expects, and its parts, as the config says them."""
    board = f"a {layout.sides}-sided board of {len(layout.hole_names)} holes"
    if config.layout:
        board += f" (layout {_pi_path(machine, config.layout)})"
    sensors = SENSORS.get(config.sensors).say(Options(config.sensor_options))  # as hardware.registry has them
    leds = LEDS.get(config.leds).say(Options(config.led_options))
    return f"{board}, sensors {sensors}, LEDs {leds}"


def _pi_path(machine: Machine, name: str) -> str:
    """``name`` as the checked system names it: a layout path the config made relative to the
    config file points into ``--root``; the Pi knows it without that prefix."""
    root = machine.root.resolve()
    path = Path(name)
    if root != Path("/") and path.is_absolute() and path.is_relative_to(root):
        return "/" + str(path.relative_to(root))
    return name


# -- the checks, in order ----------------------------------------------------------------


def check_os(context: Context) -> Finding | None:
    release = context.machine.read("/etc/os-release")
    if context.family is None or release is None:
        return None
    fields = dict(line.split("=", 1) for line in release.splitlines() if "=" in line)
    codename = fields.get("VERSION_CODENAME", "").strip('"')
    name = fields.get("PRETTY_NAME", codename).strip('"')
    if codename in ("bookworm", "trixie"):
        return Finding("system", True, name)
    return Finding(
        "system",
        False,
        f"{name}: install.sh and this check expect Raspberry Pi OS Bookworm or Trixie",
        "flash a current Raspberry Pi OS Lite with Raspberry Pi Imager",
    )


def check_spi(context: Context) -> Finding | None:
    if not _spi_leds(context):
        return None
    node = context.machine.exists("/dev/spidev0.0")
    if context.boot.dtparam("spi") and not context.machine.local:
        return Finding("SPI", None, f"switched on in {context.boot.path}; /dev/spidev0.0 {ON_THE_PI}")
    if context.boot.dtparam("spi") and node:
        return Finding("SPI", True, "on (/dev/spidev0.0), for the NeoPixels on GPIO10")
    if context.boot.dtparam("spi"):
        return Finding(
            "SPI", False, f"switched on in {context.boot.path} but /dev/spidev0.0 is missing: reboot", "sudo reboot"
        )
    return Finding(
        "SPI",
        False,
        'off, and leds.backend = "neopixel-spi" needs it (GPIO10)',
        "sudo raspi-config nonint do_spi 0 && sudo reboot",
    )


def check_spi_buffer(context: Context) -> Finding | None:
    if not _spi_leds(context) or context.layout is None:
        return None
    frame = spi_frame_bytes(context.layout.pixels)
    needed = -(-frame // DMA_ALIGN) * DMA_ALIGN  # spidev rounds a message up before it checks bufsiz
    text = context.machine.read("/sys/module/spidev/parameters/bufsiz")
    running = int(text) if text is not None and text.strip().isdigit() else None
    asked = context.boot.cmdline_value("spidev.bufsiz")
    if running is not None and running >= needed:
        return Finding(
            "SPI buffer",
            True,
            f"{running} bytes: a whole frame of {context.layout.pixels} pixels ({frame} bytes) goes out in one message",
        )
    if asked is not None and asked.isdigit() and int(asked) >= needed and not context.machine.local:
        return Finding(
            "SPI buffer",
            None,
            f"spidev.bufsiz={asked} is set in {context.boot.cmdline_path}; the kernel's value {ON_THE_PI}",
        )
    if asked is not None and asked.isdigit() and int(asked) >= needed:
        return Finding(
            "SPI buffer",
            False,
            f"spidev.bufsiz={asked} is set in {context.boot.cmdline_path} but not in force yet: reboot",
            "sudo reboot",
        )
    now = f"{running} bytes" if running is not None else "the kernel's default (4096 bytes)"
    return Finding(
        "SPI buffer",
        False,
        f"{now}; a frame of {context.layout.pixels} pixels needs {needed}, "
        "and a frame sent in pieces shows the tail late",
        f"sudo sed -i '1 s/$/ spidev.bufsiz={SPI_BUFSIZ}/' {context.boot.cmdline_path} && sudo reboot",
    )


def check_core_clock(context: Context) -> Finding | None:
    wanted = CORE_CLOCK.get(context.family or "")
    if _spi_leds(context) and context.family == CARD:
        return Finding("core clock", None, f"which Pi the card goes in, and so its core clock, {ON_THE_PI}")
    if not _spi_leds(context) or wanted is None:
        return None  # the Pi 5's SPI runs off its own clock (RP1)
    wrong = {key: value for key, value in wanted.items() if context.boot.value(key) != value}
    if context.family == "4" and context.boot.value("hdmi_enable_4kp60") not in (None, "0"):
        # A 4K screen at 60 Hz wants the Pi 4's core at 550 MHz, not the 500 the SPI timing is held at.
        return Finding(
            "core clock",
            False,
            "hdmi_enable_4kp60 is set: it asks a Pi 4 for a faster core clock "
            "than the 500 MHz the NeoPixel timing on SPI is held at",
            f"sudo sed -i '/^hdmi_enable_4kp60/d' {context.boot.path} && sudo reboot",
        )
    if not wrong:
        return Finding(
            "core clock",
            True,
            ", ".join(f"{key}={value}" for key, value in wanted.items()) + ": the NeoPixel timing on SPI holds",
        )
    lines = "\\n".join(["[all]"] + [f"{key}={value}" for key, value in wrong.items()])
    return Finding(
        "core clock",
        False,
        f"{', '.join(wrong)} not set: the SPI clock follows the core clock, "
        "which changes with load, and the pixels flicker or show wrong colours",
        f"printf '{lines}\\n' | sudo tee -a {context.boot.path} && sudo reboot",
    )


def check_pwm_leds(context: Context) -> Finding | None:
    if context.config is None or context.config.leds != "neopixel" or context.family is None:
        return None
    if context.family == CARD or (context.family == "5" and not context.machine.local):
        return Finding("LEDs", None, f"rpi_ws281x (Pi 4 and older) or /dev/pio0 (Pi 5) {ON_THE_PI}")
    if context.family == "5":
        if context.machine.exists("/dev/pio0"):
            return _node_access(context, "/dev/pio0", "LEDs")
        return Finding(
            "LEDs",
            False,
            "/dev/pio0 is missing: the Pi 5 NeoPixel driver needs it (a current kernel)",
            "sudo apt update && sudo apt full-upgrade && sudo reboot",
        )
    return Finding(
        "LEDs",
        False,
        f'leds.backend = "neopixel" on {context.config.led_pin} uses rpi_ws281x, which needs '
        "root and the onboard audio off; the pegs service runs unprivileged",
        'set leds.backend = "neopixel-spi" in the config and move the data wire to GPIO10 (SPI MOSI)',
    )


def check_groups(context: Context) -> Finding | None:
    if context.family is None:
        return None
    groups = _groups(context.machine)
    if SERVICE not in (line.split(":", 1)[0] for line in (context.machine.read("/etc/passwd") or "").splitlines()):
        return Finding("user", False, "there is no pegs user for the service", INSTALL)
    missing = [group for group in GROUPS if SERVICE not in groups.get(group, ())]
    if missing:
        return Finding(
            "user",
            False,
            f"pegs is not in the group(s) {', '.join(missing)}",
            f"sudo usermod -a -G {','.join(GROUPS)} pegs && sudo systemctl restart pegs",
        )
    return Finding("user", True, f"pegs is in {', '.join(GROUPS)}")


def check_sensor_port(context: Context) -> Finding | None:
    config = context.config
    if config is None or config.sensors != "serial" or not config.port:
        return None
    rule = context.machine.exists("/etc/udev/rules.d/99-pegs-board.rules")
    if not context.machine.local and (rule or context.family is None):
        return Finding("sensor board", None, f"{config.port} (the Pico, plugged in) {ON_THE_PI}")
    if context.machine.exists(config.port):
        return _node_access(context, config.port, "sensor board")
    fix = (
        (
            "plug the Pico into the Pi; `lsusb` must list 239a:80f4 (CircuitPython on a Pico: change the id in "
            "/etc/udev/rules.d/99-pegs-board.rules if yours differs)"
        )
        if rule
        else INSTALL
    )
    return Finding("sensor board", False, f"{config.port} is missing", fix)


def check_web_port(context: Context) -> Finding | None:
    """Who answers the config's web port: this config's daemon, or someone this config's daemon
    cannot serve its page beside (another pegs daemon, or another program)."""
    config, health = context.config, context.health
    if config is None or health is None:
        return None  # not asked (--root), or nothing listens: the service check says whether pegs runs
    port = context.machine.web_port or config.web_port
    who = _who(health, _config_file(context))
    if who is None:
        return Finding("web port", True, f"{port}: the pegs daemon of {context.config_path} answers")
    fix = f"stop that program, or set another port = N under [web] in {context.config_path}"
    if who == OLDER:
        fix = "sudo systemctl restart pegs (if that is the pegs service), else stop it; then pegs doctor again"
    return Finding(
        "web port",
        False,
        f"port {port} answers {who}, not the pegs daemon of {context.config_path}, which cannot serve its page there",
        fix,
    )


def check_stored_games(context: Context) -> Finding | None:
    """What this config's daemon found damaged on the card and set aside (a game, the lesson
    left, a turn file, the store itself): it started with everything else, and says so here
    too, so that the files kept aside are looked at, not lost."""
    health = context.health
    if not isinstance(health, dict) or _who(health, _config_file(context)) is not None:
        return None
    said = _dig(health, "store", "recovered")
    if not said:
        return Finding("stored games", True, "nothing found damaged")
    where = _dig(health, "store", "path") or "the data dir"
    fix = f"the damaged files are kept beside {where} (*.damaged-*); copy them off the card, then replace the card"
    return Finding("stored games", False, str(said), fix)


def check_firmware(context: Context) -> Finding | None:
    """The channels the sensor board reads against the layout: from this config's daemon, which
    holds the board's port while it runs, else from the board itself (never another's answer)."""
    config, layout, machine = context.config, context.layout, context.machine
    if config is None or layout is None or config.sensors != "serial":
        return None
    if not machine.local:
        return Finding(
            "firmware",
            None,
            "not checked: with --root the sensor board and its daemon are another "
            "machine's; run pegs doctor on the Pi itself to check the firmware",
        )
    where = config.port or f"USB {config.vid_pid}"
    if isinstance(context.health, dict) and _who(context.health, _config_file(context)) is None:
        channels = _dig(context.health, "sensors", "link", "channels")  # the daemon holds the port: its link knows
        return _channels_finding(
            context, layout, channels if isinstance(channels, int) else None, f"{where}, the pegs daemon says"
        )
    if not config.port or not machine.exists(config.port):
        return None  # the missing port is said above; a USB id is looked up by the daemon's link only
    answer = machine.device_channels(str(machine.path(config.port)))
    if isinstance(answer, str):
        return Finding("firmware", None, f"not checked: {config.port} {answer}")
    return _channels_finding(context, layout, answer, f"asked on {config.port}")


def _channels_finding(context: Context, layout: Layout, channels: int | None, source: str) -> Finding:
    """The firmware's verdict from the channel count in the sensor board's hello (None: no hello)."""
    fix = firmware_fix(layout, context.layout_file)
    if channels is None:
        return Finding(
            "firmware", False, f"no hello from the sensor board ({source}): is CircuitPython running our code.py?", fix
        )
    problem = channel_mismatch(channels, layout, context.layout_file)
    if problem is None:
        return Finding(
            "firmware",
            True,
            f"the sensor board reads {channels} channels ({source}); the layout uses "
            f"{channels_needed(layout)} for its {len(layout.hole_names)} holes",
        )
    words = problem.removesuffix(f" ({fix})")
    sizes = boards_reading(channels, but=layout.sides)
    if sizes:  # the board may be bigger than the config says: its config line, or this board's firmware
        line = f"set players = {sizes[0]} under [board] in {context.config_path}"
        if context.layout_file:
            line += f" and a {sizes[0]}-sided layout file on its layout = line"
        fix = f"if the board has {sizes[0]} sides: {line}; else: {fix}"
    return Finding("firmware", False, words, fix)


def check_service(context: Context) -> Finding | None:
    if not context.machine.local:
        return _service_on_card(context)
    active = context.machine.run(["systemctl", "is-active", SERVICE])
    if active is None or not active[1]:
        return Finding("service", None, "systemd is not running here: not checked")
    enabled = context.machine.run(["systemctl", "is-enabled", SERVICE])
    state, starts = active[1], (enabled[1] if enabled and enabled[1] else "not-found")
    if state == "active" and starts == "enabled":
        return Finding("service", True, "pegs is running and starts at boot")
    if "not-found" in starts:
        if context.family is None:  # not a Pi: `pegs serve` by hand is as good; install.sh is for a Pi
            return Finding("service", None, "the pegs service is not installed (deploy/install.sh installs it on a Pi)")
        return Finding("service", False, "the pegs service is not installed", INSTALL)
    return Finding(
        "service",
        False,
        f"pegs is {state} ({starts} at boot)",
        "sudo systemctl enable --now pegs; journalctl -u pegs -n 30 says why it stopped",
    )


def _service_on_card(context: Context) -> Finding | None:
    """With --root this machine's systemd knows nothing of the card's: its unit files say whether
    the service is installed and starts at boot; whether it runs is seen on the Pi itself."""
    machine = context.machine
    if not machine.exists(f"/etc/systemd/system/{SERVICE}.service"):
        if context.family is None:
            return Finding("service", None, "the pegs service is not installed (deploy/install.sh installs it on a Pi)")
        return Finding("service", False, "the pegs service is not installed", INSTALL)
    if not machine.exists(f"/etc/systemd/system/multi-user.target.wants/{SERVICE}.service"):
        return Finding(
            "service",
            False,
            "the pegs service is installed but does not start at boot",
            "on the Pi: sudo systemctl enable --now pegs",
        )
    return Finding(
        "service",
        True,
        "the pegs service is installed and starts at boot (whether it runs now is seen on the Pi itself)",
    )


CHECKS: tuple[Callable[[Context], Finding | None], ...] = (
    check_os,
    check_spi,
    check_spi_buffer,
    check_core_clock,
    check_pwm_leds,
    check_groups,
    check_sensor_port,
    check_web_port,
    check_stored_games,
    check_firmware,
    check_service,
)


# -- helpers ---------------------------------------------------------------------------------


def _spi_leds(context: Context) -> bool:
    return context.family is not None and context.config is not None and context.config.leds == "neopixel-spi"


def _groups(machine: Machine) -> dict[str, tuple[str, ...]]:
    groups = {}
    for line in (machine.read("/etc/group") or "").splitlines():
        parts = line.split(":")
        if len(parts) == 4:
            groups[parts[0]] = tuple(name for name in parts[3].split(",") if name)
    return groups


def _node_access(context: Context, node: str, what: str) -> Finding:
    """Whether the pegs user may read and write ``node`` (its group, or everyone)."""
    try:
        status = os.stat(context.machine.path(node))
    except OSError as error:
        return Finding(what, False, f"{node}: {error.strerror}")
    names = {
        int(line.split(":")[2]): line.split(":")[0]
        for line in (context.machine.read("/etc/group") or "").splitlines()
        if line.count(":") == 3 and line.split(":")[2].isdigit()
    }
    group = names.get(status.st_gid, str(status.st_gid))
    member = SERVICE in _groups(context.machine).get(group, ())
    if status.st_mode & 0o006 == 0o006 or (member and status.st_mode & 0o060 == 0o060):
        return Finding(what, True, f"{node} (group {group}): the pegs user can open it")
    return Finding(
        what,
        False,
        f"{node} belongs to group {group}, mode {status.st_mode & 0o777:o}: the pegs user cannot open it",
        "sudo /opt/pegs/src/deploy/install.sh  (it adds the udev rules), then unplug and replug the device",
    )


def _config_file(context: Context) -> str:
    """The config's absolute path, as the daemon running it says it in its health view."""
    return str(context.machine.path(context.config_path).resolve())


def _who(health: Health, config_file: str) -> str | None:
    """None when ``health`` is the answer of the pegs daemon running ``config_file``; else what answered."""
    if health is None or isinstance(health, str):
        return health or "nothing"
    if not {"sensors", "uptime_s"} <= health.keys():
        return "something that is not the pegs daemon (its /api/health is another program's)"
    if "config" not in health:
        return OLDER
    if health["config"] is None:
        return "another pegs daemon, with a simulated board (pegs serve --simulate)"
    if health["config"] != config_file:
        return f"another pegs daemon, running the config {health['config']}"
    return None


def _dig(data: Any, *keys: str) -> Any:
    """``data[k1][k2]...``, or None where a level is missing or not a mapping."""
    for key in keys:
        data = data.get(key) if isinstance(data, dict) else None
    return data
