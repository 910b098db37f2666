// The lobby: choose a game, fill each seat, create the table, go to it.
const form = document.getElementById("create");
const playersSelect = document.getElementById("players");
const seatsBox = document.getElementById("seats");
const template = document.getElementById("seat-template");
const labels = JSON.parse(document.getElementById("labels").textContent);

function chosenGame() { return form.querySelector("input[name=game]:checked"); }

function drawSeats() {
  const count = Number(playersSelect.value);
  const old = [...seatsBox.querySelectorAll(".seat-kind")].map((s) => s.value);
  seatsBox.replaceChildren();
  for (let k = 0; k < count; k++) {
    const row = template.content.firstElementChild.cloneNode(true);
    row.querySelector(".seat-name").textContent = k === 0 ? labels.you : labels.seat.replace("{n}", k + 1);
    const kind = row.querySelector(".seat-kind");
    kind.value = old[k] || (k === 0 ? "human-here" : "bot:greedy");
    if (k === 0) kind.hidden = true;  // seat 1 is the person creating the table
    seatsBox.append(row);
  }
}

function drawPlayers() {
  const game = chosenGame();
  const [low, high] = [Number(game.dataset.min), Number(game.dataset.max)];
  const keep = Number(playersSelect.value) || 3;
  playersSelect.replaceChildren(...Array.from({ length: high - low + 1 }, (_, i) => new Option(low + i, low + i)));
  playersSelect.value = String(Math.min(high, Math.max(low, keep)));
  for (const box of form.querySelectorAll(".game-options")) box.hidden = box.dataset.game !== game.value;
  drawSeats();
}

form.addEventListener("change", (event) => {
  if (event.target.name === "game") drawPlayers();
  if (event.target === playersSelect) drawSeats();
});

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const error = document.getElementById("create-error");
  error.textContent = "";
  const game = chosenGame().value;
  const kinds = [...seatsBox.querySelectorAll(".seat-kind")].map((s) => s.value);
  const seats = kinds.map((k) => (k.startsWith("bot:") ? { kind: "bot", bot: k.slice(4) } : { kind: "human" }));
  const options = {};
  for (const input of form.querySelectorAll(`.game-options[data-game="${game}"] [name^="opt-"]`)) {
    const name = input.name.slice(4);
    options[name] = input.type === "checkbox" ? input.checked : input.type === "number" ? Number(input.value) : input.value;
  }
  const body = { game, players: Number(playersSelect.value), seats, options, clock: form.clock.value,
    name: form.name.value.trim() || labels.seat.replace("{n}", 1), public: kinds.includes("human-open") };
  const answer = await fetch("/api/tables", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const created = await answer.json();
  if (!answer.ok) { error.textContent = labels.refusals[created.code] || labels.refusals.other; return; }
  const mine = { [created.seat]: created.credential };
  for (let k = 1; k < kinds.length; k++) {
    if (kinds[k] !== "human-here") continue;  // this browser plays that seat too (hot-seat)
    const joined = await fetch(`/api/tables/${created.table_id}/join`, { method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({ join_code: created.join_code, name: labels.seat.replace("{n}", k + 1), seat: k }) });
    if (joined.ok) { const seat = await joined.json(); mine[seat.seat] = seat.credential; }
  }
  localStorage.setItem(`meeple:${created.table_id}`, JSON.stringify({ seats: mine, join_code: created.join_code }));
  location.href = `/tables/${created.table_id}`;
});

// Joining a public table from the list: a name, then the first free seat.
for (const button of document.querySelectorAll("button.join")) {
  button.addEventListener("click", async () => {
    const name = (prompt(labels.name_prompt) || "").trim().slice(0, 40) || labels.seat.replace("{n}", "?");
    const table = button.dataset.table;
    const answer = await fetch(`/api/tables/${table}/join`, { method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({ name }) });
    const seat = await answer.json();
    if (!answer.ok) { alert(labels.join_failed); location.reload(); return; }  // taken meanwhile: the list anew
    localStorage.setItem(`meeple:${table}`, JSON.stringify({ seats: { [seat.seat]: seat.credential } }));
    location.href = `/tables/${table}`;
  });
}

drawPlayers();
