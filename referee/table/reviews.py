"""Game reviews made in the background, one game at a time, and kept in the store.

A review replays the whole game and ranks every move (``referee.coach.review``): a few
tenths of a second for a 4-player game here, a few seconds on a Pi Zero 2 W. Nobody should
wait for it with the page frozen, so a worker thread makes it while the page shows how far
it has got, and the store keeps it: opening it again reads one row.

    reviews = Reviews(store)
    reviews.status(7)     # {"state": "working", "done": 120, "total": 300}, then
                          # {"state": "done", "review": {...}}; a game not over: GameError

A game that stopped unfinished is reviewed up to where it stopped, without the cards: a
review of a game not over shows no hand and no better move a hand allowed
(``review.without_cards``), since the game may yet go on; it is made again when the game
has moved on since. The worker gives the interpreter back between moves, so a sensor event
never waits more than one move's judging for it.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections import deque
from typing import Any

from referee import events as ev
from referee import record
from referee.coach import review
from referee.events import Event
from referee.game import GameError
from referee.table.store import Store, StoreError

log = logging.getLogger("pegs.reviews")
Json = dict[str, Any]


def not_over(game_id: int) -> GameError:
    return GameError(f"game {game_id} is being played: its review opens once the game is won or left for another")


class _Stopped(Exception):
    """The table is stopping: the review in hand is dropped (it is made again when asked)."""


KEPT_READ = 4  # reviews kept parsed (the ones being looked at)


class Reviews:
    """Finished games' reviews, made one at a time on a worker thread and stored."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._lock = threading.Lock()
        self._queue: deque[int] = deque()
        self._progress: dict[int, tuple[int, int]] = {}  # game -> (moves done, moves in all), queued or working
        self._failed: dict[int, str] = {}
        self._made: dict[int, str] = {}  # made but not stored (the store failed): kept for this run
        self._ready: set[int] = set()  # games whose review is stored (prepare is asked at every change)
        self._read: dict[int, tuple[str, Json]] = {}  # the last texts read, parsed once: asked again, the same object
        self._worker: threading.Thread | None = None
        self._stop = threading.Event()

    def status(self, game_id: int) -> Json:
        """A game's review: done, or how far the worker has got (it starts now if it had
        not). No such game: StoreError. The table refuses the game in play before asking."""
        stored = self._stored(game_id)
        stale = stored is not None and self._stale(game_id, stored)
        if stored is not None and not stale:
            return {"state": "done", "review": stored}
        with self._lock:
            if game_id in self._progress:
                done, total = self._progress[game_id]
                return {"state": "working", "done": done, "total": total}
            if game_id in self._failed:  # said once; asking again tries again
                return {"state": "failed", "error": self._failed.pop(game_id)}
        events = self.store.events(game_id)
        try:
            record.replay(events)
        except record.RecordError as error:
            return {"state": "failed", "error": f"this game's record does not replay: {error}"}
        self.prepare(game_id, events, again=stale)
        with self._lock:
            done, total = self._progress.get(game_id, (0, 0))
        return {"state": "working", "done": done, "total": total}

    def prepare(self, game_id: int, events: list[Event] | None = None, again: bool = False) -> None:
        """Make a game's review in the background, unless it is made (and not ``again``) or
        on its way (the table calls this as a game ends, so that the review is ready when asked for)."""
        with self._lock:
            if game_id in self._ready or game_id in self._progress or game_id in self._failed or self._stop.is_set():
                return
        if not again and (game_id in self._made or self.store.review(game_id, review.VERSION) is not None):
            self._ready.add(game_id)
            return
        total = sum(1 for event in events if isinstance(event, ev.Move)) if events is not None else 0
        with self._lock:
            if game_id in self._progress:
                return
            self._progress[game_id] = (0, total)
            self._queue.append(game_id)
            if self._worker is None or not self._worker.is_alive():
                self._worker = threading.Thread(target=self._work, name="pegs-reviews", daemon=True)
                self._worker.start()

    def close(self, timeout: float = 2.0) -> None:
        """Stop the worker (between two moves) before the store closes."""
        self._stop.set()
        worker = self._worker
        if worker is not None:
            worker.join(timeout)

    def _stale(self, game_id: int, stored: Json) -> bool:
        """A review of a game not over is stale once more moves stand in its record; a review of
        a game won, once the win is undone (it shows every hand: never served for a game that
        may go on). Either is made again."""
        game = stored.get("game")
        if not isinstance(game, dict):
            return False
        if game.get("over"):
            if self.store.won(game_id):
                return False
        else:
            moves = sum(1 for event in record.effective(self.store.events(game_id)) if isinstance(event, ev.Move))
            if moves == game.get("moves"):
                return False
        with self._lock:
            self._ready.discard(game_id)
            self._made.pop(game_id, None)
        return True

    def _stored(self, game_id: int) -> Json | None:
        text = self._made.get(game_id) or self.store.review(game_id, review.VERSION)
        if text is None:
            return None
        with self._lock:
            known = self._read.get(game_id)
        if known is not None and known[0] == text:
            return known[1]  # a review is hundreds of KB: parsed once, not at every asking
        try:
            data = json.loads(text)
        except ValueError:  # a damaged row: made again
            return None
        if not isinstance(data, dict):
            return None
        with self._lock:
            self._read = {**dict(list(self._read.items())[-(KEPT_READ - 1) :]), game_id: (text, data)}
        return data

    def _work(self) -> None:
        while not self._stop.is_set():
            with self._lock:
                if not self._queue:
                    self._worker = None
                    return
                game_id = self._queue[0]
            try:
                self._make(game_id)
            except _Stopped:
                return
            except (StoreError, record.RecordError) as error:
                self._fail(game_id, str(error))
            except Exception as error:  # a bug must not end the worker silently: said on the page and logged
                log.exception("review failed", extra={"game": game_id})
                self._fail(game_id, f"the review could not be made: {error}")
            finally:
                with self._lock:
                    self._queue.popleft()
                    self._progress.pop(game_id, None)

    def _make(self, game_id: int) -> None:
        began = time.perf_counter()

        def progress(done: int, total: int) -> None:
            with self._lock:
                self._progress[game_id] = (done, total)
            if self._stop.is_set():
                raise _Stopped
            time.sleep(0)  # let the sensor and page threads in between two moves

        made = review.review(self.store.events(game_id), progress)
        if not made["game"]["over"]:
            made = review.without_cards(made)
        text = json.dumps(made, separators=(",", ":"))
        try:
            self.store.save_review(game_id, review.VERSION, text)
            self._ready.add(game_id)
        except StoreError as error:
            log.error("review not stored", extra={"game": game_id, "error": str(error)})
            self._made[game_id] = text
        log.info("review made", extra={"game": game_id, "ms": round((time.perf_counter() - began) * 1000)})

    def _fail(self, game_id: int, error: str) -> None:
        with self._lock:
            self._failed[game_id] = error
