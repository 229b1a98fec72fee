// Small helpers of the page's modules: finding and making elements, the error toast, card names.

export const $ = (selector) => document.querySelector(selector);
export const SVG_NS = "http://www.w3.org/2000/svg";
export function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}
export const li = (text) => el("li", "", text);
export function button(text, action) {
  const node = el("button", "", text);
  node.type = "button";
  node.addEventListener("click", () => { Promise.resolve(action()).catch(() => {}); });
  return node;
}

let toastTimer = 0;
export function showError(message) {
  $("#toast-text").textContent = message;
  $("#toast").hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(hideError, 10000);
}
export function hideError() {
  $("#toast").hidden = true;
}
$("#toast-close").addEventListener("click", hideError);

export const CARDS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "JOKER"];
export const cardName = (card) => (card === "JOKER" ? "Joker" : card);
