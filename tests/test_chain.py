"""Which 74HC165 input is which sensor channel, checked on a model of the chips themselves.

The model follows the 74HC165 datasheet (TI SCLS116 / Nexperia 74HC165): SH/LD low loads the
inputs A..H in parallel and QH shows H at once; each rising CLK edge (CLK INH low) moves the
register one place towards H, A taking SER. Chip k's QH feeds chip k-1's SER, chip 1's QH
is the Pico's data pin. The scanner is CircuitPython's ShiftRegisterKeys loop (read, then
clock). Issue 12: "CircuitPython's key 0 is input H of the chip whose QH drives the data pin".
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hardware.chain import PIN_OF_INPUT, chain_channel, chain_input

INPUTS = "ABCDEFGH"


class Chip:
    def __init__(self) -> None:
        self.inputs = dict.fromkeys(INPUTS, False)
        self.register = [False] * 8  # A..H

    def load(self) -> None:
        self.register = [self.inputs[name] for name in INPUTS]

    @property
    def qh(self) -> bool:
        return self.register[7]


def scan(chips: list[Chip], far_ser: bool = False) -> list[bool]:
    """What ShiftRegisterKeys reads from the chain, key 0 first."""
    for chip in chips:
        chip.load()
    keys = []
    for _ in range(8 * len(chips)):
        keys.append(chips[0].qh)
        sers = [chip.qh for chip in chips[1:]] + [far_ser]  # sampled before the edge, as the flip-flops do
        for chip, ser in zip(chips, sers, strict=True):
            chip.register = [ser, *chip.register[:7]]
    return keys


@given(st.integers(1, 30), st.data())
def test_a_peg_on_any_input_reads_on_the_channel_the_template_names(count: int, data: st.DataObject) -> None:
    chips = [Chip() for _ in range(count)]
    chip = data.draw(st.integers(1, count))
    name = data.draw(st.sampled_from(INPUTS))
    chips[chip - 1].inputs[name] = True
    keys = scan(chips)
    assert keys.index(True) == chain_channel(chip, name) and keys.count(True) == 1
    assert chain_input(chain_channel(chip, name)).label == f"U{chip}.{name}"


def test_key_0_is_input_h_of_the_chip_next_to_the_pico_and_the_pins_are_the_datasheets() -> None:
    assert str(chain_input(0)) == "U1.H (pin 6)"
    assert [chain_input(k).input for k in range(9)] == list("HGFEDCBAH")
    assert chain_input(8).chip == 2 and chain_input(111).label == "U14.A"
    # DIP-16: 1 SH/LD, 2 CLK, 3-6 E-H, 7 /QH, 8 GND, 9 QH, 10 SER, 11-14 A-D, 15 CLK INH, 16 VCC
    assert PIN_OF_INPUT == {"E": 3, "F": 4, "G": 5, "H": 6, "A": 11, "B": 12, "C": 13, "D": 14}
    with pytest.raises(ValueError, match="a whole number from 0, not -1"):
        chain_input(-1)
    with pytest.raises(ValueError, match="chips count from 1"):
        chain_channel(0, "H")


def test_a_floating_far_ser_only_reaches_keys_past_the_chain() -> None:
    """Why the far SER is tied: the scanner reads exactly 8 per chip, so SER's level never
    reaches a key, but a floating CMOS input draws current and picks up noise; it must be tied."""
    chips = [Chip() for _ in range(3)]
    assert scan(chips, far_ser=True) == [False] * 24
