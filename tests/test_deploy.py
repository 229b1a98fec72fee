"""The Pi deployment files agree with each other and with the daemon's configuration."""

from __future__ import annotations

import configparser
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from referee.settings.config import Config

REPO = Path(__file__).parent.parent
DEPLOY = REPO / "deploy"


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
    done = subprocess.run(
        ["bash", str(DEPLOY / "install.sh"), "--dry-run"], capture_output=True, text=True, timeout=30, check=False
    )
    assert done.returncode == 0, done.stderr
    steps = done.stdout
    for needed in (
        "pip install --upgrade /opt/pegs/src[pi]",
        "/etc/udev/rules.d/99-pegs-board.rules",
        "/etc/systemd/system/pegs.service",
        "systemctl enable --now pegs.service",
    ):
        assert needed in steps


# -- install.sh against fake Pi trees (--root DIR: files written there, commands only printed) ------

BOOKWORM = (
    'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nNAME="Debian GNU/Linux"\nVERSION_ID="12"\n'
    'VERSION="12 (bookworm)"\nVERSION_CODENAME=bookworm\nID=debian\n'
)
TRIXIE = (
    'PRETTY_NAME="Debian GNU/Linux 13 (trixie)"\nNAME="Debian GNU/Linux"\nVERSION_ID="13"\n'
    'VERSION="13 (trixie)"\nVERSION_CODENAME=trixie\nID=debian\n'
)
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
STOCK_CMDLINE = (
    "console=serial0,115200 console=tty1 root=PARTUUID=4e639091-02 rootfstype=ext4 fsck.repair=yes "
    "rootwait quiet splash plymouth.ignore-udevd cfg80211.ieee80211_regdom=GB"
)
# /proc/device-tree/model -> the lines install.sh must put in config.txt (README, rpi_ws281x's README "SPI")
MODELS = {
    "Raspberry Pi 3 Model B Plus Rev 1.3": ["dtparam=spi=on", "core_freq=250"],
    "Raspberry Pi Zero 2 W Rev 1.0": ["dtparam=spi=on", "core_freq=250"],
    "Raspberry Pi 4 Model B Rev 1.5": ["dtparam=spi=on", "core_freq=500", "core_freq_min=500"],
    "Raspberry Pi 5 Model B Rev 1.0": ["dtparam=spi=on"],  # its SPI runs off RP1's clock
}
OSES = {"bookworm": BOOKWORM, "trixie": TRIXIE}
BLOCK_START = "# >>> pegs: NeoPixels on SPI (GPIO10) need SPI on and a steady core clock (deploy/install.sh)"


def _fake_pi(
    root: Path,
    model: str,
    os_release: str,
    config: str = STOCK_CONFIG,
    cmdline: str = STOCK_CMDLINE,
    boot: str = "boot/firmware",
) -> Path:
    for name, text in {
        "proc/device-tree/model": model + "\0",
        "etc/os-release": os_release,
        f"{boot}/config.txt": config,
        f"{boot}/cmdline.txt": cmdline + "\n",
    }.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


def _block(*lines: str) -> str:
    """What install.sh appends to config.txt: ``lines`` under [all], between its markers."""
    return "\n".join([BLOCK_START, "[all]", *lines, "# <<< pegs"]) + "\n"


def _boot(root: Path, name: str) -> str:
    return (root / "boot/firmware" / name).read_text()


def _install(
    root: Path, *options: str, script: Path | str = DEPLOY / "install.sh", cwd: Path | None = None, status: int = 0
) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [str(script), "--root", str(root), *options], capture_output=True, text=True, timeout=30, check=False, cwd=cwd
    )
    assert done.returncode == status, done.stdout + done.stderr
    return done


# What install.sh must leave out of /opt/pegs/src: git history, a development venv, game records, build
# output, caches.
LEFT_OUT = (
    ".git/HEAD",
    ".venv/bin/python",
    "data/games/1.json",
    "build/lib/x.py",
    "test-artifacts/shot.png",
    "pegs_referee.egg-info/PKG-INFO",
    "referee/__pycache__/board.cpython-311.pyc",
    ".pytest_cache/README.md",
    ".hypothesis/examples/x",
    ".mypy_cache/x",
    ".ruff_cache/x",
)


def _checkout(where: Path) -> Path:
    """A checkout as a builder clones it, small: this repository's deploy/ and pyproject.toml, a few modules,
    and the left-out folders a working checkout has."""
    source = where / "pegs"
    shutil.copytree(DEPLOY, source / "deploy")
    for name in ("pyproject.toml", "README.md", "referee/__init__.py", "referee/board.py"):
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / name, source / name)
    for name in LEFT_OUT:
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        (source / name).write_text("not the program\n")
    return source


@pytest.fixture(scope="module")
def checkout(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _checkout(tmp_path_factory.mktemp("checkout"))


def _snapshot(root: Path) -> dict[str, tuple[bytes, int]]:
    return {
        str(path.relative_to(root)): (path.read_bytes(), path.stat().st_mode)
        for path in sorted(root.rglob("*"))
        if path.is_file()
    }


def _steps(output: str, command: str) -> list[str]:
    return [line for line in output.splitlines() if line.startswith(f"+ {command}")]


@pytest.mark.parametrize("os_name", sorted(OSES))
@pytest.mark.parametrize("model", sorted(MODELS))
def test_install_sets_each_pi_up_once(tmp_path: Path, checkout: Path, model: str, os_name: str) -> None:
    root = _fake_pi(tmp_path, model, OSES[os_name])
    install = checkout / "deploy/install.sh"
    first = _install(root, script=install).stdout
    assert _boot(root, "config.txt") == STOCK_CONFIG + _block(*MODELS[model])  # the user's lines untouched
    assert _boot(root, "cmdline.txt") == STOCK_CMDLINE + " spidev.bufsiz=65536\n"  # still one line
    assert (root / "etc/udev/rules.d/99-pegs-board.rules").read_text() == (DEPLOY / "99-pegs-board.rules").read_text()
    assert (root / "etc/udev/rules.d/99-pegs-pio.rules").read_text() == (DEPLOY / "99-pegs-pio.rules").read_text()
    assert (root / "etc/pegs/pegs.toml").read_text() == (DEPLOY / "pegs.toml").read_text()
    assert (root / "etc/systemd/system/pegs.service").read_text() == (DEPLOY / "pegs.service").read_text()
    # The commands were only printed: no venv, no /var/lib/pegs; the file steps were carried out.
    assert os.listdir(root / "opt/pegs") == ["src"] and not (root / "var").exists()
    # The boot settings need a reboot: it says so last, and does not start the daemon before it.
    assert first.splitlines()[-1].startswith("REBOOT NEEDED:") and "sudo reboot" in first.splitlines()[-1]
    assert _steps(first, "systemctl enable") == ["+ systemctl enable pegs.service"]
    assert _steps(first, "reboot") == [] and "shutdown" not in first

    before = _snapshot(root)
    second = _install(root, script=install).stdout
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
    root = _fake_pi(
        tmp_path,
        "Raspberry Pi 4 Model B Rev 1.5",
        TRIXIE,
        config,
        cmdline="console=tty1 spidev.bufsiz=4096 root=PARTUUID=1 rootwait",
    )
    _install(root)
    assert _boot(root, "config.txt") == config + _block("core_freq_min=500")  # the [pi3] line is not a Pi 4's
    assert _boot(root, "cmdline.txt") == "console=tty1 spidev.bufsiz=65536 root=PARTUUID=1 rootwait\n"
    # A larger buffer and settings all in force already: nothing to write.
    root = _fake_pi(
        tmp_path / "b",
        "Raspberry Pi 5 Model B Rev 1.0",
        TRIXIE,
        "[all]\ndtparam=spi\n",
        cmdline="console=tty1 root=PARTUUID=1 rootwait spidev.bufsiz=524288",
    )
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
    from referee.kit.doctor import examine
    from referee.kit.doctor_machine import Machine

    for number, model in enumerate(MODELS):
        root = _fake_pi(tmp_path / str(number), model, TRIXIE)
        _install(root)
        (root / "sys/module/spidev/parameters").mkdir(parents=True)
        (root / "sys/module/spidev/parameters/bufsiz").write_text("65536\n")
        (root / "dev").mkdir()
        (root / "dev/spidev0.0").touch()
        # here=True: the tree stands for the running Pi itself (a card mounted elsewhere has
        # its /dev and /sys "not checked here")
        machine = Machine(root, run=lambda argv: None, web_port=1, device_channels=lambda port: None, here=True)
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
    for line in (
        "config.txt: dtparam=spi=on",
        "config.txt: core_freq=500",
        "config.txt: core_freq_min=500",
        "cmdline.txt: spidev.bufsiz=65536",
        "+ write /boot/firmware/config.txt",
        "+ write /etc/udev/rules.d/99-pegs-pio.rules",
        "+ apt-get install",
    ):
        assert line in output


def test_older_layout_and_systems(tmp_path: Path) -> None:
    """/boot/config.txt before Bookworm's /boot/firmware; Bullseye (Python 3.9) is refused; no model: not a Pi."""
    root = _fake_pi(tmp_path / "a", "Raspberry Pi 4 Model B Rev 1.5", TRIXIE, boot="boot")
    _install(root)
    assert (root / "boot/config.txt").read_text().endswith("core_freq_min=500\n# <<< pegs\n")
    assert (root / "boot/cmdline.txt").read_text().endswith(" spidev.bufsiz=65536\n")
    root = _fake_pi(tmp_path / "b", "Raspberry Pi 4 Model B Rev 1.5", BOOKWORM.replace("bookworm", "bullseye"))
    done = subprocess.run(
        ["bash", str(DEPLOY / "install.sh"), "--root", str(root)],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
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
        pytest.fail("shellcheck is missing: scripts/ensure-test-tools.sh installs it")
    done = subprocess.run(["shellcheck", str(DEPLOY / "install.sh")], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout


# -- the program in /opt/pegs/src, `pegs` on the PATH, the board size (issue 23, items 1-3) -----------------


def _program(folder: Path) -> dict[str, tuple[bytes, int]]:
    """The files of a copy of the program, the left-out folders left out."""
    return {name: entry for name, entry in _snapshot(folder).items() if name not in LEFT_OUT}


def _changes(output: str) -> list[str]:
    """The steps of an install.sh run that changed, or would change, a file: written, copied or linked."""
    return [line for line in output.splitlines() if line.startswith(("+ write", "+ copy", "+ link"))]


def test_install_copies_the_checkout_from_any_directory_and_again_changes_nothing(tmp_path: Path) -> None:
    """Issue 23 item 1: installed from a checkout (not from /opt/pegs/src, which a fresh Pi lacks), run from
    any working directory; a second and third run from the checkout change nothing."""
    source = _checkout(tmp_path)
    root = _fake_pi(tmp_path / "pi", "Raspberry Pi 4 Model B Rev 1.5", TRIXIE)
    elsewhere = tmp_path / "home"
    elsewhere.mkdir()
    output = _install(root, script=source / "deploy/install.sh", cwd=elsewhere).stdout
    installed = root / "opt/pegs/src"
    assert _program(installed) == _program(source) and len(_program(source)) > 8
    assert not any((installed / name).exists() for name in LEFT_OUT)
    assert os.access(installed / "deploy/install.sh", os.X_OK)
    assert sorted(os.listdir(root / "opt/pegs")) == ["src"]  # no staging folder left behind
    assert f"+ copy {source} -> /opt/pegs/src" in output
    before = _snapshot(root)
    for _ in range(2):
        again = _install(root, script="../pegs/deploy/install.sh", cwd=elsewhere).stdout  # a relative path
        assert _snapshot(root) == before
        assert _changes(again) == [], again
        assert f"= /opt/pegs/src (unchanged: the same as {source})" in again
        assert "= /usr/local/bin/pegs -> /opt/pegs/venv/bin/pegs (unchanged)" in again


def test_an_update_swaps_the_new_copy_in(tmp_path: Path) -> None:
    """Issue 23 item 1: a changed checkout replaces the installed copy whole: changed files updated, files the
    checkout no longer has gone, the old copy removed only once the new one is in place."""
    source = _checkout(tmp_path)
    root = _fake_pi(tmp_path / "pi", "Raspberry Pi 5 Model B Rev 1.0", BOOKWORM)
    _install(root, script=source / "deploy/install.sh")
    (source / "referee/board.py").write_text("# a newer board.py\n")
    (source / "README.md").unlink()
    (source / "referee/new.py").write_text("NEW = 1\n")
    output = _install(root, script=source / "deploy/install.sh").stdout
    copied = (
        f"+ copy {source} -> /opt/pegs/src (all but ./.git ./.venv ./data ./build ./test-artifacts "
        "./*.egg-info */__pycache__ ./.pytest_cache ./.mypy_cache ./.ruff_cache ./.hypothesis): "
        "into /opt/pegs/src.new, then renamed into place"
    )
    assert _changes(output) == [copied]
    assert _program(root / "opt/pegs/src") == _program(source)
    assert not (root / "opt/pegs/src/README.md").exists() and sorted(os.listdir(root / "opt/pegs")) == ["src"]


def test_an_update_keeps_the_games_recorded_in_the_installed_copy(tmp_path: Path) -> None:
    """Issue 34: a `pegs serve` run from /opt/pegs/src keeps its games in ./data, which the copy
    leaves out: an update deleted them with the old copy. They go over into the new one."""
    source = _checkout(tmp_path)
    root = _fake_pi(tmp_path / "pi", "Raspberry Pi 5 Model B Rev 1.0", BOOKWORM)
    _install(root, script=source / "deploy/install.sh")
    games = root / "opt/pegs/src/data/games.sqlite3"
    games.parent.mkdir()
    games.write_bytes(b"the family's games")
    (source / "referee/new.py").write_text("NEW = 1\n")
    _install(root, script=source / "deploy/install.sh")
    assert (root / "opt/pegs/src/referee/new.py").exists() and games.read_bytes() == b"the family's games"
    assert sorted(os.listdir(root / "opt/pegs")) == ["src"]


def test_a_copy_that_fails_leaves_the_installed_one_and_no_half_copy(tmp_path: Path) -> None:
    """Issue 34: on a full disk the half-made /opt/pegs/src.new was left behind. Here the copy's
    tar writes what it can and then fails as on a full disk: the half copy is removed, and the
    installed copy stays as it was."""
    source = _checkout(tmp_path)
    root = _fake_pi(tmp_path / "pi", "Raspberry Pi 5 Model B Rev 1.0", BOOKWORM)
    _install(root, script=source / "deploy/install.sh")
    before = _program(root / "opt/pegs/src")
    (source / "referee/new.py").write_text("NEW = 1\n")
    tools = tmp_path / "full-disk"
    tools.mkdir()
    real_tar = shutil.which("tar")
    (tools / "tar").write_text(
        f'#!/bin/sh\ncase "$*" in *-xf*) {real_tar} "$@"; echo "tar: No space left on device" >&2; exit 2;; esac\n'
        f'exec {real_tar} "$@"\n'
    )
    (tools / "tar").chmod(0o755)
    env = {**os.environ, "PATH": f"{tools}:{os.environ['PATH']}"}
    done = subprocess.run(
        [str(source / "deploy/install.sh"), "--root", str(root)], capture_output=True, text=True, env=env, check=False
    )
    assert done.returncode == 1 and "could not copy the program" in done.stderr, done.stdout + done.stderr
    assert sorted(os.listdir(root / "opt/pegs")) == ["src"] and _program(root / "opt/pegs/src") == before


@pytest.mark.parametrize("where", ["elsewhere", "deploy", "src"])
def test_the_installed_copy_runs_again_and_stays_whole(tmp_path: Path, where: str) -> None:
    """Issue 23 item 1: `sudo /opt/pegs/src/deploy/install.sh` once emptied /opt/pegs/src (rm -rf, then a copy
    from the folder just removed). Run from the installed copy, from any working directory, it copies nothing,
    deletes nothing, and still does the rest (here: a new board size)."""
    source = _checkout(tmp_path)
    root = _fake_pi(tmp_path / "pi", "Raspberry Pi 4 Model B Rev 1.5", TRIXIE)
    _install(root, script=source / "deploy/install.sh")
    installed = root / "opt/pegs/src"
    before = _snapshot(root)
    cwd = {"elsewhere": tmp_path, "deploy": installed / "deploy", "src": installed}[where]
    scripts: dict[str, Path | str] = {
        "elsewhere": installed / "deploy/install.sh",
        "deploy": "./install.sh",
        "src": "deploy/install.sh",
    }
    script = scripts[where]
    output = _install(root, "--players", "6", script=script, cwd=cwd).stdout
    after = _snapshot(root)
    assert set(after) == set(before)  # nothing deleted, nothing added
    assert [name for name in before if after[name] != before[name]] == ["etc/pegs/pegs.toml"]
    assert _program(installed) == _program(source)
    assert "= /opt/pegs/src (install.sh runs from it: nothing to copy" in output
    assert _changes(output) == ["+ write /etc/pegs/pegs.toml"]
    assert Config.from_toml(root / "etc/pegs/pegs.toml").players == 6


def test_pegs_is_on_the_path(tmp_path: Path, checkout: Path) -> None:
    """Issue 23 item 2: the guide and `pegs doctor` say `pegs doctor`, `pegs selftest`: /usr/local/bin/pegs
    is a link to the venv's pegs, the program the service runs."""
    root = _fake_pi(tmp_path, "Raspberry Pi Zero 2 W Rev 1.0", BOOKWORM)
    output = _install(root, script=checkout / "deploy/install.sh").stdout
    link = root / "usr/local/bin/pegs"
    assert link.is_symlink() and os.readlink(link) == "/opt/pegs/venv/bin/pegs"
    assert "+ link /usr/local/bin/pegs -> /opt/pegs/venv/bin/pegs" in output
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.read(DEPLOY / "pegs.service")
    assert unit["Service"]["ExecStart"].split()[0] == os.readlink(link)
    assert 'pegs = "referee.cli.main:main"' in (REPO / "pyproject.toml").read_text()  # the venv has bin/pegs


@pytest.mark.parametrize("foreign", ["file", "link"])
def test_a_pegs_on_the_path_that_is_not_ours_is_left_alone(tmp_path: Path, checkout: Path, foreign: str) -> None:
    """Issue 23 item 2: an older `sudo pip install` left its own /usr/local/bin/pegs: not overwritten, and
    the builder is told why and what to do."""
    root = _fake_pi(tmp_path, "Raspberry Pi 4 Model B Rev 1.5", TRIXIE)
    link = root / "usr/local/bin/pegs"
    link.parent.mkdir(parents=True)
    if foreign == "file":
        link.write_text("#!/usr/bin/python3\nfrom referee.cli.main import main\nmain()\n")
    else:
        link.symlink_to("/home/pi/.local/bin/pegs")
    done = _install(root, script=checkout / "deploy/install.sh")
    if foreign == "file":
        assert not link.is_symlink() and link.read_text().startswith("#!/usr/bin/python3\n")
        assert "/usr/local/bin/pegs is there already (a file)" in done.stderr
    else:
        assert os.readlink(link) == "/home/pi/.local/bin/pegs"
        assert "(a link to /home/pi/.local/bin/pegs)" in done.stderr
    assert "sudo rm /usr/local/bin/pegs" in done.stderr and "/opt/pegs/venv/bin/pegs" in done.stderr
    assert "+ link" not in done.stdout


def test_players_on_a_fresh_pi(tmp_path: Path, checkout: Path) -> None:
    """Issue 23 item 3: the board size is set at install: players = 6 and its max_amps (issue 35) and
    nothing else differs from deploy/pegs.toml; install.sh ends by saying the size in force and how to
    change it."""
    root = _fake_pi(tmp_path, "Raspberry Pi 4 Model B Rev 1.5", TRIXIE)
    output = _install(root, "--players", "6", script=checkout / "deploy/install.sh").stdout
    config = root / "etc/pegs/pegs.toml"
    assert Config.from_toml(config).players == 6
    template = (DEPLOY / "pegs.toml").read_text().splitlines()
    written = config.read_text().splitlines()
    assert len(written) == len(template)
    changed = [(old, new) for old, new in zip(template, written, strict=True) if old != new]
    assert changed == [("players = 4", "players = 6"), ("max_amps = 5.0", "max_amps = 7.0")]
    assert "board: players = 6 in /etc/pegs/pegs.toml: a board of 6 sides" in output
    assert "to change it: sudo /opt/pegs/src/deploy/install.sh --players N" in output
    # Without --players: the template's 4, said the same way.
    root = _fake_pi(tmp_path / "b", "Raspberry Pi 4 Model B Rev 1.5", TRIXIE)
    output = _install(root, script=checkout / "deploy/install.sh").stdout
    assert Config.from_toml(root / "etc/pegs/pegs.toml").players == 4
    assert "board: players = 4 in /etc/pegs/pegs.toml: a board of 4 sides" in output


def test_players_on_a_rerun_changes_that_line_only(tmp_path: Path, checkout: Path) -> None:
    """Issue 23 item 3: the builder's config, with their own edits, keeps every line but `players`
    (and the size's max_amps, issue 35)."""
    install = checkout / "deploy/install.sh"
    root = _fake_pi(tmp_path, "Raspberry Pi 4 Model B Rev 1.5", TRIXIE)
    _install(root, script=install)
    config = root / "etc/pegs/pegs.toml"
    mine = config.read_text().replace("brightness = 0.4", "brightness = 0.25   # my room is dark")
    config.write_text(mine + "# my own note\n")
    output = _install(root, "--players", "8", script=install).stdout
    assert (
        config.read_text()
        == mine.replace("\nplayers = 4\n", "\nplayers = 8\n").replace("\nmax_amps = 5.0\n", "\nmax_amps = 6.5\n")
        + "# my own note\n"
    )
    assert Config.from_toml(config).players == 8 and Config.from_toml(config).brightness == 0.25
    assert "#   /etc/pegs/pegs.toml: [board] players = 4 -> players = 8; every other line kept" in output
    assert "board: players = 8 in /etc/pegs/pegs.toml: a board of 8 sides" in output
    changed = config.read_text()
    output = _install(root, script=install).stdout  # without --players: kept as it is
    assert config.read_text() == changed and "= /etc/pegs/pegs.toml (kept: yours)" in output
    assert "board: players = 8 in /etc/pegs/pegs.toml" in output
    output = _install(root, "--players", "8", script=install).stdout  # the same size again: nothing to write
    assert config.read_text() == changed and _changes(output) == []


@pytest.mark.parametrize(
    ("mine", "expected"),
    [
        ("[board]\nplayers=4   # two teams of two\n", "[board]\nplayers=10   # two teams of two\n"),
        (
            "[board] # the board\n# no size yet\n\n[web]\nport = 8080\n",
            "[board] # the board\nplayers = 10\n# no size yet\n\n[web]\nport = 8080\n",
        ),
        ("[web]\nport = 8080\n", "[web]\nport = 8080\n\n[board]\nplayers = 10\n"),
        ("[web]\nplayers = 4\n[board]\nplayers = 6\n", "[web]\nplayers = 4\n[board]\nplayers = 10\n"),
        # the board as dotted keys or an inline table (issue 34: a second [board] was appended)
        ("board.players = 4\n[web]\nport = 8080\n", "board.players = 10\n[web]\nport = 8080\n"),
        ('board.layout = "x.toml"\n', 'board.players = 10\nboard.layout = "x.toml"\n'),
        ("board = { players = 4 }\n", "board = { players = 10 }\n"),
        ('board = { layout = "x.toml" }\n', 'board = { players = 10, layout = "x.toml" }\n'),
        ("board = {}\n", "board = { players = 10 }\n"),
    ],
)
def test_players_is_set_in_any_config(tmp_path: Path, checkout: Path, mine: str, expected: str) -> None:
    """Issue 23 item 3: a config written by hand: its players line, or one added under [board], or a [board]."""
    root = _fake_pi(tmp_path, "Raspberry Pi 4 Model B Rev 1.5", TRIXIE)
    (root / "etc/pegs").mkdir(parents=True)
    (root / "etc/pegs/pegs.toml").write_text(mine)
    _install(root, "--players", "10", script=checkout / "deploy/install.sh")
    assert (root / "etc/pegs/pegs.toml").read_text() == expected


@pytest.mark.parametrize(("players", "amps"), [("6", 7.0), ("8", 6.5), ("10", 9.5), ("2", 5.0)])
def test_players_writes_the_sizes_max_amps(tmp_path: Path, checkout: Path, players: str, amps: float) -> None:
    """Issue 35 item 4: --players N writes leds.max_amps for the size (referee.kit.power.max_amps, about
    80 % of the guide's supply less the sensors), fresh and on a rerun from another size; a value of
    the builder's own is kept and said."""
    install = checkout / "deploy/install.sh"
    root = _fake_pi(tmp_path, "Raspberry Pi 4 Model B Rev 1.5", TRIXIE)
    config = root / "etc/pegs/pegs.toml"
    _install(root, "--players", players, script=install)
    assert Config.from_toml(config).max_amps == amps
    other = "10" if players in ("2", "4") else "4"  # a size with another max_amps
    _install(root, "--players", other, script=install)
    output = _install(root, "--players", players, script=install).stdout
    assert Config.from_toml(config).max_amps == amps and f"-> max_amps = {amps}, the guide's value" in output
    config.write_text(config.read_text().replace(f"max_amps = {amps}", "max_amps = 3.0"))
    done = _install(root, "--players", other, script=install)
    assert Config.from_toml(config).max_amps == 3.0 and "max_amps = 3.0 is kept (yours)" in done.stderr


@pytest.mark.parametrize("players", ["5", "0", "12", "four", "6.0", ""])
def test_a_board_size_that_is_not_one_is_refused(tmp_path: Path, checkout: Path, players: str) -> None:
    """Issue 23 item 3: --players 5 stops install.sh before it changes anything, fresh or installed."""
    install = checkout / "deploy/install.sh"
    fresh = _fake_pi(tmp_path / "fresh", "Raspberry Pi 4 Model B Rev 1.5", TRIXIE)
    installed = _fake_pi(tmp_path / "installed", "Raspberry Pi 4 Model B Rev 1.5", TRIXIE)
    _install(installed, script=install)
    for root in (fresh, installed):
        before = _snapshot(root)
        done = _install(root, "--players", players, script=install, status=2)
        assert _snapshot(root) == before and done.stdout == ""
        assert f"--players {players}: the players at the board are 2, 4, 6, 8 or 10" in done.stderr
        assert "nothing was changed" in done.stderr
        assert Config.from_toml(installed / "etc/pegs/pegs.toml").players == 4


def test_dry_run_with_players_shows_the_size_and_writes_nothing(tmp_path: Path, checkout: Path) -> None:
    root = _fake_pi(tmp_path, "Raspberry Pi 4 Model B Rev 1.5", TRIXIE)
    before = _snapshot(root)
    output = _install(root, "--players", "6", "--dry-run", script=checkout / "deploy/install.sh").stdout
    assert _snapshot(root) == before
    assert "+ write /etc/pegs/pegs.toml" in output and "+ link /usr/local/bin/pegs" in output
    assert f"+ copy {checkout} -> /opt/pegs/src" in output
    assert "board: players = 6 in /etc/pegs/pegs.toml: a board of 6 sides" in output


def test_the_config_names_the_board_size_and_the_colour_order() -> None:
    """Issue 23 item 3: the players line says how to set it; [leds] has the colour order, commented out."""
    lines = (DEPLOY / "pegs.toml").read_text().splitlines()
    board = lines.index("players = 4")
    assert "install.sh --players N" in "\n".join(lines[board - 3 : board])
    leds = lines.index("[leds]")
    (order,) = [line for line in lines[leds:] if line.startswith("# pixel_order = ")]
    assert lines.index(order) < lines.index("[controls]")
    assert all(f'"{name}"' in "\n".join(lines[leds:]) for name in ("GRB", "RGB", "RBG", "GBR", "BRG", "BGR"))


@pytest.mark.skipif(
    not (REPO / ".git").exists() or shutil.which("git") is None or shutil.which("make") is None,
    reason="make dist archives the last git commit",
)
def test_a_release_archive_installs_like_a_checkout(tmp_path: Path) -> None:
    """Issue 23 item 1: a Pi without git gets `make dist`'s archive (the last commit); unpacked anywhere, its
    install.sh installs the program like a checkout's."""
    done = subprocess.run(
        ["make", "-s", "-C", str(REPO), "dist", f"DIST_DIR={tmp_path}"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    (archive,) = tmp_path.glob("pegs-*.tar.gz")
    subprocess.run(["tar", "-C", str(tmp_path), "-xzf", str(archive)], check=True, timeout=60)
    root = _fake_pi(tmp_path / "pi", "Raspberry Pi 4 Model B Rev 1.5", TRIXIE)
    output = _install(root, "--players", "4", script=tmp_path / "pegs/deploy/install.sh", cwd=tmp_path).stdout
    assert f"+ copy {tmp_path / 'pegs'} -> /opt/pegs/src" in output
    for name in ("pyproject.toml", "referee/cli/main.py", "deploy/pegs.service"):
        assert (root / "opt/pegs/src" / name).is_file()
    assert Config.from_toml(root / "etc/pegs/pegs.toml").players == 4


def test_a_config_install_cannot_edit_is_left_alone_and_said(tmp_path: Path, checkout: Path) -> None:
    """A config that does not read as TOML: --players refuses (exit 1) and changes nothing,
    rather than writing a config the daemon cannot start with and saying all went well."""
    root = _fake_pi(tmp_path, "Raspberry Pi 4 Model B Rev 1.5", TRIXIE)
    (root / "etc/pegs").mkdir(parents=True)
    broken = "[board\nplayers = 4\n"
    (root / "etc/pegs/pegs.toml").write_text(broken)
    done = _install(root, "--players", "6", script=checkout / "deploy/install.sh", status=1)
    assert "set players = 6 under [board] by hand" in done.stderr
    assert (root / "etc/pegs/pegs.toml").read_text() == broken
