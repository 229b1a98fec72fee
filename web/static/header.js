// The header: whose turn, what the board shows now in words, and the choices it asks for.
import { $, CARDS, button, cardName, el, li } from "./dom.js";
import { canAct, me, post, seatInfo, seatName, state, teamName } from "./state.js";
import { lessonStatus, lessonStep } from "./lesson.js";

const PHASE_WORDS = { draw: "draws a card", doubt: "waiting: does anyone doubt the card?",
  reveal: "waiting for the doubted card to be shown", penalty: "a bluff penalty is due" };

// Black or white text, whichever reads better on the seat's colour.
function textOn(hex) {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);
  const lum = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  return lum > 0.5 ? "#000" : "#fff";
}

export function renderTurn() {
  let text, colour;
  if (state.winner && state.winner.length) {
    const team = state.winner;
    text = team.length > 1 ? `Team ${teamName(team)} wins!` : `${seatName(team[0])} wins!`;
    colour = seatInfo(team[0]).colour;
  } else if (lessonStep() && state.lesson.phase === "passed") {
    text = `Well done, ${state.lesson.learner_name}!`; // the step's game moved on: not a turn to play
    colour = seatInfo(state.lesson.learner).colour;
  } else if (state.finishing_seat !== null && state.finishing_seat !== undefined) {
    text = `${seatName(state.finishing_seat)} is finishing a split`; // the next seat's turn begins after it
    colour = seatInfo(state.finishing_seat).colour;
  } else {
    text = `${seatName(state.turn)} to play`;
    colour = seatInfo(state.turn).colour;
  }
  $("#turn").textContent = text;
  document.title = `${text} — Pegs and Jokers`;
  const top = $("#top").style;
  top.setProperty("--turn", colour);
  top.setProperty("--turn-text", textOn(colour));
}

export function renderStatus() {
  const who = seatName(state.turn);
  const restoring = state.restoring && ["illegal", "moving"].includes(state.status);
  const wrong = state.status === "illegal" || (state.status === "moving" && !!state.why_not);
  const wiring = state.wiring;
  let text;
  if (wiring && wiring.running) text = `Wiring check: ${wiring.step}`;
  else if (state.phase === "over") text = "Game over";
  else if (PHASE_WORDS[state.phase]) text = `${who}: ${PHASE_WORDS[state.phase]}`;
  else if (state.status === "setup") text = "Set up the board for the lesson: the lights show where pegs go";
  else if (restoring) text = state.put_back || `Put the board back as before ${who}'s move`; // undo, a doubt: nobody erred
  else if (state.status === "moving" && state.why_not) text = `Not a legal move. ${state.why_not}`;
  else if (state.status === "moving") text = `${who} is moving…`;
  else if (state.status === "move") text = `${state.move_words || state.move} — settling`;
  else if (state.status === "ambiguous" && !(state.candidates || []).length)
    text = "Pegs of two colours were in hand at once: check every peg is in its own place";
  else if (state.status === "ambiguous") text = `${who}'s move could be one of these — which one?`;
  else if (state.status === "illegal" && lessonStep()) // the reason is the lesson's, the fixes are by Done
    text = `Not a legal move: ${state.lesson.feedback ? "" : "press Done to hear why, then "}put the board back as the lights show`;
  else if (state.status === "illegal" && (state.back || []).length > 3) // a long list would fill the sticky header
    text = `Not a legal move: put the board back as the lights show (${state.back.length} pegs; the list is by Done)`;
  else if (state.status === "illegal")
    text = `Not a legal move. ${state.why_not ? `${state.why_not} ` : ""}Put the board back: ${(state.back || []).join(", ") || "as the lights show"}`;
  else if (lessonStep()) text = lessonStatus();
  else if (state.mode === "digital" && !me.admin && me.seat !== state.turn) // a watcher holds no hand
    text = `${who} plays a card, then moves the pegs`;
  else text = state.mode === "digital" ? "Play a card from your hand, then move the pegs" : "Lift a peg to begin the move";
  if (state.declared && state.phase !== "over" && !lessonStep()) text += ` (declared ${cardName(state.declared)})`;
  $("#status").textContent = text;
  const notice = $("#notice");
  notice.hidden = !state.notice || (!!state.why_not && text.includes(state.why_not) && state.notice.includes(state.why_not)); // said above
  notice.textContent = state.notice || "";
  // A phone's header is short: the refusal and the notice in full under the board
  const why = $("#why");
  const reason = restoring ? text : wrong ? `Not a legal move. ${state.why_not || ""}` : "";
  const noted = state.notice || "";
  why.textContent = noted.includes(state.why_not || reason.slice(0, 40) || "\0") ? noted : `${reason} ${noted}`.trim();
  why.hidden = !why.textContent;
  const recovered = $("#store-recovered");
  recovered.hidden = !state.store_recovered;
  recovered.textContent = state.store_recovered || "";
  const sensors = $("#sensor-error");
  sensors.hidden = !state.sensor_error;
  sensors.textContent = state.sensor_error ? `Sensors not read: ${state.sensor_error}.` : "";
  const broken = $("#store-error");
  broken.hidden = !state.store_error;
  broken.textContent = state.store_error ? `Not saved: ${state.store_error}. Moves count again once the disk is fixed.` : "";

  const candidates = $("#candidates");
  const list = state.status === "ambiguous" ? state.candidates || [] : [];
  candidates.replaceChildren(...list.map((candidate) => {
    // A candidate may finish the last seat's move instead of being this seat's own.
    const whose = candidate.seat !== undefined && candidate.seat !== state.turn ? `${seatName(candidate.seat)}: ` : "";
    return button(whose + (candidate.words || candidate.text), () => post("/api/resolve", { move: candidate.text }));
  }));
  if (list.length) candidates.append(button("Nothing moved — put the pegs back", () => post("/api/resolve", { move: null })));
  else if (state.status === "ambiguous") {
    candidates.append(button("Every peg is in its place", () => post("/api/resolve", { move: null })));
  }
  candidates.append(...bluffControls());
  if (wiring && wiring.running && me.admin) candidates.append(button("Stop the wiring check", () => post("/api/wiring", { action: "stop" })));
  const result = $("#wiring");
  result.hidden = !wiring || wiring.running || !me.admin;
  if (!result.hidden) result.textContent = `Wiring check: ${wiring.text}`;
  candidates.hidden = !candidates.childElementCount;

  // The fixes again, one per line, next to the buttons (the header may be far away on a phone).
  const fixes = $("#fixes");
  const back = wrong || restoring ? state.back || [] : [];
  const forward = state.status === "illegal" && !restoring ? state.forward || [] : [];
  const items = back.map((fix) => li(fix));
  if (forward.length) {
    const other = li(`or, to finish a legal move: ${forward.join(", ")}`);
    other.className = "alt";
    items.push(other);
  }
  fixes.replaceChildren(...items);
  fixes.hidden = !items.length;
}

// Bluffing Joker: the opponent asked doubts or lets the card pass; a doubted card is turned
// up; the winner of the doubt taps one of the loser's pegs on the board.
function bluffControls() {
  const bluff = state.bluff;
  if (!bluff) return [];
  const mayAnswer = (seat) => me.admin || me.seat === seat;
  if (state.phase === "doubt") {
    const who = el("p", "", `${seatName(bluff.doubter)}: does ${seatName(state.turn)} really hold ${cardName(bluff.declared)}?`);
    const yes = button("Doubt it", () => post("/api/doubt", { doubt: true }));
    const no = button("Let it pass", () => post("/api/doubt", { doubt: false }));
    yes.disabled = no.disabled = !mayAnswer(bluff.doubter);
    return [who, yes, no];
  }
  if (state.phase === "reveal") {
    const cards = CARDS.map((card) => button(cardName(card), () => post("/api/reveal", { card })));
    for (const card of cards) card.disabled = !canAct();
    return [el("p", "", "Turn the doubted card up: which is it?"), ...cards];
  }
  if (state.phase === "penalty") {
    return [el("p", "", `${seatName(bluff.chooser)}: tap one of ${seatName(bluff.victim)}'s pegs on the track to send it back to start.`)];
  }
  return [];
}
