// Hints, and a teaching game's moves of each card.
import { $, cardName, el, li } from "./dom.js";
import { getJSON, me, post, seatName, state, teamsOf } from "./state.js";
import { lessonStep } from "./lesson.js";
import { handShown } from "./hand.js";

// Hints (the rules page's Note on Table Talk): a serious game shows none unless the seat to play
// asks. A teaching game shows them with each card's moves: with real cards on every page; with the
// referee's cards they show the seat to play's hand, so only its phone and its partners' get them.
let askedHints = null; // {key, hints}: what this page asked for, kept until the game moves on
let teachingAnswer = null; // a digital teaching game's hints and moves, fetched by the seat's team's phones
let teachingRequest = 0;
const seesHand = () => me.seat !== null && me.seat !== undefined && (me.seat === state.turn ||
  (!!state.teaching && teamsOf(state).some((team) => team.includes(me.seat) && team.includes(state.turn))));
const canHint = () => me.admin || seesHand();
export function renderHints() {
  const over = state.phase === "over" || state.phase !== "play" || lessonStep(); // a step has "Show me"
  const asked = askedHints && askedHints.key === hintKey() ? askedHints.hints : null;
  const shared = state.teaching && state.mode !== "digital";
  const taught = shared ? state : teachingAnswer && teachingAnswer.seat === state.turn ? teachingAnswer : null;
  const hints = taught ? taught.hints || [] : asked || [];
  $("#hint").hidden = over || !!taught;
  $("#hint").disabled = !canHint();
  $("#hint").title = canHint() ? "" : "Hints are for the seat to play (its phone, or its partners' in a teaching game) or the table PIN";
  const box = $("#hints-box");
  box.hidden = over || !hints.length;
  $("#hints-for").textContent = seatName(state.turn);
  $("#hints").replaceChildren(...hints.map((hint) => {
    const item = li(hint.card ? `${cardName(hint.card)}: ${hint.words}. ` : `${hint.words}. `); // a partner sees no card
    const why = el("span", "why", hint.why);
    why.title = hint.note;
    item.append(why, el("small", "note", ` (${hint.note})`));
    return item;
  }));
  $("#show-hint").disabled = !(me.admin || me.seat === state.turn); // the lights are for everyone: the seat's own choice
  const moves = $("#teaching");
  moves.hidden = !taught || over;
  if (moves.hidden) return;
  const rows = [];
  $("#teaching summary").textContent = taught.team_moves ? "The moves to talk over (the cards stay secret)" : "Each card’s moves now";
  if (taught.team_moves) { // a partner's phone: the moves to discuss, not the cards that make them
    rows.push(el("dt", "", "Moves"), el("dd", "", taught.team_moves.join("; ") || "no move"));
  }
  for (const [card, found] of Object.entries(taught.teaching_moves || {})) {
    rows.push(el("dt", "", cardName(card)));
    const words = found.moves.length ? found.moves.join("; ") : "no move";
    rows.push(el("dd", "", found.more ? `${words}; and ${found.more} more` : words));
  }
  $("#teaching-moves").replaceChildren(...rows);
}
const hintKey = () => `${state.game}:${(state.history || []).length}:${state.turn}:${myDeclared()}`;
const myDeclared = () => (handShown && handShown.declared) || state.declared; // a phone's tapped card is its own

export async function refreshTeaching() {
  const ticket = ++teachingRequest; // only the newest answer is drawn
  let answer = null;
  if (state.teaching && state.mode === "digital" && state.phase === "play" && seesHand()) {
    try {
      answer = await getJSON("/api/teaching");
    } catch {
      answer = null;
    }
  }
  if (ticket !== teachingRequest || (!answer && !teachingAnswer)) return;
  teachingAnswer = answer;
  renderHints();
}
$("#hint").addEventListener("click", async () => {
  const key = hintKey();
  const answer = await post("/api/hint", { show: false });
  askedHints = { key, hints: answer.hints };
  renderHints();
});
$("#show-hint").addEventListener("click", () => post("/api/hint", { show: true }));
