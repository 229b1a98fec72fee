"""The command line, where it misleads (issue "The page tells the truth in every corner").

"- `pegs serve --simulate --port 99999` says it serves on :99999 and listens on another
port: refuse a port outside 1-65535.
- A second `pegs serve` on the same data directory opens the store under a running daemon:
refuse with a clear message (a lock on the directory), never two writers.
- `pegs selfplay --players 2 --bot greedy --vs strategic` reports a greedy-vs-strategic
result when only greedy played (a 2-player game has one seat per team): refuse or explain.
- `pegs doctor` lists a fix and then says "nothing to fix" with exit status 0.
- `pegs replay` refuses a table game's record downloaded without the PIN ("leaves out
cards"): replay what is there, with hidden cards shown as hidden."
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from test_daemon import Daemon

PEGS = [sys.executable, "-m", "referee.table.cli"]


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*PEGS, *args], capture_output=True, text=True, timeout=120, check=False, cwd=cwd)


# -- serve: the port ---------------------------------------------------------------------------


@pytest.mark.parametrize("port", ["99999", "0", "-1", "65536"])
def test_serve_refuses_a_port_it_cannot_serve_on(tmp_path: Path, port: str) -> None:
    done = run("serve", "--simulate", "--data", str(tmp_path / "data"), "--port", port)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert last == f"pegs serve: --port must be a whole number from 1 to 65535, not {port}"
    assert "the board's page is at" not in done.stderr  # never a page said to be where it is not


def test_the_config_files_port_is_checked_too(tmp_path: Path) -> None:
    config = tmp_path / "pegs.toml"
    config.write_text(f'[sensors]\nbackend = "simulated"\n[leds]\nbackend = "memory"\n[data]\ndir = "{tmp_path / "d"}"\n'
                      "[web]\nport = 99999\n")  # fmt: skip
    done = run("serve", "--config", str(config))
    assert done.returncode == 2 and "web.port must be a whole number from 1 to 65535" in done.stderr


# -- serve: one daemon per data dir ----------------------------------------------------------


def test_a_second_serve_on_the_same_data_dir_is_refused(tmp_path: Path) -> None:
    data = tmp_path / "data"
    first = Daemon(data)
    first.start()
    try:
        before = first.get("/api/state")
        second = Daemon(data)
        done = run("serve", "--simulate", "--data", str(data), "--port", str(second.port))
        assert done.returncode == 2 and "Traceback" not in done.stderr
        last = done.stderr.strip().splitlines()[-1]
        assert last.startswith(f"pegs serve: the data dir {str(data)!r} is in use by another pegs serve (process "
                               f"{first.process.pid})")  # type: ignore[union-attr]  # fmt: skip
        assert "only one daemon" in last and "--data" in last
        assert "the table PIN is" not in done.stderr  # it opened nothing
        assert first.get("/api/state") == before  # and the first goes on undisturbed
        elsewhere = Daemon(tmp_path / "other")
        elsewhere.start()  # another data dir is another table
        elsewhere.stop()
    finally:
        first.stop()


def test_the_lock_goes_with_its_daemon_even_after_kill_9(tmp_path: Path) -> None:
    """systemd restarts a daemon that died: the lock must not outlive it."""
    first = Daemon(tmp_path)
    first.start()
    first.kill()
    again = Daemon(tmp_path)
    again.start()
    again.stop()
    third = Daemon(tmp_path)  # and after a clean stop
    third.start()
    third.stop()


# -- doctor: the summary agrees with the fixes listed -----------------------------------------


def _doctor_agrees(stdout: str, returncode: int) -> int:
    """The lines say FIX as often as the summary counts, each fix follows a FIX, and the exit
    status says whether there was one. The count of things to fix."""
    lines = stdout.splitlines()
    marked = [line for line in lines if line.startswith("FIX")]
    for index, line in enumerate(lines):
        if line.strip().startswith("fix:"):
            owner = next(earlier for earlier in reversed(lines[:index]) if not earlier.startswith(" " * 7))
            assert owner.startswith("FIX"), f"a fix listed under a finding that is not to fix: {owner!r}"
    assert lines[-1] == (f"{len(marked)} thing(s) to fix" if marked else "nothing to fix")
    assert returncode == (1 if marked else 0)
    return len(marked)


def test_doctor_off_a_pi_without_a_config_lists_no_fix_and_says_nothing_to_fix(tmp_path: Path) -> None:
    done = run("doctor", "--root", str(tmp_path))
    assert done.stderr == "" and "fix:" not in done.stdout
    assert "/etc/pegs/pegs.toml is missing" in done.stdout and "on the Pi, deploy/install.sh puts it there" in done.stdout
    assert _doctor_agrees(done.stdout, done.returncode) == 0


def test_doctor_on_a_pi_without_a_config_counts_its_fix(tmp_path: Path) -> None:
    (tmp_path / "proc/device-tree").mkdir(parents=True)
    (tmp_path / "proc/device-tree/model").write_text("Raspberry Pi 4 Model B Rev 1.4\0")
    done = run("doctor", "--root", str(tmp_path))
    assert "FIX  config: /etc/pegs/pegs.toml is missing" in done.stdout
    assert _doctor_agrees(done.stdout, done.returncode) >= 1


def test_every_finding_with_a_fix_is_one_to_fix(tmp_path: Path) -> None:
    from referee.table.doctor import Machine, examine

    def systemd(state: str, starts: str):  # type: ignore[no-untyped-def]
        return lambda argv: (0, state if argv[1] == "is-active" else starts) if argv[0] == "systemctl" else None

    config = (Path(__file__).parent.parent / "deploy" / "pegs.toml").read_text()
    for number, model in enumerate(("", "Raspberry Pi 4 Model B Rev 1.4\0", "Raspberry Pi 2 Model B Rev 1.1\0")):
        for with_config in (False, True):
            root = tmp_path / f"{number}-{with_config}"
            (root / "etc/pegs").mkdir(parents=True)
            if model:
                (root / "proc/device-tree").mkdir(parents=True)
                (root / "proc/device-tree/model").write_text(model)
            if with_config:
                (root / "etc/pegs/pegs.toml").write_text(config)
            for state, starts in (("inactive", "not-found"), ("failed", "enabled"), ("active", "enabled")):
                machine = Machine(root, run=systemd(state, starts), web_port=1, device_channels=lambda port: None)
                for finding in examine(machine):
                    assert not finding.fix or finding.ok is False, finding
