"""The Pi deployment files agree with each other and with the daemon's configuration."""

from __future__ import annotations

import configparser
import subprocess
from pathlib import Path

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
