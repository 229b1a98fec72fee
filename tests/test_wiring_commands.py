"""``pegs watch`` against the fake sensor board on a real pseudo-terminal."""

from __future__ import annotations

import io
import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import ClassVar

import pytest

from firmware_bridge.fake_device import FakeDevice
from hardware.layout import default_layout
from hardware.leds import MemoryStrip
from referee.cli import main as cli
from referee.cli import wiring as wiring_commands

PEGS = [sys.executable, "-m", "referee.cli"]


class Tool:
    """A ``pegs`` command running as a builder would run it: its stdout read line by line on a
    thread (a pipe's lines may arrive together), its stdin written when a test says so."""

    def __init__(self, *args: str, stdin: int | None = subprocess.PIPE) -> None:
        self.process = subprocess.Popen(
            [*PEGS, *args], stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.heard: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def line(self, starts: str, timeout: float = 10.0) -> str:
        """The next line that starts with ``starts`` (others are kept in ``heard``)."""
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                break
            if line is None:
                break
            self.heard.append(line)
            if line.startswith(starts):
                return line
        raise AssertionError(f"no line starting {starts!r} within {timeout} s; heard {self.heard[-5:]}")

    def enter(self, text: str = "") -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(text + "\n")
        self.process.stdin.flush()

    def finish(self, timeout: float = 10.0) -> tuple[int, list[str], str]:
        """The exit status, every line not yet read, and stderr."""
        assert self.process.stderr is not None
        if self.process.stdin is not None:
            self.process.stdin.close()
        status = self.process.wait(timeout)
        rest: list[str] = []
        while (line := self.lines.get(timeout=timeout)) is not None:
            rest.append(line)
        return status, rest, self.process.stderr.read()


def test_watch_shows_live_changes_with_hole_names() -> None:
    layout = default_layout(4)
    idle = [True] * len(layout.channels)  # hall sensors idle high: empty board
    with FakeDevice(len(idle), heartbeat=0.1, levels=idle) as device:
        watcher = subprocess.Popen(
            [*PEGS, "watch", "--port", device.path, "--sides", "4", "--seconds", "3"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert watcher.stdout is not None
        assert watcher.stdout.readline().startswith("connected to")
        assert watcher.stdout.readline().strip() == "occupied now: nothing"
        time.sleep(0.2)
        device.set(layout.channel("T0:8"), False)  # a magnet pulls the line low: a peg
        out, err = watcher.communicate(timeout=10)
    assert watcher.returncode == 0, err
    assert f"channel {layout.channel('T0:8'):4d}  level 0    T0:8 peg" in out
    assert "frames " in out and "errors 0" in out


def test_watch_says_clearly_when_no_board_answers(tmp_path: object) -> None:
    done = subprocess.run(
        [*PEGS, "watch", "--port", "/dev/nonexistent-pegs", "--seconds", "1"],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip() == "pegs: no sensor board answered on /dev/nonexistent-pegs within 5 s"
    bad = subprocess.run([*PEGS, "calibrate", "--vid-pid", "nope"], capture_output=True, text=True, check=False)
    assert bad.returncode == 2 and "--vid-pid must look like 239a:80f4" in bad.stderr


def test_watch_warns_of_a_firmware_with_too_few_channels_and_watches() -> None:
    """Issue 12: the old firmware read 96 channels, the board has 112 holes; the holes past
    channel 95 would read empty for ever. ``pegs watch`` is the diagnosis tool: it says so and
    how to fix it, first, and still shows what the board reads."""
    with FakeDevice(96, heartbeat=0.1, levels=[True] * 96) as device:
        done = subprocess.run(
            [*PEGS, "watch", "--port", device.path, "--sides", "4", "--seconds", "1"],
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
    assert done.returncode == 0, done.stderr
    line = done.stderr.strip()
    assert "\n" not in line and line.startswith("pegs: warning: the sensor board reads 96 channels")
    assert "uses 112" in line and "pegs firmware --sides 4" in line
    assert done.stdout.startswith("connected to") and "96 channels" in done.stdout


def test_the_tools_agree_with_pegs_firmware_markers() -> None:
    """Issue 23, item 7: --markers as for ``pegs firmware --markers``: a 4-sided board with its
    colour-marker holes reads 116 holes on 15 chips (120 channels)."""
    layout = default_layout(4, colour_markers=True)
    with FakeDevice(120, heartbeat=0.1, levels=[True] * 120) as device:
        plain = subprocess.run(
            [*PEGS, "watch", "--port", device.path, "--seconds", "0.5"],
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
        watcher = Tool("watch", "--port", device.path, "--markers", "--seconds", "2", stdin=subprocess.DEVNULL)
        watcher.line("occupied now")
        device.set(layout.channel("C2"), False)
        status, out, err = watcher.finish()
    assert "reads 120 channels (15 chips)" in plain.stderr  # without --markers: the warning, and the likely fix
    assert "if the board has a colour-marker hole per side, run this again with --markers" in plain.stderr
    assert status == 0 and err == ""  # with it: none
    assert any(line.endswith(f"channel {layout.channel('C2'):4d}  level 0      C2 peg") for line in out), out


def test_selftest_refuses_a_mismatch_and_names_the_layout_file(tmp_path: Path) -> None:
    """selftest refuses a board that is not the layout's (it would call good holes dead); the
    fix names the --layout file, the one ``pegs firmware --layout`` must be given."""
    layout_file = tmp_path / "my-board.toml"
    layout_file.write_text(default_layout(4).to_toml(), encoding="utf-8")
    with FakeDevice(96, heartbeat=0.1, levels=[True] * 96) as device:
        done = subprocess.run(
            [*PEGS, "selftest", "--port", device.path, "--layout", str(layout_file)],
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
    assert done.returncode == 2 and done.stdout == ""
    assert f"pegs firmware --layout {layout_file} --out" in done.stderr and done.stderr.count("\n") == 1


def test_wiring_tools_say_when_the_daemon_holds_the_port() -> None:
    """The daemon opens the sensor board exclusively; watch, selftest and calibrate say to
    stop the service instead of waiting 5 s for a board that never answers."""
    import serial

    with FakeDevice(112, heartbeat=0.1, levels=[True] * 112) as device:
        daemon = serial.Serial(device.path, exclusive=True)  # as the link opens it
        try:
            for command in (["watch", "--seconds", "1"], ["selftest"], ["calibrate", "--out", "/dev/null"]):
                started = time.monotonic()
                done = subprocess.run(
                    [*PEGS, *command, "--port", device.path], capture_output=True, text=True, timeout=30, check=False
                )
                assert done.returncode == 2, done.stderr
                assert done.stderr.strip() == (
                    f"pegs: {device.path} is in use by another program, most likely the referee service: stop it "
                    "with `sudo systemctl stop pegs`, run this again, then `sudo systemctl start pegs`"
                )
                assert time.monotonic() - started < 4  # said at once, not after the 5 s wait
        finally:
            daemon.close()


# -- the colour question (issue 23, item 7) ----------------------------------------------------


class RgbPixels(MemoryStrip):
    """Through-hole NeoPixels that are RGB, driven through the SPI strip's ``pixel_order``."""

    made: ClassVar[list[str]] = []

    def __init__(self, n: int, *, pixel_order: str = "GRB") -> None:
        super().__init__(n)
        self.made.append(pixel_order)


def run_selftest(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], answers: str, *options: str
) -> tuple[int, str, str]:
    """``pegs selftest --leds neopixel-spi`` in this process, the LEDs in memory, ``answers`` on stdin."""
    RgbPixels.made.clear()
    monkeypatch.setattr(wiring_commands, "NeoPixelSpiStrip", RgbPixels)
    monkeypatch.setattr(sys, "stdin", io.StringIO(answers))
    with FakeDevice(112, heartbeat=0.1, levels=[True] * 112) as device:
        status = cli.main(
            [
                "selftest",
                "--port",
                device.path,
                "--leds",
                "neopixel-spi",
                "--holes",
                "T0:0",
                "--timeout",
                "0.3",
                "--led-delay",
                "0",  # the walk's 112 LEDs at once, not 0.1 s each
                *options,
            ]
        )
    out, err = capsys.readouterr()
    return status, out, err


def test_selftest_asks_the_colour_order_first(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Driven GRB, an RGB pixel shows red as green and green as red: the builder says so and
    reads the line for the config; --pixel-order RGB then checks it."""
    status, out, err = run_selftest(monkeypatch, capsys, "g\nred\n")
    lines = out.splitlines()
    assert lines[0] == "The LED beside T0:0 is lit in one colour: which do you see? red, green, blue or nothing"
    assert lines[2] == (
        'colour order: these LEDs take RGB, not GRB (red looked green, green looked red): put pixel_order = "RGB" '
        "under [leds] in /etc/pegs/pegs.toml, and check with pegs selftest --pixel-order RGB"
    )
    assert lines[3].startswith("LED 0: T0:0 should be lit")  # then the walk, as before
    assert status == 1 and err == "" and RgbPixels.made == ["GRB"]
    status, out, err = run_selftest(monkeypatch, capsys, "r\ng\n", "--pixel-order", "RGB")
    assert "colour order: RGB is right (red looked red, green looked green)" in out.splitlines()
    assert RgbPixels.made == ["RGB"] and "pixel_order =" not in out


def test_a_wrong_answer_is_asked_again_and_the_end_of_input_stops_cleanly(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run_selftest(monkeypatch, capsys, "purple\n")
    assert "answer r, g, b or nothing (the colour that LED shows), not 'purple'" in out
    assert status == 2 and "Traceback" not in err
    assert (
        err == "pegs: selftest stopped: no answer to the colour question (the input ended); answer r, g, b or nothing\n"
    )
    status, out, err = run_selftest(monkeypatch, capsys, "x\ny\nz\n")
    assert status == 2 and err == "pegs: selftest stopped: three answers that were not r, g, b or nothing\n"


# -- magnets (issue 23, item 7: "a magnet polarity check") --------------------------------------


def test_magnets_pegs_over_the_serial_link() -> None:
    """Each peg in T0:0 in turn, through the real link on a pty: a good peg, one glued
    north-down (an A3144 is unipolar: never seen), one at the switch point (chatters), one late."""
    layout = default_layout(4)
    hole = layout.channel("T0:0")
    with FakeDevice(112, heartbeat=0.1, levels=[True] * 112) as device:
        tool = Tool("selftest", "--port", device.path, "--magnets", "--window", "1")
        heard = [tool.line("Testing magnets in T0:0")]
        heard.append(tool.line("Put peg 1"))
        device.set(hole, False)  # in: the line pulled low
        tool.enter()
        heard.append(tool.line("peg 1:"))
        tool.line("Put peg 2")
        device.set(hole, True)  # peg 1 out; peg 2 in, not seen
        tool.enter()
        heard.append(tool.line("peg 2:"))
        tool.line("Put peg 3")
        device.set(hole, False)
        tool.enter()
        time.sleep(0.3)
        for level in (True, False, True, False):  # resting, it chatters
            device.set(hole, level)
            time.sleep(0.05)
        heard.append(tool.line("peg 3:"))
        tool.line("Put peg 4")
        device.set(hole, True)
        tool.enter()
        time.sleep(0.5)
        device.set(hole, False)  # seen only after Enter
        heard.append(tool.line("peg 4:"))
        tool.line("Put peg 5")
        tool.enter("q")
        status, out, err = tool.finish()
    assert heard[:3] == [
        "Testing magnets in T0:0: one peg at a time, taking each out before the next; each is watched for 1 s after Enter",
        "Put peg 1 in T0:0, then press Enter (q and Enter when no pegs are left)",
        "peg 1: seen, steady",
    ]
    assert (
        heard[3] == "peg 2: NOT SEEN: turn its magnet over (an A3144 needs the south pole down) or use a stronger one"
    )
    assert heard[4] == "peg 3: flickers 4 times in 1 s: weak: a stronger magnet, or less wood between it and the sensor"
    assert heard[5].startswith("peg 4: seen only 0.") and "after Enter: weak" in heard[5]
    assert out[-1] == "3 of 4 pegs need a fix: peg 2, peg 3, peg 4"
    assert status == 1 and err == ""


def test_magnets_holes_over_the_serial_link() -> None:
    """One good peg through two holes: T0:1's sensor loses it while it rests."""
    layout = default_layout(4)
    with FakeDevice(112, heartbeat=0.1, levels=[True] * 112) as device:
        tool = Tool(
            "selftest",
            "--port",
            device.path,
            "--magnets",
            "holes",
            "--holes",
            "T0:0, T0:1",
            "--window",
            "0.8",
            "--timeout",
            "5",
            stdin=subprocess.DEVNULL,
        )
        assert tool.line("Put the peg in T0:0") == (
            "Put the peg in T0:0 and leave it there until the next hole is named"
        )
        device.set(layout.channel("T0:0"), False)
        assert tool.line("T0:0:") == "T0:0: steady"
        tool.line("Put the peg in T0:1")
        device.set(layout.channel("T0:0"), True)
        device.set(layout.channel("T0:1"), False)
        time.sleep(0.3)
        device.set(layout.channel("T0:1"), True)
        assert tool.line("T0:1:").startswith("T0:1: seen, then lost while it rested: its sensor is at the edge")
        status, out, err = tool.finish()
    assert out[-1] == "1 of 2 holes need a fix: T0:1" and status == 1 and err == ""


def test_bad_magnet_options_are_one_line() -> None:
    for options, words in (
        (["--magnets", "--test-hole", "T9:0"], "pegs: --test-hole: 'T9:0' is not a hole of this board"),
        (["--holes", "T0:0,X"], "pegs: --holes: 'X' is not a hole of this board"),
        (["--magnets", "--window", "0"], "--window: needs a number of seconds above 0, not '0'"),
        (["--magnets", "sideways"], "argument --magnets: invalid choice: 'sideways'"),
    ):
        done = subprocess.run(
            [*PEGS, "selftest", "--port", "/dev/nonexistent-pegs", *options],
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
        assert done.returncode == 2 and words in done.stderr and done.stderr.count("\n") == 1, done.stderr


def test_calibrate_with_markers_asks_for_the_colour_holes(tmp_path: Path) -> None:
    """--markers as for ``pegs firmware --markers``: the calibration asks for the colour-marker
    holes too and writes a 116-hole layout (the old --colour-markers still works)."""
    chain = default_layout(4, colour_markers=True)
    out = tmp_path / "layout.toml"
    with FakeDevice(120, heartbeat=0.1, levels=[True] * 120) as device:
        tool = Tool(
            "calibrate",
            "--port",
            device.path,
            "--markers",
            "--out",
            str(out),
            "--timeout",
            "5",
            stdin=subprocess.DEVNULL,
        )
        asked: list[str] = []
        while len(asked) < len(chain.hole_names):
            asked.append(tool.line("Put a peg in ").removeprefix("Put a peg in "))
            if len(asked) > 1:
                device.set(chain.channel(asked[-2]), True)
            device.set(chain.channel(asked[-1]), False)
        status, rest, err = tool.finish()
    assert status == 0, err
    assert asked == list(chain.hole_names) and "C0" in asked
    assert rest[-1] == f"wrote {out}: 116 holes, active_low = true"
    assert cli._build_parser().parse_args(["calibrate", "--port", "x", "--colour-markers"]).markers is True


def test_ctrl_c_stops_selftest_with_a_line() -> None:
    """No traceback ever reaches the builder: Ctrl-C while the tool waits for Enter."""
    # A suite started in the background (``pytest &`` from a script) ignores SIGINT, and a
    # child inherits an ignored signal; a handler of our own is reset to the default instead,
    # so the tool gets Ctrl-C as a builder's at a terminal does.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with FakeDevice(112, heartbeat=0.1, levels=[True] * 112) as device:
            tool = Tool("selftest", "--port", device.path, "--magnets")
            tool.line("Put peg 1")
            tool.process.send_signal(signal.SIGINT)
            tool.process.wait(10)  # before finish() closes stdin: an end of input first would end it as "no pegs"
            status, _, err = tool.finish()
    finally:
        signal.signal(signal.SIGINT, previous)
    assert (status, err) == (130, "\npegs: selftest stopped (Ctrl-C)\n")  # err shown if it ever fails


# -- the board's size: the command's options, else the config (issue 35, items 9 and 10) -----------


def test_a_six_sided_pico_under_the_default_sides_says_run_it_again_with_sides_6(tmp_path: Path) -> None:
    """Issue 35, item 9: on a 6-sided board a bench command run without --sides (4 by default, no
    config) must point at the option, not at a config line neither command reads, and never first
    at a firmware for 4 sides that would overwrite the right one (hardware.sensors.channel_mismatch)."""
    absent = str(tmp_path / "no-config.toml")
    with FakeDevice(168, heartbeat=0.1) as device:
        watch = subprocess.run(
            [*PEGS, "watch", "--port", device.path, "--config", absent, "--seconds", "0.5"],
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
        selftest = subprocess.run(
            [*PEGS, "selftest", "--port", device.path, "--config", absent],
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
    assert watch.returncode == 0 and selftest.returncode == 2 and selftest.stdout == ""
    for said in (watch.stderr, selftest.stderr):
        assert "if yours has 6 sides, run it again with --sides 6" in said, said
        assert "players" not in said and "config" not in said and "Traceback" not in said
        assert said.index("--sides 6") < said.index("pegs firmware --sides 4")  # the firmware only as the last resort
        assert said.count("\n") == 1


def _config(path: Path, board: str) -> Path:
    path.write_text(f"[board]\n{board}\n", encoding="utf-8")
    return path


def test_without_sides_the_bench_commands_take_the_configs_board(tmp_path: Path) -> None:
    """Issue 35, item 9: on the Pi the board's size is already in the config (players under
    [board], deploy/pegs.toml); watch and selftest take it when --sides is not given, say so
    first, and a config that is wrong for the Pico is fixed in the config."""
    six = _config(tmp_path / "six.toml", "players = 6")
    four = _config(tmp_path / "four.toml", "players = 4")
    layout = default_layout(6)
    with FakeDevice(168, heartbeat=0.1) as device:
        watcher = Tool("watch", "--port", device.path, "--config", str(six), "--seconds", "2", stdin=subprocess.DEVNULL)
        assert watcher.line("the board of") == (f"the board of {six}: 6 sides, 168 holes (--sides N for another)")
        watcher.line("occupied now")
        device.set(layout.channel("T5:17"), False)
        status, out, err = watcher.finish()
        wrong = subprocess.run(
            [*PEGS, "selftest", "--port", device.path, "--config", str(four)],
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
        broken = subprocess.run(
            [*PEGS, "selftest", "--port", device.path, "--config", str(_config(tmp_path / "bad.toml", "players = 5"))],
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
    assert status == 0 and err == "" and any(line.endswith("T5:17 peg") for line in out), (out, err)
    assert wrong.returncode == 2 and "set players = 6 under [board] in the config" in wrong.stderr
    assert broken.returncode == 2 and broken.stderr.startswith(f"pegs: the board's size is read from {tmp_path}")
    assert "Give --sides N" in broken.stderr and broken.stderr.count("\n") == 1


def test_watch_side_tests_one_module_on_its_own() -> None:
    """Issue 35, item 10: side 1's module of a 4-sided board (U5 to U7, as the schematic's side
    sheet has them: a chip goes with the side of its input H) plugged in alone as the chain's
    start: the Pico's channel 0 is U5.H, which reads H1:1 (hardware.chain: key 0 is input H of
    the chip on GP4; T1:0 to T1:3 are on U4, side 0's module); the channels after U7 read its SER tie."""
    layout = default_layout(4)
    with FakeDevice(112, heartbeat=0.1) as device:
        watcher = Tool("watch", "--port", device.path, "--sides", "4", "--side", "1", "--seconds", "2")
        assert watcher.line("side 1") == (
            "side 1's module alone: U5 to U7, channel 0 = U5.H; it reads 24 holes, H1:1 to T1:17; "
            "tie U7's SER (pin 10) to 3.3 V for this test"
        )
        watcher.line("occupied now")
        device.set(0, False)  # U5.H: the module's first input
        device.set(24, False)  # past U7: SER left floating or low
        status, out, err = watcher.finish()
    assert status == 0 and err == ""
    assert layout.hole(32) == "H1:1" and [layout.hole(c) for c in (28, 31)] == ["T1:0", "T1:3"]
    assert any(line.endswith("channel    0  level 0    H1:1 peg") for line in out), out
    assert any(
        "past U7: the SER tie (a peg past the module: tie its last SER, pin 10, to 3.3 V)" in line for line in out
    )
    bad = subprocess.run(
        [*PEGS, "watch", "--port", "/dev/nonexistent-pegs", "--sides", "4", "--side", "4"],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert bad.returncode == 2 and bad.stderr == "pegs: --side 4: this board's sides are 0 to 3\n"


def test_selftest_help_names_holes_that_exist() -> None:
    """Issue 35, item 12: home holes are H<side>:1 to 5 (referee.holes), so no example names H0:0."""
    done = subprocess.run([*PEGS, "selftest", "--help"], capture_output=True, text=True, check=False)
    layout = default_layout(4)
    named = {word.strip("(),.") for word in done.stdout.split() if ":" in word and word[0] in "THSC"}
    examples = {hole for word in named for hole in word.split(",") if hole[:1] in "THS" and hole[1:2].isdigit()}
    assert examples and examples <= set(layout.hole_names), examples
