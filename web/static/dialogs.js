// The dialogs: a new game, the seat links, and the rule-set pickers they share with the lesson's.
import { $, el } from "./dom.js";
import { getJSON, post, seatInfo, seatsFor, state } from "./state.js";

// The chosen rule set's description, shown (not only on hover: phones have no hover).
function showSummary(select, where) {
  const option = select.selectedOptions[0];
  where.textContent = option ? option.title : "";
}
// A rule-set picker (templates/index.html rules_picker): its summary kept shown, and a house-rules
// file, which names its own base, setting the preset list aside. Gives back the summary's refresher.
function wireRulesPicker(prefix) {
  const rules = $(`#${prefix}-rules`);
  const house = $(`#${prefix}-house`);
  const summary = $(`#${prefix}-rules-summary`);
  const show = () => {
    const file = house.files[0];
    rules.disabled = !!file;
    if (file) summary.textContent = `House rules from ${file.name}: the file names its own base rule set, and the rules panel shows them once the game starts.`;
    else showSummary(rules, summary);
  };
  rules.addEventListener("change", show);
  house.addEventListener("change", show);
  show();
  return show;
}
const showNewGameRulesSummary = wireRulesPicker("ng");
export const showLessonRulesSummary = wireRulesPicker("ls");

// A seat is a person at the board, a person on a phone away from it (issue 36: the phone chooses, someone at
// the board moves its pegs; referee/table/phone_seats.py) or a bot (a bot chooses, a person moves its pegs).
// The levels offered (referee/coach/bots.py; README, "Bots": each level's measured win rates). Older names
// (random, greedy, strategic) still play in games made before the levels.
export const BOT_KINDS = { beginner: "beginner bot", family: "family bot", strong: "strong bot", expert: "expert bot" };
export const BOT_NAMES = { ...BOT_KINDS, random: "random bot", greedy: "greedy bot", strategic: "strong bot" };
function playerSelect(seat) {
  const select = el("select", "player");
  select.dataset.seat = String(seat);
  select.setAttribute("aria-label", `Who plays seat ${seat + 1}`);
  for (const [value, text] of [["person", "a person"], ["phone", "on a phone"], ...Object.entries(BOT_KINDS)]) {
    const option = el("option", "", text);
    option.value = value;
    select.append(option);
  }
  return select;
}

$("#seat-links").addEventListener("click", async () => {
  const dialog = $("#seats-dialog");
  const list = $("#seat-list");
  list.textContent = "Loading…";
  dialog.showModal();
  try {
    const seats = await getJSON("/api/seats");
    list.replaceChildren(...seats.map((seat) => {
      const row = el("div", "seat-link");
      if (seat.bot) { // no link: its cards are the bot's alone
        row.append(el("div", "", `${seat.name}: a bot plays this seat, no phone needed.`));
        return row;
      }
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

const HOUSE_FILE_MOST = 60 * 1024; // bytes; the referee takes 64 KB in all (web/__init__.py, MAX_BODY)

// New game: one name and colour per seat in play, defaults from the seats now.
const playersSelect = $("#ng-players");
function seatRows() {
  const players = Number(playersSelect.value);
  const seats = seatsFor(players);
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
  showNewGameRulesSummary(); // the rule set chosen above, the file cleared
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
  if (file && file.size > HOUSE_FILE_MOST) {
    $("#ng-error").textContent = `${file.name} is ${Math.round(file.size / 1024)} KB: a house-rules file is a few KB (at most 60). Is it the right file?`;
    return;
  }
  const body = {
    players,
    teams: opposite ? Array.from({ length: half }, (_, s) => [s, s + half]) : null,
    rules: $("#ng-rules").value,
    house_rules: file ? await file.text() : null,
    mode: form.elements.mode.value,
    phones: [...form.querySelectorAll(".seat-row select.player")].filter((select) => select.value === "phone")
      .map((select) => Number(select.dataset.seat)),
    names: [...form.querySelectorAll('.seat-row input[type="text"]')].map((input) => input.value.trim()),
    colours: [...form.querySelectorAll('.seat-row input[type="color"]')].map((input) => input.value),
    teaching: $("#ng-teaching").checked,
    bots: Object.fromEntries([...form.querySelectorAll(".seat-row select.player")]
      .filter((select) => !["person", "phone"].includes(select.value)).map((select) => [select.dataset.seat, select.value])),
  };
  if (body.phones.length) body.mode = "digital"; // a phone seat's cards are the referee's
  try {
    await post("/api/games", body);
    $("#new-game-dialog").close();
  } catch (error) {
    $("#ng-error").textContent = error.message; // the dialog covers the toast: say it here too
  }
});
