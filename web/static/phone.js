// A seat played from a phone, away from the board (issue 36): on its turn the phone chooses a
// card, then one of that card's moves in words (the referee's words, GET /api/hand's "moves"),
// sees it before sending it, and may take it back until someone at the board begins to carry
// it out. The board's LEDs then show it; the table's page says it (panels.js).
import { $, button, cardName, el } from "./dom.js";
import { post, seatName } from "./state.js";

let picked = { card: null, move: null }; // chosen on this phone, not yet sent
let pickedFor = "";

// A card tapped in the hand itself: the phone's card to choose a move of (never declared to the table).
export function pick(card, hand) {
  picked = { card, move: null };
  renderPhone(hand, true);
}

// Draws the phone's choice under its hand; gives back whether it did (a phone seat on its phone, its turn).
export function renderPhone(hand, myTurn) {
  const box = $("#phone-move");
  const by = hand.phone;
  box.hidden = !by;
  if (!by) return false;
  if (by !== "phone") {
    box.replaceChildren(el("p", "", by === "board"
      ? "Someone at the board plays your turns for now; the table can hand the seat back to this phone."
      : `A ${by} bot plays your turns for now; the table can hand the seat back to this phone.`));
    return true;
  }
  const turnKey = `${hand.seat}:${(hand.hand || []).join(",")}:${myTurn}`;
  if (turnKey !== pickedFor) picked = { card: null, move: null }; // a new turn, a new hand: choose afresh
  pickedFor = turnKey;
  if (!myTurn) {
    box.replaceChildren(el("p", "", "On your turn, choose a card here, then its move; the board carries it out."));
    return true;
  }
  if (hand.chosen) {
    box.replaceChildren(sent(hand.chosen));
    return true;
  }
  box.replaceChildren(...choosing(hand));
  return true;
}

function sent(chosen) {
  const wrap = el("div", "sent");
  wrap.append(
    el("p", "chosen", `Sent: ${cardName(chosen.card)} — ${chosen.words}.`),
    el("p", "note", "The lights at the board show it; whoever is nearest carries it out. You may take it back until they begin."),
    button("Take back", () => post("/api/phone/take-back", {}, $("#phone-note")).then(() => { picked = { card: null, move: null }; })),
    el("p", "error", ""),
  );
  wrap.lastChild.id = "phone-note";
  return wrap;
}

function choosing(hand) {
  const moves = hand.moves || {};
  const cards = Object.keys(moves).filter((card) => moves[card].length);
  const parts = [el("p", "", cards.length ? "Your move: tap a card, then its move." : "No card can move a peg: discard one of your cards above.")];
  if (!cards.length) return parts;
  const faces = el("div", "phone-cards");
  faces.append(...cards.map((card) => {
    const face = button(cardName(card), () => { picked = { card, move: null }; renderPhone(hand, true); });
    face.className = "face" + (picked.card === card ? " declared" : "");
    face.setAttribute("aria-label", `Choose ${cardName(card)}`);
    return face;
  }));
  parts.push(faces);
  if (picked.card && moves[picked.card]) {
    const list = el("ol", "phone-moves");
    list.append(...moves[picked.card].map((move) => {
      const item = el("li");
      const choice = button(move.words, () => { picked = { card: picked.card, move }; renderPhone(hand, true); });
      choice.className = picked.move && picked.move.text === move.text ? "picked" : "";
      choice.title = move.text;
      item.append(choice);
      return item;
    }));
    parts.push(list);
  }
  if (picked.move) {
    const note = el("p", "error", "");
    note.id = "phone-note";
    parts.push(
      el("p", "chosen", `${seatName(hand.seat)} plays ${cardName(picked.card)}: ${picked.move.words}.`),
      button("Send", () => post("/api/phone/move", { card: picked.card, move: picked.move.text }, note)),
      note,
    );
  }
  return parts;
}
