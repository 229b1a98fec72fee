"""Rule sets: the presets say what the texts say, and house rules are checked strictly."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from pathlib import Path

import pytest

from referee import PRESETS, CardPower, Ruleset, RulesetError, Split
from referee.card_powers import card_changes, card_keys, power_mapping
from referee.rule_fields import declared, described, read_onto, read_table, rule, said, stored, true_or_false, whole
from referee.rulesets import from_mapping


def test_every_variant_in_the_texts_has_a_preset() -> None:
    """The rules page and Hatcher's variations: basic, Arizona, North Carolina, Wizard Woodworks, Becker,
    Kilpatrick, Bluffing Joker and Social Security."""
    assert set(PRESETS) == {
        "basic",
        "arizona",
        "north-carolina",
        "wizard-woodworks",
        "becker",
        "kilpatrick",
        "bluffing-joker",
        "social-security",
    }


def test_table_procedures_per_preset() -> None:
    """The rules page: basic draws first (6 in hand); Arizona Rules, rule 1 plays then draws (5); Kilpatrick
    "Only 3 cards each"; Wizard Woodworks "players first play a card, then move and draw";
    NC counting frees a peg on the 3rd turn, Becker "on the fourth turn"."""
    expected = {
        "basic": (5, "before", None),
        "arizona": (5, "after", None),
        "north-carolina": (5, "before", 3),
        "wizard-woodworks": (5, "after", None),
        "becker": (5, "before", 4),
        "kilpatrick": (3, "after", None),
        "bluffing-joker": (5, "before", None),
        "social-security": (5, "before", None),
    }
    for name, (hand, draw, counting) in expected.items():
        rules = Ruleset.preset(name)
        assert (rules.hand_size, rules.draw, rules.counting) == (hand, draw, counting), name
    assert Ruleset.preset("bluffing-joker").bluffing


def test_decks_and_jokers_per_player_count() -> None:
    """The rules page, Players and Equipment: "Three decks (162 cards including 6 jokers) may be enough for up to six
    players: eight players should use four decks (216 cards including 8 jokers)."
    Arizona "uses four full decks of cards including 8 Jokers"."""
    basic = Ruleset.preset("basic")
    assert [basic.jokers_for(n) for n in (2, 4, 6, 8)] == [0, 6, 6, 8]
    assert [basic.decks_for(n) for n in (4, 6, 8)] == [3, 3, 4]
    assert Ruleset.preset("arizona").jokers_for(4) == 8


def test_card_powers_differ_where_the_texts_say() -> None:
    nc = Ruleset.preset("north-carolina")
    assert nc.power("A").backward == (1,) and nc.power("A").forward == (1, 11)
    assert nc.power("10").split == Split(10, "any", required=True, any_peg=True)
    assert nc.power("2").swap and Ruleset.preset("wizard-woodworks").power("2").swap
    assert not Ruleset.preset("basic").power("2").swap
    assert Ruleset.preset("becker").power("10").backward == (1,)
    assert [Ruleset.preset("social-security").power(c).forward for c in "JQK"] == [(11,), (12,), (13,)]
    assert Ruleset.preset("basic").power("8").describe() == "8 back"
    assert "must be split" in nc.power("10").describe()


def test_house_rules_start_from_a_preset(tmp_path: Path) -> None:
    house = tmp_path / "ours.toml"
    house.write_text(
        'base = "arizona"\nname = "Grandma"\nhand_size = 6\nextra_jokers = 4\ncounting = 4\n'
        "[cards.10]\nbackward = [1]\n[cards.9]\nsplit = false\n",
        encoding="utf-8",
    )
    rules = Ruleset.from_toml(house)
    assert rules.name == "Grandma" and rules.hand_size == 6 and rules.movers == "team"
    assert rules.power("10").forward == (10,) and rules.power("10").backward == (1,)
    assert rules.power("9").split is None
    assert rules.jokers_for(6) == 12
    assert Ruleset.load(str(house)) == rules


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('base = "arizona"\nhandsize = 4\n', "unknown key 'handsize'"),
        ('base = "texas"\n', "unknown rule set 'texas'"),
        ("hand_size = 0\n", "hand_size must be a whole number from 1 to 13"),
        ('draw = "sometimes"\n', "draw must be one of 'before', 'after'"),
        ("[cards.11]\nforward = [11]\n", "unknown card '11'"),
        ("[cards.7]\nforward = [-7]\n", "cards.7.forward must be a whole number"),
        ('[cards.7]\nsplit = {total = 7, directions = "sideways"}\n', "directions must be one of"),
        ("[cards.7]\nleap = true\n", "unknown key 'cards.7.leap'"),
        ("bluffing = 1\n", "bluffing must be true or false"),
        ("decks = {5 = 3}\n", "not a player count"),
        ("hand_size = \n", "not valid TOML"),
    ],
)
def test_house_rules_errors_are_clear(tmp_path: Path, text: str, message: str) -> None:
    house = tmp_path / "bad.toml"
    house.write_text(text, encoding="utf-8")
    with pytest.raises(RulesetError, match=message):
        Ruleset.from_toml(house)


def test_missing_house_rules_file() -> None:
    with pytest.raises(RulesetError, match="cannot read house rules"):
        Ruleset.load("no-such-rules.toml")


def test_house_rules_whose_splits_explode_are_refused(tmp_path: Path) -> None:
    """Issue "Fast on a Pi Zero": "either the loader refuses rules whose moves explode,
    with a message that says why". North Carolina's ten ("Tens must be split between two
    different pegs. These can be any two pegs on the board", the rules page, North Carolina Rules) is the heaviest preset;
    an ace that splits 17 over any pegs in any direction is refused, naming the card and
    the weights, and the heaviest file accepted still loads."""
    assert (
        max(rules.split_weight for rules in PRESETS.values()) == Ruleset.preset("north-carolina").split_weight == 1005
    )
    explosive = tmp_path / "ace.toml"
    explosive.write_text(
        'base = "north-carolina"\n[cards.A]\nforward = [1, 11]\nbackward = [1]\ncome_out = true\n'
        'swap = true\njoker = true\nsplit = {total = 17, directions = "any", any_peg = true}\n'
    )
    with pytest.raises(RulesetError) as refused:
        Ruleset.from_toml(explosive)
    message = str(refused.value)
    assert "[cards.A]" in message and "2,605" in message and "1,050" in message and "\n" not in message
    heaviest = tmp_path / "heavy.toml"
    heaviest.write_text(
        'base = "north-carolina"\n[cards.A]\nswap = true\njoker = true\nsplit = {total = 2}\n'
        '[cards.9]\nsplit = {total = 9, directions = "any"}\n'
    )
    assert Ruleset.from_toml(heaviest).split_weight == 1050
    heavier = tmp_path / "heavier.toml"
    heavier.write_text('base = "arizona"\n[cards.10]\nsplit = {total = 10, directions = "any", any_peg = true}\n')
    with pytest.raises(RulesetError, match=r"\[cards.10\]"):
        Ruleset.from_toml(heavier)  # Arizona's team play and North Carolina's ten: 1,225


def test_each_card_key_is_declared_once_with_its_check_and_meaning() -> None:
    """Issue 24, item 6: a card option is one declaration (``referee.rule_fields``); the
    refusal of an unknown key lists the declared keys, a bad value names its key, and the
    description of the keys comes from the same declarations."""
    assert list(declared(CardPower)) == ["forward", "backward", "come_out", "swap", "joker", "split"]
    assert list(declared(Split)) == ["total", "directions", "required", "any_peg"]
    with pytest.raises(RulesetError, match="use forward, backward, come_out, swap, joker or split$"):
        from_mapping({"cards": {"7": {"leap": True}}})
    with pytest.raises(
        RulesetError, match=r"unknown key 'cards.7.split.leap': use total, directions, required or any_peg"
    ):
        from_mapping({"cards": {"7": {"split": {"total": 7, "leap": 1}}}})
    for key in ("come_out", "swap", "joker"):
        with pytest.raises(RulesetError, match=f"^cards.7.{key} must be true or false, not 1$"):
            from_mapping({"cards": {"7": {key: 1}}})
    lines = card_keys()
    assert "cards.X.swap: the card swaps two pegs of different colours on the main track" in lines
    assert "cards.X.split.total: the count shared between two pegs, 2 to 17" in lines
    assert len(lines) == 10


@dataclass(frozen=True)
class _Hopping:
    """A card option that does not exist, declared as a new one would be."""

    hop: int = field(
        default=0,
        metadata=rule(
            "holes a peg hops over",
            lambda where, value: whole(where, value, 1, 3),
            words=lambda n: [f"hop {n}"] if n else [],
        ),
    )
    come_out: bool = field(
        default=False,
        metadata=rule("comes out", true_or_false, words=lambda on: ["come out"] if on else [], said_at=-1),
    )


def test_a_declaration_drives_the_check_the_words_and_the_stored_form() -> None:
    values = read_table(_Hopping, "cards.5", {"hop": 2, "come_out": True})
    power = _Hopping(**values)  # type: ignore[arg-type]
    assert said(power) == ["come out", "hop 2"] and stored(power) == {"hop": 2, "come_out": True}
    assert described(_Hopping, "cards.X") == ["cards.X.hop: holes a peg hops over", "cards.X.come_out: comes out"]
    with pytest.raises(RulesetError, match=r"^cards.5.hop must be a whole number from 1 to 3, not 4$"):
        read_table(_Hopping, "cards.5", {"hop": 4})
    with pytest.raises(RulesetError, match=r"^unknown key 'cards.5.skip': use hop or come_out$"):
        read_table(_Hopping, "cards.5", {"skip": 1})


def test_every_preset_card_is_stored_and_read_back_by_its_declarations() -> None:
    for rules in PRESETS.values():
        for card, power in rules.cards:
            assert CardPower(**card_changes(card, power_mapping(power))) == power, (rules.name, card)  # type: ignore[arg-type]


def test_a_table_by_player_count_starts_from_the_base_preset(tmp_path: Path) -> None:
    """README, "House rules": "A TOML file starts from a preset and overrides fields"; the
    rules we settled, "Ten players: decks and jokers": "Arizona and Kilpatrick keep their 4",
    and house rules set decks and jokers "per player count". A file over Arizona that gives
    ten players six decks keeps Arizona's four decks (and eight jokers) at four players, not
    the basic game's three."""
    house = tmp_path / "ten.toml"
    house.write_text('base = "arizona"\ndecks = {10 = 6}\n', encoding="utf-8")
    rules = Ruleset.from_toml(house)
    assert [rules.decks_for(n) for n in (2, 4, 6, 8, 10)] == [4, 4, 4, 4, 6]
    assert rules.jokers_for(4) == 8 and rules.jokers_for(10) == 6 * 2 + 4
    kilpatrick = from_mapping({"base": "kilpatrick", "added_jokers": {"4": 2}, "decks": {"8": 5}})
    assert kilpatrick.added_jokers == ((4, 2), (10, 4)) and kilpatrick.decks_for(6) == 4


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ({"movers": "all"}, "movers must be one of 'own-then-partner', 'team', not 'all'"),
        ({"joker_from": 1}, "joker_from must be one of 'own', 'team-start-first', not 1"),
        ({"home_entry": "never"}, "home_entry must be one of 'may', 'must', not 'never'"),
        ({"draw": None}, "draw must be one of 'before', 'after', not None"),
        ({"name": " "}, "name must be a non-empty string"),
        ({"summary": 3}, "summary must be a non-empty string"),
        ({"split_into_partner": "yes"}, "split_into_partner must be true or false, not 'yes'"),
        ({"hand_size": True}, "hand_size must be a whole number from 1 to 13, not True"),
        ({"jokers_per_deck": 17}, "jokers_per_deck must be a whole number from 0 to 16, not 17"),
        ({"extra_jokers": -1}, "extra_jokers must be a whole number from 0 to 16, not -1"),
        ({"counting": True}, "counting must be a whole number from 2 to 10, not True"),
        ({"decks": 3}, "decks must be a table like {4 = 3, 6 = 3, 8 = 4, 10 = 5}"),
        ({"decks": {"4": 0}}, "decks.4 must be a whole number from 1 to 8, not 0"),
        ({"added_jokers": {"3": 1}}, "added_jokers: '3' is not a player count (2, 4, 6, 8 or 10)"),
        (
            {"hand": 5},
            (
                "unknown key 'hand': use one of added_jokers, base, bluffing, cards, counting, decks, draw, "
                "extra_jokers, hand_size, home_entry, joker_from, jokers_per_deck, movers, name, split_into_partner, "
                "summary"
            ),
        ),
    ],
)
def test_each_top_level_key_refuses_a_bad_value_naming_it(table: dict[str, object], message: str) -> None:
    """Issue 24: the top-level keys are declared like the cards' (``Ruleset``'s fields), and
    a bad value is refused in one line naming the key, as before the declarations."""
    with pytest.raises(RulesetError) as refused:
        from_mapping(table)
    assert str(refused.value) == message


def test_each_top_level_key_is_declared_once_with_its_meaning_words_and_stored_form() -> None:
    """Issue 24: every field of ``Ruleset`` but ``cards`` is a declared key; the records'
    stored form, the description of the keys and the table's settings in words come from
    the declarations, and every preset reads back from its stored form."""
    keys = list(declared(Ruleset))
    assert keys == [f.name for f in fields(Ruleset) if f.name != "cards"]
    lines = described(Ruleset, "")
    assert len(lines) == len(keys) and lines[0].startswith("name: ")
    assert any(line.startswith("decks: ") and "the base's" in line for line in lines)
    for rules in PRESETS.values():
        data = rules.to_mapping()
        assert list(data) == ["base", *(f.name for f in fields(Ruleset))]
        assert from_mapping(data) == rules, rules.name
    nc = Ruleset.preset("north-carolina").to_mapping()
    assert nc["decks"] == {"2": 3, "4": 3, "6": 3, "8": 4, "10": 5} and nc["counting"] == 3
    assert Ruleset.preset("basic").to_mapping()["counting"] is False
    assert Ruleset.preset("north-carolina").settings(4) == [
        "5 cards in hand",
        "3 decks and 6 jokers for 4 players",
        "counting: after 2 turns without moving, any card brings a peg out",
        "your own pegs, then a partner's once yours are home",
    ]
    bluffing_team = from_mapping({"base": "kilpatrick", "bluffing": True})
    assert bluffing_team.settings(10) == [
        "3 cards in hand",
        "4 decks and 12 jokers for 10 players",
        "Bluffing Joker: cards are played face down and may be doubted",
        "pegs you may move: team",
    ]


def test_a_declaration_can_change_a_value_instead_of_replacing_it() -> None:
    """``read_onto`` reads a table over an existing value: a key with ``onto`` combines the
    file's value with the one it changes; a message at the top of a file names the key alone."""
    base = _Hopping(hop=1)
    assert read_onto(base, "", {"come_out": True}) == {"come_out": True}
    with pytest.raises(RulesetError, match=r"^hop must be a whole number from 1 to 3, not 9$"):
        read_onto(base, "", {"hop": 9})
    with pytest.raises(RulesetError, match=r"^unknown key 'cards.5.skip': use hop or come_out$"):
        read_onto(base, "cards.5", {"skip": 1})

    @dataclass(frozen=True)
    class _Counted:
        seen: tuple[int, ...] = field(default=(1,), metadata=rule("seen", lambda _w, v: (v,), onto=lambda a, b: b + a))

    assert read_onto(_Counted(), "", {"seen": 2}) == {"seen": (1, 2)}
