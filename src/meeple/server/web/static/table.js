// A table page: one WebSocket per seat this browser plays (several in a hot-seat game), the
// server's HTML fragments swapped in, clicks sent as moves. The page holds no rules and no
// secrets beyond the views its own seats receive. Others' moves are shown one at a time, each
// for the chosen pace, so a person can follow them; the seats' own moves show at once.
const root = document.getElementById("table");
const tableId = root.dataset.table;
const lang = root.dataset.lang;
const labels = JSON.parse(root.dataset.labels);
const $ = (id) => document.getElementById(id);
const storeKey = `meeple:${tableId}`;

function saved() { return JSON.parse(localStorage.getItem(storeKey) || "{}"); }
function save(data) { localStorage.setItem(storeKey, JSON.stringify(data)); }

const sockets = new Map();   // seat (or "watch") -> WebSocket
const latest = new Map();    // seat (or "watch") -> last state message
const logs = new Map();      // seat (or "watch") -> that seat's log (HTML lines), shown only on its screen
const chatSeen = new Set();  // chat line indices already shown (every socket hears every line)
let shown = null;            // whose screen is on display
let cleared = null;          // in hot-seat: the seat that passed the "pass the device" screen
let picked = null;           // the first click of a two-click move
let pointed = null;          // the id of the move under the pointer, if any
const queues = new Map();    // seat (or "watch") -> state messages received, not yet shown
const timers = new Map();    // seat (or "watch") -> the timer holding its queue
const since = new Map();     // seat (or "watch") -> when its current version was first shown

// How long each version stays on display before the next move of someone else replaces it.
const PACES = { instant: 0, fast: 400, normal: 1000, slow: 2000 };
const paceKey = "meeple:pace";
function pace() { return PACES[localStorage.getItem(paceKey)] ?? PACES.normal; }

function mySeats() { return Object.keys(saved().seats || {}).map(Number).sort((a, b) => a - b); }

// A refusal in the page's language, by its code (the server's own message is English).
function refusal(code) { return labels.refusals[code] || labels.refusals.other; }

function say(text) { $("message").textContent = text || ""; }

function connect(seat, credential) {
  const key = credential ? seat : "watch";
  const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/tables/${tableId}`);
  sockets.set(key, ws);
  ws.addEventListener("open", () => {
    ws.send(JSON.stringify({ type: "hello", credential: credential || undefined, render: lang }));
    $("connection").textContent = "";
  });
  ws.addEventListener("message", (event) => receive(key, JSON.parse(event.data)));
  ws.addEventListener("close", () => {
    if (sockets.get(key) !== ws) return;
    $("connection").textContent = labels.disconnected;
    setTimeout(() => connect(seat, credential), 1000);  // a dropped network or a restarted server
  });
}

function receive(key, message) {
  if (message.type === "error") { say(refusal(message.code)); return; }
  if (message.type === "chat") { for (const line of message.lines) addChat(line); return; }
  if (message.type === "undo") { if (key === shown) $("undo").hidden = !message.can_undo; return; }
  if (message.type !== "state") return;
  // A connection's first message (and an undo's) carries the whole log: it starts afresh, at once.
  if (message.history) { clearTimeout(timers.get(key)); timers.delete(key); queues.set(key, []); }
  if (!queues.has(key)) queues.set(key, []);
  queues.get(key).push(message);
  pump(key);
}

// Whether `message` is a move by someone not at this device (a bot, a person elsewhere): it
// waits its turn. The seats' own moves, notices and presence changes show at once.
function paced(key, message) {
  const before = latest.get(key);
  if (!before || message.history || message.version === before.version) return false;
  return !mySeats().includes(before.to_move);
}

// Show the queued messages in order, holding each version for the pace; the latest wins in the end.
function pump(key) {
  const queue = queues.get(key) || [];
  while (queue.length && !timers.has(key)) {
    const next = queue[0];
    const wait = paced(key, next) ? (since.get(key) || 0) + pace() - Date.now() : 0;
    if (wait > 0) {
      timers.set(key, setTimeout(() => { timers.delete(key); pump(key); }, wait));
      return;
    }
    queue.shift();
    const moved = latest.get(key)?.version !== next.version;
    apply(key, next);
    if (moved) since.set(key, Date.now());  // once drawn: a slow drawing does not eat the pause
  }
}

function apply(key, message) {
  const before = latest.get(key);
  latest.set(key, message);
  // A connection's first message carries the whole log so far (as this seat may see it).
  logs.set(key, (message.history ? "" : logs.get(key) || "") + (message.html.log || ""));
  if (!before || before.version !== message.version) say("");
  choose();
}

// Which screen to show: the seat to move among ours (hot-seat), else our only seat, else watch.
function choose() {
  const mine = mySeats();
  const any = latest.get(mine.find((s) => latest.has(s))) || latest.get("watch");
  if (!any) return;
  let seat = mine.length ? mine[0] : "watch";
  if (mine.length > 1) seat = mine.includes(any.to_move) ? any.to_move : mine.includes(shown) ? shown : mine[0];
  if (mine.length > 1 && seat !== shown && !any.over) {
    if (cleared !== seat) { passScreen(seat); return; }
  }
  show(seat);
}

function passScreen(seat) {
  const names = JSON.parse($("pass-labels").innerHTML);
  const name = (latest.get(seat)?.seats[seat]?.name) || `${seat + 1}`;
  // Nothing of the last seat stays: its board, moves, seat panels, log, status and messages.
  for (const id of ["board", "moves", "players", "log", "status", "message", "preview"]) $(id).replaceChildren();
  $("undo").hidden = true;
  $("leave").hidden = true;
  $("invite").hidden = true;
  shown = null;
  delete root.dataset.version;
  $("pass").hidden = false;
  $("status").textContent = names.to_move.replace("{p}", name);
  $("pass-text").textContent = names.pass.replace("{p}", name);
  $("pass-ready").textContent = names.ready.replace("{p}", name);
  $("pass-ready").onclick = () => { cleared = seat; $("pass").hidden = true; show(seat); };
}

function show(seat) {
  const message = latest.get(seat);
  if (!message) return;
  shown = seat;
  picked = null;
  root.dataset.version = message.version;  // for scripts and tests: the move number on display
  $("board").innerHTML = message.html.board;
  $("moves").innerHTML = message.html.moves;
  $("players").innerHTML = message.html.players;
  $("log").innerHTML = logs.get(seat) || "";
  $("log").scrollTop = $("log").scrollHeight;
  const status = message.html.status && new DOMParser().parseFromString(message.html.status, "text/html").body.textContent;
  $("status").textContent = status;
  $("undo").hidden = !message.can_undo;
  showHint(seat, message);
  $("leave").hidden = seat === "watch" || message.over;
  const waiting = message.status === "waiting";
  $("invite").hidden = !waiting || !saved().join_code;
  if (waiting) $("invite-count").textContent = status;
  if (waiting && saved().join_code) $("invite-link").value = `${location.origin}/tables/${tableId}?join=${saved().join_code}`;
  if (message.over) finish(message);
  refreshPicks();
  // The move under the pointer or holding the focus keeps its preview when the screen changes.
  const focused = document.activeElement;
  const under = pointed && $("moves").querySelector(`[data-action-id="${CSS.escape(pointed)}"]`);
  showPreview(under || (focused && root.contains(focused) ? focused : null));
}

// What a move will do, before the click: its label and score change, from its button's data-preview.
function showPreview(target) {
  const move = target?.closest?.("[data-action-id]");
  const button = move && $("moves").querySelector(`[data-action-id="${CSS.escape(move.dataset.actionId)}"]`);
  const hint = $("moves").childElementCount ? $("preview").dataset.hint : "";
  $("preview").textContent = button?.dataset.preview || move?.getAttribute("aria-label") || hint;
  $("preview").classList.toggle("hint", !move);
}

function finish(message) {
  $("result").hidden = false;
  $("result-body").innerHTML = message.html.result || "";
  $("record").href = `/api/tables/${tableId}/record`;
  $("record").download = `${root.dataset.game}-${tableId}.json`;
  replay.total = message.version;
  if (replay.at === null) { replayTo(message.version); reviewStep("GET"); }
}

// Hints while learning: at a table where every other seat is a bot, the seat to move may ask the
// review's estimator for its preferred move. The answer is this seat's alone (never sent to the others).
const hinted = { version: null };
function showHint(seat, message) {
  const others = (message.seats || []).filter((s) => s.seat !== seat);
  const allBots = others.length > 0 && others.every((s) => s.kind === "bot" || s.bot);
  const can = seat !== "watch" && !message.over && message.status === "playing" && message.to_move === seat
    && allBots && (message.legal || []).length > 1;
  $("hint").hidden = !can;
  if (hinted.version !== message.version) { $("hint-answer").hidden = true; hinted.version = null; }
}
$("hint").addEventListener("click", async () => {
  const message = latest.get(shown);
  const credential = saved().seats?.[shown];
  if (!message || !credential) return;
  $("hint").disabled = true;
  $("hint-answer").hidden = false;
  $("hint-answer").textContent = labels.thinking;
  try {
    const answer = await fetch(`/api/tables/${tableId}/hint`, { method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${credential}` },
      body: JSON.stringify({ version: message.version }) });
    const body = await answer.json().catch(() => ({}));
    if (latest.get(shown)?.version !== message.version) return;  // the table moved on meanwhile
    if (!answer.ok) { $("hint-answer").hidden = true; say(refusal(body.code)); return; }
    const button = $("moves").querySelector(`[data-action-id="${body.best_action_id}"]`);
    for (const old of $("moves").querySelectorAll(".hinted")) old.classList.remove("hinted");
    button?.classList.add("hinted");
    hinted.version = message.version;
    $("hint-answer").textContent = labels.hint_answer.replace("{move}", button?.textContent || "")
      .replace("{chance}", Math.round(body.best_chance * 100));
  } finally {
    $("hint").disabled = false;
  }
});

// Two-click moves: elements with data-needs wait until their data-pick is chosen.
function refreshPicks() {
  for (const el of $("board").querySelectorAll("[data-pick]")) el.classList.toggle("picked", el.dataset.pick === picked);
  for (const el of $("board").querySelectorAll("[data-needs]")) {
    const on = el.dataset.needs === picked;
    el.classList.toggle("armed", on);
    el.style.display = on ? "" : "none";
  }
}

function act(actionId) {
  const message = latest.get(shown);
  const ws = sockets.get(shown);
  if (!message || !ws || ws.readyState !== WebSocket.OPEN) return;
  ws.send(JSON.stringify({ type: "act", version: message.version, action_id: Number(actionId) }));
}

function activate(target) {
  const move = target.closest("[data-action-id]");
  if (move && (!move.dataset.needs || move.dataset.needs === picked)) { act(move.dataset.actionId); return true; }
  const pick = target.closest("[data-pick]");
  if (pick) { picked = picked === pick.dataset.pick ? null : pick.dataset.pick; refreshPicks(); return true; }
  return false;
}

for (const area of [$("board"), $("moves")]) {
  area.addEventListener("mouseover", (event) => {
    pointed = event.target.closest?.("[data-action-id]")?.dataset.actionId || null;
    showPreview(event.target);
  });
  area.addEventListener("focusin", (event) => showPreview(event.target));
  area.addEventListener("mouseleave", () => { pointed = null; showPreview(null); });
  area.addEventListener("focusout", () => showPreview(null));
  area.addEventListener("click", (event) => activate(event.target));
  area.addEventListener("keydown", (event) => {
    if ((event.key === "Enter" || event.key === " ") && activate(event.target)) event.preventDefault();
  });
}

$("pace").value = Object.keys(PACES).find((name) => PACES[name] === pace());
$("pace").addEventListener("change", () => {
  localStorage.setItem(paceKey, $("pace").value);
  for (const [key, timer] of timers) { clearTimeout(timer); timers.delete(key); pump(key); }
});
// The rules enter the page only when asked for: their words are no part of a seat's screen.
$("rules-open").addEventListener("click", () => {
  $("rules").querySelector(".rules-text").textContent = $("rules-summary").content.textContent;
  $("rules").showModal();
});

$("undo").addEventListener("click", () => {
  const message = latest.get(shown);
  if (message) sockets.get(shown)?.send(JSON.stringify({ type: "undo", version: message.version }));
});
$("leave").addEventListener("click", () => sockets.get(shown)?.send(JSON.stringify({ type: "leave" })));
$("copy").addEventListener("click", async () => {
  await navigator.clipboard?.writeText($("invite-link").value).catch(() => {});
  $("copy").textContent = labels.copied;
});

function addChat(line) {
  if (chatSeen.has(line.index)) return;
  chatSeen.add(line.index);
  const item = document.createElement("li");
  item.dataset.index = line.index;
  const who = document.createElement("b");
  who.textContent = `${line.name}: `;
  item.append(who, document.createTextNode(line.text));  // plain text, never HTML
  $("chat").append(item);
  $("chat").scrollTop = $("chat").scrollHeight;
}
// The chat so far (a reload or a second tab shows it whole); lines said meanwhile arrive on the sockets.
async function loadChat() {
  const answer = await fetch(`/api/tables/${tableId}/chat`);
  if (!answer.ok) return;
  const lines = await answer.json();
  lines.sort((a, b) => a.index - b.index);
  const live = [...$("chat").children];
  $("chat").replaceChildren();
  for (const line of lines) { chatSeen.delete(line.index); addChat(line); }
  for (const item of live) if (!lines.some((l) => String(l.index) === item.dataset.index)) $("chat").append(item);
}
$("chat-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const text = $("chat-text").value.trim();
  const ws = sockets.get(shown) || sockets.get("watch");
  if (text && ws) { ws.send(JSON.stringify({ type: "chat", text })); $("chat-text").value = ""; }
});

// Replay of a finished game, move by move, from spectator views rendered by the server.
const replay = { at: null, total: 0 };
async function replayTo(n) {
  const at = replay.at = Math.max(0, Math.min(replay.total, n));
  markReviewed(at);
  const answer = await fetch(`/tables/${tableId}/replay/${at}`);
  if (replay.at !== at) return;  // a later step was asked for meanwhile: it draws its own board
  if (answer.ok) $("replay-board").innerHTML = await answer.text();
  $("replay-at").textContent = $("replay-label").innerHTML.replace("{n}", at).replace("{total}", replay.total);
  $("replay").dataset.at = at;  // for scripts and tests: the move the replay shows
}

// The review of the finished game: asked for once (the server stores it), its progress polled,
// then shown beside the replay; a click on the chart, a turning point or a move steps the replay there.
async function reviewStep(method) {
  const answer = await fetch(`/api/tables/${tableId}/review`, { method });
  const body = await answer.json().catch(() => ({}));
  const start = $("review-start");
  if (!answer.ok) {
    $("review-progress-area").hidden = true;
    start.hidden = false;
    start.disabled = false;
    if (method === "POST") $("review-message").textContent = refusal(body.code);
    return;
  }
  if (body.status === "done") { await showReview(); return; }
  if (body.status === "none" || body.status === "failed") {
    $("review-progress-area").hidden = true;
    start.hidden = false;
    start.disabled = false;
    if (body.status === "failed") $("review-message").textContent = labels.review_failed;
    return;
  }
  start.hidden = true;
  $("review-progress-area").hidden = false;
  $("review-progress").max = Math.max(1, body.total);
  $("review-progress").value = body.done;
  $("review-progress-text").textContent = labels.reviewing.replace("{done}", body.done).replace("{total}", body.total);
  setTimeout(() => reviewStep("GET"), 500);
}
async function showReview() {
  const answer = await fetch(`/tables/${tableId}/review`);
  if (!answer.ok) { $("review-start").hidden = false; return; }
  $("review").innerHTML = await answer.text();
  $("review-start").hidden = true;
  $("review-progress-area").hidden = true;
  $("review-message").textContent = "";
  $("review-panel").hidden = false;
  $("review-replay").append($("replay"));  // the replay moves beside the chart
  markReviewed(replay.at);
}
// The move on display in the replay, marked in the chart and the list of moves.
function markReviewed(at) {
  for (const el of $("review").querySelectorAll(".current")) { el.classList.remove("current"); el.removeAttribute("aria-current"); }
  for (const el of $("review").querySelectorAll(`.hit[data-move="${at}"], .review-moves [data-move="${at}"]`)) {
    el.classList.add("current");
    if (el.tagName === "BUTTON") el.setAttribute("aria-current", "step");
  }
  const item = $("review").querySelector(".review-moves .current");
  const list = item?.closest(".review-moves");
  if (item && list) list.scrollTop = item.offsetTop - list.offsetTop - list.clientHeight / 2;
}
$("review-start").addEventListener("click", () => {
  $("review-start").disabled = true;
  $("review-message").textContent = "";
  reviewStep("POST");
});
function jump(target) {
  const step = target.closest?.("[data-move]");
  if (!step || !$("review").contains(step)) return false;
  replayTo(Number(step.dataset.move));
  return true;
}
$("review").addEventListener("click", (event) => jump(event.target));
$("review").addEventListener("keydown", (event) => {
  if ((event.key === "Enter" || event.key === " ") && event.target.closest?.("g.turn") && jump(event.target)) event.preventDefault();
});
$("replay-prev").addEventListener("click", () => replayTo(replay.at - 1));
$("replay-next").addEventListener("click", () => replayTo(replay.at + 1));

// The running clock counts down between messages (the server's figures win at each message).
setInterval(() => {
  for (const clock of document.querySelectorAll("#players .clock.running")) {
    const ms = Math.max(0, Number(clock.dataset.ms) - 1000);
    clock.dataset.ms = ms;
    const s = Math.floor(ms / 1000);
    clock.textContent = `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
  }
}, 1000);

async function start() {
  const join = new URLSearchParams(location.search).get("join");
  if (join && !mySeats().length) {
    const name = prompt(labels.name_prompt) || labels.refusals.guest;
    const answer = await fetch(`/api/tables/${tableId}/join`, { method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({ join_code: join, name: name.slice(0, 40) }) });
    if (answer.ok) { const seat = await answer.json(); save({ seats: { [seat.seat]: seat.credential } }); }
    history.replaceState(null, "", location.pathname);
  }
  const seats = saved().seats || {};
  loadChat();
  if (Object.keys(seats).length === 0) connect(null, null);
  for (const [seat, credential] of Object.entries(seats)) connect(Number(seat), credential);
}
start();
