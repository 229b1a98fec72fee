"""The first lesson at the table: the steps of ``referee.coach.lesson`` done one by one on the
board, as a patient teacher at the table would run them.

    run = LessonRun.start(store, Ruleset.preset("basic"), players=4, learners=[0])
    spec = run.game()                   # the step's position: the table starts it as a game
    run.opened(session)                 # the board is being set up: nothing counts yet
    run.sensed(session, holes)          # each change while setting up; True once it is set up
    run.follow(session)                 # after every change: a move made is judged

Each step is a small game of its own, stored like any game (kept out of the games played) and
started from the step's position with the learner to play. While the board is set up, the
lights and the page say where pegs go and nothing counts; once the board shows the position,
the step's card is declared for the learner, so only that card's moves count. A committed move
that shows the idea is praised; a legal move that does not is taken back (the board is put
back as after an undo) with the reason, and so is a board that is no move at all when Done is
pressed. After two tries, or when asked, the lights show the answer. The progress is stored at
every change, so a lesson left, or a daemon restarted, goes on where it stopped.

The learners do each step in turn (the whole table), or one seat does them while the others
watch. The last step is a short practice game: the other seats are bots, hints are on.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Any, Literal, Protocol

from referee.board import Board
from referee.coach.lesson import PRACTICE_BOTS, Step, lesson, places, the_card
from referee.game import GameError
from referee.physical import PhysicalBoard
from referee.rulesets import Ruleset, RulesetError, from_mapping
from referee.table.reading import why_not_shown
from referee.table.salvage import DAMAGED
from referee.table.seat_bots import Plan
from referee.table.seating import default_table
from referee.table.seating import seats as seat_list
from referee.table.session import Session
from referee.tracker import Candidates, Fix
from referee.words import Names, fix_words, name_of, say

Phase = Literal["setup", "look", "play", "passed", "practice", "finished"]
SHOW_AFTER_TRIES = 2
NOTHING = Candidates(())  # while setting up, looking, or after the step is done: no move counts


class LessonStore(Protocol):
    """What a lesson needs of the store (``referee.table.store.Store``)."""

    def create_lesson(self, state: dict[str, Any]) -> int: ...

    def save_lesson(self, lesson_id: int, state: dict[str, Any]) -> None: ...


class LessonError(ValueError):
    """A stored lesson that cannot go on (its rules or its step no longer make sense)."""


@dataclass
class Progress:
    """Where a lesson stands: stored as JSON after every change."""

    rules: dict[str, Any]  # the rule set's mapping (a house-rules file's too)
    players: int
    learners: list[int]  # the seats that do the steps, in turn
    step: int = 0
    turn: int = 0  # which learner does the step now (an index into ``learners``)
    phase: Phase = "setup"
    tries: int = 0
    shown: bool = False  # the answer is lit on the board
    feedback: dict[str, str] | None = None  # {"kind": "praise" | "wrong" | "done", "words": ...}
    game: int | None = None  # the step's game in the store
    judged: int = 0  # the step game's moves already judged
    place: str | None = None  # the first step's place lit on the board
    left: bool = False  # left for a game: "Learn to play" offers to go on

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Progress:
        try:
            progress = cls(**data)
        except TypeError as error:
            raise LessonError(f"the stored lesson cannot be read: {error}") from None
        if not isinstance(progress.learners, list) or not progress.learners:
            raise LessonError("the stored lesson has no learners")
        wrong = [name for name, ok in progress._fields_ok().items() if not ok]
        if wrong:  # a row read from the card: one flipped bit must not reach the page as a traceback
            raise LessonError(f"the stored lesson's {', '.join(wrong)} cannot be right")
        return progress

    def _fields_ok(self) -> dict[str, bool]:
        """Each stored field of a plausible type and range (the rest is checked by ``LessonRun``)."""

        def count(value: object) -> bool:
            return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 10_000

        return {
            "rules": isinstance(self.rules, dict),
            "players": self.players in (4, 6, 8, 10) and count(self.players),
            "learners": all(count(seat) for seat in self.learners),
            "step": count(self.step),
            "turn": count(self.turn) and self.turn < len(self.learners),
            "phase": self.phase in ("setup", "look", "play", "passed", "practice", "finished"),
            "tries": count(self.tries),
            "shown": isinstance(self.shown, bool),
            "feedback": self.feedback is None or isinstance(self.feedback, dict),
            "game": self.game is None or isinstance(self.game, int) and not isinstance(self.game, bool),
            "judged": count(self.judged),
            "place": self.place is None or isinstance(self.place, str),
            "left": isinstance(self.left, bool),
        }


@dataclass(frozen=True)
class StepGame:
    """The game a step needs: the table starts it (``Table._open_step``)."""

    rules: Ruleset
    players: int
    pegs: dict[str, list[str]]
    first: int
    table: dict[str, Any] = field(default_factory=dict)  # {"lesson_step": id}; practice: {"lesson": id}, bots


class LessonRun:
    """One first lesson being taught: its step, its progress (stored) and what it asks of the board."""

    def __init__(self, store: LessonStore, lesson_id: int, progress: Progress) -> None:
        self.store = store
        self.id = lesson_id
        self.progress = progress
        try:
            self.rules = from_mapping(progress.rules)
        except (RulesetError, TypeError, ValueError) as error:
            raise LessonError(f"the stored lesson's rules cannot be read: {error}") from None
        self.board = Board.for_players(progress.players)
        if not set(progress.learners) <= set(self.board.seats):
            raise LessonError("the stored lesson's learners are not seats of its board")
        self.names: Names = dict(zip(self.board.seats, default_table(progress.players)["names"], strict=True))
        self._steps: dict[int, list[Step]] = {}
        self._tried: int | None = None  # the board of the last try refused at Done
        try:
            steps = len(self.steps)
        except DAMAGED as error:  # the rules read, but make no lesson: as damaged as a bad row
            raise LessonError(f"the stored lesson's steps cannot be made: {error}") from None
        if not 0 <= progress.step < steps:
            raise LessonError("the stored lesson's step is not one of its steps")

    @classmethod
    def start(cls, store: LessonStore, rules: Ruleset, players: int, learners: list[int]) -> LessonRun:
        board = Board.for_players(players)
        if players < 4:
            raise ValueError("a lesson needs 4, 6, 8 or 10 players: partners are part of it")
        if not learners or len(set(learners)) != len(learners) or not set(learners) <= set(board.seats):
            raise ValueError(f"the learners are seats of the board ({', '.join(map(str, board.seats))}), each once")
        progress = Progress(rules.to_mapping(), players, sorted(learners))
        return cls(store, store.create_lesson(asdict(progress)), progress)

    @classmethod
    def resume(cls, store: LessonStore, lesson_id: int, state: dict[str, Any]) -> LessonRun:
        return cls(store, lesson_id, Progress.from_json(state))

    # -- what the step is -----------------------------------------------------------------

    @property
    def learner(self) -> int:
        return self.progress.learners[self.progress.turn]

    @property
    def steps(self) -> list[Step]:
        """The steps, as the learner now doing them sees them (the positions are theirs)."""
        learner = self.learner
        if learner not in self._steps:
            self._steps[learner] = lesson(self.rules, self.progress.players, self.names, learner=learner)
        return self._steps[learner]

    @property
    def step(self) -> Step:
        return self.steps[self.progress.step]

    def game(self) -> StepGame:
        step, progress = self.step, self.progress
        assert step.position is not None
        practice = step.key == "practice"
        table: dict[str, Any] = {"lesson" if practice else "lesson_step": self.id}  # a step is not a game played
        if practice:
            others = [seat for seat in self.board.seats if seat not in progress.learners]
            table.update(teaching=True, **({"bots": {str(seat): PRACTICE_BOTS for seat in others}} if others else {}))
        return StepGame(self.rules, progress.players, step.position.pegs_json(), self.learner, table)

    # -- the table tells the lesson ---------------------------------------------------------

    def opened(self, session: Session) -> None:
        """The step's game has started: the board is set up before anything counts."""
        progress = self.progress
        progress.game, progress.judged, progress.tries, progress.shown = session.game_id, 0, 0, False
        progress.feedback, progress.place, progress.phase = None, None, "setup"
        self._tried = None
        self._hold(session)
        self._save()

    def go_on(self) -> None:
        """A lesson left for a game goes on: at the next step if this one was done."""
        self.progress.left = False
        if self.progress.phase in ("passed", "finished") and self.progress.step + 1 < len(self.steps):
            self.next()

    def resumed(self, session: Session) -> None:
        """The daemon restarted on the step's game: the tracker's turn was stored without the hold."""
        self._hold(session)

    def sensed(self, session: Session, sensed: list[str]) -> bool:
        """A change while the board is set up (or any change, on a simulated board that set
        itself): whether the lesson took it. Once the board shows the position, the step begins."""
        if self.progress.phase != "setup":
            return False
        if not self.setup(session, sensed):
            session.reconcile(sensed)
            step = self.step
            self.progress.phase = "practice" if step.key == "practice" else "look" if step.card is None else "play"
            self._hold(session)
            self._save()
        return True

    def follow(self, session: Session) -> None:
        """After any change: judge a move the learner made, and follow an undo."""
        progress, game = self.progress, session.game
        if session.report.status != "illegal":
            self._tried = None  # the board was put right: the next refusal is a new try
        if progress.phase == "finished" and game.phase != "over":  # the winning move undone: play on
            progress.phase, progress.feedback = "practice", None
            self._save()
        if progress.phase == "practice":
            if game.phase == "over":
                progress.phase = "finished"
                winners = " and ".join(name_of(_names(session), seat) for seat in game.winner or ())
                progress.feedback = {
                    "kind": "done",
                    "words": f"{winners} won the practice game. That is the whole "
                    "lesson: you know the game now. Start a real one whenever you like.",
                }
                self._save()
            return
        while progress.phase == "play" and game.phase == "doubt" and game.doubter_to_answer is not None:
            session.doubt(game.doubter_to_answer, False)  # Bluffing Joker: nobody doubts a learner
            game = session.game
        moves = len(game.moves)
        if progress.phase in ("play", "passed") and moves < progress.judged:  # undone by hand: try again
            progress.judged, progress.phase, progress.feedback = moves, "play", None
            self._hold(session)
            self._save()
            return
        if progress.phase != "play" or moves <= progress.judged:
            return
        seat, _text = game.history[-1]
        move = game.made[-1]
        progress.judged = moves
        names = _names(session)
        if seat == self.learner and self.step.shows_the_idea(move):
            progress.phase = "passed"
            progress.feedback = {"kind": "praise", "words": f"Well done! {say(move, names)}."}
            self._hold(session)
        else:
            self._wrong(self.step.missed(move, names))
            session.undo()
            progress.judged = len(session.game.moves)
            self._hold(session)
            session.notice = None  # the lesson's words say it
        self._save()

    def done_pressed(self, session: Session) -> None:
        """Done on a board that is no move of the card: a try, with the reason when one peg moved.
        Done while there is nothing to do says what to do instead."""
        phase = self.progress.phase
        if phase in _DONE_WHILE:
            session.notice = _DONE_WHILE[phase]
            return
        if phase != "play" or session.report.status != "illegal":
            return
        if self._tried == session.tracker.occupied:
            return  # Done pressed again on the same board: the same try
        self._tried = session.tracker.occupied
        reason = why_not_shown(session) or f"That is not a move {the_card(self.step.card or '')} can make here."
        self._wrong(f"{reason} {self.step.task}")
        session.notice = None
        self._save()

    def check(self, request: str, card: str | None = None) -> None:
        """What a step's game refuses: a discard (the step's card always moves) or another card.
        The practice game is a game like any other."""
        step = self.step
        if self.progress.phase in ("practice", "finished") or step.card is None:
            return
        if request == "discard":
            raise GameError(
                f"In this step {the_card(step.card)} always moves: make the move, press Show me, or skip the step"
            )
        if request == "declare" and card != step.card:
            raise GameError(f"This step is about {the_card(step.card)}: play that card")

    # -- the people at the table ask --------------------------------------------------------

    def next(self) -> None:
        """On to the next learner, or the next step once every learner has done this one."""
        progress = self.progress
        if progress.phase in ("setup", "play") and self.step.card is not None:
            raise ValueError("this step is not done yet: make the move, or skip the step")
        if progress.phase == "finished":
            raise ValueError("the lesson is finished")
        if progress.turn + 1 < len(progress.learners):
            progress.turn += 1
        else:
            self.skip()

    def skip(self) -> None:
        progress = self.progress
        if progress.step + 1 >= len(self.steps):
            raise ValueError("this is the last step: play the practice game, or leave the lesson")
        progress.step, progress.turn = progress.step + 1, 0

    def show(self) -> None:
        """Light the answer (a patient teacher shows it when asked)."""
        if self.progress.phase != "play":
            raise ValueError("there is no move to show now")
        self.progress.shown = True
        self._save()

    def show_place(self, key: str | None) -> None:
        """The first step: light one of the learner's places on the board (None: none)."""
        known = {place.key for place in places(self.board, {}, self.learner)}
        if key is not None and key not in known:
            raise ValueError(f"'place' is one of {', '.join(sorted(known))}")
        self.progress.place = key
        self._save()

    def leave(self) -> None:
        self.progress.left = True
        self._save()

    # -- what the board and the page show ---------------------------------------------------

    def setup(self, session: Session, sensed: list[str]) -> list[Fix]:
        """What to do to the board to show the step's position: pegs to put in (with their
        colour) and pegs to take out. Start pegs may stand in any of their start holes."""
        physical = PhysicalBoard(session.game.board)
        holes = [physical.index(name) for name in sensed if not name.startswith("C")]
        wanted = set(physical.arrange(session.game.position, holes))
        position = session.game.position
        fixes = [Fix("remove", physical.name(hole)) for hole in sorted(set(holes) - wanted)]
        for hole in sorted(wanted - set(holes)):
            name = physical.name(hole)
            seat = int(name[1:].split(":")[0]) if name.startswith("S") else position.colour_at(hole)
            fixes.append(Fix("place", name, seat))
        return fixes

    def lights(self, session: Session, sensed: list[str]) -> dict[str, str]:
        """The LEDs the lesson adds: the set-up's fixes, a place of the first step, the answer."""
        progress = self.progress
        if progress.phase == "setup":
            return {fix.hole: "put-back" if fix.action == "place" else "wrong" for fix in self.setup(session, sensed)}
        if progress.phase == "look" and progress.place is not None:
            chosen = next(place for place in places(self.board, {}, self.learner) if place.key == progress.place)
            return dict.fromkeys(chosen.holes, "hint")
        if self.answer_lit and self.step.passes and session.game.turn == self.learner and session.game.phase == "play":
            return Plan(self.learner, self.step.passes[0].card, self.step.passes[0]).lights(session)
        return {}

    def as_json(self, session: Session, sensed: list[str]) -> dict[str, Any]:
        progress, step, names = self.progress, self.step, _names(session)
        learner = self.learner
        return {
            "id": self.id,
            "rules": self.rules.name,
            "players": progress.players,
            "step": progress.step + 1,
            "steps": len(self.steps),
            "key": step.key,
            "title": step.title,
            "teach": step.teach,
            "task": step.task,
            "card": step.card,
            "phase": progress.phase,
            "learner": learner,
            "learner_name": name_of(names, learner),
            "learners": [{"seat": seat, "name": name_of(names, seat)} for seat in progress.learners],
            "setup": _setup_words(self.setup(session, sensed), names) if progress.phase == "setup" else [],
            "feedback": progress.feedback,
            "tries": progress.tries,
            "shown": self.answer_lit,
            "places": [{"key": place.key, "words": place.words} for place in places(self.board, names, learner)]
            if step.key == "board"
            else [],
            "place": progress.place,
            "last_step": progress.step + 1 == len(self.steps),
            "more_learners": progress.turn + 1 < len(progress.learners),
        }

    @property
    def answer_lit(self) -> bool:
        """After two tries, or when asked, the lights show the step's move."""
        progress = self.progress
        return progress.phase == "play" and (progress.shown or progress.tries >= SHOW_AFTER_TRIES)

    def fingerprint(self) -> tuple[object, ...]:
        """What of the lesson the page shows: when it changes, the page is told."""
        progress = self.progress
        return (
            self.id,
            progress.step,
            progress.turn,
            progress.phase,
            progress.tries,
            progress.shown,
            progress.place,
            str(progress.feedback),
            progress.left,
        )

    def summary(self) -> dict[str, Any]:
        """A lesson left for a game: what "Learn to play" offers to go on with."""
        return {
            "id": self.id,
            "rules": self.rules.name,
            "players": self.progress.players,
            "step": self.progress.step + 1,
            "steps": len(self.steps),
            "title": self.step.title,
        }

    # -- helpers ----------------------------------------------------------------------------

    def _wrong(self, words: str) -> None:
        progress = self.progress
        progress.tries += 1
        shown = " The lights now show the answer." if progress.tries == SHOW_AFTER_TRIES else ""
        progress.feedback = {"kind": "wrong", "words": f"Not quite: {words}{shown}"}

    def _hold(self, session: Session) -> None:
        """Only the step's card counts, and only while the learner is to make the step's move."""
        if self.progress.phase in ("practice", "finished"):
            return
        if self.progress.phase == "play" and session.game.turn == self.learner and session.game.phase == "play":
            assert self.step.card is not None
            if session.declared != self.step.card:
                session.declare(self.learner, self.step.card)
            session.notice = None
        else:
            session.tracker.restrict(NOTHING)

    def _save(self) -> None:
        self.store.save_lesson(self.id, asdict(self.progress))


_DONE_WHILE = {
    "setup": "Set the board up first: the lights and the list show where pegs go.",
    "look": "Nothing to move in this step: look at the board, then press Next.",
    "passed": "This step is done: press Next.",
}


def _setup_words(fixes: list[Fix], names: Names) -> list[str]:
    """The set-up in sentences: one per hole on the track or in a home, one per start area."""
    said, starts = [], Counter[tuple[str, int]]()
    for fix in fixes:
        if fix.hole.startswith("S"):
            starts[fix.action, int(fix.hole[1:].split(":")[0])] += 1
        else:
            said.append(fix_words(fix.action, fix.hole, fix.seat, names, back=False))
    for (action, seat), count in sorted(starts.items()):
        pegs, whose = "a peg" if count == 1 else f"{count} pegs", name_of(names, seat)
        said.insert(
            0, f"take {pegs} out of {whose}'s start" if action == "remove" else f"put {pegs} back in {whose}'s start"
        )
    return said


def _names(session: Session) -> Names:
    return {seat["seat"]: seat["name"] for seat in seat_list(session.game)}
