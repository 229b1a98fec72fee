"""One move of a game under review: what the seat knew, the best its cards allowed, what the
move gave away (confirmed by a look-ahead before it is named), and the luck of the cards."""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any, NamedTuple

from referee import events as ev
from referee.cards import JOKER
from referee.coach.explain import in_third_person
from referee.coach.hints import Hint, choices_for, hints_of, said_with_pegs
from referee.coach.judge import Choice, Verdict, judge, noise
from referee.coach.lookahead import Hidden
from referee.coach.luck import luck
from referee.coach.rollout import BATCH, ROUNDS, Budget, confirm, rollouts
from referee.coach.value import chances
from referee.game import Game
from referee.movegen import parse_move
from referee.moves import Move
from referee.position import Position
from referee.rulesets import Ruleset
from referee.words import Names, name_of

# Chances to win given away, beyond twice the noise. A mistake is 4 in 100, twice the 2 an
# independent reference of play-outs to the end calls a real mistake: the play-outs here end
# in the learned value after a few rounds, and its own error is not in their noise (README,
# "Teaching": measured against that reference, a 2-point bar named mistakes it did not find).
INACCURACY, MISTAKE, BLUNDER = 0.01, 0.04, 0.12
SIZES = {"an inaccuracy": INACCURACY, "a mistake": MISTAKE, "a blunder": BLUNDER}  # each size's bar, smallest first
MISTAKE_WORDS = tuple(word for word, bar in SIZES.items() if bar >= MISTAKE)
BEYOND_NOISE = 2.0  # standard errors of the paired difference a size must clear
SETTLE_ROUNDS, SETTLE_DEALS = 8, 32  # the play-outs that may name a mistake: longer than a bot's look
RIVALS = 6  # the choices that keep a joker played out against a joker played
LOOKED_AHEAD = 2  # the quick judge's best few played on beside the move made
Chances = dict[tuple[int, ...], float]


class Outcome(NamedTuple):
    """A move's verdict: the best choice, the move made, what it gave away (the mean), its size
    word (None: as good as the best, near enough) and the part of the loss clear of the noise,
    which the size is named from (a family is told both: "about 2 to 7 in 100")."""

    best: Verdict
    mine: Verdict
    lost: float
    size: str | None
    clear: float = 0.0


@dataclass(frozen=True)
class Known:
    """What the seat knew when it played: its cards (as far as the referee knew them) and
    the cards it could not see."""

    cards: tuple[str, ...]
    card: str | None  # the card played (digital: from the hand; at a table: the one declared)
    hidden: Hidden
    drawn: str | None = None  # the card the seat drew last, where the referee dealt it


@dataclass(frozen=True)
class Judged:
    entry: dict[str, Any]
    seat: int
    before: Chances  # every team's chance before the move (its seat to play)
    after: Chances  # and after it
    doubt: Doubt | None = None  # a loss the play-outs are yet to settle
    told: Told | None = None

    def settle(self, budget: Budget | None) -> None:
        """The doubt settled by play-outs within ``budget``, the entry told again."""
        if self.doubt is None or self.told is None:
            return
        outcome = settle(self.doubt, budget)
        if outcome is not None:
            self.entry.update(self.told.parts(outcome))


def known_at(game: Game, event: ev.Play, drawn: str | None = None) -> Known | None:
    """At a play event, before the card leaves the hand: the cards the referee knew."""
    hidden = Hidden.of(game, event.seat)
    if game.mode == "digital":
        return Known(tuple(game.hand(event.seat)), event.card, hidden, drawn)
    card = event.declared or event.card  # Bluffing Joker: the card announced
    return Known((card,), card, hidden) if card else None


def judge_move(game: Game, event: ev.Move, known: Known | None, names: Names, number: int) -> Judged:
    """One accepted move, judged against the best its known cards allowed."""
    position, board = game.position, game.board
    made = _made(game, event)
    before = chances(position.with_turn(event.seat))
    after = chances(made.result.with_turn(board.next_seat(event.seat)))
    team = board.team_of[event.seat]
    entry: dict[str, Any] = {
        "number": number,
        "turn": game.turn_number,
        "seat": event.seat,
        "name": name_of(names, event.seat),
        "move": event.text,
        "words": said_with_pegs(made, names) + _free(event),
        "cards": list(known.cards) if known else None,
        "judged": known is not None,
        "best": None,
        "played": None,
        "chance": round(after[team], 3),
        "lost": None,
        "luck": None,
        "size": None,
        "lost_clear": None,
        "note": None,
    }
    if known is None:
        entry["said"] = entry["words"] + "."
        return Judged(entry, event.seat, before, after)
    judged = _judged(game, event, made, known, names, number, entry["words"])
    entry.update(judged.entry)
    return Judged(entry, event.seat, before, after, judged.doubt, judged.told)


def _judged(game: Game, event: ev.Move, made: Move, known: Known, names: Names, number: int, words: str) -> Judged:
    choices = choices_for(game.position, game.rules, known.cards)
    if game.mode == "table":  # one declared card: "keep the joker" needs the whole hand
        choices = [choice for choice in choices if choice.move is not None]
    if event.free:  # counting: the free come-out was one more choice
        choices += [Choice(move.card, move) for move in game.free_come_outs(known.card or event.text.split()[0])]
    played = next((c for c in choices if c.move is not None and c.move.text == event.text), None)
    if played is None:  # a free come-out, a bluff, or a move the card did not explain
        played = Choice(known.card or made.card, made)
        choices.append(played)
    outcome, doubt = screen(game, choices, played, known, number)
    told = Told(game.rules, words, names, len(known.cards) > 1, name_of(names, event.seat))
    entry = {"luck": _luck(game, known), **told.parts(outcome)}
    return Judged(entry, event.seat, {}, {}, doubt, told)


@dataclass(frozen=True)
class Told:
    """What a judged move's words need beside its verdict, kept so that a verdict the
    play-outs change is told again."""

    rules: Ruleset
    words: str
    names: Names
    hand: bool
    mover: str  # the seat's name: the hints' "your peg" is told to the table as "Red's peg"

    def parts(self, outcome: Outcome) -> dict[str, Any]:
        best, mine, lost, size, clear = outcome
        names, shown_clear = self.names, _shown_clear(size, clear)
        shown = hints_of([best, mine], self.rules) if best is not mine else hints_of([mine], self.rules) * 2
        best_hint, played_hint = shown if best is not mine else (None, None)  # None: the move made was the best
        return {
            "best": _best_json(shown[0], names, self.mover),
            "played": {"why": in_third_person(shown[1].words_why(names), self.mover), "note": None},
            "lost": lost,
            "size": size,
            "lost_clear": shown_clear,
            "note": (played_hint.note if played_hint and played_hint.breaks else best_hint.note)
            if size and best_hint
            else None,
            "said": _said(self.words, best_hint, played_hint, (shown_clear, lost), size, names, self.hand, self.mover),
        }


@dataclass(frozen=True)
class Doubt:
    """A loss the one-round look-ahead saw, to be confirmed by play-outs (``settle``)."""

    position: Position
    rules: Ruleset
    best: Verdict
    mine: Verdict
    hidden: Hidden
    seed: int
    rivals: tuple[Verdict, ...] = ()  # other choices that might be the best (a joker kept)

    @property
    def lost(self) -> float:
        return self.best.chance - self.mine.chance


def assess(game: Game, choices: list[Choice], played: Choice, known: Known, number: int) -> Outcome:
    """The best choice, the one played, what it gave away and its size word (None: as good as
    the best, near enough): ``screen``, then ``settle`` with no limit on the play-outs."""
    outcome, doubt = screen(game, choices, played, known, number)
    if doubt is None:
        return outcome
    return settle(doubt, None) or outcome


def screen(
    game: Game, choices: list[Choice], played: Choice, known: Known, number: int
) -> tuple[Outcome, Doubt | None]:
    """The quick judge first; where it sees a loss, the best few and the move made played on
    one round over sampled deals. A loss that still shows is a ``Doubt`` for the play-outs;
    until they settle it, it is at most "an inaccuracy": only play-outs name a mistake."""
    quick = judge(game.position, game.rules, choices, also=played)
    best, mine = quick[0], _find(quick, played)
    lost = round(max(0.0, best.chance - mine.chance), 3)
    if lost < INACCURACY:
        return Outcome(best, mine, lost, None), _joker_doubt(game, quick, mine, known, number)
    rng = random.Random(number)
    ahead = judge(game.position, game.rules, choices, known.hidden, rng, LOOKED_AHEAD, also=played)
    best, mine = ahead[0], _find(ahead, played)
    lost = max(0.0, best.chance - mine.chance)
    if best.choice == mine.choice or lost < INACCURACY:
        return Outcome(best, mine, round(lost, 3), None), None
    sure = lost - BEYOND_NOISE * noise(best, mine)
    outcome = Outcome(best, mine, round(lost, 3), "an inaccuracy" if sure >= INACCURACY else None, round(sure, 3))
    return outcome, Doubt(game.position, game.rules, best, mine, known.hidden, number)


def _joker_doubt(game: Game, quick: list[Verdict], mine: Verdict, known: Known, number: int) -> Doubt | None:
    """A joker played where another card moved (or the joker could be kept): the value reads
    no worth in a joker kept for a later bump, so the best choice that keeps it is a doubt for
    the play-outs too, settled after the losses the look-ahead saw."""
    if mine.card != JOKER or mine.move is None:
        return None
    keeps = [v for v in quick if v.card != JOKER or v.move is None][:RIVALS]
    if not keeps:
        return None
    return Doubt(game.position, game.rules, keeps[0], mine, known.hidden, number, tuple(keeps[1:]))


def settle(doubt: Doubt, budget: Budget | None) -> Outcome | None:
    """The doubt's best and the move made played on for several rounds over the same deals
    (``referee.coach.rollout``); a size is named only where the paired loss clears it beyond
    twice its standard error. A loss that clears a mistake is played again on fresh deals,
    and the size is named from those: of the many doubts in a game, the ones whose deals ran
    unluckily clear the bar first, so the deals that chose a mistake overstate it (measured:
    of 10 such "mistakes" the reference did not find, 7 fell short on fresh deals, and 2 of
    13 real ones). None: the budget ran out before a play-out."""
    if doubt.rivals:  # the best of the choices that keep the joker, by a batch of play-outs
        rival = _best_rival(doubt, budget)
        if rival is None:
            return None
        doubt = rival
    rng = random.Random(doubt.seed)
    found = _played_on(doubt, rng, budget)
    if found is None:
        return None
    outcome = _outcome(doubt, *found)
    if outcome.size not in MISTAKE_WORDS:
        return outcome
    again = _played_on(doubt, rng, budget)  # the same generator, drawn on: fresh deals
    if again is None:  # no budget left to measure it again: at most an inaccuracy
        return outcome._replace(size="an inaccuracy")
    return _outcome(doubt, *again)


def _played_on(doubt: Doubt, rng: random.Random, budget: Budget | None) -> tuple[float, float] | None:
    pair = (doubt.best.choice, doubt.mine.choice)
    return confirm(doubt.position, doubt.rules, pair, doubt.hidden, rng, _settled, budget, SETTLE_DEALS, SETTLE_ROUNDS)


def _outcome(doubt: Doubt, lost: float, error: float) -> Outcome:
    if lost < 0:  # the play-outs prefer the move made: it was as good as the best
        return Outcome(doubt.mine, doubt.mine, 0.0, None)
    sure = lost - BEYOND_NOISE * error  # the loss that stands clear of the noise
    return Outcome(
        doubt.best, doubt.mine, round(lost, 3), size_word(sure) if sure >= INACCURACY else None, round(sure, 3)
    )


def _best_rival(doubt: Doubt, budget: Budget | None) -> Doubt | None:
    """The doubt against the one of its rivals that does best over a batch of play-outs."""
    rivals = (doubt.best, *doubt.rivals)
    deals = BATCH // 2  # a first look: the pair is then settled over the full batches
    if budget is not None and not budget.spend(len(rivals) * deals * ROUNDS * doubt.position.board.players):
        return None
    rng = random.Random(doubt.seed)
    rolled = rollouts(doubt.position, doubt.rules, [v.choice for v in rivals], doubt.hidden, rng, deals)
    best = max(zip(rolled, rivals, strict=True), key=lambda pair: pair[0].chance)[1]
    return replace(doubt, best=best, rivals=())


def _settled(lost: float, error: float) -> bool:
    """Whether the play-outs may stop before their last deal: only when the loss is short of
    a mistake however the noise falls. A mistake is named on every deal: stopping at the first
    batch that clears the bar names mistakes the later deals would not (a standard error
    read off 8 or 16 deals is itself noisy, and a test repeated after every batch clears a
    bar by luck far more often than once in 40)."""
    return lost + BEYOND_NOISE * error < MISTAKE


def _luck(game: Game, known: Known) -> float | None:
    """The drawn card's worth against an average draw, where the referee dealt it."""
    if known.drawn is None or known.drawn not in known.cards:
        return None
    kept = list(known.cards)
    kept.remove(known.drawn)
    return round(luck(game.position, game.rules, kept, known.drawn, known.hidden.unseen), 3)


def size_word(lost: float) -> str:
    """The largest size whose bar ``lost`` reaches (an inaccuracy below every bar)."""
    return next((word for word, bar in reversed(SIZES.items()) if lost >= bar), "an inaccuracy")


def _find(verdicts: list[Verdict], choice: Choice) -> Verdict:
    return next(verdict for verdict in verdicts if verdict.choice == choice)


def _best_json(hint: Hint, names: Names, mover: str) -> dict[str, Any]:
    return {
        "move": hint.move.text if hint.move else None,
        "words": in_third_person(hint.words(names), mover),  # "Keep your joker …": the table reads it
        "why": in_third_person(hint.words_why(names), mover),
        "note": hint.note,
    }


def _made(game: Game, event: ev.Move) -> Move:
    """The move an event names, from the position before it (a free come-out too)."""
    if event.free:
        for move in game.free_come_outs(event.text.split()[0]):
            if move.text == event.text:
                return move
    return parse_move(game.position, event.text, game.rules)


def _free(event: ev.Move) -> str:
    return " (free, after turns without moving)" if event.free else ""


def _said(
    words: str,
    best: Hint | None,
    played: Hint | None,
    loss: tuple[float | None, float],  # the part clear of the noise as shown, the mean
    size: str | None,
    names: Names,
    hand: bool,
    mover: str,
) -> str:
    with_what = "that hand" if hand else "that card"
    if best is None or played is None:
        return f"{words}: the best move with {with_what}."
    better = best.words(names) if best.move is not None else _lower_first(best.words(names))
    better = in_third_person(better, mover)
    if size is None:
        return f"{words}: as good as the best move with {with_what}, near enough ({better})."
    gave = given_away(*loss)
    return f"{words}: {size} ({gave}). Better: {better}. {in_third_person(best.words_why(names), mover)}"


def given_away(clear: float | None, lost: float) -> str:
    """The loss in words people feel, from the part clear of the noise to the mean: "about 2
    to 7 in 100 chances to win given away" (the mean alone, where the two round alike)."""
    high = max(1, round(lost * 100))
    low = min(high, max(1, round((clear if clear is not None else lost) * 100)))
    span = f"{low} to {high}" if low < high else f"{high}"
    return f"about {span} in 100 chances to win given away"


def _shown_clear(size: str | None, clear: float) -> float | None:
    """The loss clear of the noise as a size's words may show it: below the next size's bar
    (a mistake the budget could not measure again is "an inaccuracy", its low end 3)."""
    if size is None:
        return None
    bars = list(SIZES.values())
    above = bars[list(SIZES).index(size) + 1 :]  # the next size's bar, none above a blunder
    return round(min(clear, above[0] - 0.01), 3) if above else clear


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]
