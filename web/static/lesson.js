// Learn to play: the first lesson, taught on the board (referee/table/lessons.py)
// Each step sets up a position (the lights show where pegs go), names a card and asks the
// learner to move; the referee praises a right move and refuses a wrong one with the reason.
// The last step is a short practice game, where the usual teaching-game hints apply.
import { $, button, el, li } from "./dom.js";
import { canAct, me, post, state } from "./state.js";
import { showLessonRulesSummary } from "./dialogs.js";

const CARD_WORDS = { A: "Ace", J: "Jack", Q: "Queen", K: "King", JOKER: "Joker" };
const cardWords = (card) => CARD_WORDS[card] || card;
// A step of the lesson (not its practice game): the page shows the lesson's buttons instead
// of the ones of a game (Can't move, declaring a card, Hint, Undo).
export const lessonStep = () => !!(state && state.lesson) && !["practice", "finished"].includes(state.lesson.phase);
const FEEDBACK_MARKS = { praise: "✓", wrong: "✗", done: "★" };

export function lessonStatus() {
  const lesson = state.lesson;
  if (lesson.phase === "look") return "Look at the board: nothing to move in this step";
  if (lesson.phase === "passed") return lesson.more_learners ? "Press Next: the next learner's turn" : "Press Next for the next step";
  if (!lesson.card) return lesson.task;
  return `${lesson.learner_name}: play the ${cardWords(lesson.card).toLowerCase()} — lift a peg to begin`;
}

export function renderLesson() {
  const lesson = state.lesson;
  $("#lesson").hidden = !lesson;
  document.body.classList.toggle("in-lesson", !!lesson);
  if (!lesson) return;
  const phase = lesson.phase;
  const everyone = (lesson.learners || []).length > 1;
  $("#lesson-step").textContent = `Step ${lesson.step} of ${lesson.steps}`;
  $("#lesson-name").textContent = lesson.title;
  const learner = $("#lesson-learner");
  learner.textContent = phase === "finished" ? "" : everyone ? `${lesson.learner_name}'s turn to try`
    : `${lesson.learner_name} learns; the others watch`;
  learner.className = `s${lesson.learner}`;
  learner.hidden = phase === "finished";
  $("#lesson-teach").textContent = lesson.teach;
  $("#lesson-teach").hidden = phase === "finished"; // the feedback says it all

  const setup = phase === "setup" ? lesson.setup || [] : [];
  $("#lesson-setup").hidden = !setup.length;
  $("#lesson-setup-list").replaceChildren(...setup.map((words) => li(words)));

  const card = lesson.card && ["play", "passed"].includes(phase) ? lesson.card : null; // once the board is set up
  $("#lesson-card").hidden = !card;
  $("#lesson-card-who").textContent = everyone ? `${lesson.learner_name}'s card` : "Your card";
  $("#lesson-card-name").textContent = card ? cardWords(card) : "";
  const task = $("#lesson-task");
  task.textContent = phase === "finished" || phase === "setup" ? "" : lesson.task;
  task.hidden = !task.textContent;

  const places = phase === "look" ? lesson.places || [] : [];
  $("#lesson-places").hidden = !places.length;
  $("#lesson-place-list").replaceChildren(...places.map((place) => {
    const lit = place.key === lesson.place;
    const choice = button(place.words, () => post("/api/lesson/place", { place: lit ? null : place.key }));
    choice.setAttribute("aria-pressed", String(lit));
    choice.disabled = !canAct();
    return choice;
  }));
  $("#lesson-shown").hidden = !(phase === "play" && lesson.shown);

  const feedback = $("#lesson-feedback");
  const said = lesson.feedback;
  feedback.hidden = !said;
  feedback.className = said ? `feedback ${said.kind}` : "";
  feedback.replaceChildren();
  if (said) feedback.append(el("span", "mark", FEEDBACK_MARKS[said.kind] || ""), " ", said.words);

  // The buttons: Next once the step is done, Show me while the learner tries, the rest always.
  const next = $("#lesson-next");
  next.hidden = phase === "practice" || phase === "finished";
  next.disabled = !["look", "passed"].includes(phase) || !canAct();
  const nextLearner = lesson.more_learners ? lesson.learners[lesson.learners.findIndex((l) => l.seat === lesson.learner) + 1] : null;
  next.textContent = nextLearner ? `Next: ${nextLearner.name}'s turn` : "Next step";
  const show = $("#lesson-show");
  show.hidden = phase !== "play";
  show.disabled = lesson.shown || !canAct();
  $("#lesson-repeat").hidden = phase === "finished";
  $("#lesson-repeat").textContent = phase === "practice" ? "Start the practice game again" : "Repeat this step";
  $("#lesson-skip").hidden = lesson.last_step || phase === "finished";
  for (const id of ["#lesson-repeat", "#lesson-skip"]) $(id).disabled = !canAct();
  $("#lesson-leave").disabled = !me.admin;
  $("#lesson-new-game").hidden = phase !== "finished" || !me.admin;
  const note = $("#lesson-note");
  note.hidden = me.admin && canAct();
  note.textContent = canAct() ? "Leaving the lesson needs the table PIN." : "The lesson's buttons need the table PIN (or the learner's phone).";
}

function lessonAction(action) {
  post(`/api/lesson/${action}`, {}).catch(() => {});
}
$("#lesson-next").addEventListener("click", () => lessonAction("next"));
$("#lesson-show").addEventListener("click", () => lessonAction("show"));
$("#lesson-repeat").addEventListener("click", () => lessonAction("repeat"));
$("#lesson-skip").addEventListener("click", () => lessonAction("skip"));
$("#lesson-leave").addEventListener("click", () => lessonAction("leave"));
$("#lesson-new-game").addEventListener("click", () => $("#new-game").click());

// The "Learn to play" dialog: the rules, how many sides, who learns; or the lesson left for a game.
$("#learn").addEventListener("click", () => {
  const rules = $("#ls-rules");
  if (state && state.rules && [...rules.options].some((option) => option.value === state.rules.name)) rules.value = state.rules.name;
  if (state && [4, 6, 8, 10].includes(state.position.players)) $("#ls-players").value = String(state.position.players);
  const left = state && state.lesson_left;
  $("#lesson-left").hidden = !left;
  if (left) $("#lesson-resume").textContent = `Go on with the lesson (step ${left.step} of ${left.steps}: ${left.title})`;
  $("#ls-error").textContent = "";
  $("#ls-house").value = "";
  rules.disabled = false;
  showLessonRulesSummary();
  $("#lesson-dialog").showModal();
});

$("#lesson-form").addEventListener("submit", async (event) => {
  const choice = event.submitter ? event.submitter.value : "";
  if (choice !== "start" && choice !== "resume") return; // Cancel closes the dialog
  event.preventDefault();
  const form = event.currentTarget;
  const file = $("#ls-house").files[0];
  try {
    if (choice === "resume") await post("/api/lesson/resume", {});
    else {
      await post("/api/lesson", {
        rules: $("#ls-rules").value,
        house_rules: file ? await file.text() : null,
        players: Number($("#ls-players").value),
        learners: form.elements.learners.value,
      });
    }
    $("#lesson-dialog").close();
  } catch (error) {
    $("#ls-error").textContent = error.message; // the dialog covers the toast: say it here too
  }
});
