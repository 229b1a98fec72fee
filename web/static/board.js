// The board: pegs, guidance, lit moves and LEDs drawn on the server's SVG, and taps on its holes.
import { $, SVG_NS, cardName } from "./dom.js";
import { getJSON, post, seatInfo, seatName, seatsInPlay, sidesOf, state, teamsOf } from "./state.js";

const PEG_R = 3.9, HOLE_R = 2.2, GUIDED_R = 3.2, LED_R = 4.55, MARK_R = 5.3;
const GLYPHS = { selected: "↑", destination: "↓", bump: "!", wrong: "×", "put-back": "↩" };
const GUIDE_WORDS = { selected: "lifted", destination: "may go here", bump: "bumped peg goes here",
  wrong: "take this peg off", "put-back": "put a peg back" };
// A bot's move, or a hint lit on request: a black-and-white ring (seen on any peg colour),
// dashed and turning on the peg to lift, solid where it goes, dotted where a bumped peg goes back.
const MARK_GLYPHS = { lift: "↑", hint: "↓", bump: "!" };
const MARK_WORDS = { lift: "lift this peg", hint: "then put it here", bump: "the bumped peg goes back here" };
let queue = Promise.resolve(); // board taps run one after another, each on the newest state

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

// LED colours come scaled down by the strip's brightness: show their hue at full strength.
function brighten(hex) {
  const rgb = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  const top = Math.max(...rgb);
  if (!top) return null;
  return "#" + rgb.map((v) => Math.round((v * 255) / top).toString(16).padStart(2, "0")).join("");
}

const TEAM_MARKS = ["▲", "■", "●", "◆", "★"];

export function renderSeats() {
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

export function renderBoard() {
  loadHoleWords();
  // Whose peg is where: the logical position for track and home holes ...
  const owner = new Map();
  const pegs = state.position.pegs || {};
  for (const [seat, places] of Object.entries(pegs)) {
    for (const hole of places) if (hole[0] !== "S") owner.set(hole, Number(seat));
  }
  for (const [hole, seat] of Object.entries(state.on_the_way || {})) owner.set(hole, seat); // placed, on its way
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
  // No card named: what could have made it. Who played it, and a bluff's declared card.
  const card = last ? cardName(last) : state.last_card_words || "—";
  const by = state.last_card_seat === null || state.last_card_seat === undefined ? "" : ` — ${seatName(state.last_card_seat)}`;
  const declared = state.last_card_declared ? ` (declared ${cardName(state.last_card_declared)})` : "";
  $("#last-card").textContent = card + by + declared;
  showHover();
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

// -- the board under a finger or a mouse

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
  const words = holeNames[name];
  const said = !words ? (state && state.lesson ? "" : name) : state.lesson ? words : `${words} (${name})`; // a lesson: words only
  if (!said) return "";
  return guide ? `${said}: ${GUIDE_WORDS[guide]}` : marked ? `${said}: ${MARK_WORDS[marked]}` : said;
}

// Every hole in words, as referee/words.py says it (GET /api/holes): asked again only when the
// board or the seats' names change.
let holeNames = {}, holeNamesFor = "";
function loadHoleWords() {
  const key = `${sidesOf(state)}:${(state.seats || []).map((s) => s.name)}`;
  if (key === holeNamesFor) return;
  holeNamesFor = key;
  getJSON("/api/holes").then((words) => {
    if (holeNamesFor !== key) return;
    holeNames = words;
    showHover(); // a hole under the pointer before the words came
  }, () => { holeNamesFor = ""; });
}

// The hole under the pointer, said again whenever the state changes (never yesterday's lights).
let hovered = null;
const showHover = () => { $("#hover").textContent = describe(hovered); };
svg.addEventListener("pointermove", (event) => { hovered = holeAt(event); showHover(); });
svg.addEventListener("pointerleave", () => { hovered = null; showHover(); });

svg.addEventListener("click", (event) => {
  const name = hovered = holeAt(event);
  showHover();
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
