"""Where each rule a lesson teaches is written: the rule text a step cites, found from the
rule set's data, not written per preset.

    cite(Ruleset.preset("kilpatrick"), "draw")   # "the rules page, Advanced Game: Arizona Rules, rule 1"

A rule whose value is the basic game's is cited from the rules page's basic sections. A value
a preset changes is cited from that preset's own text (Kilpatrick, "a variant of the Arizona
Rules", takes what it does not change from Arizona's). A house-rules file cites itself, and the
preset's text where that has the same rule ("Grandma rules, as in ...").
"""

from __future__ import annotations

from collections.abc import Callable

from referee.rulesets import PRESETS, Ruleset

PAGE = "the rules page"
ARIZONA = f"{PAGE}, Advanced Game: Arizona Rules"
NC = f"{PAGE}, North Carolina Rules"
WIZARD = f"{PAGE}, Other Variations (Wizard Woodworks)"
BECKER = f"{PAGE}, Other Variations (Eileen Becker)"
KILPATRICK = f"{PAGE}, Kilpatrick Rules"
BLUFFING = f"{PAGE}, Bluffing Joker"
SOCIAL_SECURITY = "Hatcher's variations, Social Security"

CARDS = f"{PAGE}, Movement of pegs - effects of individual cards"
GENERAL = f"{PAGE}, Movement of pegs - general rules"
TURN = f"{PAGE}, Basic Game"
ENDGAME = f"{PAGE}, Endgame"

BASIC_SOURCES = {
    "draw": TURN,
    "hand_size": TURN,
    "movers": ENDGAME,
    "split_into_partner": ENDGAME,
    "joker_from": CARDS,
    "home_entry": GENERAL,
    "counting": TURN,
    "bluffing": TURN,
    "come out": CARDS,
}
"""Where the basic game says each top-level rule, and which cards come out (a card's power: ``CARDS``)."""

SOURCES: dict[tuple[str, str], str] = {
    ("arizona", "draw"): f"{ARIZONA}, rule 1",
    ("arizona", "movers"): f"{ARIZONA}, rule 2",
    ("arizona", "card 9"): f"{ARIZONA}, rule 4",
    ("arizona", "joker_from"): f"{ARIZONA}, rule 6",
    ("north-carolina", "split_into_partner"): f"{NC}, rule 2",
    ("north-carolina", "card A"): f"{NC}, rule 4",
    ("north-carolina", "card 2"): f"{NC}, rule 5",
    ("north-carolina", "card 9"): f"{NC}, rule 7",
    ("north-carolina", "card 10"): f"{NC}, rule 8",
    ("north-carolina", "counting"): f"{NC}, rule 9",
    ("wizard-woodworks", "draw"): WIZARD,
    ("wizard-woodworks", "card 2"): WIZARD,
    ("wizard-woodworks", "card 9"): WIZARD,
    ("becker", "card 10"): BECKER,
    ("becker", "counting"): BECKER,
    ("kilpatrick", "hand_size"): f"{KILPATRICK}, rule 1",
    ("kilpatrick", "home_entry"): f"{KILPATRICK}, rule 2",
    ("bluffing-joker", "bluffing"): BLUFFING,
    ("social-security", "card 9"): SOCIAL_SECURITY,
    ("social-security", "card J"): SOCIAL_SECURITY,
    ("social-security", "card Q"): SOCIAL_SECURITY,
    ("social-security", "card K"): SOCIAL_SECURITY,
}
"""Where a preset's text changes a rule of the basic game ("card X": that card's power)."""

PARENT = {"kilpatrick": "arizona"}  # Kilpatrick Rules: "a variant of the Arizona Rules"


def title(rules: Ruleset) -> str:
    """The rule set as players name it: "North Carolina rules", "Grandma rules"."""
    return f"{rules.name.replace('-', ' ').title()} rules"


def _value(topic: str) -> Callable[[Ruleset], object]:
    if topic == "come out":
        return lambda rules: tuple(card for card, power in rules.cards if power.come_out)
    if topic.startswith("card "):
        card = topic.removeprefix("card ")
        return lambda rules: rules.power(card)
    return lambda rules: getattr(rules, topic)


def is_preset(rules: Ruleset) -> bool:
    return PRESETS.get(rules.name) == rules


def cite(rules: Ruleset, topic: str) -> str:
    """The text that says ``topic`` (a ``Ruleset`` field, or "card X") as ``rules`` has it."""
    value_of = _value(topic)
    value = value_of(rules)
    if value == value_of(PRESETS["basic"]):
        return CARDS if topic.startswith("card ") else BASIC_SOURCES[topic]
    same = [name for name, preset in PRESETS.items() if (name, topic) in SOURCES and value_of(preset) == value]
    if is_preset(rules):
        for name in (rules.name, PARENT.get(rules.name, rules.name)):
            if name in same:
                return SOURCES[name, topic]
    if same:
        return f"{title(rules)}, as in {SOURCES[same[0], topic]}"
    return title(rules)


def cites(rules: Ruleset, *topics: str) -> str:
    """Several topics' texts as one citation, each text once and the rules of one section
    together: "(the rules page, Advanced Game: Arizona Rules, rules 4 and 2)"."""
    sections: dict[str, list[str]] = {}
    for topic in topics:
        section, _, number = cite(rules, topic).partition(", rule ")
        numbers = sections.setdefault(section, [])
        if number and number not in numbers:
            numbers.append(number)
    said = [_rules(section, numbers) for section, numbers in sections.items()]
    return "(" + "; ".join(said[:1] + [text.removeprefix(f"{PAGE}, ") for text in said[1:]]) + ")"


def _rules(section: str, numbers: list[str]) -> str:
    if not numbers:
        return section
    if len(numbers) == 1:
        return f"{section}, rule {numbers[0]}"
    return f"{section}, rules {', '.join(numbers[:-1])} and {numbers[-1]}"
