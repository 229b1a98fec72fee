// The panels beside the board: moves, bumps, teams, rules, the action buttons and a bot's plan.
import { $, CARDS, button, cardName, el, li } from "./dom.js";
import { canAct, me, post, seatName, state, teamName, teamsOf } from "./state.js";
import { lessonStep } from "./lesson.js";
import { renderHints } from "./hints.js";
import { BOT_KINDS, BOT_NAMES } from "./dialogs.js";

export function renderLists() {
  // Every turn that stands: moves, discards and doubts, each saying who (referee/table/told.py)
  const moves = state.told || state.history || (state.moves || []).map((move) => ({ move }));
  const shown = moves.slice(-10).reverse();
  const list = $("#moves");
  list.start = moves.length;
  list.replaceChildren(...shown.map((entry) => {
    const item = li(entry.words || entry.move); // plain words; the notation on hover
    if (entry.move) item.title = entry.move;
    if (entry.kind && entry.kind !== "move") item.className = entry.kind;
    return item;
  }));

  const bumps = (state.bumps || []).slice(-10).reverse();
  $("#bumps").replaceChildren(...bumps.map((bump) => {
    const item = li(bumpWords(bump));
    if (bump.from) item.title = `from ${bump.from}`;
    return item;
  }));
}

function bumpWords(bump) {
  const by = seatName(bump.by), victim = seatName(bump.seat);
  const toStart = String(bump.to || "S").startsWith("S");
  if (bump.penalty) return `${by} sent ${victim} back to start (bluff)`;
  return toStart ? `${by} bumped ${victim} back to start` : `${by} sent ${victim} to its in-spot`;
}

function homeCount(seat) {
  const info = state.seats && state.seats.find((s) => s.seat === seat);
  if (info && typeof info.home === "number") return info.home;
  return ((state.position.pegs || {})[seat] || []).filter((hole) => hole[0] === "H").length;
}

export function renderProgress() {
  const rows = teamsOf(state).map((team) => {
    const total = team.length * 5;
    const home = team.reduce((sum, seat) => sum + homeCount(seat), 0);
    const row = el("div", "team");
    const head = el("p");
    head.append(el("strong", "", team.length > 1 ? teamName(team) : seatName(team[0])), el("span", "", `${home} of ${total} home`));
    const bar = el("div", "bar");
    bar.setAttribute("role", "progressbar");
    bar.setAttribute("aria-valuemin", "0");
    bar.setAttribute("aria-valuemax", String(total));
    bar.setAttribute("aria-valuenow", String(home));
    bar.setAttribute("aria-label", `${teamName(team)}: pegs home`);
    for (const seat of team) {
      const part = el("span", `s${seat}`);
      part.style.width = `${(100 * homeCount(seat)) / total}%`;
      part.title = `${seatName(seat)}: ${homeCount(seat)} home`;
      bar.append(part);
    }
    row.append(head, bar);
    return row;
  });
  $("#progress").replaceChildren(...rows);
}

let rulesShown = "";
export function renderRules() {
  const rules = state.rules || {};
  const key = JSON.stringify(rules);
  if (key === rulesShown) return; // keep the reader's place in the list
  rulesShown = key;
  $("#rules-name").textContent = rules.title || rules.name || "?";
  $("#rules-summary").textContent = rules.summary || "";
  const items = [];
  const cards = Object.entries(rules.cards || {}).sort(([a], [b]) => CARDS.indexOf(a) - CARDS.indexOf(b)); // A, 2 … K, Joker
  for (const [card, text] of cards) items.push(el("dt", "", cardName(card)), el("dd", "", text));
  for (const text of rules.settings || []) items.push(el("dt", "", "•"), el("dd", "", text)); // house rules show here too
  $("#rules-cards").replaceChildren(...items);
}

export function renderControls() {
  const over = state.phase === "over";
  $("#done").disabled = over || (!state.simulate && !canAct());
  $("#done").title = $("#done").disabled && !over ? "Unlock with the table PIN, or press done on the board" : "";
  for (const choice of $("#candidates").querySelectorAll("button")) choice.disabled = !canAct();
  $("#act-note").hidden = canAct() || (state.status !== "ambiguous" && state.simulate);
  const tableCards = state.mode === "table" && state.phase === "play" && !lessonStep(); // a step's card is given
  if (lessonStep() && state.lesson.phase === "look") $("#done").disabled = true; // nothing to move in this step
  $("#cant-move").hidden = !tableCards;
  $("#cant-move").disabled = !canAct();
  renderDeclare(tableCards);
  renderBot();
  renderHints();
  $("#undo").hidden = !me.admin || lessonStep(); // a step is repeated instead
  $("#login").hidden = me.admin;
  $("#admin-tools").hidden = !me.admin;
  $("#sim").hidden = !state.simulate;
  document.body.classList.toggle("sim", !!state.simulate);
  const who = $("#whoami");
  who.hidden = me.seat === null || me.seat === undefined;
  if (!who.hidden) who.textContent = `This phone plays ${seatName(me.seat)}`;
}

// The move a bot or a phone seat chose, in words, for whoever moves its pegs.
function renderBot() {
  const box = $("#bot-plan");
  const kind = (state.bots || {})[String(state.turn)];
  const phone = (state.phones || {})[String(state.turn)] === "phone" && state.phase === "play";
  box.hidden = $("#bot-move").hidden = !(kind || phone) || state.phase === "over";
  renderPhoneSeats();
  if (box.hidden) return;
  if (!kind) {
    const plan = state.phone;
    box.textContent = plan
      ? `${seatName(plan.seat)} plays ${cardName(plan.card)}: ${plan.words}. Lift the peg marked ↑ (its light flashes ` +
        "pink) and put it where ↓ shows (steady blue); a peg it bumps goes back where ! shows (amber)."
      : `${seatName(state.turn)} chooses on the phone…`;
    $("#bot-move").textContent = box.textContent;
    return;
  }
  const who = `${seatName(state.turn)} (${BOT_NAMES[kind] || "bot"})`;
  const plan = state.bot;
  if (plan) {
    const words = plan.words || plan.move;
    box.textContent = `${who} plays ${cardName(plan.card)}: ${words}. Lift the peg marked ↑ (its light flashes ` +
      "pink) and put it where ↓ shows (steady blue); a peg it bumps goes back where ! shows (amber).";
  } else if (state.mode === "table") {
    box.textContent = `${who}: turn up a card for it and tap that card below.`;
  } else {
    box.textContent = `${who} is thinking…`;
  }
  $("#bot-move").textContent = box.textContent; // under the board, whole, for whoever carries it out on a phone
}

// Real cards: the player may say which card was played (Bluffing Joker: must, before the move counts).
function renderDeclare(tableCards) {
  const box = $("#declare");
  box.hidden = !tableCards || !canAct();
  if (box.hidden) return;
  const bot = (state.bots || {})[String(state.turn)];
  $("#declare-note").textContent = bot
    ? `${seatName(state.turn)} is a bot: turn up its card and tap it here; it chooses the move.`
    : state.needs_declaration
      ? "Bluffing Joker: declare the card you play face down — the move counts once declared."
      : "Which card was played? (optional: it narrows the moves that fit)";
  $("#declare-cards").replaceChildren(...CARDS.map((card) => {
    const face = button(cardName(card), () => post("/api/declare", { card }, $("#declare-note")).catch(() => {}));
    face.className = "face" + (state.declared === card ? " declared" : "");
    face.setAttribute("aria-label", `Declare ${cardName(card)}`);
    return face;
  }));
}

// The table (its PIN) hands a quiet phone's seat to a bot or to the board, and back (issue 36).
function renderPhoneSeats() {
  const box = $("#phone-seats");
  const phones = Object.entries(state.phones || {});
  box.hidden = !me.admin || !phones.length || state.phase === "over";
  if (box.hidden) return;
  const rows = phones.map(([seat, by]) => {
    const select = el("select");
    select.setAttribute("aria-label", `Who plays ${seatName(Number(seat))}`);
    for (const [value, text] of [["phone", "on the phone"], ["board", "someone at the board"], ...Object.entries(BOT_KINDS)]) {
      const option = el("option", "", text);
      option.value = value;
      option.selected = value === by;
      select.append(option);
    }
    select.addEventListener("change", () => post("/api/phone/stand-in", { seat: Number(seat), by: select.value }).catch(() => { select.value = by; }));
    const row = el("p", "", `${seatName(Number(seat))} is played `);
    row.append(select);
    return row;
  });
  const key = JSON.stringify(state.phones);
  if (box.dataset.key !== key) box.replaceChildren(...rows); // keep an open select open
  box.dataset.key = key;
}

$("#cant-move").addEventListener("click", () => {
  post("/api/discard", { card: null }).catch(() => {});
});

$("#done").addEventListener("click", () => {
  const done = state && state.simulate ? post("/api/sim/events", { events: ["done"] }) : post("/api/done", {});
  done.catch(() => {});
});
$("#wiring-check").addEventListener("click", () => post("/api/wiring", { action: "start" }).catch(() => {}));
$("#undo").addEventListener("click", () => post("/api/undo", {}).catch(() => {}));
