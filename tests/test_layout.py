"""hardware.layout: hole <-> sensor channel <-> pixel, the TOML file and its checks."""

from __future__ import annotations

from pathlib import Path

import pytest

from hardware.layout import (
    Layout,
    LayoutError,
    Wire,
    board_holes,
    default_layout,
    layout_from_channels,
    parse_hole,
    side_holes,
)


@pytest.mark.parametrize(("sides", "holes"), [(4, 112), (6, 168), (8, 224)])
def test_default_layout_sizes(sides: int, holes: int) -> None:
    layout = default_layout(sides)
    assert len(layout.wires) == holes == sides * (18 + 5 + 5)
    assert layout.pixels == holes
    assert [wire.pixel for wire in layout.wires] == list(range(holes))
    assert all(wire.channel == wire.pixel for wire in layout.wires)  # channels follow the chain


def test_colour_markers_add_one_hole_per_side() -> None:
    layout = default_layout(6, colour_markers=True)
    assert len(layout.wires) == 6 * 29
    assert layout.colour_markers == tuple(f"C{s}" for s in range(6))
    assert default_layout(4).colour_markers == ()


def test_chain_order_dips_into_home_and_start() -> None:
    assert side_holes(1, colour_marker=True) == (
        "T1:0",
        "T1:1",
        "T1:2",
        "T1:3",
        "H1:1",
        "H1:2",
        "H1:3",
        "H1:4",
        "H1:5",
        "T1:4",
        "T1:5",
        "T1:6",
        "T1:7",
        "T1:8",
        "S1:1",
        "S1:2",
        "S1:3",
        "S1:4",
        "S1:5",
        "C1",
        *(f"T1:{k}" for k in range(9, 18)),
    )
    holes = board_holes(4)
    assert holes[27] == "T0:17" and holes[28] == "T1:0"  # one side runs into the next


def test_lookups_both_ways() -> None:
    layout = default_layout(4)
    assert layout.channel("T0:8") == 13
    assert layout.pixel("H0:1") == 4
    assert layout.hole(9) == "T0:4"
    assert layout.hole(layout.channel("S3:5")) == "S3:5"
    with pytest.raises(LayoutError, match="'T4:0' is not in the layout"):
        layout.channel("T4:0")
    with pytest.raises(LayoutError, match="channel 500 is not wired"):
        layout.hole(500)
    with pytest.raises(LayoutError, match="'C0' is not in the layout"):
        layout.pixel("C0")


def test_polarity() -> None:
    assert default_layout(4).occupied(False) is True  # active low: a magnet pulls the line low
    assert default_layout(4).occupied(True) is False
    assert default_layout(4, active_low=False).occupied(True) is True


def test_toml_round_trip(tmp_path: Path) -> None:
    for layout in (default_layout(4), default_layout(8, colour_markers=True, active_low=False)):
        path = tmp_path / "board.toml"
        path.write_text(layout.to_toml())
        assert Layout.from_toml(path) == layout


def test_toml_text_is_readable() -> None:
    text = default_layout(4).to_toml()
    assert "sides = 4\n" in text
    assert "active_low = true" in text
    assert "pixels = 112\n" in text
    assert '"T0:0" = { channel = 0, pixel = 0 }' in text


def test_a_hand_written_file_with_spare_pixels(tmp_path: Path) -> None:
    wires = default_layout(4).wires
    lines = ["sides = 4", "pixels = 120", "[holes]"]
    lines += [f'"{w.hole}" = {{ channel = {111 - w.channel}, pixel = {w.pixel + 8} }}' for w in wires]
    path = tmp_path / "board.toml"
    path.write_text("\n".join(lines))
    layout = Layout.from_toml(path)
    assert layout.active_low is True  # the default
    assert layout.pixels == 120
    assert layout.pixel("T0:0") == 8
    assert layout.channel("T0:0") == 111


def _toml(edit: str = "", *, drop: str | None = None, header: str = "sides = 4") -> str:
    lines = [header, "[holes]"]
    lines += [
        f'"{w.hole}" = {{ channel = {w.channel}, pixel = {w.pixel} }}'
        for w in default_layout(4).wires
        if w.hole != drop
    ]
    return "\n".join(lines) + "\n" + edit


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (_toml('"C0" = { channel = 5, pixel = 200 }'), "channel 5 is used by both H0:2 and C0"),
        (_toml('"C0" = { channel = 500, pixel = 7 }'), "pixel 7 is used by both H0:4 and C0"),
        (_toml(drop="S2:3"), "missing holes on a 4-sided board: S2:3"),
        (_toml('"X0:1" = { channel = 500, pixel = 500 }'), "unknown hole name 'X0:1'"),
        (_toml('"T0:18" = { channel = 500, pixel = 500 }'), "unknown hole name 'T0:18'"),
        (_toml('"H0:0" = { channel = 500, pixel = 500 }'), "unknown hole name 'H0:0'"),
        (_toml('"T4:1" = { channel = 500, pixel = 500 }'), "hole 'T4:1': a 4-sided board has sides 0..3"),
        (_toml(header="sides = 4\npixels = 100"), "hole 'S3:3': pixel 100 is out of range 0..99"),
        (_toml(header="sides = 5"), "sides must be 4, 6, 8 or 10, not 5"),
        (_toml(header="sides = 6"), "missing holes on a 6-sided board: T4:0"),
        (_toml(header=""), "missing key 'sides'"),
        (_toml(header="sides = 4\ncolour = 1"), "unknown key 'colour'"),
        (_toml(header="sides = 4\nactive_low = 1"), "active_low must be true or false"),
        (_toml('"C0" = { channel = 500 }'), "hole 'C0': missing pixel"),
        (_toml('"C0" = { channel = -1, pixel = 500 }'), "hole 'C0': channel must be a whole number"),
        (_toml('"C0" = { channel = 500, pixel = 500, colour = 1 }'), "hole 'C0': unknown key 'colour'"),
        (_toml('"C0" = 3'), "hole 'C0': expected"),
        ("sides = 4\n", "missing \\[holes\\]"),
        ("sides = = 4", "not valid TOML"),
    ],
)
def test_bad_files_are_refused_naming_the_problem(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(LayoutError, match=message) as error:
        Layout.from_toml(path)
    assert str(error.value).startswith(str(path))


def test_missing_file() -> None:
    with pytest.raises(LayoutError, match="no-such.toml"):
        Layout.from_toml("/nonexistent/no-such.toml")


def test_constructor_checks_too() -> None:
    with pytest.raises(LayoutError, match="sides must be 4, 6, 8 or 10"):
        default_layout(2)
    wires = default_layout(4).wires
    with pytest.raises(LayoutError, match="hole 'T0:0' is wired twice"):
        Layout(4, (*wires, Wire("T0:0", 900, 900)))
    with pytest.raises(LayoutError, match="no holes"):
        Layout(4, ())


def test_parse_hole() -> None:
    assert parse_hole("T2:17") == ("T", 2, 17)
    assert parse_hole("S0:5") == ("S", 0, 5)
    assert parse_hole("C7", sides=8) == ("C", 7, 0)
    with pytest.raises(LayoutError, match="S holes run"):
        parse_hole("S0:6")


def test_layout_from_measured_channels() -> None:
    holes = board_holes(4)
    channels = {hole: 111 - i for i, hole in enumerate(holes)}
    layout = layout_from_channels(4, channels, active_low=False)
    assert layout.channel("T0:0") == 111
    assert layout.pixel("T0:0") == 0  # pixels: the default chain
    assert layout.active_low is False
    del channels["T1:5"]
    with pytest.raises(LayoutError, match="missing holes on a 4-sided board: T1:5"):
        layout_from_channels(4, channels)
