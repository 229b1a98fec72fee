"""Learn to play, in a real browser (issue 25): the whole first lesson on the simulated board,
done by following only what the page says. The harness (Debian's chromium, the daemon with a
table PIN) is tests/browser/'s.

What the test reads is what a family at the table reads: the lesson panel's words, the board's
holes (``[data-hole]``), the light lit at each (``data-guide``: "lift" and "hint" for the
answer, "wrong" and "put-back" for putting the board right, "destination" where a lifted peg
may go) and each peg's colour (the class ``s<seat>`` of a peg, the seat whose name the board
writes by its side). Each step with a card is done with one wrong move first: the page must
say "Not quite" with the reason, the lights then show how to put the board back, and "Show
me" lights the answer.
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect
from playwright.sync_api import Error as PlaywrightError

from tests.browser.pages import ARTIFACTS, DESKTOP, PHONE, PIN
from tests.real_daemon import Daemon

SCRIPT_ERRORS: dict[Page, list[str]] = {}  # each page's uncaught script errors, as it reported them
STEP = re.compile(r"Step (\d+) of (\d+) · (.+)")


# -- starting a lesson as a family does -----------------------------------------------------


def open_page(browser: Browser, daemon: Daemon, viewport: ViewportSize = DESKTOP, **options: Any) -> Page:
    page = browser.new_page(viewport=viewport, **options)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    SCRIPT_ERRORS[page] = errors
    page.goto(f"http://127.0.0.1:{daemon.port}/")
    expect(page.locator("#turn")).to_have_text("Red to play")  # the page's script is running
    page.fill("#pin", PIN)
    page.press("#pin", "Enter")
    expect(page.locator("#admin-tools")).to_be_visible()
    return page


def start_lesson(page: Page, rules: str, learners: str = "one") -> None:
    page.click("#learn")
    dialog = page.locator("#lesson-dialog")
    expect(dialog).to_be_visible()
    dialog.get_by_label("Rule set", exact=True).select_option(rules)
    dialog.get_by_label("Players", exact=True).select_option("4")
    dialog.get_by_label("one learner (the others watch)" if learners == "one" else "everyone in turn").check()
    dialog.get_by_role("button", name="Start the lesson").click()
    expect(dialog).to_be_hidden()
    expect(page.locator("#lesson")).to_be_visible()


# -- reading the page -------------------------------------------------------------------------


def step_shown(page: Page) -> tuple[int, int, str]:
    found = STEP.fullmatch(page.locator("#lesson-title").inner_text().strip())
    assert found, page.locator("#lesson-title").inner_text()
    return int(found[1]), int(found[2]), found[3]


def lit(page: Page) -> dict[str, str]:
    """Each hole with a light, and the light's role."""
    roles: dict[str, str] = page.evaluate(
        "Object.fromEntries([...document.querySelectorAll('#holes [data-guide]')]"
        ".map((c) => [c.dataset.hole, c.dataset.guide]))"
    )
    return roles


PEG_SHOWN = "(h) => /\\b(peg|stray)\\b/.test(document.querySelector(`#holes [data-hole='${h}']`).getAttribute('class'))"


def has_peg(page: Page, hole: str) -> bool:
    return bool(page.evaluate(PEG_SHOWN, hole))


def learner_name(page: Page) -> str:
    said = page.locator("#lesson-learner").inner_text().strip()
    found = re.match(r"(.+?)(?:'s turn to try| learns)", said)
    assert found, said
    return found[1]


def pegs_of(page: Page, name: str) -> list[str]:
    """The holes of the pegs in the colour of the seat the board names ``name``."""
    holes: list[str] = page.evaluate(
        """(name) => {  // the board writes each seat's name by its side
        const label = [...document.querySelectorAll('.seat-label')].find((l) => l.textContent === name);
        const colour = `s${label.dataset.seat}`;
        return [...document.querySelectorAll('#holes circle.peg')].filter((c) => c.classList.contains(colour))
          .map((c) => c.dataset.hole);
    }""",
        name,
    )
    return holes


def click_hole(page: Page, hole: str) -> None:
    """Tap a hole of the simulated board, and wait until the board shows it changed."""
    before = has_peg(page, hole)
    circle = page.locator(f'#holes [data-hole="{hole}"]')
    circle.evaluate("(c) => c.scrollIntoView({block: 'center'})")  # not under the page's sticky header
    circle.click(force=True)
    try:
        page.wait_for_function(f"([h, was]) => ({PEG_SHOWN})(h) !== was", arg=[hole, before], timeout=5000)
    except PlaywrightError:
        raise AssertionError(
            f"tapping {hole} changed nothing: {lit(page)}; the page says: {page.locator('#status').inner_text()}"
        ) from None


def wait_lit(page: Page, role: str) -> None:
    """Wait for a light of ``role`` on the board; if none comes, say what the page shows."""
    try:
        page.wait_for_function(
            "(role) => document.querySelector(`#holes [data-guide='${role}']`) !== null", arg=role, timeout=5000
        )
    except PlaywrightError:
        raise AssertionError(
            f"no {role!r} light: {lit(page)}; the page says: {page.locator('#status').inner_text()} / "
            f"{page.locator('#lesson').inner_text()}"
        ) from None


def feedback(page: Page) -> Any:
    return page.locator("#lesson-feedback")


# -- doing what the page says -------------------------------------------------------------------


def put_the_board_right(page: Page, most: int = 12) -> None:
    """Follow the lights: take out the pegs lit "wrong", put pegs in where "put-back" is lit; a peg
    still in hand goes back where it was lifted from (lit "selected", or the peg's outline shows)."""
    for _ in range(most):
        roles = lit(page)
        wrong = [hole for hole, role in roles.items() if role == "wrong"]
        back = [hole for hole, role in roles.items() if role == "put-back"]
        lifted = [hole for hole, role in roles.items() if role == "selected" and not has_peg(page, hole)]
        lifted += page.evaluate("[...document.querySelectorAll('#holes circle.ghost')].map((c) => c.dataset.hole)")
        if not wrong and not back and not lifted:
            return
        click_hole(page, (wrong or back or lifted)[0])
    raise AssertionError(f"the board was not put right by following the lights: {lit(page)}")


def a_wrong_move(page: Page) -> None:
    """Lift one of the learner's pegs and put it in an empty hole the lights do not offer, then Done."""
    mine = pegs_of(page, learner_name(page))
    assert mine, "the learner's pegs are on the board"
    click_hole(page, mine[0])
    empty = page.evaluate("""() => [...document.querySelectorAll('#holes circle')]
        .filter((c) => c.dataset.hole.startsWith('T') && !c.dataset.guide && !c.getAttribute('class'))
        .map((c) => c.dataset.hole)""")
    click_hole(page, empty[len(empty) // 2])
    page.click("#done")
    expect(feedback(page)).to_contain_text("Not quite")


def the_lit_answer(page: Page) -> None:
    """Make the move the lights show: a peg on a "hint" hole is lifted first and put where "bump"
    is lit; then the "lift" pegs are lifted and put on the "hint" holes."""
    roles = lit(page)
    lift = [hole for hole, role in roles.items() if role == "lift"]
    hint = [hole for hole, role in roles.items() if role == "hint"]
    bump = [hole for hole, role in roles.items() if role == "bump"]
    assert lift and hint, f"the answer is lit: {roles}"
    in_hand = 0
    for hole in hint:
        if has_peg(page, hole):
            click_hole(page, hole)  # the peg there comes off
            in_hand += 1
            free = [spot for spot in bump if not has_peg(page, spot)]
            if free:
                click_hole(page, free[0])
                in_hand -= 1
    for hole in lift:
        click_hole(page, hole)
    for hole in hint:
        click_hole(page, hole)
    if in_hand:  # no way back lit: a swap (the task says so), the other peg goes where the learner's was
        assert "swap" in page.locator("#lesson-task").inner_text()
        for hole in lift[:in_hand]:
            click_hole(page, hole)
    choices = page.locator("#candidates button")
    if page.locator("#candidates").is_visible():  # the sensors cannot tell a swap: the page asks which move
        expect(page.locator("#status")).to_contain_text("which one?")
        choices.first.click()


def do_a_step(page: Page, rules: str) -> str:
    """The step on the page, done as it says; gives back its title."""
    number, steps, title = step_shown(page)
    teach = page.locator("#lesson-teach").inner_text()
    assert "rules page" in teach or "rules" in teach.lower(), f"step {number} cites the rule: {teach}"
    assert not re.search(r"\b[THSC]\d+:\d+\b", page.locator("#lesson").inner_text()), "words, not hole codes"
    if page.locator("#lesson-setup").is_visible():
        put_the_board_right(page)
    if page.locator("#lesson-places").is_visible():  # the board: nothing to move, places to light
        places = page.locator("#lesson-place-list button")
        assert places.count() >= 4
        places.nth(places.count() - 1).click()
        expect(places.nth(places.count() - 1)).to_have_attribute("aria-pressed", "true")
        wait_lit(page, "hint")
    elif not page.locator("#lesson-card-name").inner_text():  # nothing to play (counting): read, go on
        expect(page.locator("#lesson-card")).to_be_hidden()
    else:
        expect(page.locator("#lesson-card")).to_be_visible()
        card = page.locator("#lesson-card-name").inner_text()
        assert card and card.lower() in page.locator("#lesson-task").inner_text().lower(), "the task names the card"
        a_wrong_move(page)
        words = feedback(page).inner_text()
        assert len(words) > len("✗ Not quite: ") + 10, f"a reason is given: {words}"
        put_the_board_right(page)
        page.click("#lesson-show")
        expect(page.locator("#lesson-shown")).to_be_visible()
        wait_lit(page, "lift")
        the_lit_answer(page)
        page.click("#done")  # the move may have settled already: Done then says it stands
        expect(feedback(page)).to_contain_text("Well done!")
        expect(page.locator("#status")).not_to_contain_text("Not a legal move")
    if number == 4:
        page.screenshot(path=str(ARTIFACTS / f"lesson-{rules}-step-{number}.png"))
    next_step = page.locator("#lesson-next")
    expect(next_step).to_be_enabled()
    next_step.click()
    expect(page.locator("#lesson-step")).to_have_text(f"Step {number + 1} of {steps}")
    return title


# -- the tests -------------------------------------------------------------------------------------


@pytest.mark.parametrize("rules", ["basic", "north-carolina"])
def test_the_whole_lesson_by_following_the_page(browser: Browser, daemon: Daemon, rules: str) -> None:
    """Every step with one wrong try; the practice game's first move from its lit hint; then the
    lesson is left and the page is back to a plain game."""
    ARTIFACTS.mkdir(exist_ok=True)
    page = open_page(browser, daemon)
    start_lesson(page, rules)
    number, steps, title = step_shown(page)
    assert (number, title) == (1, "The board") and steps >= 10
    done = []
    started = time.monotonic()
    while step_shown(page)[0] < steps:
        done.append(do_a_step(page, rules))
    assert len(done) == steps - 1 and time.monotonic() - started < 80

    # The practice game: a teaching game with bots and hints, as the page says.
    panel = page.locator("#lesson").inner_text()
    assert "practice" in panel.lower() and "hint" in panel.lower()
    expect(page.locator("#lesson-skip")).to_be_hidden()  # the last step
    expect(page.locator("#hints-box")).to_be_visible()
    page.click('#declare-cards button[aria-label="Declare 5"]')  # Red turned up a 5
    expect(page.locator("#hints li").first).to_contain_text("5:")
    page.click("#show-hint")
    wait_lit(page, "lift")
    the_lit_answer(page)
    page.click("#done")
    expect(page.locator("#turn")).to_have_text("Sky blue to play")
    expect(page.locator("#bot-plan")).to_contain_text("turn up a card for it")
    page.screenshot(path=str(ARTIFACTS / f"lesson-{rules}-practice.png"))

    page.click("#lesson-leave")  # back to the game before the lesson: the table's first, Red to start
    expect(page.locator("#lesson")).to_be_hidden()
    expect(page.locator("#turn")).to_have_text("Red to play")
    expect(page.locator("#moves li")).to_have_count(0)
    put_the_board_right(page, most=60)  # the practice game's pegs are still on the board
    expect(page.locator("#status")).to_have_text("Lift a peg to begin the move")
    expect(page.locator("#cant-move")).to_be_visible()  # a plain game's buttons again
    expect(page.locator("#hint")).to_be_visible()
    expect(page.locator("#bot-plan")).to_be_hidden()
    assert not SCRIPT_ERRORS[page]
    page.close()


def test_a_lesson_left_goes_on_at_the_same_step(browser: Browser, daemon: Daemon) -> None:
    page = open_page(browser, daemon)
    start_lesson(page, "basic", learners="everyone")
    expect(page.locator("#lesson-learner")).to_have_text("Red's turn to try")
    expect(page.locator("#lesson-next")).to_have_text("Next: Sky blue's turn")
    page.click("#lesson-next")
    expect(page.locator("#lesson-learner")).to_have_text("Sky blue's turn to try")
    page.click("#lesson-skip")
    expect(page.locator("#lesson-step")).to_have_text(re.compile(r"Step 2 of \d+"))
    expect(page.locator("#lesson-learner")).to_have_text("Red's turn to try")
    _number, _steps, title = step_shown(page)
    page.click("#lesson-leave")
    expect(page.locator("#lesson")).to_be_hidden()
    expect(page.locator("#status")).to_have_text("Lift a peg to begin the move")

    page.reload()  # what the table sees later, from any page
    expect(page.locator("#admin-tools")).to_be_visible()
    page.click("#learn")
    resume = page.locator("#lesson-resume")
    expect(resume).to_be_visible()
    expect(resume).to_contain_text(f"step 2 of {_steps}: {title}")
    resume.click()
    expect(page.locator("#lesson-dialog")).to_be_hidden()
    expect(page.locator("#lesson-title")).to_have_text(f"Step 2 of {_steps} · {title}")
    expect(page.locator("#lesson-learner")).to_have_text("Red's turn to try")
    expect(page.locator("#lesson-card-name")).to_have_text("3")  # step 2: the turn, with a 3
    assert not SCRIPT_ERRORS[page]
    page.close()


def test_the_lesson_reads_on_a_phone_above_the_board(browser: Browser, daemon: Daemon) -> None:
    """390 x 844: the panel is in the page's flow above the board, its words are not cut off,
    and the board is still there to see and tap below it."""
    page = open_page(browser, daemon, PHONE, is_mobile=True, has_touch=True)
    start_lesson(page, "basic")
    page.click("#lesson-next")
    expect(page.locator("#lesson-card-name")).to_have_text("3")  # step 2: the turn, with a 3
    a_wrong_move(page)
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(ARTIFACTS / "lesson-phone.png"))
    page.screenshot(path=str(ARTIFACTS / "lesson-phone-full.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # no sideways scrolling
    assert page.evaluate("getComputedStyle(document.querySelector('#lesson')).position") == "static"
    outside = page.evaluate("""() => {  // every word and button of the panel inside it, none wider than it
        const box = document.querySelector('#lesson').getBoundingClientRect();
        return [...document.querySelectorAll('#lesson *')].filter((node) => node.offsetParent).filter((node) => {
          const rect = node.getBoundingClientRect();
          return rect.left < box.left - 1 || rect.right > box.right + 1 || node.scrollWidth > node.clientWidth + 1;
        }).map((node) => node.id || node.tagName);
    }""")
    assert not outside, f"cut off or sticking out of the panel: {outside}"
    panel, board = page.locator("#lesson").bounding_box(), page.locator("#board").bounding_box()
    assert panel is not None and board is not None
    assert panel["x"] >= 0 and panel["x"] + panel["width"] <= 390
    assert panel["y"] + panel["height"] <= board["y"], "the panel comes before the board and does not cover it"
    assert board["width"] >= 340
    page.locator("#board").scroll_into_view_if_needed()
    box = page.locator("#board").bounding_box()
    assert box is not None
    middle = page.evaluate(
        "([x, y]) => document.elementFromPoint(x, y).closest('#board') !== null",
        [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2],
    )
    assert middle, "nothing covers the board once it is scrolled to"
    page.screenshot(path=str(ARTIFACTS / "lesson-phone-board.png"))
    assert not SCRIPT_ERRORS[page]
    page.close()
