"""What a board costs, roughly: one price per part, kept here as data and dated.

    approximate_cost(parts_list(default_layout(6)))   # euros, at PRICED's date

Prices are one-off retail prices in euros, rounded, as a builder ordering one board would
pay in PRICED (distributors' single-unit prices, marketplace prices for the commodity parts);
they change, and shipping and tax are not in them. The guide gives them as approximate.
"""

from __future__ import annotations

from referee.kit.parts import Part

PRICED = "2026-11"
# euros per unit ("pcs" or "m"), by maker's part number, or by name for the commodity parts ("-")
PRICES: dict[str, float] = {
    "A3144EUA-T": 0.15,
    "SN74HC165N": 0.60,
    "ED16DT": 0.20,
    "4609X-101-103LF": 0.40,
    "C320C104K5R5TA": 0.10,
    "ECA-1CM100": 0.10,
    "CFR-25JB-52-47R": 0.05,
    "SN74HC125N": 0.50,
    "CD74HC14E": 0.50,
    "WS2812D-F5": 0.25,
    "SN74AHCT125N": 0.60,
    "ED14DT": 0.20,
    "CFR-25JB-52-330R": 0.05,
    "CFR-25JB-52-10K": 0.05,
    "LRS-35-5": 15.0,
    "LRS-50-5": 17.0,
    "LRS-75-5": 20.0,
    "EEU-FR1A102": 0.40,
    "0287003.PXCN": 0.30,
    "0287001.PXCN": 0.30,
    "FHAC0001ZXJ": 2.50,
    "power wire": 1.0,
    "bus wire": 0.4,
    "DD11.0114.1111": 12.0,
    "0218002.MXP": 0.40,
    "mains lead": 5.0,
    "closed box": 10.0,
    "cable gland": 0.50,
    "SC1111": 65.0,
    "SC1153": 12.0,
    "microSD card": 8.0,
    "SC0915": 4.5,
    "USB cable": 3.0,
    "B3F-4055": 0.30,
    "AI-1223-TWT-5V-R": 1.50,
    "2N3904BU": 0.10,
    "CFR-25JB-52-1K": 0.05,
    "1N4148TR": 0.05,
    "3365/10": 3.0,
    "neodymium disc magnet": 0.15,
    "peg": 0.30,
    "plank": 60.0,  # a square metre of 18 mm birch plywood, about
    "drill bit": 5.0,
    "stripboard": 3.0,
    "61201021621": 0.40,
    "89110-0101": 0.80,
    "hookup wire": 0.15,
    "heat-shrink tube": 0.30,
    "sensor carrier": 0.02,  # about half a gram of PLA
}


def price(part: Part) -> float:
    """One unit of the part: by its number, or by the first words of a commodity part's name."""
    key = part.number if part.number != "-" else next((k for k in PRICES if part.name.startswith(k)), part.name)
    if key not in PRICES:
        raise KeyError(f"no price for {key!r}: add one to PRICES in referee/kit/costs.py")
    return PRICES[key]


def approximate_cost(parts: list[Part]) -> float:
    """The whole list, in euros; a plank is priced by its area in square metres."""
    total = 0.0
    for part in parts:
        each = price(part) * (_area_m2(part.name) if part.name.startswith("plank") else 1.0)
        total += each * part.quantity
    return total


def _area_m2(name: str) -> float:
    """'plank or plywood, at least 1530 x 1460 mm' -> 2.23."""
    width, _, height = name.rsplit(" ", 4)[-4:-1]
    return float(width) * float(height) / 1e6
