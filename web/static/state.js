// What the page's modules share: the daemon's latest state, who this page is, the seats'
// names, and the two calls to the daemon. It imports none of the page's other modules, so
// they import it, never app.js (which reads the state and draws it with them).
import { hideError, showError } from "./dom.js";

const DEFAULT_SEATS = JSON.parse(document.body.dataset.seats);
export let state = null;
export let me = { seat: null, admin: false, csrf: "" };
export const setState = (next) => { state = next; };
export const setMe = (next) => { me = next; };
// What a POST's answer starts: app.js shows a state it carries, seat.js asks who it is again.
export const answered = { state: () => {}, refused: () => {} };

// The daemon lets the seat to play (its phone) or the table PIN press done and choose.
export const canAct = () => me.admin || (me.seat !== null && me.seat === state.turn);

// -- seats and teams

export function seatInfo(seat) {
  const named = state && Array.isArray(state.seats) ? state.seats.find((s) => s.seat === seat) : null;
  return Object.assign({ seat, name: `Seat ${seat + 1}`, colour: "#9e9e9e" }, DEFAULT_SEATS[seat] || {}, named || {});
}
export const seatName = (seat) => seatInfo(seat).name;

// Two players sit at seats 0 and 2 of a four-sided board (referee/board.py, Board.for_players):
// said here once for the page, for the new-game dialog's seats before a game has them. A
// state names its own sides, seats and teams.
export const seatsFor = (players) => (players === 2 ? [0, 2] : Array.from({ length: players }, (_, i) => i));
export const sidesOf = (s) => s.sides;
export const seatsInPlay = (s) => s.seats.map((seat) => seat.seat);
export const teamsOf = (s) => s.teams;

export const teamName = (team) => team.map(seatName).join(" & ");

// -- talking to the daemon

export async function getJSON(url) {
  const reply = await fetch(url, { credentials: "same-origin", cache: "no-store" });
  const data = await reply.json().catch(() => null);
  if (!reply.ok) throw new Error((data && data.error) || `${url}: ${reply.status} ${reply.statusText}`);
  return data;
}

// Every POST carries the CSRF token; a refusal's {"error": ...} is shown to the player: in a
// toast, or in ``where`` (an element beside what was tapped) when given.
export async function post(url, body, where = null) {
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
    if (where) where.textContent = message;
    else showError(message);
    if (reply.status === 403) answered.refused(); // perhaps a stale token: fetch a fresh one for next time
    throw new Error(message);
  }
  hideError();
  if (data && data.position) answered.state(data);
  return data;
}
