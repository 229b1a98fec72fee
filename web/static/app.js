// The table's page: draws the live state on the server-rendered board and sends the
// players' actions to the JSON API. Plain JavaScript, no libraries: it runs on whatever
// phone is at the table, served by a Raspberry Pi with no internet.
"use strict";

const $ = (selector) => document.querySelector(selector);
const PEG_R = 3.9, HOLE_R = 2.2, GUIDED_R = 3.2, LED_R = 4.55, MARK_R = 5.3;
const GLYPHS = { selected: "↑", destination: "↓", bump: "!", wrong: "×", "put-back": "↩" };
const GUIDE_WORDS = { selected: "lifted", destination: "may go here", bump: "bumped peg goes here",
  wrong: "take this peg off", "put-back": "put a peg back" };
// A bot's move, or a hint lit on request: a black-and-white ring (seen on any peg colour),
// dashed and turning on the peg to lift, solid where it goes, dotted where a bumped peg goes back.
const MARK_GLYPHS = { lift: "↑", hint: "↓", bump: "!" };
const MARK_WORDS = { lift: "lift this peg", hint: "then put it here", bump: "the bumped peg goes back here" };
const PHASE_WORDS = { draw: "draws a card", doubt: "waiting: does anyone doubt the card?",
  reveal: "waiting for the doubted card to be shown", penalty: "a bluff penalty is due" };
const SVG_NS = "http://www.w3.org/2000/svg";
const DEFAULT_SEATS = JSON.parse(document.body.dataset.seats);
const RENDERED_SIDES = Number(document.body.dataset.sides);

let state = null;
let me = { seat: null, admin: false, csrf: "" };
let queue = Promise.resolve(); // board taps run one after another, each on the newest state
let handRequest = 0;

const svg = $("#board");
const holes = new Map(); // name -> <circle>
const spots = []; // [name, x, y] for finding the hole nearest a tap
for (const circle of svg.querySelectorAll("[data-hole]")) {
  const name = circle.dataset.hole;
  holes.set(name, circle);
  spots.push([name, Number(circle.getAttribute("cx")), Number(circle.getAttribute("cy"))]);
}
const ledRings = new Map();
const pitch = Number(svg.dataset.pitch);

// -- seats and teams ------------------------------------------------------------------

function seatInfo(seat) {
  const named = state && Array.isArray(state.seats) ? state.seats.find((s) => s.seat === seat) : null;
  return Object.assign({ seat, name: `Seat ${seat + 1}`, colour: "#9e9e9e" }, DEFAULT_SEATS[seat] || {}, named || {});
}
const seatName = (seat) => seatInfo(seat).name;

function sidesOf(s) {
  const players = s.position.players;
  return s.sides || (players === 2 ? 4 : players);
}

function seatsInPlay(s) {
  const players = s.position.players;
  return players === 2 ? [0, 2] : Array.from({ length: players }, (_, i) => i);
}

function teamsOf(s) {
  if (Array.isArray(s.teams)) return s.teams;
  if (Array.isArray(s.position.teams)) return s.position.teams;
  const seats = seatsInPlay(s);
  if (seats.length === 2) return seats.map((seat) => [seat]);
  return [seats.filter((seat) => seat % 2 === 0), seats.filter((seat) => seat % 2 === 1)];
}

const teamName = (team) => team.map(seatName).join(" & ");

// Black or white text, whichever reads better on the seat's colour.
function textOn(hex) {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);
  const lum = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  return lum > 0.5 ? "#000" : "#fff";
}

// LED colours come scaled down by the strip's brightness: show their hue at full strength.
function brighten(hex) {
  const rgb = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  const top = Math.max(...rgb);
  if (!top) return null;
  return "#" + rgb.map((v) => Math.round((v * 255) / top).toString(16).padStart(2, "0")).join("");
}

// -- the state ----------------------------------------------------------------------------

// `live` states come from the stream or the poll and always win; a POST's reply is shown
// only if nothing newer has arrived meanwhile.
let shownKey = "";
function accept(next, live) {
  if (!next || !next.position) return;
  if (!live && state && next.game === state.game && next.version < state.version) return;
  if (sidesOf(next) !== RENDERED_SIDES) {
    // A new game on a board with another number of sides: the server draws the new board.
    // (At most every 10 s, so that a confused server cannot make the page reload forever.)
    const last = Number(sessionStorage.getItem("pegs-reloaded") || 0);
    if (Date.now() - last > 10000) {
      sessionStorage.setItem("pegs-reloaded", String(Date.now()));
      location.reload();
      return;
    }
  }
  // The daemon may publish the same state many times a second: draw only what changed.
  const key = JSON.stringify(Object.assign({}, next, { version: 0 }));
  if (state && next.game !== state.game) loadMe(); // a seat joined belongs to one game only
  const newer = !state || next.version !== state.version || next.game !== state.game;
  state = next;
  if (newer) refreshPrivate(); // a phone's own hand and teaching hints change when the public state may not
  if (key === shownKey) return;
  shownKey = key;
  render();
}

function render() {
  renderSeats();
  renderTurn();
  renderStatus();
  renderBoard();
  renderLists();
  renderProgress();
  renderRules();
  renderControls();
  renderLesson();
  renderEnded();
}

const TEAM_MARKS = ["▲", "■", "●", "◆", "★"];

function renderSeats() {
  const root = document.documentElement.style;
  for (let seat = 0; seat < 10; seat++) root.setProperty(`--seat${seat}`, seatInfo(seat).colour);
  const inPlay = seatsInPlay(state);
  const teams = teamsOf(state);
  for (const label of svg.querySelectorAll(".seat-label")) {
    const seat = Number(label.dataset.seat);
    label.textContent = inPlay.includes(seat) ? seatName(seat) : "";
    // Not colour alone: the name, and partners' shape before it
    const team = teams.findIndex((t) => t.includes(seat));
    let mark = label.previousElementSibling;
    if (!mark || mark.getAttribute("class") !== "team-mark") {
      mark = document.createElementNS(svg.namespaceURI, "text");
      mark.setAttribute("class", "team-mark");
      label.before(mark);
    }
    const x = label.textContent ? label.getBBox().x : 0;
    mark.setAttribute("x", x - 2);
    mark.setAttribute("y", label.getAttribute("y"));
    mark.textContent = label.textContent && teams.some((t) => t.length > 1) ? TEAM_MARKS[team % 5] : "";
  }
}

function renderTurn() {
  let text, colour;
  if (state.winner && state.winner.length) {
    const team = state.winner;
    text = team.length > 1 ? `Team ${teamName(team)} wins!` : `${seatName(team[0])} wins!`;
    colour = seatInfo(team[0]).colour;
  } else if (lessonStep() && state.lesson.phase === "passed") {
    text = `Well done, ${state.lesson.learner_name}!`; // the step's game moved on: not a turn to play
    colour = seatInfo(state.lesson.learner).colour;
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

function renderStatus() {
  const who = seatName(state.turn);
  const restoring = state.restoring && ["illegal", "moving"].includes(state.status);
  const wrong = state.status === "illegal" || (state.status === "moving" && !!state.why_not);
  const wiring = state.wiring;
  let text;
  if (wiring && wiring.running) text = `Wiring check: ${wiring.step}`;
  else if (state.phase === "over") text = "Game over";
  else if (PHASE_WORDS[state.phase]) text = `${who}: ${PHASE_WORDS[state.phase]}`;
  else if (state.status === "setup") text = "Set up the board for the lesson: the lights show where pegs go";
  else if (restoring) text = `Put the board back as before ${who}'s move`; // after Undo: nobody erred
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

function renderBoard() {
  // Whose peg is where: the logical position for track and home holes ...
  const owner = new Map();
  const pegs = state.position.pegs || {};
  for (const [seat, places] of Object.entries(pegs)) {
    for (const hole of places) if (hole[0] !== "S") owner.set(hole, Number(seat));
  }
  // ... and what the sensors feel now (without sensors, the position fills the start holes).
  let occupied = state.occupied;
  if (!Array.isArray(occupied)) {
    occupied = [...owner.keys()];
    for (const seat of seatsInPlay(state)) {
      const inStart = (pegs[seat] || ["S", "S", "S", "S", "S"]).filter((h) => h[0] === "S").length;
      for (let i = 1; i <= inStart; i++) occupied.push(`S${seat}:${i}`);
    }
  }
  const full = new Set(occupied);
  // A move that breaks a rule by itself: the fixes, not a split nobody made
  const guidance = state.status === "moving" && state.why_not
    ? Object.fromEntries((state.fixes || []).map((f) => [f.hole, f.action === "remove" ? "wrong" : "put-back"])) : state.guidance || {};
  const marks = state.move_marks || {};
  const leds = state.leds || {};
  const glyphs = [];

  for (const [name, circle] of holes) {
    let seat = null, kind = "";
    if (full.has(name)) {
      seat = owner.has(name) ? owner.get(name) : name[0] === "S" ? Number(name.slice(1, name.indexOf(":"))) : null;
      kind = seat === null ? "stray" : "peg";
    } else if (owner.has(name)) {
      seat = owner.get(name); // its peg is in someone's hand
      kind = "ghost";
    }
    const guide = guidance[name];
    const lit = guide || marks[name]; // a lit move's role (a bot's, a hint's, the lesson's answer) names the hole too
    circle.setAttribute("class", kind + (seat === null ? "" : ` s${seat}`));
    circle.setAttribute("r", kind === "peg" || kind === "stray" ? PEG_R : guide || kind === "ghost" ? GUIDED_R : HOLE_R);
    if (lit) circle.dataset.guide = lit;
    else delete circle.dataset.guide;
    if (guide) glyphs.push(glyph(circle, GLYPHS[guide]));
    showLed(name, circle, leds[name]);
  }
  for (const [name, role] of Object.entries(marks)) {
    if (holes.has(name) && !guidance[name]) glyphs.push(moveMark(holes.get(name), role));
  }
  $("#guides").replaceChildren(...glyphs);

  const last = state.last_card;
  $("#board-card").textContent = last ? cardName(last) : "";
  $("#last-card").textContent = last ? cardName(last) : state.last_card_words || "—"; // no card named: what could have made it
}

function glyph(circle, symbol) {
  const text = document.createElementNS(SVG_NS, "text");
  text.setAttribute("x", circle.getAttribute("cx"));
  text.setAttribute("y", circle.getAttribute("cy"));
  text.textContent = symbol || "?";
  return text;
}

// A hole of a bot's move or a lit hint: a black ring under a white one (or amber, for a bumped
// peg's way back), its own dash pattern and a glyph, so no peg colour can hide it.
function moveMark(circle, role) {
  const group = document.createElementNS(SVG_NS, "g");
  group.setAttribute("class", `mark ${role}`);
  group.dataset.mark = role;
  group.dataset.hole = circle.dataset.hole;
  for (const layer of ["under", "over"]) {
    const ring = document.createElementNS(SVG_NS, "circle");
    ring.setAttribute("class", layer);
    ring.setAttribute("cx", circle.getAttribute("cx"));
    ring.setAttribute("cy", circle.getAttribute("cy"));
    ring.setAttribute("r", MARK_R);
    group.append(ring);
  }
  group.append(glyph(circle, MARK_GLYPHS[role]));
  return group;
}

// The LED beside each hole, as a ring round it (dark pixels draw nothing).
function showLed(name, circle, colour) {
  const bright = colour && colour !== "#000000" ? brighten(colour) : null;
  let ring = ledRings.get(name);
  if (!bright) {
    if (ring) ring.setAttribute("visibility", "hidden");
    return;
  }
  if (!ring) {
    ring = document.createElementNS(SVG_NS, "circle");
    ring.setAttribute("cx", circle.getAttribute("cx"));
    ring.setAttribute("cy", circle.getAttribute("cy"));
    ring.setAttribute("r", LED_R);
    $("#leds").append(ring);
    ledRings.set(name, ring);
  }
  ring.setAttribute("stroke", bright);
  ring.setAttribute("visibility", "visible");
}

function renderLists() {
  const moves = state.history || (state.moves || []).map((move) => ({ move }));
  const shown = moves.slice(-10).reverse();
  const list = $("#moves");
  list.start = moves.length;
  list.replaceChildren(...shown.map((entry) => {
    const item = li(entry.words || entry.move); // plain words; the notation on hover
    item.title = entry.move;
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

function renderProgress() {
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
function renderRules() {
  const rules = state.rules || {};
  const key = JSON.stringify(rules);
  if (key === rulesShown) return; // keep the reader's place in the list
  rulesShown = key;
  $("#rules-name").textContent = rules.name || "?";
  $("#rules-summary").textContent = rules.summary || "";
  const items = [];
  const cards = Object.entries(rules.cards || {}).sort(([a], [b]) => CARDS.indexOf(a) - CARDS.indexOf(b)); // A, 2 … K, Joker
  for (const [card, text] of cards) items.push(el("dt", "", cardName(card)), el("dd", "", text));
  for (const text of rules.settings || []) items.push(el("dt", "", "•"), el("dd", "", text)); // house rules show here too
  $("#rules-cards").replaceChildren(...items);
}

// Bluffing Joker: the opponent asked doubts or lets the card pass; a doubted card is turned
// up; the winner of the doubt taps one of the loser's pegs on the board.
const CARDS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "JOKER"];
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

// The daemon lets the seat to play (its phone) or the table PIN press done and choose.
const canAct = () => me.admin || (me.seat !== null && me.seat === state.turn);

function renderControls() {
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

const cardName = (card) => (card === "JOKER" ? "Joker" : card);

// The chosen rule set's description, shown (not only on hover: phones have no hover).
function showSummary(select, where) {
  const option = select.selectedOptions[0];
  where.textContent = option ? option.dataset.summary || "" : "";
}
// A rule-set picker (templates/index.html rules_picker): its summary kept shown, and a house-rules
// file, which names its own base, setting the preset list aside. Gives back the summary's refresher.
function wireRulesPicker(prefix) {
  const rules = $(`#${prefix}-rules`);
  const show = () => showSummary(rules, $(`#${prefix}-rules-summary`));
  rules.addEventListener("change", show);
  $(`#${prefix}-house`).addEventListener("change", (event) => { rules.disabled = event.currentTarget.files.length > 0; });
  show();
  return show;
}
wireRulesPicker("ng");
const showLessonRulesSummary = wireRulesPicker("ls");

// A seat is a person or a bot; a bot chooses, a person moves its pegs (referee/table/seat_bots.py).
const BOT_KINDS = { random: "random bot", greedy: "greedy bot", strategic: "strategic bot", expert: "expert bot" };
function playerSelect(seat) {
  const select = el("select", "player");
  select.dataset.seat = String(seat);
  select.setAttribute("aria-label", `Who plays seat ${seat + 1}`);
  for (const [value, text] of [["person", "a person"], ...Object.entries(BOT_KINDS)]) {
    const option = el("option", "", text);
    option.value = value;
    select.append(option);
  }
  return select;
}

// The move a bot chose, in words, for whoever moves its pegs.
function renderBot() {
  const box = $("#bot-plan");
  const kind = (state.bots || {})[String(state.turn)];
  box.hidden = !kind || state.phase === "over";
  if (box.hidden) return;
  const who = `${seatName(state.turn)} (${BOT_KINDS[kind] || "bot"})`;
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
}

// Hints (the rules page's Note on Table Talk): a serious game shows none unless the seat to play
// asks. A teaching game shows them with each card's moves: with real cards on every page; with the
// referee's cards they show the seat to play's hand, so only its phone and its partners' get them.
let askedHints = null; // {key, hints}: what this page asked for, kept until the game moves on
let teachingAnswer = null; // a digital teaching game's hints and moves, fetched by the seat's team's phones
let teachingRequest = 0;
const seesHand = () => me.seat !== null && me.seat !== undefined && (me.seat === state.turn ||
  (!!state.teaching && teamsOf(state).some((team) => team.includes(me.seat) && team.includes(state.turn))));
const canHint = () => me.admin || seesHand();
function renderHints() {
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
    const item = li(`${cardName(hint.card)}: ${hint.words}. `);
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
  for (const [card, found] of Object.entries(taught.teaching_moves || {})) {
    rows.push(el("dt", "", cardName(card)));
    const words = found.moves.length ? found.moves.join("; ") : "no move";
    rows.push(el("dd", "", found.more ? `${words}; and ${found.more} more` : words));
  }
  $("#teaching-moves").replaceChildren(...rows);
}
const hintKey = () => `${state.game}:${(state.history || []).length}:${state.turn}:${myDeclared()}`;
const myDeclared = () => (handShown && handShown.declared) || state.declared; // a phone's tapped card is its own

async function refreshTeaching() {
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
    const face = button(cardName(card), () => post("/api/declare", { card }));
    face.className = "face" + (state.declared === card ? " declared" : "");
    face.setAttribute("aria-label", `Declare ${cardName(card)}`);
    return face;
  }));
}

// -- Learn to play: the first lesson, taught on the board (referee/table/lessons.py) --------
// Each step sets up a position (the lights show where pegs go), names a card and asks the
// learner to move; the referee praises a right move and refuses a wrong one with the reason.
// The last step is a short practice game, where the usual teaching-game hints apply.

const CARD_WORDS = { A: "Ace", J: "Jack", Q: "Queen", K: "King", JOKER: "Joker" };
const cardWords = (card) => CARD_WORDS[card] || card;
// A step of the lesson (not its practice game): the page shows the lesson's buttons instead
// of the ones of a game (Can't move, declaring a card, Hint, Undo).
const lessonStep = () => !!(state && state.lesson) && !["practice", "finished"].includes(state.lesson.phase);
const FEEDBACK_MARKS = { praise: "✓", wrong: "✗", done: "★" };

function lessonStatus() {
  const lesson = state.lesson;
  if (lesson.phase === "look") return "Look at the board: nothing to move in this step";
  if (lesson.phase === "passed") return lesson.more_learners ? "Press Next: the next learner's turn" : "Press Next for the next step";
  if (!lesson.card) return lesson.task;
  return `${lesson.learner_name}: play the ${cardWords(lesson.card).toLowerCase()} — lift a peg to begin`;
}

function renderLesson() {
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

// -- digital cards: this phone's own hand ---------------------------------------------

let handShown = null; // the last /api/hand answer: this phone's cards, and the one it tapped

function refreshPrivate() {
  refreshHand();
  refreshTeaching();
}

async function refreshHand() {
  const box = $("#hand-box");
  const mine = me.seat !== null && me.seat !== undefined && state && state.mode === "digital";
  box.hidden = !mine;
  document.body.classList.toggle("has-hand", Boolean(mine && state.turn === me.seat)); // a phone: the cards first
  if (!mine) return;
  const ticket = ++handRequest; // only the newest answer is drawn
  let hand;
  try {
    hand = await getJSON("/api/hand");
  } catch (error) {
    if (ticket === handRequest) $("#hand-note").textContent = error.message;
    return;
  }
  if (ticket !== handRequest) return;
  handShown = hand;
  const myTurn = "your_turn" in hand ? !!hand.your_turn : state.turn === hand.seat && state.phase === "play";
  const playable = new Set(hand.playable || []);
  const canDiscard = myTurn && hand.must_move === false;
  $("#hand-title").textContent = `Your hand — ${seatName(hand.seat)}`;
  let note = myTurn ? "Your turn: tap a card to play it, then move the pegs." : `Waiting for ${seatName(state.turn)}.`;
  // The rules page (Basic Game): a player is never forced to play a joker, so both are offered.
  if (canDiscard && playable.size) note = "Only your Joker can move a peg: play it, or keep it and discard another card.";
  else if (canDiscard) note = "Nothing can move: discard a card.";
  if (myTurn && hand.free_come_out) note += " You may also come out free (no card needed).";
  $("#hand-note").textContent = note;
  $("#hand").replaceChildren(...(hand.hand || []).map((card) => {
    const wrap = el("div", "card");
    const face = button(cardName(card), () => post("/api/declare", { card }));
    face.className = "face" + (playable.has(card) ? " playable" : "") + (hand.declared === card ? " declared" : "");
    face.disabled = !myTurn || !playable.has(card);
    face.setAttribute("aria-label", `${playable.has(card) ? "Play" : "Card"} ${cardName(card)}`);
    wrap.append(face);
    if (canDiscard) {
      const discard = button("Discard", () => post("/api/discard", { card }));
      discard.className = "discard";
      discard.setAttribute("aria-label", `Discard ${cardName(card)}`);
      wrap.append(discard);
    }
    return wrap;
  }));
}

// -- talking to the daemon ----------------------------------------------------------------

async function getJSON(url) {
  const reply = await fetch(url, { credentials: "same-origin", cache: "no-store" });
  const data = await reply.json().catch(() => null);
  if (!reply.ok) throw new Error((data && data.error) || `${url}: ${reply.status} ${reply.statusText}`);
  return data;
}

// Every POST carries the CSRF token; a refusal's {"error": ...} is shown to the player.
async function post(url, body) {
  let reply;
  try {
    reply = await fetch(url, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": me.csrf || "" },
      body: JSON.stringify(body || {}),
    });
  } catch (error) {
    showError("The referee cannot be reached.");
    throw error;
  }
  const data = await reply.json().catch(() => null);
  if (!reply.ok) {
    const message = (data && data.error) || `${reply.status} ${reply.statusText}`;
    showError(message);
    if (reply.status === 403) loadMe(); // perhaps a stale token: fetch a fresh one for next time
    throw new Error(message);
  }
  hideError();
  if (data && data.position) accept(data, false);
  return data;
}

// The seat this phone played (kept over a reload): told live when its game is over
let seated = JSON.parse(sessionStorage.getItem("pegs-seated") || "null");
let meFor;
async function loadMe() {
  try {
    me = Object.assign({ seat: null, admin: false, csrf: "" }, await getJSON("/api/me"));
  } catch {
    me = { seat: null, admin: false, csrf: "" };
  }
  meFor = state ? state.game : undefined; // the first state's
  if (state) renderEnded();
  if (state) {
    renderControls();
    renderLesson(); // its buttons, now allowed or not
    refreshPrivate();
  }
}

function renderEnded() {
  const mine = me.seat !== null && me.seat !== undefined;
  if (meFor === undefined) meFor = state.game;
  if (mine && meFor === state.game) {
    seated = { game: state.game, name: seatName(me.seat) };
    sessionStorage.setItem("pegs-seated", JSON.stringify(seated));
  }
  const ended = $("#game-ended");
  const spent = !!seated && !mine && meFor === state.game && seated.game !== state.game;
  ended.hidden = !spent;
  if (spent) ended.textContent = `The game this phone played as ${seated.name} has ended. A new game has begun: watch it here, or scan your seat's new QR code to play.`;
}

function setConnection(ok, text) {
  const conn = $("#conn");
  conn.textContent = text;
  conn.classList.toggle("bad", !ok);
}

// Live state over server-sent events. After repeated errors, a refusal (the daemon keeps
// 32 live pages at most), or a silence far longer than its 1 s heartbeat (a buffering
// proxy), poll every 2 s, and now and then try again.
function connect() {
  if (!window.EventSource) return poll();
  const source = new EventSource("/api/events");
  let failures = 0;
  let watchdog = 0;
  const fallBack = () => {
    clearTimeout(watchdog);
    source.close();
    poll();
  };
  const awake = () => {
    clearTimeout(watchdog);
    watchdog = setTimeout(fallBack, 40000);
  };
  const onState = (event) => {
    failures = 0;
    awake();
    setConnection(true, "Live");
    accept(JSON.parse(event.data), true);
  };
  source.addEventListener("state", onState);
  source.onmessage = onState;
  source.onerror = () => {
    failures += 1;
    setConnection(false, "Connection lost — reconnecting…");
    if (source.readyState === EventSource.CLOSED || failures >= 3) fallBack();
  };
  awake();
}

let polling = false;
function poll() {
  if (polling) return;
  polling = true;
  let good = 0;
  const once = async () => {
    try {
      accept(await getJSON("/api/state"), true);
      setConnection(true, "Updated every 2 s");
      good += 1;
    } catch {
      setConnection(false, "Cannot reach the referee — retrying…");
      good = 0;
    }
    if (good >= 30 && window.EventSource) {
      polling = false; // the daemon answers again: back to the live stream
      connect();
      return;
    }
    setTimeout(once, 2000);
  };
  once();
}

// -- the board under a finger or a mouse ------------------------------------------------

function holeAt(event) {
  const matrix = svg.getScreenCTM();
  if (!matrix) return null;
  const point = new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix.inverse());
  let best = null, bestDistance = pitch * 0.62; // the whole cell round a hole is its target
  for (const [name, x, y] of spots) {
    const distance = Math.hypot(point.x - x, point.y - y);
    if (distance < bestDistance) [best, bestDistance] = [name, distance];
  }
  return best;
}

function describe(name) {
  if (!name) return "";
  const guide = state && state.guidance && state.guidance[name];
  const marked = state && state.move_marks && state.move_marks[name];
  const said = state && state.lesson ? holeWords(name) : `${holeWords(name)} (${name})`; // a lesson: words only
  return guide ? `${said}: ${GUIDE_WORDS[guide]}` : marked ? `${said}: ${MARK_WORDS[marked]}` : said;
}

// A hole as a finger finds it (the same words as referee/words.py's hole_words).
function holeWords(name) {
  const match = /^([THSC])(\d+)(?::(\d+))?$/.exec(name);
  if (!match) return name;
  const whose = `${seatName(Number(match[2]))}'s`;
  const number = Number(match[3] || 0);
  if (match[1] === "C") return `${whose} colour hole`;
  if (match[1] === "S") return `${whose} start`;
  if (match[1] === "H") return `${whose} home, hole ${number}`;
  const named = { 0: "corner", 3: "in-spot", 8: "come-out hole" }[number];
  return named ? `${whose} ${named}` : `hole ${number} past ${whose} corner`;
}

svg.addEventListener("pointermove", (event) => {
  $("#hover").textContent = describe(holeAt(event));
});

svg.addEventListener("click", (event) => {
  const name = holeAt(event);
  $("#hover").textContent = describe(name);
  if (name && state && state.phase === "penalty" && name[0] === "T") {
    post("/api/penalty", { hole: name }).catch(() => {});
    return;
  }
  if (!name || !state || !state.simulate || name[0] === "C") return;
  // Decide lift or place when the tap's turn comes, from the state the previous tap left.
  queue = queue.then(() => {
    const lift = (state.occupied || []).includes(name);
    return post("/api/sim/events", { events: [`${lift ? "lift" : "place"} ${name}`] });
  }).catch(() => {});
});

$("#sim").addEventListener("submit", (event) => {
  event.preventDefault();
  const input = $("#sim-events");
  const events = input.value.split(/[,;\n]/).map((text) => text.trim()).filter(Boolean);
  if (events.length) post("/api/sim/events", { events }).then(() => { input.value = ""; }, () => {});
});

$("#zoom").addEventListener("click", (event) => {
  const wrap = $("#board-wrap");
  const zoomed = wrap.classList.toggle("zoomed");
  event.currentTarget.setAttribute("aria-pressed", String(zoomed));
  event.currentTarget.textContent = zoomed ? "Whole board" : "Zoom board";
  // start at the bottom middle: seat 0's side, the one facing the screen
  wrap.scrollLeft = (wrap.scrollWidth - wrap.clientWidth) / 2;
  if (zoomed) wrap.scrollIntoView({ block: "end" });
});

// -- buttons and forms ----------------------------------------------------------------------

$("#cant-move").addEventListener("click", () => {
  post("/api/discard", { card: null }).catch(() => {});
});

$("#done").addEventListener("click", () => {
  const done = state && state.simulate ? post("/api/sim/events", { events: ["done"] }) : post("/api/done", {});
  done.catch(() => {});
});
$("#wiring-check").addEventListener("click", () => post("/api/wiring", { action: "start" }).catch(() => {}));
$("#undo").addEventListener("click", () => post("/api/undo", {}).catch(() => {}));

$("#login").addEventListener("submit", async (event) => {
  event.preventDefault();
  const pin = $("#pin");
  try {
    await post("/api/login", { pin: pin.value });
    pin.value = "";
    await loadMe();
  } catch {
    pin.select();
  }
});
$("#logout").addEventListener("click", () => post("/api/logout", {}).then(loadMe, () => {}));

$("#seat-links").addEventListener("click", async () => {
  const dialog = $("#seats-dialog");
  const list = $("#seat-list");
  list.textContent = "Loading…";
  dialog.showModal();
  try {
    const seats = await getJSON("/api/seats");
    list.replaceChildren(...seats.map((seat) => {
      const row = el("div", "seat-link");
      const qr = el("div", "qr");
      qr.innerHTML = seat.qr || ""; // our own daemon's SVG
      const text = el("div");
      const link = el("a", "", seat.link);
      link.href = seat.link;
      text.append(el("strong", "", seat.name), el("br"), link);
      row.append(qr, text);
      return row;
    }));
  } catch (error) {
    list.textContent = error.message;
  }
});

// New game: one name and colour per seat in play, defaults from the seats now.
const playersSelect = $("#ng-players");
function seatRows() {
  const players = Number(playersSelect.value);
  const seats = players === 2 ? [0, 2] : Array.from({ length: players }, (_, i) => i);
  const rows = seats.map((seat) => {
    const info = seatInfo(seat);
    const row = el("div", "seat-row");
    const label = el("label", "", `Seat ${seat + 1}`); // people count from 1
    const name = el("input");
    name.type = "text";
    name.id = label.htmlFor = `ng-name-${seat}`;
    name.value = info.name;
    name.required = true;
    const colour = el("input");
    colour.type = "color";
    colour.value = info.colour;
    colour.setAttribute("aria-label", `Colour of seat ${seat + 1}`);
    row.append(label, name, colour, playerSelect(seat));
    return row;
  });
  $("#ng-seats").replaceChildren(...rows);
  const opposite = players === 6 || players === 8 || players === 10;
  const radio = document.querySelector('input[name="teams"][value="opposite"]');
  radio.disabled = !opposite;
  if (!opposite) document.querySelector('input[name="teams"][value="alternating"]').checked = true;
}
playersSelect.addEventListener("change", seatRows);

$("#new-game").addEventListener("click", () => {
  if (state) {
    playersSelect.value = String(state.position.players);
    const mode = document.querySelector(`input[name="mode"][value="${state.mode}"]`);
    if (mode) mode.checked = true;
    const rules = $("#ng-rules");
    if ([...rules.options].some((option) => option.value === state.rules.name)) rules.value = state.rules.name;
  }
  seatRows();
  $("#ng-error").textContent = "";
  $("#ng-house").value = "";
  $("#ng-rules").disabled = false;
  if (state && Array.isArray(state.teams) && state.teams.length > 2) {
    document.querySelector('input[name="teams"][value="opposite"]').checked = true; // 3 or 4 teams of 2
  }
  $("#new-game-dialog").showModal();
});

$("#new-game-form").addEventListener("submit", async (event) => {
  if (!event.submitter || event.submitter.value !== "start") return; // Cancel closes the dialog
  event.preventDefault();
  const form = event.currentTarget;
  const players = Number(playersSelect.value);
  const opposite = form.elements.teams.value === "opposite" && (players === 6 || players === 8 || players === 10);
  const half = players / 2;
  const file = $("#ng-house").files[0];
  const body = {
    players,
    teams: opposite ? Array.from({ length: half }, (_, s) => [s, s + half]) : null,
    rules: $("#ng-rules").value,
    house_rules: file ? await file.text() : null,
    mode: form.elements.mode.value,
    names: [...form.querySelectorAll('.seat-row input[type="text"]')].map((input) => input.value.trim()),
    colours: [...form.querySelectorAll('.seat-row input[type="color"]')].map((input) => input.value),
    teaching: $("#ng-teaching").checked,
    bots: Object.fromEntries([...form.querySelectorAll(".seat-row select.player")]
      .filter((select) => select.value !== "person").map((select) => [select.dataset.seat, select.value])),
  };
  try {
    await post("/api/games", body);
    $("#new-game-dialog").close();
  } catch (error) {
    $("#ng-error").textContent = error.message; // the dialog covers the toast: say it here too
  }
});

// -- small helpers ------------------------------------------------------------------------

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}
const li = (text) => el("li", "", text);
function button(text, action) {
  const node = el("button", "", text);
  node.type = "button";
  node.addEventListener("click", () => { Promise.resolve(action()).catch(() => {}); });
  return node;
}

let toastTimer = 0;
function showError(message) {
  $("#toast-text").textContent = message;
  $("#toast").hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(hideError, 10000);
}
function hideError() {
  $("#toast").hidden = true;
}
$("#toast-close").addEventListener("click", hideError);

// First the state (so the page is drawn at once), then the live stream.
(async () => {
  await loadMe();
  try {
    accept(await getJSON("/api/state"), true);
  } catch {
    setConnection(false, "Cannot reach the referee — retrying…");
  }
  connect();
})();
