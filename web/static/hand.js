// Digital cards: this phone's own hand.
import { $, button, cardName, el } from "./dom.js";
import { getJSON, me, post, seatName, state } from "./state.js";
import { pick, renderPhone } from "./phone.js";

export let handShown = null; // the last /api/hand answer: this phone's cards, and the one it tapped
let handRequest = 0;

export async function refreshHand() {
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
  const onPhone = hand.phone === "phone"; // played from this phone: a move is chosen here, carried out at the board
  if (onPhone && myTurn && playable.size) note = "Your turn: choose a card and its move below; the board carries it out.";
  $("#hand-note").textContent = note;
  renderPhone(hand, myTurn);
  const whyNot = (card) => {
    if (!myTurn) $("#hand-note").textContent = `It is ${seatName(state.turn)}'s turn: your cards wait for yours.`;
    else if (playable.size) $("#hand-note").textContent = `No peg can move with ${cardName(card)} now: play ${[...playable].map(cardName).join(" or ")}.`;
    else $("#hand-note").textContent = `No peg can move with ${cardName(card)} now: discard a card.`;
  };
  $("#hand").replaceChildren(...(hand.hand || []).map((card) => {
    const wrap = el("div", "card");
    const usable = myTurn && playable.has(card);
    // A card that can't be played now says why when tapped (a disabled button would say nothing).
    const play = () => (onPhone ? pick(card, hand) : post("/api/declare", { card }, $("#hand-note")).catch(() => {}));
    const face = button(cardName(card), () => (usable ? play() : whyNot(card)));
    face.className = "face" + (playable.has(card) ? " playable" : "") + (hand.declared === card ? " declared" : "") + (usable ? "" : " unusable");
    face.setAttribute("aria-disabled", String(!usable));
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
