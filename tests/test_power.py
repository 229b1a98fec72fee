"""The board's 5 V: the supply and ``leds.max_amps`` per size, and the voltage drops from the run lengths.

Issue 35 items 2 and 4: "the far sensor gets about 4.3 V on 6 sides and 3.2 V on 10 (the A3144
needs 4.5 V)" along one ribbon wire; "4 sides is 6 A in some places and 7 A in others";
"install.sh --players 10 leaves 4.0". Sources the numbers are checked against: Allegro's
A3141-A3144 datasheet (27621.6: "supply voltages of 4.5 to 24 volts"), Mean Well's LRS-35,
LRS-50 and LRS-75 datasheets (5 V at 7, 10 and 14 A), the AWG table of ASTM B258 (28 AWG about
0.213 ohm/m, 16 AWG about 0.0132 ohm/m) and IEC 60228 class 5 (1.5 mm² at most 13.3 ohm/km).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from hardware.layout import default_layout
from referee.kit.power import (
    A3144_MIN_VOLTS,
    WIRES,
    awg_ohms_per_m,
    max_amps,
    one_ribbon_wire_volts,
    players_max_amps,
    side_runs,
    supply_for,
)

REPO = Path(__file__).parent.parent


def test_copper_per_metre_as_the_wire_tables_give_it() -> None:
    """ASTM B258's AWG sizes (28 AWG 212.9 ohm/km, 20 AWG 33.3, 16 AWG 13.2) from the diameter formula."""
    assert awg_ohms_per_m(28) == pytest.approx(0.2129, rel=0.01)
    assert awg_ohms_per_m(20) == pytest.approx(0.0333, rel=0.01)
    assert awg_ohms_per_m(16) == pytest.approx(0.01317, rel=0.01)
    assert WIRES["1.5 mm²"] == 0.0133 and WIRES["0.5 mm²"] == 0.0390  # IEC 60228 class 5 maxima


def test_supply_and_max_amps_per_size() -> None:
    """About 80 % of the supply less every A3144 (4.4 mA each, 29 a side with markers), to the half ampere."""
    expected = {
        4: ("LRS-35-5", 7.0, 5.0),
        6: ("LRS-50-5", 10.0, 7.0),
        8: ("LRS-50-5", 10.0, 6.5),
        10: ("LRS-75-5", 14.0, 9.5),
    }
    for sides, (number, amps, cap) in expected.items():
        assert (supply_for(sides).number, supply_for(sides).amps, max_amps(sides)) == (number, amps, cap)
        sensors = sides * 29 * 0.0044
        assert cap <= 0.8 * amps - sensors < cap + 0.5
    assert players_max_amps() == {2: 5.0, 4: 5.0, 6: 7.0, 8: 6.5, 10: 9.5}


def test_install_sh_writes_the_same_max_amps() -> None:
    """deploy/install.sh carries the table (it runs before the program is installed): the same values."""
    script = (REPO / "deploy/install.sh").read_text()
    table = re.search(r"max_amps_for\(\) \{.*?esac", script, re.DOTALL)
    assert table
    written = {
        int(players): float(amps)
        for names, amps in re.findall(r"([\d |]+)\) echo ([\d.]+)", table.group())
        for players in names.split("|")
    }
    assert written == players_max_amps()
    template = (REPO / "deploy/pegs.toml").read_text()
    assert f"\nmax_amps = {players_max_amps()[4]}\n" in template  # the template is a 4-sided board's


@pytest.mark.parametrize("sides", [6, 8, 10])
def test_one_ribbon_wire_from_the_chain_start_is_too_little(sides: int) -> None:
    """The design issue 35 found: every A3144 on one 28 AWG wire from the chain's start leaves the
    last sensor under the datasheet's 4.5 V on 6 to 10 sides."""
    assert one_ribbon_wire_volts(default_layout(sides)) < A3144_MIN_VOLTS


@pytest.mark.parametrize("sides", [4, 6, 8, 10])
def test_each_side_fed_at_its_injection_point_keeps_every_sensor_and_pixel_above_4_5_v(sides: int) -> None:
    """Each side's sensors tapped at its injection point (after its fuse), on its own stretch of ribbon:
    with every pixel of the side at full white (60 mA, Adafruit's Uberguide) and each A3144 counted at
    twice its typical current, the last sensor and the last pixel stay at 4.5 V or more."""
    runs = side_runs(default_layout(sides))
    assert len(runs) == sides
    for run in runs:
        assert run.last_sensor_volts >= A3144_MIN_VOLTS and run.last_pixel_volts >= A3144_MIN_VOLTS
        assert run.amps < 3.0  # under the side's 3 A fuse: 29 pixels at 60 mA and the sensors
        assert 0.3 < run.injection_m < 1.2 and 0.5 < run.ribbon_m < 2.0


def test_drops_grow_with_the_run() -> None:
    """The farther the side from the supply, the more its injection run drops: 10 sides lose the most."""
    worst = [min(run.last_sensor_volts for run in side_runs(default_layout(sides))) for sides in (4, 6, 8, 10)]
    assert worst == sorted(worst, reverse=True)
