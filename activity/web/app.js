// The board page: state lives on the server; this draws what it is sent
// and sends each tap or key as one move.
const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
if (params.get("theme") === "dark" || params.get("theme") === "light") {
  document.documentElement.dataset.theme = params.get("theme");
}

let token = sessionStorage.getItem("sudoku-token") || "";
let game = null;       // the BoardView last sent
let canRedo = false;
let sel = -1;          // the selected cell
let notesMode = false;
let wrong = new Set(); // cells a check or hint marked
let hintCells = new Set();
let gotAt = 0;         // performance.now() when game arrived
let autoCands = localStorage.getItem("sudoku-auto") === "1"; // show computed candidates
let justFinished = false; // the game shown finished while on this page
let queue = Promise.resolve();

// Inside Discord the page is opened with frame_id in its query: the player
// signs in through Discord's Embedded App SDK (authorize gives a code, the
// server exchanges it, authenticate takes the access token back). Anywhere
// else the SDK's mock (DiscordSDKMock) stands in for the Discord client: its
// authorize gives the code the server's local mode, if on, takes for its
// test player.
const inDiscord = params.has("frame_id");
let discord = null;

function loadScript(src) {
  return new Promise((ok, fail) => {
    const s = document.createElement("script");
    s.src = src;
    s.onload = ok;
    s.onerror = () => fail(new Error("Discord's SDK didn't load: close the board and open it again."));
    document.head.appendChild(s);
  });
}

async function discordCode() {
  const cfg = await (await fetch("/api/config")).json();
  if (inDiscord && !cfg.clientId) throw new Error("This board isn't set up for Discord on this server.");
  const clientId = cfg.clientId || "local";
  if (!discord) {
    await loadScript(document.querySelector('meta[name="discord-sdk"]').content);
    discord = inDiscord ? new window.DiscordSDK(clientId) : new window.DiscordSDKMock(clientId, null, null, null);
    await discord.ready();
  }
  const { code } = await discord.commands.authorize({
    client_id: clientId, response_type: "code", state: "", prompt: "none", scope: ["identify"],
  });
  return code;
}

async function signIn() {
  const body = { code: await discordCode() };
  if (!inDiscord && params.get("as")) body.as = params.get("as"); // a local player of that name
  // Discord's sign-in names no server: the server asks Discord for this
  // instance's, the SDK's guildId and channelId being only the page's word.
  if (inDiscord) Object.assign(body, { instance: discord.instanceId || "", guild: discord.guildId || "", channel: discord.channelId || "" });
  const r = await fetch("/api/session", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const j = await r.json();
  if (!r.ok) throw new Error(j.error || "Can't sign in.");
  if (inDiscord && j.accessToken) await discord.commands.authenticate({ access_token: j.accessToken });
  token = j.token;
  sessionStorage.setItem("sudoku-token", token);
}

// call sends one API request, signing in again once when the session is gone.
async function call(method, path, body, retried) {
  if (!token) await signIn();
  const r = await fetch(path, {
    method,
    headers: { "Authorization": "Bearer " + token, "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const j = await r.json().catch(() => ({ error: "The server sent something unreadable." }));
  if (r.status === 401 && !retried) {
    await renewSession();
    return call(method, path, body, true);
  }
  if (!r.ok) { const e = new Error(j.error || r.statusText); e.status = r.status; throw e; }
  return j;
}

// act queues an action so moves reach the server in the order made.
function act(method, path, body, after) {
  queue = queue.then(async () => {
    try {
      const j = await call(method, path, body);
      showError("");
      take(j, after);
    } catch (e) {
      showError(e.message);
    }
  });
  return queue;
}

function showError(msg) {
  $("error").textContent = msg;
  $("error").hidden = !msg;
}

function take(j, after) {
  const old = game;
  game = j.game;
  // Seen finishing here (by this page's move, or by the live socket's
  // news of it, whichever came first) until another game is shown.
  if (!old || old.id !== game.id) justFinished = false;
  else if (old.status === "playing" && game.status !== "playing") justFinished = true;
  canRedo = j.canRedo;
  gotAt = performance.now();
  if (!old || old.id !== game.id) {
    sel = -1;
    wrong = new Set();
    coopLog = [];
    buildBoard();
    liveWatch(game.id);
  }
  coopRecall();
  if (room && game.together && game.together.mode === "coop") sessionStorage.setItem("sudoku-together", "coop");
  else if (room) sessionStorage.removeItem("sudoku-together");
  wrong = new Set(game.wrong);
  hintCells = new Set(game.hint ? game.hint.cells : []);
  if (after) after();
  let note = game.note || "";
  if (game.hint) note = game.hint.title + ": " + game.hint.text;
  $("note").textContent = note;
  render();
}

const rowName = (r) => String.fromCharCode(65 + r);

function buildBoard() {
  const n = game.givens.length === 0 ? 0 : Math.round(Math.sqrt(game.givens.length));
  const board = $("board");
  board.style.setProperty("--n", n);
  board.style.setProperty("--bc", game.boxCols);
  board.style.setProperty("--br", game.boxRows);
  board.classList.toggle("big", n > 9);
  document.body.dataset.size = n;
  board.replaceChildren();
  for (let i = 0; i < n * n; i++) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "cell";
    b.dataset.cell = i;
    const r = Math.floor(i / n), c = i % n;
    if (c % game.boxCols === game.boxCols - 1 && c !== n - 1) b.classList.add("bc");
    if (r % game.boxRows === game.boxRows - 1 && r !== n - 1) b.classList.add("bb");
    b.tabIndex = -1;
    b.addEventListener("click", () => select(i));
    board.append(b);
  }
  const pad = $("pad");
  pad.style.setProperty("--padcols", n <= 9 ? n : Math.ceil(n / 2));
  pad.style.setProperty("--sidecols", { 4: 2, 6: 3, 8: 4, 9: 3, 12: 4, 16: 4, 25: 5 }[n] || 4);
  pad.replaceChildren();
  for (let v = 1; v <= n; v++) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = game.symbols[v - 1];
    b.dataset.value = v;
    b.addEventListener("click", () => input(v, notesMode));
    pad.append(b);
  }
}

function select(i) {
  sel = i;
  render();
  const cell = $("board").children[i];
  if (cell && document.activeElement !== cell) cell.focus({ preventScroll: true });
}

// value is what the player sees in cell i: a given, an entry or 0.
const value = (i) => game.givens[i] || game.entries[i] || (game.solution ? game.solution[i] : 0);

function input(v, asNote) {
  if (!game || game.status !== "playing" || sel < 0 || game.givens[sel]) return;
  const path = `/api/games/${game.id}/move`;
  if (asNote) {
    if (game.entries[sel]) return; // notes go in empty cells
    // With candidates shown, a cell's first note takes one off them.
    const n = Math.round(Math.sqrt(game.givens.length));
    const from = game.notes[sel] || (autoCands ? candidates(sel, n) : 0);
    act("POST", path, { cell: sel, kind: "notes", notes: from ^ (1 << (v - 1)) });
  } else if (game.entries[sel] === v) {
    act("POST", path, { cell: sel, kind: "clear" });
  } else {
    act("POST", path, { cell: sel, kind: "digit", value: v });
  }
}

function erase() {
  if (!game || game.status !== "playing" || sel < 0 || game.givens[sel]) return;
  if (!game.entries[sel] && !game.notes[sel]) return;
  act("POST", `/api/games/${game.id}/move`, { cell: sel, kind: "clear" });
}

function label(i, n) {
  const parts = [`row ${rowName(Math.floor(i / n))}`, `column ${i % n + 1}`];
  const v = value(i);
  if (game.givens[i]) parts.push(`given ${game.symbols[v - 1]}`);
  else if (v) parts.push(game.symbols[v - 1]);
  else {
    parts.push("empty");
    const marks = [];
    for (let d = 1; d <= n; d++) if (game.notes[i] & (1 << (d - 1))) marks.push(game.symbols[d - 1]);
    if (marks.length) parts.push("notes " + marks.join(" "));
    else if (autoCands) parts.push("candidates " + maskSymbols(candidates(i, n), n).join(" "));
  }
  if (clashes.has(i)) parts.push("clash");
  if (wrong.has(i)) parts.push("wrong");
  return parts.concat(stepLabel(i, n)).join(", ");
}

let clashes = new Set();

function render() {
  if (!game) return;
  const n = Math.round(Math.sqrt(game.givens.length));
  const playing = game.status === "playing";
  $("title").textContent = game.title;
  $("start").hidden = true;
  $("play").hidden = false;
  clashes = new Set(game.clashes);
  readStep();
  const sv = sel >= 0 ? value(sel) : 0;
  const sr = Math.floor(sel / n), sc = sel % n;
  const box = (i) => Math.floor(Math.floor(i / n) / game.boxRows) * game.boxRows + Math.floor((i % n) / game.boxCols);
  const counts = new Array(n + 1).fill(0);
  const cells = $("board").children;
  for (let i = 0; i < cells.length; i++) {
    const b = cells[i];
    const v = value(i);
    counts[v]++;
    const r = Math.floor(i / n), c = i % n;
    b.classList.toggle("given", !!game.givens[i]);
    b.classList.toggle("sel", i === sel);
    b.classList.toggle("peer", sel >= 0 && i !== sel && (r === sr || c === sc || box(i) === box(sel)));
    b.classList.toggle("same", sel >= 0 && i !== sel && sv !== 0 && v === sv);
    b.classList.toggle("clash", clashes.has(i));
    b.classList.toggle("wrong", wrong.has(i));
    b.classList.toggle("hintc", hintCells.has(i));
    b.classList.toggle("cause", causeCells.has(i));
    b.classList.toggle("sol", !!game.solution && !game.givens[i] && !game.entries[i]);
    b.tabIndex = i === (sel >= 0 ? sel : 0) ? 0 : -1;
    b.setAttribute("aria-label", label(i, n));
    b.setAttribute("aria-pressed", i === sel ? "true" : "false");
    drawCell(b, i, n, v);
  }
  for (const b of $("pad").children) {
    const v = +b.dataset.value;
    b.classList.toggle("done", counts[v] >= n);
    b.disabled = !playing;
    b.setAttribute("aria-label", (notesMode ? "note " : "digit ") + game.symbols[v - 1]);
  }
  $("notes").setAttribute("aria-pressed", String(notesMode));
  $("auto").setAttribute("aria-pressed", String(autoCands));
  for (const id of ["notes", "auto", "erase", "check", "hint", "giveup"]) $(id).disabled = !playing;
  renderHint(playing);
  $("undo").disabled = !playing || game.moves === 0;
  $("redo").disabled = !playing || !canRedo;
  // Finished: the pad and tools go, the finish screen comes up under the
  // board (on a phone, in view) and takes the focus.
  const wasHidden = $("finish").hidden;
  $("finish").hidden = playing;
  $("pad").hidden = !playing;
  document.querySelector(".tools").hidden = !playing;
  $("hintbar").hidden = !playing;
  if (!playing) {
    renderFinish();
    if (wasHidden) $("again").focus({ preventScroll: true });
  }
  tick();
  liveDecorate();
}

const count = (k, what) => (k === 0 ? "no " + what + "s" : k === 1 ? "1 " + what : k + " " + what + "s");

function clock(ms) {
  const s = Math.floor(ms / 1000);
  const two = (x) => String(x).padStart(2, "0");
  return s >= 3600 ? `${Math.floor(s / 3600)}:${two(Math.floor(s / 60) % 60)}:${two(s % 60)}` : `${Math.floor(s / 60)}:${two(s % 60)}`;
}

function tick() {
  if (!game) return;
  const ms = game.elapsedMs + (game.running ? performance.now() - gotAt : 0);
  $("timer").textContent = clock(ms);
}
setInterval(tick, 500);

function move(dr, dc) {
  if (!game) return;
  const n = Math.round(Math.sqrt(game.givens.length));
  if (sel < 0) return select(0);
  const r = (Math.floor(sel / n) + dr + n) % n, c = (sel % n + dc + n) % n;
  select(r * n + c);
}

document.addEventListener("keydown", (e) => {
  if (!game || $("play").hidden || e.target.tagName === "SELECT") return;
  const n = Math.round(Math.sqrt(game.givens.length));
  const ctrl = e.ctrlKey || e.metaKey;
  if (ctrl && (e.key === "z" || e.key === "Z")) { e.preventDefault(); return e.shiftKey ? redo() : undo(); }
  if (ctrl && (e.key === "y" || e.key === "Y")) { e.preventDefault(); return redo(); }
  if (ctrl || e.altKey) return;
  const arrows = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  if (arrows[e.key]) { e.preventDefault(); return move(...arrows[e.key]); }
  // Keys act on the board only: a focused button keeps Enter and Space.
  if (e.target.closest && e.target.closest("dialog")) return;
  // Shift+digit types a note: read the key's code, since Shift+1 is "!".
  // A board's own symbols come first (a 25x25 is A to Y, so N and H are
  // symbols there).
  let sym = e.key.length === 1 ? e.key.toUpperCase() : "";
  const m = /^(?:Digit|Numpad)(\d)$/.exec(e.code);
  if (e.shiftKey && m) sym = m[1];
  const v = game.symbols.indexOf(sym) + 1;
  if (sym && v > 0 && v <= n) { e.preventDefault(); return input(v, notesMode || e.shiftKey); }
  if (e.key === "Backspace" || e.key === "Delete" || e.key === "0" || e.key === ".") { e.preventDefault(); return erase(); }
  if (sym === "N") { e.preventDefault(); return toggleNotes(); }
  if (sym === "H" && game.status === "playing") { e.preventDefault(); return askHint(); }
});

function toggleNotes() { notesMode = !notesMode; render(); }
function undo() { if (game && game.moves > 0) act("POST", `/api/games/${game.id}/undo`); }
function redo() { if (game && canRedo) act("POST", `/api/games/${game.id}/redo`); }

$("notes").addEventListener("click", toggleNotes);
$("erase").addEventListener("click", erase);
$("undo").addEventListener("click", undo);
$("redo").addEventListener("click", redo);
$("check").addEventListener("click", () => act("POST", `/api/games/${game.id}/check`));
$("hint").addEventListener("click", () => askHint());
for (const b of document.querySelectorAll("[data-daily]")) {
  b.addEventListener("click", () => act("POST", "/api/game", { daily: b.dataset.daily }));
}
$("new").addEventListener("click", () => act("POST", "/api/game", { size: +$("size").value, level: $("level").value }));
$("apply").addEventListener("click", applyStep);
$("auto").addEventListener("click", toggleAuto);
$("giveup").addEventListener("click", () => { if (game && game.status === "playing") $("giveup-dlg").showModal(); });
$("giveup-no").addEventListener("click", () => $("giveup-dlg").close());
$("giveup-yes").addEventListener("click", () => {
  $("giveup-dlg").close();
  act("POST", `/api/games/${game.id}/giveup`);
});
$("again").addEventListener("click", () => {
  game = null;
  sessionStorage.removeItem("sudoku-together");
  $("finish").hidden = true;
  $("play").hidden = true;
  $("leaders").hidden = true;
  $("start").hidden = false;
  $("title").textContent = "Sudoku";
});

// ---- Live: the game as it changes, wherever a move is made (another tab,
// chat, a co-op partner). One WebSocket to /api/live on the API's origin
// (inside Discord through the Activity's URL mapping, like the API); the
// session token goes in its first message, never in the URL.
let live = null;      // the open socket
let liveGame = 0;     // the game it watches
let liveWait = 500;   // the pause before connecting again, doubling
let liveTimer = 0;
let movers = new Map(); // cell → the user whose move last changed it
// Refusals a new connection won't mend: someone else's game, no such game.
const liveFinal = new Set([4003, 4004]);

function liveURL() {
  const prefix = location.pathname.startsWith("/.proxy/") ? "/.proxy" : "";
  return (location.protocol === "https:" ? "wss://" : "ws://") + location.host + prefix + "/api/live";
}

// me is the signed-in user's id, read from the session token's payload.
function me() {
  try {
    return JSON.parse(atob(token.split(".")[0].replace(/-/g, "+").replace(/_/g, "/"))).u || "";
  } catch (e) {
    return "";
  }
}

function liveWatch(id) {
  if (id === liveGame && live) return;
  liveGame = id;
  movers = new Map();
  if (live) { const old = live; live = null; old.close(1000); }
  clearTimeout(liveTimer);
  liveOpen();
}

function liveOpen() {
  if (!token || !liveGame || typeof WebSocket === "undefined") return;
  const ws = new WebSocket(liveURL());
  live = ws;
  const race = game && game.id === liveGame && game.together && game.together.mode === "race" ? game.together.race : 0;
  ws.onopen = () => ws.send(JSON.stringify({ type: "hello", token, game: liveGame, race }));
  ws.onmessage = (e) => {
    let m;
    try { m = JSON.parse(e.data); } catch (err) { return; }
    liveWait = 500;
    if (m.type === "game") liveTake(m);
    if (m.type === "race") { raceView = m.race; renderTogether(); }
  };
  ws.onclose = (e) => {
    if (live !== ws) return;
    live = null;
    document.body.dataset.live = "off";
    if (liveFinal.has(e.code)) return showError(e.reason);
    const again = () => { liveTimer = setTimeout(liveOpen, liveWait); liveWait = Math.min(liveWait * 2, 30000); };
    if (e.code === 4001) { renewSession().then(again, (err) => showError(err.message)); return; }
    again();
  };
}

// liveTake shows a game the socket sent, unless it is what the page shows
// already (the answer to this page's own move got here first).
function liveTake(m) {
  document.body.dataset.live = "on";
  if (!game || m.game.id !== game.id) return;
  for (const c of m.cells || []) movers.set(c, m.by || "");
  const g = m.game, same = (a, b) => a.length === b.length && a.every((v, i) => v === b[i]);
  if (m.by && m.cells && m.cells.length) coopNote(m, g);
  if (g.status === game.status && g.moves === game.moves && same(g.entries, game.entries) && same(g.notes, game.notes)) return;
  if (m.by && m.by !== me()) g.note = `${m.byName || "Another player"} played ${m.cells.map((c) => cellName(c)).join(", ")}.`;
  take({ game: g, canRedo: m.canRedo });
}

function cellName(i) {
  const n = Math.round(Math.sqrt(game.givens.length));
  return rowName(Math.floor(i / n)) + (i % n + 1);
}

// liveDecorate colours the cells others filled, each player in their own
// hue (from their id), so a co-op board shows who did what.
function liveDecorate() {
  renderTogether();
  // A co-op board says who placed each value (the store's record, so it
  // survives a reload); elsewhere the moves seen on the socket say it.
  if (game.movers) movers = new Map(game.movers.flatMap((u, i) => (u ? [[i, u]] : [])));
  const mine = me(), cells = $("board").children;
  for (let i = 0; i < cells.length; i++) {
    const by = movers.get(i);
    const other = by && by !== mine && game.entries[i] !== 0;
    cells[i].classList.toggle("byother", !!other);
    if (other) cells[i].style.setProperty("--mover", `hsl(${hue(by)} 70% 45%)`);
    else cells[i].style.removeProperty("--mover");
  }
}

function hue(id) {
  let h = 0;
  for (const ch of id) h = (h * 31 + ch.charCodeAt(0)) % 360;
  return h;
}

// ---- Together: co-op and race with everyone in the Activity instance
// (inside Discord: the instance_id Discord opens the page with) or, in
// local mode, in the room ?room=NAME names (?as=NAME signs in a local
// player of that name, so two browsers can play together).
const room = params.get(inDiscord ? "instance_id" : "room") || "";
let raceView = null; // the race's standings, from the socket
let coopLog = [];    // the latest moves on a co-op board, newest first

function together(mode, fresh) {
  queue = queue.then(async () => {
    try {
      const j = await call("POST", "/api/room", { room, mode, size: +$("size").value, level: $("level").value, fresh: !!fresh });
      if (j.token) { token = j.token; sessionStorage.setItem("sudoku-token", token); }
      showError("");
      raceView = null;
      coopLog = [];
      if (game && game.id === j.game.id && live) { const old = live; live = null; old.close(1000); liveGame = 0; }
      take(j);
    } catch (e) {
      showError(e.message);
    }
  });
  return queue;
}

// renewSession signs in again (the session ended) and, on a board shared
// with the room, joins the room again: the room's boards need a session
// that carries it, which Discord's say-so renews.
async function renewSession() {
  token = "";
  await signIn();
  if (room && game && game.together) {
    const j = await call("POST", "/api/room", { room, mode: game.together.mode }, true);
    if (j.token) { token = j.token; sessionStorage.setItem("sudoku-token", token); }
  }
}

// coopLine is one line of the co-op list: who, and what in which cells
// (what(cell, i) says it for the i-th cell).
function coopLine(by, name, cells, what) {
  const text = cells.slice(0, 4).map((c, i) => cellName(c) + " " + what(c, i)).join(", ") + (cells.length > 4 ? ", …" : "");
  return { by, name: by === me() ? "You" : name || "Another player", text };
}

// coopNote adds a move seen on the socket to the co-op list.
function coopNote(m, g) {
  coopLog.unshift(coopLine(m.by, m.byName, m.cells, (c) => (g.entries[c] ? g.symbols[g.entries[c] - 1] : g.notes[c] ? "notes" : "cleared")));
  coopLog = coopLog.slice(0, 8);
}

// coopRecall starts the co-op list, on a page (re)loaded or a board just
// joined, with the last moves the store credits to their movers (the
// values placed; the socket adds clears and notes as they come).
function coopRecall() {
  const t = game.together;
  if (coopLog.length || !t || t.mode !== "coop" || !t.recent) return;
  coopLog = t.recent.map((m) => coopLine(m.by, m.name, m.cells, (c, i) => game.symbols[m.values[i] - 1]));
}

function renderTogether() {
  const t = game && game.together;
  $("together-start").hidden = !room;
  $("together").hidden = !t;
  if (!t) return;
  const race = t.mode === "race";
  $("together-h").textContent = race ? (raceView && raceView.status === "over" ? "Race: the results" : "Race") : "Co-op: who did what";
  $("together-new").textContent = race ? "New race" : "New co-op board";
  $("together-new").hidden = !room;
  $("together-switch").textContent = race ? "Co-op instead" : "Race instead";
  $("together-switch").hidden = !room;
  const rows = race
    ? (raceView ? raceView.players : []).map((p) => ({
      by: p.id,
      text: `${p.place ? p.place + ". " : ""}${p.id === me() ? "You" : p.name}: ` +
        (p.status === "waiting" ? "joining" : `${p.filled}/${p.empty} cells, ${count(p.wrong, "mistake")}`) +
        (p.status === "solved" ? ` · solved in ${clock(p.elapsedMs)}` : p.status === "gave_up" ? " · gave up" : ""),
    }))
    : coopLog.map((l) => ({ by: l.by, text: `${l.name}: ${l.text}` }));
  const list = $("together-list");
  list.replaceChildren(...rows.map((r) => {
    const li = document.createElement("li");
    const dot = document.createElement("span");
    dot.className = "who";
    dot.style.background = `hsl(${hue(r.by)} 70% 45%)`;
    dot.setAttribute("aria-hidden", "true");
    li.append(dot, r.text);
    return li;
  }));
}

$("together-start").hidden = !room;
$("coop").addEventListener("click", () => together("coop"));
$("race").addEventListener("click", () => together("race"));
$("together-new").addEventListener("click", () => together(game.together.mode, true));
$("together-switch").addEventListener("click", () => together(game.together.mode === "race" ? "coop" : "race"));

async function boot() {
  // A page reloaded on a co-op board goes back to it: the board is the
  // room's (its opener's game), not the player's own newest.
  if (room && sessionStorage.getItem("sudoku-together") === "coop") await together("coop");
  if (game) return ready();
  try {
    take(await call("GET", "/api/game"));
  } catch (e) {
    if (e.status !== 404) showError(e.message);
    $("start").hidden = false;
  }
  ready();
}

function ready() {
  document.body.dataset.ready = "1";
  performance.mark("board-ready"); // time to an interactive board (the browser tests report it)
}
boot();

// ---- Hints: three levels, the step drawn on the board, Apply step. ----

let step = null;              // the level-3 hint's step, as the server sent it
let causeCells = new Set();   // cells that justify the step
let stepMarks = new Map();    // cell → the candidates the step reasons from
let stepCand = new Map();     // "cell:value" → "cause" | "rem"
let stepPlace = new Map();    // cell → the value the step places

function readStep() {
  step = game.hint && game.hint.step ? game.hint.step : null;
  causeCells = new Set(step ? step.cells : []);
  stepMarks = new Map(step ? step.marks.map((m) => [m.cell, m.notes]) : []);
  stepCand = new Map();
  stepPlace = new Map();
  if (!step) return;
  for (const c of step.causes) { stepCand.set(c.cell + ":" + c.value, "cause"); causeCells.add(c.cell); }
  for (const c of step.removals) stepCand.set(c.cell + ":" + c.value, "rem");
  for (const c of step.placements) stepPlace.set(c.cell, c.value);
}

// askHint asks for the next level on this position (1, 2, 3).
function askHint() {
  if (!game || game.status !== "playing") return;
  const level = game.hint ? Math.min(game.hint.level + 1, 3) : 1;
  act("POST", `/api/games/${game.id}/hint`, { level });
}

// applyStep plays the drawn step; the cell it fills (if any) is then
// selected, so the focus doesn't fall off the vanished button.
function applyStep() {
  if (!game || !step) return;
  const filled = step.placements.length ? step.placements[0].cell : sel;
  act("POST", `/api/games/${game.id}/step`, { step: step.id }, () => {
    if (filled >= 0) setTimeout(() => select(filled));
  });
}

// renderHint labels the Hint button with what the next press shows and
// offers Apply step under a drawn step.
function renderHint(playing) {
  const level = game.hint ? game.hint.level : 0;
  const next = ["Hint", "Where?", "Show step", "Hint"][level];
  $("hint").textContent = next;
  // The name holds the visible words (a voice user says what they see).
  $("hint").setAttribute("aria-label", next === "Hint" ? "Hint" : "Hint: " + next);
  $("hint").disabled = !playing || level === 3;
  $("apply").hidden = !playing || !step;
  $("apply").disabled = !playing || !step;
}

function stepLabel(i, n) {
  const out = [];
  if (!step) return out;
  if (stepPlace.has(i)) out.push("hint: place " + game.symbols[stepPlace.get(i) - 1]);
  const rem = [], why = [];
  for (let d = 1; d <= n; d++) {
    const k = stepCand.get(i + ":" + d);
    if (k === "rem") rem.push(game.symbols[d - 1]);
    if (k === "cause") why.push(game.symbols[d - 1]);
  }
  if (why.length) out.push("hint: because of " + why.join(" "));
  else if (causeCells.has(i)) out.push("hint: because of this cell");
  if (rem.length) out.push("hint: remove " + rem.join(" "));
  return out;
}

// ---- Auto-candidates: every empty cell without notes shows what fits. ----

function toggleAuto() {
  autoCands = !autoCands;
  localStorage.setItem("sudoku-auto", autoCands ? "1" : "0");
  render();
}

// candidates is the mask of values no peer of cell i holds.
function candidates(i, n) {
  const r = Math.floor(i / n), c = i % n;
  const r0 = r - (r % game.boxRows), c0 = c - (c % game.boxCols);
  let used = 0;
  for (let k = 0; k < n; k++) {
    used |= bit(value(r * n + k)) | bit(value(k * n + c));
    used |= bit(value((r0 + Math.floor(k / game.boxCols)) * n + c0 + (k % game.boxCols)));
  }
  return ((1 << n) - 1) & ~used;
}
const bit = (v) => (v ? 1 << (v - 1) : 0);

function maskSymbols(mask, n) {
  const out = [];
  for (let d = 1; d <= n; d++) if (mask & (1 << (d - 1))) out.push(game.symbols[d - 1]);
  return out;
}

// drawCell fills cell button b: its value, a step's placement, the
// candidates a step reasons from, the player's notes, or computed
// candidates.
function drawCell(b, i, n, v) {
  b.classList.toggle("target", !v && stepPlace.has(i));
  if (v || stepPlace.has(i)) {
    const t = game.symbols[(v || stepPlace.get(i)) - 1];
    if (b.textContent !== t || b.firstElementChild) b.textContent = t;
    return;
  }
  let mask = game.notes[i], kind = "notes";
  if (stepMarks.has(i)) mask = stepMarks.get(i);
  else if (!mask && autoCands && game.status === "playing") { mask = candidates(i, n); kind = "notes auto"; }
  if (!mask) { if (b.firstChild) b.textContent = ""; return; }
  const d = document.createElement("span");
  d.className = kind;
  d.setAttribute("aria-hidden", "true");
  for (let k = 1; k <= n; k++) {
    const s = document.createElement("span");
    if (mask & (1 << (k - 1))) {
      s.textContent = game.symbols[k - 1];
      const mark = stepCand.get(i + ":" + k);
      if (mark) s.className = mark;
    }
    d.append(s);
  }
  b.replaceChildren(d);
}

// ---- The finish screen: time, hints, checks, a daily's leaderboard. ----

function renderFinish() {
  const solved = game.status === "solved";
  $("finish-h").textContent = solved ? "Solved!" : "Game over";
  const figures = `${clock(game.elapsedMs)} · ${count(game.hints, "hint")} · ${count(game.checks, "check")}`;
  // The finishing move's note says it all (the figures, whether the solve
  // counts, the rating's change); opened later, the figures come with the
  // unfair solve's reason and the note of the opening ("You already solved
  // this daily.").
  const fresh = solved && justFinished && game.note;
  $("finish-text").textContent = fresh ? game.note : solved ? figures : (game.note || "You gave up on this one; the solution is shown.");
  const note = fresh ? "" : [game.unfair, solved ? game.note : ""].filter(Boolean).join(" ");
  $("finish-note").textContent = note;
  $("finish-note").hidden = !note;
  const lb = game.leaderboard;
  $("leaders").hidden = !lb;
  if (!lb) return;
  $("leaders-h").textContent = lb.title;
  const list = $("leaders-list");
  list.replaceChildren();
  for (const r of lb.rows) {
    const li = document.createElement("li");
    li.value = r.rank;
    li.textContent = `${r.name} — ${clock(r.timeMs)} · ${count(r.hints, "hint")}`;
    if (r.you) { li.className = "you"; li.setAttribute("aria-current", "true"); }
    list.append(li);
  }
  list.hidden = lb.rows.length === 0;
  $("leaders-note").textContent = lb.note || "";
  $("leaders-note").hidden = !lb.note;
}
