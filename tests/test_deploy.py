"""The Pi deployment files agree with each other and with the daemon's configuration."""

from __future__ import annotations

import configparser
import shutil
import subprocess
from pathlib import Path

import pytest

from referee.table.config import Config

DEPLOY = Path(__file__).parent.parent / "deploy"


def test_example_config_is_valid_and_uses_the_udev_name() -> None:
    config = Config.from_toml(DEPLOY / "pegs.toml")
    assert config.sensors == "serial" and config.port == "/dev/pegs-board"
    assert 'SYMLINK+="pegs-board"' in (DEPLOY / "99-pegs-board.rules").read_text()


def test_systemd_unit_restarts_and_runs_unprivileged() -> None:
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.read(DEPLOY / "pegs.service")
    service = unit["Service"]
    assert service["User"] == "pegs" and "gpio" in service["SupplementaryGroups"]
    assert service["Restart"] == "on-failure"
    assert service["ExecStart"] == "/opt/pegs/venv/bin/pegs serve --config /etc/pegs/pegs.toml"


def test_install_script_dry_run_lists_every_step() -> None:
    done = subprocess.run(["bash", str(DEPLOY / "install.sh"), "--dry-run"], capture_output=True, text=True,
                          timeout=30, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    steps = done.stdout
    for needed in ("pip install --upgrade /opt/pegs/src[pi]", "/etc/udev/rules.d/99-pegs-board.rules",
                   "/etc/systemd/system/pegs.service", "systemctl enable --now pegs.service"):  # fmt: skip
        assert needed in steps


# -- install.sh against fake Pi trees (--root DIR: files written there, commands only printed) ------

BOOKWORM = ('PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nNAME="Debian GNU/Linux"\nVERSION_ID="12"\n'
            'VERSION="12 (bookworm)"\nVERSION_CODENAME=bookworm\nID=debian\n')  # fmt: skip
TRIXIE = ('PRETTY_NAME="Debian GNU/Linux 13 (trixie)"\nNAME="Debian GNU/Linux"\nVERSION_ID="13"\n'
          'VERSION="13 (trixie)"\nVERSION_CODENAME=trixie\nID=debian\n')  # fmt: skip
# Raspberry Pi OS's stock config.txt (abridged): SPI commented out, model sections, [all] last.
STOCK_CONFIG = """# For more options and information see
# http://rptl.io/configtxt

# Uncomment some or all of these to enable the optional hardware interfaces
#dtparam=i2c_arm=on
#dtparam=i2s=on
#dtparam=spi=on

# Enable audio (loads snd_bcm2835)
dtparam=audio=on

auto_initramfs=1
dtoverlay=vc4-kms-v3d
max_framebuffers=2
arm_64bit=1
arm_boost=1

[cm4]
otg_mode=1

[cm5]
dtoverlay=dwc2,dr_mode=host

[all]
"""
STOCK_CMDLINE = ("console=serial0,115200 console=tty1 root=PARTUUID=4e639091-02 rootfstype=ext4 fsck.repair=yes "
                 "rootwait quiet splash plymouth.ignore-udevd cfg80211.ieee80211_regdom=GB")  # fmt: skip
# /proc/device-tree/model -> the lines install.sh must put in config.txt (README, rpi_ws281x's README "SPI")
MODELS = {
    "Raspberry Pi 3 Model B Plus Rev 1.3": ["dtparam=spi=on", "core_freq=250"],
    "Raspberry Pi Zero 2 W Rev 1.0": ["dtparam=spi=on", "core_freq=250"],
    "Raspberry Pi 4 Model B Rev 1.5": ["dtparam=spi=on", "core_freq=500", "core_freq_min=500"],
    "Raspberry Pi 5 Model B Rev 1.0": ["dtparam=spi=on"],  # its SPI runs off RP1's clock
}
OSES = {"bookworm": BOOKWORM, "trixie": TRIXIE}
BLOCK_START = "# >>> pegs: NeoPixels on SPI (GPIO10) need SPI on and a steady core clock (deploy/install.sh)"


def _fake_pi(root: Path, model: str, os_release: str, config: str = STOCK_CONFIG, cmdline: str = STOCK_CMDLINE,
             boot: str = "boot/firmware") -> Path:  # fmt: skip
    for name, text in {"proc/device-tree/model": model + "\0", "etc/os-release": os_release,
                       f"{boot}/config.txt": config, f"{boot}/cmdline.txt": cmdline + "\n"}.items():  # fmt: skip
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


def _block(*lines: str) -> str:
    """What install.sh appends to config.txt: ``lines`` under [all], between its markers."""
    return "\n".join([BLOCK_START, "[all]", *lines, "# <<< pegs"]) + "\n"


def _boot(root: Path, name: str) -> str:
    return (root / "boot/firmware" / name).read_text()


def _install(root: Path, *options: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(["bash", str(DEPLOY / "install.sh"), "--root", str(root), *options],
                          capture_output=True, text=True, timeout=30, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done


def _snapshot(root: Path) -> dict[str, tuple[bytes, int]]:
    return {str(path.relative_to(root)): (path.read_bytes(), path.stat().st_mode)
            for path in sorted(root.rglob("*")) if path.is_file()}  # fmt: skip


def _steps(output: str, command: str) -> list[str]:
    return [line for line in output.splitlines() if line.startswith(f"+ {command}")]


@pytest.mark.parametrize("os_name", sorted(OSES))
@pytest.mark.parametrize("model", sorted(MODELS))
def test_install_sets_each_pi_up_once(tmp_path: Path, model: str, os_name: str) -> None:
    root = _fake_pi(tmp_path, model, OSES[os_name])
    first = _install(root).stdout
    assert _boot(root, "config.txt") == STOCK_CONFIG + _block(*MODELS[model])  # the user's lines untouched
    assert _boot(root, "cmdline.txt") == STOCK_CMDLINE + " spidev.bufsiz=65536\n"  # still one line
    assert (root / "etc/udev/rules.d/99-pegs-board.rules").read_text() == (DEPLOY / "99-pegs-board.rules").read_text()
    assert (root / "etc/udev/rules.d/99-pegs-pio.rules").read_text() == (DEPLOY / "99-pegs-pio.rules").read_text()
    assert (root / "etc/pegs/pegs.toml").read_text() == (DEPLOY / "pegs.toml").read_text()
    assert (root / "etc/systemd/system/pegs.service").read_text() == (DEPLOY / "pegs.service").read_text()
    assert not (root / "opt").exists() and not (root / "var").exists()  # the commands were only printed
    # The boot settings need a reboot: it says so last, and does not start the daemon before it.
    assert first.splitlines()[-1].startswith("REBOOT NEEDED:") and "sudo reboot" in first.splitlines()[-1]
    assert _steps(first, "systemctl enable") == ["+ systemctl enable pegs.service"]
    assert _steps(first, "reboot") == [] and "shutdown" not in first

    before = _snapshot(root)
    second = _install(root).stdout
    assert _snapshot(root) == before  # a second run changes nothing
    assert "+ write" not in second and "= /boot/firmware/config.txt (unchanged)" in second
    assert second.splitlines()[-1].startswith("REBOOT NEEDED:")  # written, but not in force until the reboot


@pytest.mark.parametrize("os_name", sorted(OSES))
def test_install_chooses_packages_for_the_system(tmp_path: Path, os_name: str) -> None:
    """Trixie's Python 3.13 has no lgpio wheel on PyPI: the Raspberry Pi archive's python3-lgpio, seen
    through --system-site-packages, and SWIG with PYPI=1 (lgpio's static build) should pip build it."""
    output = _install(_fake_pi(tmp_path, "Raspberry Pi 4 Model B Rev 1.5", OSES[os_name])).stdout
    (apt,) = _steps(output, "apt-get install")
    packages = apt.split("--no-install-recommends ")[1].split()
    (venv,) = _steps(output, "python3 -m venv")
    (pip,) = _steps(output, "env PYPI=1 /opt/pegs/venv/bin/pip") or _steps(output, "/opt/pegs/venv/bin/pip")
    if os_name == "trixie":
        assert packages == ["python3-venv", "python3-dev", "gcc", "swig", "python3-lgpio"]
        assert venv == "+ python3 -m venv --system-site-packages /opt/pegs/venv"
        assert pip == "+ env PYPI=1 /opt/pegs/venv/bin/pip install --upgrade /opt/pegs/src[pi]"
    else:
        assert packages == ["python3-venv", "python3-dev", "gcc"]  # Python 3.11: lgpio has wheels
        assert venv == "+ python3 -m venv /opt/pegs/venv"
        assert pip == "+ /opt/pegs/venv/bin/pip install --upgrade /opt/pegs/src[pi]"
    assert "+ usermod -a -G gpio,spi,dialout pegs" in output


def test_install_leaves_settings_in_force_alone_and_fixes_the_rest(tmp_path: Path) -> None:
    config = "dtparam=i2c_arm=on,spi=on\n[pi4]\ncore_freq=500\n[pi3]\ncore_freq_min=500\n[all]\n"
    root = _fake_pi(tmp_path, "Raspberry Pi 4 Model B Rev 1.5", TRIXIE, config,
                    cmdline="console=tty1 spidev.bufsiz=4096 root=PARTUUID=1 rootwait")  # fmt: skip
    _install(root)
    assert _boot(root, "config.txt") == config + _block("core_freq_min=500")  # the [pi3] line is not a Pi 4's
    assert _boot(root, "cmdline.txt") == "console=tty1 spidev.bufsiz=65536 root=PARTUUID=1 rootwait\n"
    # A larger buffer and settings all in force already: nothing to write.
    root = _fake_pi(tmp_path / "b", "Raspberry Pi 5 Model B Rev 1.0", TRIXIE, "[all]\ndtparam=spi\n",
                    cmdline="console=tty1 root=PARTUUID=1 rootwait spidev.bufsiz=524288")  # fmt: skip
    before = _snapshot(root)
    output = _install(root).stdout
    assert {name: _snapshot(root)[name] for name in before} == before
    assert "= /boot/firmware/config.txt (unchanged)" in output and "= /boot/firmware/cmdline.txt (unchanged)" in output


def test_settings_a_filter_may_switch_off_are_written_under_all(tmp_path: Path) -> None:
    config = "[gpio4=1]\ndtparam=spi=on\n[all]\ncore_freq=250\n[none]\ncore_freq=400\n"
    root = _fake_pi(tmp_path, "Raspberry Pi Zero 2 W Rev 1.0", BOOKWORM, config)
    _install(root)
    assert _boot(root, "config.txt") == config + _block("dtparam=spi=on")


def test_a_new_board_gets_its_own_clock_settings(tmp_path: Path) -> None:
    """The SD card moved from a Pi 4 to a Pi 5: the Pi 4's core clock lines go, the rest stays."""
    root = _fake_pi(tmp_path, "Raspberry Pi 4 Model B Rev 1.5", TRIXIE)
    _install(root)
    (root / "proc/device-tree/model").write_text("Raspberry Pi 5 Model B Rev 1.0\0")
    _install(root)
    assert _boot(root, "config.txt") == STOCK_CONFIG + _block("dtparam=spi=on")


def test_what_install_writes_is_what_pegs_doctor_checks(tmp_path: Path) -> None:
    """After install.sh and a reboot (simulated: spidev's bufsiz and /dev/spidev0.0 as the kernel shows them),
    doctor finds SPI, the SPI buffer and the core clock in order on every model."""
    from referee.table.doctor import Machine, examine

    for number, model in enumerate(MODELS):
        root = _fake_pi(tmp_path / str(number), model, TRIXIE)
        _install(root)
        (root / "sys/module/spidev/parameters").mkdir(parents=True)
        (root / "sys/module/spidev/parameters/bufsiz").write_text("65536\n")
        (root / "dev").mkdir()
        (root / "dev/spidev0.0").touch()
        machine = Machine(root, run=lambda argv: None, web_port=1, device_channels=lambda port: None)
        found = {finding.what: finding for finding in examine(machine)}
        assert found["SPI"].ok and found["SPI buffer"].ok, (model, found)
        assert ("core clock" not in found) if "Pi 5" in model else found["core clock"].ok, (model, found)
        output = _install(root).stdout  # now in force: no reboot, the daemon (re)started
        assert "REBOOT" not in output and "+ systemctl enable --now pegs.service" in output


def test_install_keeps_the_users_config(tmp_path: Path) -> None:
    root = _fake_pi(tmp_path, "Raspberry Pi 4 Model B Rev 1.5", TRIXIE)
    (root / "etc/pegs").mkdir(parents=True)
    (root / "etc/pegs/pegs.toml").write_text("[board]\nplayers = 6\n")
    assert "= /etc/pegs/pegs.toml (kept: yours)" in _install(root).stdout
    assert (root / "etc/pegs/pegs.toml").read_text() == "[board]\nplayers = 6\n"


def test_dry_run_with_root_prints_the_lines_and_writes_nothing(tmp_path: Path) -> None:
    root = _fake_pi(tmp_path, "Raspberry Pi 4 Model B Rev 1.5", BOOKWORM)
    before = _snapshot(root)
    output = _install(root, "--dry-run").stdout
    assert _snapshot(root) == before
    for line in ("config.txt: dtparam=spi=on", "config.txt: core_freq=500", "config.txt: core_freq_min=500",
                 "cmdline.txt: spidev.bufsiz=65536", "+ write /boot/firmware/config.txt",
                 "+ write /etc/udev/rules.d/99-pegs-pio.rules", "+ apt-get install"):  # fmt: skip
        assert line in output


def test_older_layout_and_systems(tmp_path: Path) -> None:
    """/boot/config.txt before Bookworm's /boot/firmware; Bullseye (Python 3.9) is refused; no model: not a Pi."""
    root = _fake_pi(tmp_path / "a", "Raspberry Pi 4 Model B Rev 1.5", TRIXIE, boot="boot")
    _install(root)
    assert (root / "boot/config.txt").read_text().endswith("core_freq_min=500\n# <<< pegs\n")
    assert (root / "boot/cmdline.txt").read_text().endswith(" spidev.bufsiz=65536\n")
    root = _fake_pi(tmp_path / "b", "Raspberry Pi 4 Model B Rev 1.5", BOOKWORM.replace("bookworm", "bullseye"))
    done = subprocess.run(["bash", str(DEPLOY / "install.sh"), "--root", str(root)], capture_output=True, text=True,
                          timeout=30, check=False)  # fmt: skip
    assert done.returncode == 2 and "Bookworm or later" in done.stderr
    root = _fake_pi(tmp_path / "c", "Raspberry Pi 4 Model B Rev 1.5", TRIXIE)
    (root / "proc/device-tree/model").unlink()
    output = _install(root).stdout
    assert "not a Raspberry Pi" in output and "REBOOT" not in output
    assert (root / "boot/firmware/config.txt").read_text() == STOCK_CONFIG


def test_pio_rule_is_piolibs() -> None:
    """raspberrypi/utils piolib/README.md and Adafruit_Blinka_Raspberry_Pi5_Neopixel's README ask for this rule."""
    rules = [line for line in (DEPLOY / "99-pegs-pio.rules").read_text().splitlines() if not line.startswith("#")]
    assert rules == ['SUBSYSTEM=="*-pio", GROUP="gpio", MODE="0660"']
    service = configparser.ConfigParser(strict=False, interpolation=None)
    service.read(DEPLOY / "pegs.service")
    assert service["Service"]["SupplementaryGroups"].split() == ["gpio", "spi", "dialout"]


def test_install_script_is_clean_bash() -> None:
    assert subprocess.run(["bash", "-n", str(DEPLOY / "install.sh")], check=False).returncode == 0
    if shutil.which("shellcheck") is None:
        pytest.skip("shellcheck is not installed (apt-get install shellcheck)")
    done = subprocess.run(["shellcheck", str(DEPLOY / "install.sh")], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout
