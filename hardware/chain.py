"""Which 74HC165 input a sensor channel is soldered to.

    chain_input(0)     # ChainInput(chip=1, input='H'): pin 6 of chip 1
    str(chain_input(9))  # 'U2.G (pin 5)'

CircuitPython's ``keypad.ShiftRegisterKeys`` latches every chip, then reads the data pin
before each clock pulse (shared-module/keypad/ShiftRegisterKeys.c: "Zero-th data appears
on the data pin immediately, without shifting"). After the latch, a 74HC165's QH shows its
input H, and each clock moves G into H, F into G, ... and the next chip's QH (on SER) into A.
So key 0 is input H of chip 1, the chip whose QH (pin 9) drives the Pico's data pin; keys
1..7 are its G..A; key 8 is input H of chip 2, whose QH feeds chip 1's SER (pin 10); and so on.
"""

from __future__ import annotations

from dataclasses import dataclass

INPUTS_PER_CHIP = 8
READ_ORDER = "HGFEDCBA"  # the inputs of one chip in the order the scanner reads them
PIN_OF_INPUT = {"A": 11, "B": 12, "C": 13, "D": 14, "E": 3, "F": 4, "G": 5, "H": 6}  # 74HC165 (DIP-16, SOIC-16)


@dataclass(frozen=True)
class ChainInput:
    """One input of one chip: ``chip`` 1 is next to the Pico."""

    chip: int
    input: str

    @property
    def pin(self) -> int:
        return PIN_OF_INPUT[self.input]

    @property
    def label(self) -> str:
        return f"U{self.chip}.{self.input}"

    def __str__(self) -> str:
        return f"{self.label} (pin {self.pin})"


def chain_input(channel: int) -> ChainInput:
    """The chip and input that sensor ``channel`` (a keypad key number) is read on."""
    if isinstance(channel, bool) or not isinstance(channel, int) or channel < 0:
        raise ValueError(f"a sensor channel is a whole number from 0, not {channel!r}")
    chip, position = divmod(channel, INPUTS_PER_CHIP)
    return ChainInput(chip + 1, READ_ORDER[position])


def chain_channel(chip: int, input: str) -> int:
    """The channel of ``input`` ("A".."H") on ``chip`` (1 = next to the Pico): the inverse of chain_input."""
    if chip < 1 or input not in PIN_OF_INPUT:
        raise ValueError(f"no input {input!r} on chip {chip!r}: chips count from 1, inputs are A to H")
    return (chip - 1) * INPUTS_PER_CHIP + READ_ORDER.index(input)
