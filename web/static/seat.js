// Who this page is: the table PIN (admin) or a seat joined by its link, and the game it played.
import { $, hideError } from "./dom.js";
import { getJSON, me, post, seatName, setMe, state } from "./state.js";
import { renderLesson } from "./lesson.js";
import { renderControls } from "./panels.js";
import { refreshTeaching } from "./hints.js";
import { refreshHand } from "./hand.js";

// What only this phone sees: its hand and a teaching game's hints for its team.
export function refreshPrivate() {
  refreshHand();
  refreshTeaching();
}

// The seat this phone played (kept over a reload): told live when its game is over
let seated = JSON.parse(sessionStorage.getItem("pegs-seated") || "null");
let meFor;
export async function loadMe() {
  try {
    setMe(Object.assign({ seat: null, admin: false, csrf: "" }, await getJSON("/api/me")));
  } catch {
    setMe({ seat: null, admin: false, csrf: "" });
  }
  meFor = state ? state.game : undefined; // the first state's
  if (state) renderEnded();
  if (state) {
    renderControls();
    renderLesson(); // its buttons, now allowed or not
    refreshPrivate();
  }
}

export function renderEnded() {
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

$("#login").addEventListener("submit", async (event) => {
  event.preventDefault();
  const pin = $("#pin");
  try {
    await post("/api/login", { pin: pin.value });
    pin.value = "";
    $("#pin-error").hidden = true;
    await loadMe();
  } catch (error) {
    hideError(); // said beside the PIN box instead: a phone's toast would cover it
    $("#pin-error").textContent = error.message;
    $("#pin-error").hidden = false;
    pin.select();
  }
});
$("#logout").addEventListener("click", () => post("/api/logout", {}).then(loadMe, () => {}));
