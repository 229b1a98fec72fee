"""``pegs doctor`` against fake Pi trees (/proc, /boot/firmware, /sys, /etc, /dev).

Issue 12: "checks a Pi for everything the config needs and says in plain words what is
missing and the command that fixes it ... On a machine that is not a Pi it says so and
checks what it can; never a traceback."
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.kit.doctor import examine
from referee.kit.doctor_machine import Machine, RunCommand
from tests.fake_pi import (
    DEPLOY,
    PI3,
    PI4,
    PI5,
    ZERO2,
    a_pi,
    answering,
    by_what,
    ready_pi4,
    systemd,
    write_config,
    write_tree,
)


def _machine(root: Path, channels: int | str | None = 112, run: RunCommand | None = None) -> Machine:
    """The fake tree stands for the Pi doctor runs on (``here``): its sensor board answers ``channels``."""
    return Machine(root, run=run or systemd(), web_port=1, device_channels=lambda port: channels, here=True)


def test_a_pi_set_up_by_install_sh_has_nothing_to_fix(tmp_path: Path) -> None:
    findings = examine(_machine(ready_pi4(tmp_path)))
    assert [f for f in findings if f.ok is not True] == []
    names = [f.what for f in findings]
    for needed in (
        "machine",
        "system",
        "config",
        "SPI",
        "SPI buffer",
        "core clock",
        "user",
        "sensor board",
        "firmware",
        "service",
    ):
        assert needed in names


def test_a_fresh_pi4_gets_each_fix_in_plain_words(tmp_path: Path) -> None:
    """deploy/pegs.toml asks for neopixel-spi; a fresh Raspberry Pi OS has SPI off, the
    kernel's 4096-byte SPI buffer and a wandering core clock (README, "On a Pi")."""
    a_pi(tmp_path, PI4)
    write_config(tmp_path)
    found = by_what(examine(_machine(tmp_path, run=systemd("inactive", ""))))
    assert found["SPI"].ok is False and "raspi-config nonint do_spi 0" in found["SPI"].fix
    assert found["SPI buffer"].ok is False
    assert "spidev.bufsiz=65536" in found["SPI buffer"].fix and "/boot/firmware/cmdline.txt" in found["SPI buffer"].fix
    assert "needs 2816" in found["SPI buffer"].words  # 112 pixels x 24 bytes + 2 x 64 reset bytes
    clock = found["core clock"]
    assert clock.ok is False and "core_freq=500" in clock.fix and "core_freq_min=500" in clock.fix
    assert found["user"].ok is False and "install.sh" in found["user"].fix
    assert found["sensor board"].ok is False and "install.sh" in found["sensor board"].fix
    assert found["service"].ok is False and "not installed" in found["service"].words


def test_settings_in_force_need_a_reboot_and_other_boards_sections_do_not_count(tmp_path: Path) -> None:
    ready_pi4(tmp_path)
    (tmp_path / "dev/spidev0.0").unlink()
    (tmp_path / "sys/module/spidev/parameters/bufsiz").write_text("4096\n")
    found = by_what(examine(_machine(tmp_path)))
    assert found["SPI"].ok is False and found["SPI"].fix == "sudo reboot"
    assert found["SPI buffer"].ok is True  # 112 pixels: 2816 bytes fit the kernel's default
    toml = tmp_path / "etc/pegs/pegs.toml"
    toml.write_text(toml.read_text().replace("players = 4", "players = 6"))  # 168 pixels: 4160 bytes
    found = by_what(examine(_machine(tmp_path, channels=168)))
    assert found["SPI buffer"].ok is False and found["SPI buffer"].fix == "sudo reboot"
    toml.write_text(toml.read_text().replace("players = 6", "players = 4"))
    # The Pi 3 and Zero 2 W want core_freq=250 (README): a [pi4] section does not apply to them.
    for model in (PI3, ZERO2):
        a_pi(tmp_path, model, "[pi4]\ncore_freq=500\ncore_freq_min=500\n[all]\ndtparam=spi=on\n")
        clock = by_what(examine(_machine(tmp_path)))["core clock"]
        assert clock.ok is False and "core_freq=250" in clock.fix and "core_freq_min" not in clock.fix
        a_pi(tmp_path, model, "[pi4]\ncore_freq=500\n[all]\ndtparam=spi=on\ncore_freq=250\n")
        assert by_what(examine(_machine(tmp_path)))["core clock"].ok is True


def test_a_4k_screen_at_60_hz_on_a_pi4_is_named(tmp_path: Path) -> None:
    """The guide (building.md, "The LEDs") says doctor checks that hdmi_enable_4kp60 is off on a
    Pi 4: it wants the core faster than the 500 MHz the SPI timing is held at (issue 23, item 10)."""
    ready_pi4(tmp_path)
    config_txt = tmp_path / "boot/firmware/config.txt"
    config_txt.write_text("hdmi_enable_4kp60=1\n" + config_txt.read_text())
    clock = by_what(examine(_machine(tmp_path)))["core clock"]
    assert clock.ok is False and "hdmi_enable_4kp60" in clock.words
    assert "sed -i '/^hdmi_enable_4kp60/d' /boot/firmware/config.txt" in clock.fix
    config_txt.write_text(config_txt.read_text().replace("hdmi_enable_4kp60=1", "hdmi_enable_4kp60=0"))
    assert by_what(examine(_machine(tmp_path)))["core clock"].ok is True


def test_gpio18_and_the_pi5_driver(tmp_path: Path) -> None:
    """rpi_ws281x (GPIO18, PWM) needs root; the Pi 5's NeoPixel driver needs /dev/pio0."""
    ready_pi4(tmp_path)
    write_config(tmp_path, leds="neopixel")
    leds = by_what(examine(_machine(tmp_path)))["LEDs"]
    assert leds.ok is False and "root" in leds.words and "neopixel-spi" in leds.fix
    a_pi(tmp_path, PI5)
    found = by_what(examine(_machine(tmp_path)))
    assert "core clock" not in found and found["LEDs"].ok is False and "/dev/pio0" in found["LEDs"].words
    write_tree(tmp_path, {"/dev/pio0": ""})
    os.chmod(tmp_path / "dev/pio0", 0o600)
    assert by_what(examine(_machine(tmp_path)))["LEDs"].ok is False
    os.chmod(tmp_path / "dev/pio0", 0o666)
    assert by_what(examine(_machine(tmp_path)))["LEDs"].ok is True


def test_the_firmware_must_read_every_hole(tmp_path: Path) -> None:
    ready_pi4(tmp_path)
    firmware = by_what(examine(_machine(tmp_path, channels=96)))["firmware"]
    assert firmware.ok is False and "reads 96 channels" in firmware.words
    assert firmware.fix == "pegs firmware --sides 4 --out /media/$USER/CIRCUITPY"
    assert by_what(examine(_machine(tmp_path, channels=None)))["firmware"].ok is False
    write_config(tmp_path, extra="")
    (tmp_path / "etc/pegs/pegs.toml").write_text(
        (tmp_path / "etc/pegs/pegs.toml").read_text().replace("players = 4", "players = 6")
    )
    assert "uses 168" in by_what(examine(_machine(tmp_path, channels=120)))["firmware"].words


def test_not_a_pi_says_so_and_checks_what_it_can(tmp_path: Path) -> None:
    write_config(tmp_path)
    done = subprocess.run(
        [sys.executable, "-m", "referee.cli", "doctor", "--root", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.stderr == "" and done.returncode == 0  # /dev/pegs-board is seen on the Pi, not in a folder
    assert "not a Raspberry Pi" in done.stdout and "SPI" not in done.stdout
    assert "sensor board: /dev/pegs-board (the Pico, plugged in) is not checked here: on the Pi itself" in done.stdout
    (tmp_path / "etc/pegs/pegs.toml").write_text("[leds]\nbackend = 'laser'\n")
    bad = subprocess.run(
        [sys.executable, "-m", "referee.cli", "doctor", "--root", str(tmp_path), "--json"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert bad.returncode == 1 and '"what": "config"' in bad.stdout and "laser" in bad.stdout


FILES = (
    "/proc/device-tree/model",
    "/etc/os-release",
    "/boot/firmware/config.txt",
    "/boot/firmware/cmdline.txt",
    "/etc/group",
    "/etc/passwd",
    "/sys/module/spidev/parameters/bufsiz",
    "/etc/pegs/pegs.toml",
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.dictionaries(
        st.sampled_from(FILES),
        st.one_of(
            st.text(max_size=80),
            st.sampled_from(
                [PI4, PI5, "[pi4\ndtparam=", "dtparam=spi=on,,=\n[none]\n", "gpio:x:abc:pegs\n::::", "\0\0", "9" * 5000]
            ),
        ),
    )
)
def test_garbage_files_never_make_a_traceback(tmp_path_factory: object, files: dict[str, str]) -> None:
    root = tmp_path_factory.mktemp("pi")  # type: ignore[attr-defined]
    write_tree(root, files)
    findings = examine(_machine(root, run=systemd("failed", "enabled")))
    assert findings and all(isinstance(f.words, str) and f.words for f in findings)
    shutil.rmtree(root)


# -- who answers the web port, and whose sensor board it is (issue 23, item 3) -------------------


def _health(config: str | None, channels: int) -> bytes:
    """What a pegs daemon's /api/health says (the fields doctor reads)."""
    sensors = {"backend": "serial", "link": {"channels": channels}}
    board = {"sides": 4, "holes": 112, "channels": 112}
    return json.dumps({"config": config, "uptime_s": 3.0, "sensors": sensors, "layout": board}).encode()


def _asking(channels: int | str | None, asked: list[str]):  # type: ignore[no-untyped-def]
    def device_channels(port: str) -> int | str | None:
        asked.append(port)
        return channels

    return device_channels


def test_with_the_service_running_the_daemon_is_asked_for_the_channels(tmp_path: Path) -> None:
    """The port is the service's while it runs: doctor reads its own daemon's /api/health instead."""
    ready_pi4(tmp_path)
    this = str((tmp_path / "etc/pegs/pegs.toml").resolve())
    for channels, said in ((96, "reads 96 channels"), (168, "reads 168 channels (21 chips)")):
        asked: list[str] = []
        with answering(_health(this, channels)) as port:
            machine = Machine(tmp_path, run=systemd(), web_port=port, device_channels=_asking(112, asked), here=True)
            found = by_what(examine(machine))
        assert found["firmware"].ok is False and said in found["firmware"].words and asked == []
        web = found["web port"]
        assert web.ok is True and "the pegs daemon of /etc/pegs/pegs.toml answers" in web.words


def test_another_daemon_on_the_port_is_said_and_the_board_itself_is_asked(tmp_path: Path) -> None:
    """A `pegs serve` of another config or a simulated board answers the port: its 96 channels are
    not this board's. Doctor says who answered and asks the sensor board itself."""
    ready_pi4(tmp_path)
    for config, who in (
        ("/home/pi/test.toml", "another pegs daemon, running the config /home/pi/test.toml"),
        (None, "another pegs daemon, with a simulated board (pegs serve --simulate)"),
    ):
        asked: list[str] = []
        with answering(_health(config, 96)) as port:
            machine = Machine(tmp_path, run=systemd(), web_port=port, device_channels=_asking(112, asked), here=True)
            found = by_what(examine(machine))
        web = found["web port"]
        assert web.ok is False and f"port {port} answers {who}, not the pegs daemon of /etc/pegs/pegs.toml" in web.words
        assert web.fix == "stop that program, or set another port = N under [web] in /etc/pegs/pegs.toml"
        firmware = found["firmware"]
        assert firmware.ok is True and "reads 112 channels (asked on /dev/pegs-board)" in firmware.words
        assert asked == [str(tmp_path / "dev/pegs-board")]
    older = json.dumps({"uptime_s": 3.0, "sensors": {"link": {"channels": 96}}}).encode()  # no "config": not trusted
    with answering(older) as port:
        machine = Machine(tmp_path, run=systemd(), web_port=port, device_channels=_asking(112, []), here=True)
        found = by_what(examine(machine))
    assert "a pegs daemon that does not say which config it runs" in found["web port"].words
    assert found["web port"].fix.startswith("sudo systemctl restart pegs") and found["firmware"].ok is True


def test_a_program_that_is_not_pegs_on_the_port_is_not_blamed_on_the_firmware(tmp_path: Path) -> None:
    ready_pi4(tmp_path)
    for body, who in (
        (b"<html>hello</html>", "something whose /api/health is not JSON"),
        (b'{"status": "ok", "channels": 96}', "something that is not the pegs daemon"),
    ):
        asked: list[str] = []
        with answering(body) as port:
            machine = Machine(tmp_path, run=systemd(), web_port=port, device_channels=_asking(112, asked), here=True)
            found = by_what(examine(machine))
        assert found["web port"].ok is False and who in found["web port"].words
        assert found["firmware"].ok is True and len(asked) == 1
    # The board's port is held by that other program: not checked, not blamed either.
    with answering(b"<html>hello</html>") as port:
        busy = _asking("is in use by another program (a pegs daemon of another config?)", [])
        machine = Machine(tmp_path, run=systemd(), web_port=port, device_channels=busy, here=True)
        firmware = by_what(examine(machine))["firmware"]
    assert firmware.ok is None
    assert firmware.words.startswith("not checked: /dev/pegs-board is in use by another program")


def test_with_root_neither_the_daemon_nor_the_board_here_is_asked(tmp_path: Path) -> None:
    """--root is another machine's SD card: what answers here is not its daemon nor its board."""
    ready_pi4(tmp_path)
    requests: list[str] = []
    asked: list[str] = []
    with answering(_health(str((tmp_path / "etc/pegs/pegs.toml").resolve()), 96), requests) as port:
        found = by_what(examine(Machine(tmp_path, run=systemd(), web_port=port, device_channels=_asking(96, asked))))
    firmware = found["firmware"]
    assert firmware.ok is None and "run pegs doctor on the Pi itself" in firmware.words and not firmware.fix
    assert "web port" not in found and requests == [] and asked == []
    # Nor is this machine's systemd the card's: its unit files say whether pegs is installed and enabled.
    ran: list[list[str]] = []

    def systemctl(argv: list[str]) -> tuple[int, str]:
        ran.append(argv)
        return 0, "active"

    card = Machine(tmp_path, run=systemctl, web_port=1)
    assert by_what(examine(card))["service"].ok is False and ran == []
    write_tree(tmp_path, {"/etc/systemd/system/pegs.service": "[Unit]\n"})
    assert "does not start at boot" in by_what(examine(card))["service"].words
    wants = tmp_path / "etc/systemd/system/multi-user.target.wants"
    wants.mkdir()
    (wants / "pegs.service").symlink_to("/etc/systemd/system/pegs.service")  # as systemctl enable makes it
    assert by_what(examine(card))["service"].ok is True and ran == []


def test_a_board_bigger_than_the_config_says_names_the_config_line(tmp_path: Path) -> None:
    """Issue 23, items 3 and 9: 168 channels (a 6-sided board's firmware) under a 4-player config
    is a problem too; the fix is the config line, or this board's firmware."""
    ready_pi4(tmp_path)
    found = by_what(examine(_machine(tmp_path, channels=168)))
    assert "4 players, a 4-sided board of 112 holes" in found["config"].words
    firmware = found["firmware"]
    assert firmware.ok is False and "reads 168 channels (21 chips)" in firmware.words and "uses 112" in firmware.words
    assert firmware.fix == (
        "if the board has 6 sides: set players = 6 under [board] in /etc/pegs/pegs.toml; "
        "else: pegs firmware --sides 4 --out /media/$USER/CIRCUITPY"
    )
    right = by_what(examine(_machine(tmp_path, channels=112)))["firmware"]
    assert right.ok is True and right.words == (
        "the sensor board reads 112 channels (asked on /dev/pegs-board); the layout uses 112 for its 112 holes"
    )
    odd = by_what(examine(_machine(tmp_path, channels=200)))["firmware"]  # no standard board reads 200
    assert odd.ok is False and odd.fix == "pegs firmware --sides 4 --out /media/$USER/CIRCUITPY"


def test_the_firmware_fix_names_the_configs_layout_file_as_the_pi_knows_it(tmp_path: Path) -> None:
    """Issue 23, item 7: a calibrated board's firmware is made from its layout file; with --root
    the file is at the same place on the Pi, not under the SD card's mount point."""
    from hardware.layout import default_layout

    ready_pi4(tmp_path)
    (tmp_path / "etc/pegs/layout.toml").write_text(default_layout(4).to_toml())
    toml = tmp_path / "etc/pegs/pegs.toml"
    for written in ('"layout.toml"', '"/etc/pegs/layout.toml"'):  # relative to the config, or absolute
        write_config(tmp_path, extra="")
        toml.write_text(toml.read_text().replace("[board]\n", f"[board]\nlayout = {written}\n", 1))
        found = by_what(examine(_machine(tmp_path, channels=96)))
        assert "(layout /etc/pegs/layout.toml)" in found["config"].words
        assert found["firmware"].fix == "pegs firmware --layout /etc/pegs/layout.toml --out /media/$USER/CIRCUITPY"
        bigger = by_what(examine(_machine(tmp_path, channels=168)))["firmware"]
        line = "players = 6 under [board] in /etc/pegs/pegs.toml and a 6-sided layout file on its layout = line;"
        assert line in bigger.fix
        assert bigger.fix.endswith("else: pegs firmware --layout /etc/pegs/layout.toml --out /media/$USER/CIRCUITPY")


def test_a_real_sensor_board_on_a_pseudo_terminal(tmp_path: Path) -> None:
    """The whole way on this machine (root "/"): a 168-channel board answers its hello on a real
    pty; while another program holds its port, doctor leaves it alone."""
    import serial

    from firmware_bridge.fake_device import FakeDevice

    with FakeDevice(168, heartbeat=0.1) as device:
        text = (DEPLOY / "pegs.toml").read_text().replace('"/dev/pegs-board"', json.dumps(device.path))
        (tmp_path / "pegs.toml").write_text(text)
        machine = Machine(Path("/"), run=systemd(), web_port=1)
        firmware = by_what(examine(machine, str(tmp_path / "pegs.toml")))["firmware"]
        assert firmware.ok is False and "reads 168 channels (21 chips)" in firmware.words
        assert f"set players = 6 under [board] in {tmp_path / 'pegs.toml'}" in firmware.fix
        with serial.Serial(device.path, exclusive=True):
            firmware = by_what(examine(machine, str(tmp_path / "pegs.toml")))["firmware"]
        assert firmware.ok is None and "is in use by another program" in firmware.words


def test_a_real_pegs_daemon_is_told_from_another_configs(tmp_path: Path) -> None:
    """The health view of a real `pegs serve --config` is what doctor reads: it is this config's
    daemon for its own file, and another config's daemon for any other file (issue 23, item 3)."""
    import socket
    import time
    import urllib.request

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    ours, other = tmp_path / "pegs.toml", tmp_path / "other.toml"
    ours.write_text(f'[web]\nport = {port}\n[data]\ndir = "data"\n')
    other.write_text(f'[sensors]\nbackend = "serial"\nport = "/dev/pegs-none"\n[web]\nport = {port}\n')
    daemon = subprocess.Popen(
        [sys.executable, "-m", "referee.cli", "serve", "--config", str(ours)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=2).close()
                break
            except OSError:
                time.sleep(0.1)
        machine = Machine(Path("/"), run=systemd())
        web = by_what(examine(machine, str(ours)))["web port"]
        assert web.ok is True and web.words == f"{port}: the pegs daemon of {ours} answers"
        web = by_what(examine(machine, str(other)))["web port"]
        assert web.ok is False and f"answers another pegs daemon, running the config {ours.resolve()}" in web.words
    finally:
        daemon.terminate()
        daemon.wait(10)


def test_a_card_mounted_elsewhere_leaves_the_live_kernels_checks_to_the_pi(tmp_path: Path) -> None:
    """Issue 35, item 12: an SD card checked with --root has no /proc, /sys or /dev of its own (the
    kernel makes them at boot: procfs, sysfs, devtmpfs), so /dev/spidev0.0, the running
    spidev.bufsiz, the Pi's model and /dev/pegs-board are "not checked here: on the Pi itself",
    never faults; what the card's files say (config.txt, cmdline.txt, groups, the udev rule, the
    service's unit files) is still checked, and a card without dtparam=spi=on is still told."""
    card = ready_pi4(tmp_path / "card")
    for live in ("proc", "sys", "dev"):
        shutil.rmtree(card / live)
    write_tree(
        card,
        {
            "/etc/systemd/system/pegs.service": "[Service]\n",
            "/etc/systemd/system/multi-user.target.wants/pegs.service": "[Service]\n",
        },
    )
    done = subprocess.run(
        [sys.executable, "-m", "referee.cli", "doctor", "--root", str(card), "--json"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    found = {f["what"]: f for f in json.loads(done.stdout)["findings"]}
    assert done.returncode == 0 and done.stderr == "", done.stdout
    for what in ("machine", "SPI", "SPI buffer", "core clock", "sensor board"):
        assert found[what]["ok"] is None and "not checked here: on the Pi itself" in found[what]["words"], found[what]
    assert found["user"]["ok"] is True and found["service"]["ok"] is True and found["system"]["ok"] is True
    (card / "boot/firmware/config.txt").write_text("[all]\n")
    (card / "boot/firmware/cmdline.txt").write_text("console=tty1 root=PARTUUID=1 rootwait\n")
    off = by_what(examine(Machine(card, run=systemd(), web_port=1, here=False)))
    assert off["SPI"].ok is False and off["SPI buffer"].ok is False  # the card's own files: still told
