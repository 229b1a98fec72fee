// The table's page: draws the live state on the server-rendered board and sends the
// players' actions to the JSON API. Plain JavaScript modules, no libraries, no build: it runs
// on whatever phone is at the table, served by a Raspberry Pi with no internet.
//
// This module reads the state (GET /api/state, and each server-sent event of /api/events)
// and draws it with the others. Its shape is described in one place, the TypedDict `State`
// of referee/table/view.py: the game's keys (game, version, position, turn, phase, mode,
// status, guidance, seats, teams, sides, history, ...) and the running table's (simulate,
// bots, bot, move_marks, lesson, teaching, leds, ...). A key added there is read here.
import { $ } from "./dom.js";
import { answered, getJSON, setState, sidesOf, state } from "./state.js";
import { loadMe, refreshPrivate, renderEnded } from "./seat.js";
import { renderBoard, renderSeats } from "./board.js";
import { renderStatus, renderTurn } from "./header.js";
import { renderControls, renderLists, renderProgress, renderRules } from "./panels.js";
import { renderLesson } from "./lesson.js";
import "./dialogs.js";

const RENDERED_SIDES = Number(document.body.dataset.sides);

// -- the state

// `live` states come from the stream or the poll and always win; a POST's reply is shown
// only if nothing newer has arrived meanwhile.
let shownKey = "";
function accept(next, live) {
  if (!next || !next.position) return;
  if (!live && state && next.game === state.game && next.version < state.version) return;
  if (sidesOf(next) !== RENDERED_SIDES) {
    // A new game on a board with another number of sides: the server draws the new board.
    // Once per game and size, so that a confused server cannot make the page reload forever
    // (a time limit would leave the old board drawn for a second new game soon after).
    const wanted = `${next.game}:${sidesOf(next)}`;
    if (sessionStorage.getItem("pegs-reloaded-for") !== wanted) {
      sessionStorage.setItem("pegs-reloaded-for", wanted);
      location.reload();
      return;
    }
  }
  // The daemon may publish the same state many times a second: draw only what changed.
  const key = JSON.stringify(Object.assign({}, next, { version: 0 }));
  if (state && next.game !== state.game) loadMe(); // a seat joined belongs to one game only
  const newer = !state || next.version !== state.version || next.game !== state.game;
  setState(next);
  if (newer) refreshPrivate(); // a phone's own hand and teaching hints change when the public state may not
  if (key === shownKey) return;
  shownKey = key;
  render();
}

function render() {
  renderSeats();
  renderTurn();
  renderStatus();
  if (state.finishing) $("#status").textContent = state.finishing; // a split half made (view.py)
  renderBoard();
  renderLists();
  renderProgress();
  renderRules();
  renderControls();
  renderLesson();
  renderEnded();
}

// -- talking to the daemon

function setConnection(ok, text) {
  const conn = $("#conn");
  conn.textContent = text;
  conn.classList.toggle("bad", !ok);
}

// Live state over server-sent events. After repeated errors, a refusal (the daemon keeps
// 32 live pages at most), or a silence far longer than its 1 s "alive" event (a buffering
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
  source.addEventListener("alive", () => {
    failures = 0;
    awake();
    setConnection(true, "Live");
  });
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

answered.state = (data) => accept(data, false);
answered.refused = loadMe;

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
