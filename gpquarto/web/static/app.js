// gpquarto in the browser: plain JavaScript, no build step. The server holds the games; this file draws them.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const CELL = 100; // board and tray cells are 100 x 100 in SVG units
const CODES = [["S", "T"], ["L", "D"], ["H", "O"], ["R", "Q"]]; // bit 3 tall, 2 dark, 1 solid, 0 square
const WORDS = [["short", "tall"], ["light", "dark"], ["hollow", "solid"], ["round", "square"]];

// ------------------------------------------------------------------------------------------ helpers
function $(id) { return document.getElementById(id); }

function el(name, attributes = {}, parent = null) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

function html(name, text = "", attributes = {}) {
  const node = document.createElement(name);
  node.textContent = text;
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  return node;
}

function bits(piece) { return [(piece >> 3) & 1, (piece >> 2) & 1, (piece >> 1) & 1, piece & 1]; }
function pieceCode(piece) { return bits(piece).map((bit, i) => CODES[i][bit]).join(""); }
function pieceWords(piece) { return bits(piece).map((bit, i) => WORDS[i][bit]).join(" "); }
function displayName(spec) { return spec.includes("/") ? spec.split("/").pop() : spec; } // saved files by name

function squareName(square) { return "abcd"[square % 4] + (Math.floor(square / 4) + 1); }

function showError(message) {
  const box = $("error");
  box.textContent = message;
  box.hidden = !message;
}

// Every call to the server: JSON in, JSON out; an error answer shows its one-line message on the page.
async function api(method, url, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = typeof body === "string" ? body : JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(url, options);
  } catch (error) {
    showError(`cannot reach the server: ${error}`);
    throw error;
  }
  const data = await response.json().catch(() => ({ error: `HTTP ${response.status}` }));
  if (!response.ok) {
    showError(data.error || `HTTP ${response.status}`);
    throw new Error(data.error);
  }
  showError("");
  return data;
}

// --------------------------------------------------------------------------------------------- drawing
// A piece seen from above, centred on (cx, cy): big when tall, dark or light, a hole when hollow, square or round.
function drawPiece(parent, piece, cx, cy, scale = 1) {
  const [tall, dark, solid, square] = bits(piece);
  const group = el("g", { class: "piece", "data-piece": piece, "data-code": pieceCode(piece) }, parent);
  el("title", {}, group).textContent = `${piece.toString(16).toUpperCase()} · ${pieceWords(piece)} (${pieceCode(piece)})`;
  const half = (tall ? 40 : 26) * scale;
  const look = { class: `body ${dark ? "dark" : "light"}` };
  if (square) el("rect", { ...look, x: cx - half, y: cy - half, width: 2 * half, height: 2 * half, rx: 4 * scale }, group);
  else el("circle", { ...look, cx, cy, r: half }, group);
  if (!solid) el("circle", { class: "hole", cx, cy, r: half * 0.42 }, group);
  return group;
}

function winningSquares(lines) { return new Set(lines.flat()); }

function isStraight(line) { return !(line[1] - line[0] === 1 && line[2] - line[1] === 3); } // 2x2 blocks are not

// The 4x4 board: cells carry data-square; options mark the last move, the hint and a clickable placement.
function drawBoard(svg, state, options = {}) {
  svg.replaceChildren();
  const winning = winningSquares(state.winning_lines);
  for (let square = 0; square < 16; square++) {
    const x = (square % 4) * CELL, y = Math.floor(square / 4) * CELL;
    const piece = state.cells[square];
    const classes = ["cell"];
    if (winning.has(square)) classes.push("win");
    if (options.last === square) classes.push("last");
    if (options.hint && options.hint.includes(square)) classes.push("hint");
    if (options.onSquare && piece === null) classes.push("clickable");
    const cell = el("g", { class: classes.join(" "), "data-square": square, "aria-label": squareName(square) }, svg);
    el("rect", { x: x + 2, y: y + 2, width: CELL - 4, height: CELL - 4, rx: 10 }, cell);
    if (piece === null) el("circle", { class: "socket", cx: x + 50, cy: y + 50, r: 42 }, cell);
    else drawPiece(cell, piece, x + 50, y + 50);
    if (options.onSquare && piece === null) cell.addEventListener("click", () => options.onSquare(square));
  }
  for (const line of state.winning_lines.filter(isStraight)) {
    const centre = (s) => [(s % 4) * CELL + 50, Math.floor(s / 4) * CELL + 50];
    const [x1, y1] = centre(line[0]), [x2, y2] = centre(line[line.length - 1]);
    el("line", { class: "win-line", x1, y1, x2, y2 }, svg);
  }
}

// The pieces not yet used, four per row in piece order; clickable when a choice is due.
function drawTray(svg, available, options = {}) {
  svg.replaceChildren();
  for (const piece of available) {
    const x = (piece % 4) * CELL, y = Math.floor(piece / 4) * 50;
    const classes = ["slot"];
    if (options.hint && options.hint.includes(piece)) classes.push("hint");
    if (options.onPiece) classes.push("clickable");
    const slot = el("g", { class: classes.join(" "), "data-piece": piece }, svg);
    el("rect", { x: x + 2, y: y + 1, width: CELL - 4, height: 48, rx: 6 }, slot);
    drawPiece(slot, piece, x + 50, y + 25, 0.55);
    if (options.onPiece) slot.addEventListener("click", () => options.onPiece(piece));
  }
}

function drawHand(svg, piece) {
  svg.replaceChildren();
  svg.dataset.piece = piece === null ? "" : piece;
  if (piece === null) el("text", { x: 50, y: 56, "text-anchor": "middle", class: "empty-hand" }, svg).textContent = "—";
  else drawPiece(svg, piece, 50, 50);
}

function moveItem(move, who) {
  const item = html("li", `${who}: ${move.text}`);
  item.dataset.action = move.action;
  if (move.explanation) {
    const why = html("span", "", { class: "explanation" });
    why.dataset.rule = move.explanation.rule === null ? "fallback" : move.explanation.rule;
    if (move.explanation.rule !== null) why.append(`${move.explanation.kind} rule ${move.explanation.rule}: `);
    why.append(html("span", move.explanation.text, { class: "rule-text" }));
    item.append(why);
  }
  return item;
}

function lastSquare(action) { return action !== undefined && action >= 16 ? action - 16 : null; }

// ------------------------------------------------------------------------------------------------ play
const play = { game: null, hint: null, busy: false };

function setBusy(page, busy) {
  if (page === "play") play.busy = busy;
  $(`page-${page}`).dataset.busy = busy ? "true" : "false";
}

async function playRequest(method, url, body) {
  setBusy("play", true);
  $("play-status").textContent = "thinking…";
  try {
    const state = await api(method, url, body);
    play.game = state;
    play.hint = null;
    $("play-hint-text").textContent = "";
    delete $("play-hint-text").dataset.actions;
  } catch (error) {
    // the message is on the page; the last good state stays drawn
  } finally {
    setBusy("play", false);
    drawPlay();
  }
}

function drawPlay() {
  const game = play.game;
  const section = $("page-play");
  if (!game) return;
  const opponent = displayName(game.opponent);
  section.dataset.moves = game.moves.length;
  section.dataset.over = game.over;
  const idle = !play.busy && game.your_turn;
  const moves = game.moves;
  const hint = play.hint && play.hint.solved ? play.hint : null;
  drawBoard($("play-board"), game, {
    last: moves.length ? lastSquare(moves[moves.length - 1].action) : null,
    hint: hint ? hint.squares : null,
    onSquare: idle && game.placement_due ? (square) => playRequest("POST", `/api/games/${game.id}/move`, { square }) : null,
  });
  drawTray($("play-tray"), game.available, {
    hint: hint ? hint.pieces : null,
    onPiece: idle && game.choice_due ? (piece) => playRequest("POST", `/api/games/${game.id}/move`, { piece }) : null,
  });
  drawHand($("play-hand"), game.in_hand);
  $("play-position-text").textContent = game.position;
  let status;
  if (game.over) status = `Game over: ${game.result}.`;
  else if (!game.your_turn) status = `${opponent} is thinking…`;
  else if (game.placement_due) status = "Your turn: click an empty square to place the piece in hand.";
  else status = `Your turn: click a piece to give to ${opponent}.`;
  $("play-status").textContent = status;
  $("play-status").classList.toggle("result", game.over);
  $("play-undo").disabled = play.busy || !game.can_undo;
  $("play-hint").disabled = play.busy || game.over;
  $("play-save").hidden = !game.over;
  $("play-save").href = `/api/games/${game.id}/record`;
  const list = $("play-moves");
  list.replaceChildren(...moves.map((move) => moveItem(move, move.seat === game.human_seat ? "you" : opponent)));
  if (game.forfeit) list.append(html("li", `${game.forfeit.seat === game.human_seat ? "you" : opponent} forfeit: ${game.forfeit.reason}`, { class: "forfeit" }));
}

async function newGame(event) {
  event.preventDefault();
  const seed = $("play-seed").value;
  await playRequest("POST", "/api/games", {
    opponent: $("play-opponent").value,
    seat: Number($("play-seat").value),
    rules: $("play-rules").value,
    position: $("play-position").value.trim() || null,
    seed: seed === "" ? null : Number(seed),
  });
}

async function askHint() {
  if (!play.game) return;
  setBusy("play", true);
  const text = $("play-hint-text");
  text.textContent = "solving…";
  try {
    play.hint = await api("GET", `/api/games/${play.game.id}/hint`);
    text.textContent = play.hint.solved ? `Hint: ${play.hint.text}` : play.hint.text;
    text.dataset.actions = play.hint.solved ? play.hint.best_actions.join(",") : "";
    text.dataset.solved = play.hint.solved;
  } catch (error) {
    text.textContent = "";
  } finally {
    setBusy("play", false);
    drawPlay();
  }
}

// ---------------------------------------------------------------------------------- watch and replay
const watch = { game: null, index: 0, timer: null };

function showGame(game) {
  stopWatch();
  watch.game = game;
  watch.index = 0;
  const names = game.players.map(displayName);
  const save = $("watch-save");
  if (save.href) URL.revokeObjectURL(save.href);
  save.href = URL.createObjectURL(new Blob([JSON.stringify(game.record, null, 1)], { type: "application/json" }));
  save.hidden = false;
  $("watch-players").textContent = `A (seat 0): ${names[0]} — B (seat 1): ${names[1]}`;
  const list = $("watch-moves");
  list.replaceChildren(...game.frames.slice(1).map((frame, i) => {
    const item = moveItem(frame.move, names[frame.move.seat]);
    item.addEventListener("click", () => showFrame(i + 1));
    return item;
  }));
  showFrame(0);
}

function showFrame(index) {
  const game = watch.game;
  if (!game) return;
  watch.index = Math.max(0, Math.min(index, game.frames.length - 1));
  const frame = game.frames[watch.index];
  const last = watch.index === game.frames.length - 1;
  drawBoard($("watch-board"), frame, { last: frame.move ? lastSquare(frame.move.action) : null });
  drawHand($("watch-hand"), frame.in_hand);
  $("watch-position-text").textContent = frame.position;
  $("watch-frame").textContent = `move ${watch.index} of ${game.frames.length - 1}` +
    (frame.move ? ` — ${displayName(game.players[frame.move.seat])}: ${frame.move.text}` : "");
  $("watch-status").textContent = last ? `Result: ${game.result}.` : "";
  $("watch-status").classList.toggle("result", last);
  $("page-watch").dataset.frame = watch.index;
  $("page-watch").dataset.atEnd = last;
  [...$("watch-moves").children].forEach((item, i) => item.classList.toggle("current", i + 1 === watch.index));
  if (last) stopWatch();
}

function stopWatch() {
  if (watch.timer) clearInterval(watch.timer);
  watch.timer = null;
  $("watch-play").textContent = "Play";
}

function toggleWatch() {
  if (watch.timer) return stopWatch();
  if (!watch.game) return;
  if (watch.index === watch.game.frames.length - 1) showFrame(0);
  watch.timer = setInterval(() => showFrame(watch.index + 1), Number($("watch-speed").value));
  $("watch-play").textContent = "Pause";
}

async function startWatch(event) {
  event.preventDefault();
  const seed = $("watch-seed").value;
  setBusy("watch", true);
  try {
    showGame(await api("POST", "/api/watch", {
      players: [$("watch-a").value, $("watch-b").value],
      rules: $("watch-rules").value,
      seed: seed === "" ? null : Number(seed),
    }));
  } catch (error) {
    // shown on the page
  } finally {
    setBusy("watch", false);
  }
}

async function startReplay(event) {
  event.preventDefault();
  const file = $("replay-file").files[0];
  if (!file) return showError("choose a game record file (JSON) to replay");
  setBusy("watch", true);
  try {
    showGame(await api("POST", "/api/replay", await file.text()));
  } catch (error) {
    // shown on the page
  } finally {
    setBusy("watch", false);
  }
}

// ------------------------------------------------------------------------------------------------ runs
async function loadRuns() {
  const data = await api("GET", "/api/runs").catch(() => null);
  if (!data) return;
  $("runs-folder").textContent = data.folder;
  const list = $("runs-list");
  list.replaceChildren(...data.runs.map((run) => {
    const item = html("li");
    const link = html("a", run.name, { href: `#runs/${encodeURIComponent(run.name)}`, "data-run": run.name });
    item.append(link);
    return item;
  }));
  if (!data.runs.length) list.append(html("li", "no runs yet: python -m gpquarto train --run-dir runs/NAME"));
}

async function showRun(name) {
  const run = await api("GET", `/api/runs/${encodeURIComponent(name)}`).catch(() => null);
  if (!run) return;
  $("run-name").textContent = run.name;
  drawCurve($("run-curve"), run.logbook);
  const plot = $("run-plot");
  plot.hidden = !run.has_plot;
  if (run.has_plot) plot.src = `/api/runs/${encodeURIComponent(name)}/fitness.png`;
  const best = $("run-best");
  best.replaceChildren();
  if (run.best_player) {
    const player = run.best_player;
    best.append(html("h3", `Best player: ${player.name}`));
    const fitness = Object.entries(player.fitness).map(([key, value]) => `${key} ${typeof value === "number" ? +value.toFixed(4) : value}`);
    if (fitness.length) best.append(html("p", fitness.join(", ")));
    for (const [kind, rules] of Object.entries(player.rules)) {
      best.append(html("h4", `${kind} rules`));
      const list = html("ol", "", { class: "rules", "data-kind": kind });
      list.append(...rules.map((rule) => html("li", rule)));
      best.append(list);
    }
    const button = html("button", "Play against it", { type: "button", id: "run-play" });
    button.addEventListener("click", () => { $("play-opponent").value = player.spec; location.hash = "#play"; });
    best.append(button);
  }
  for (const problem of run.problems) best.append(html("p", problem, { class: "problem" }));
  $("run-hof-title").hidden = !run.hall_of_fame;
  $("run-hof").textContent = run.hall_of_fame || "";
}

// The logbook's best and mean score per generation, as two polylines.
function drawCurve(svg, logbook) {
  svg.replaceChildren();
  svg.hidden = !logbook || !logbook.rows.length;
  if (svg.hidden) return;
  const column = (name) => logbook.columns.indexOf(name);
  const x = column("generation"), series = [["best", "best"], ["mean", "mean"]].filter(([name]) => column(name) >= 0);
  const values = logbook.rows.flatMap((row) => series.map(([name]) => row[column(name)])).filter((v) => v !== null);
  const low = Math.min(0, ...values), high = Math.max(1e-9, ...values);
  const n = logbook.rows.length;
  const px = (i) => 50 + (n > 1 ? (i / (n - 1)) * 530 : 265);
  const py = (v) => 230 - ((v - low) / (high - low || 1)) * 210;
  el("line", { class: "axis", x1: 50, y1: 230, x2: 580, y2: 230 }, svg);
  el("line", { class: "axis", x1: 50, y1: 20, x2: 50, y2: 230 }, svg);
  el("text", { x: 45, y: 24, "text-anchor": "end", class: "tick" }, svg).textContent = high.toFixed(2);
  el("text", { x: 45, y: 230, "text-anchor": "end", class: "tick" }, svg).textContent = low.toFixed(2);
  el("text", { x: 580, y: 250, "text-anchor": "end", class: "tick" }, svg).textContent =
    `generation ${x >= 0 ? logbook.rows[n - 1][x] : n - 1}`;
  series.forEach(([name], k) => {
    const points = logbook.rows.map((row, i) => [px(i), row[column(name)]]).filter(([, v]) => v !== null);
    el("polyline", { class: `series ${name}`, points: points.map(([px_, v]) => `${px_},${py(v)}`).join(" ") }, svg);
    el("text", { x: 60 + 90 * k, y: 250, class: `legend ${name}` }, svg).textContent = name;
  });
}

// ------------------------------------------------------------------------------------------ navigation
function route() {
  const [page, detail] = (location.hash.slice(1) || "play").split("/");
  const known = ["play", "watch", "runs"].includes(page) ? page : "play";
  for (const name of ["play", "watch", "runs"]) $(`page-${name}`).hidden = name !== known;
  document.querySelectorAll("nav a").forEach((link) => link.classList.toggle("active", link.dataset.page === known));
  if (known === "runs") {
    loadRuns();
    if (detail) showRun(decodeURIComponent(detail));
  }
}

async function loadPlayers() {
  const data = await api("GET", "/api/players").catch(() => null);
  if (!data) return;
  const options = [...data.players.map((p) => p.name), ...data.files];
  $("player-specs").replaceChildren(...options.map((spec) => html("option", "", { value: spec })));
}

document.addEventListener("DOMContentLoaded", () => {
  $("play-form").addEventListener("submit", newGame);
  $("play-undo").addEventListener("click", () => play.game && playRequest("POST", `/api/games/${play.game.id}/undo`));
  $("play-hint").addEventListener("click", askHint);
  $("watch-form").addEventListener("submit", startWatch);
  $("replay-form").addEventListener("submit", startReplay);
  $("watch-first").addEventListener("click", () => { stopWatch(); showFrame(0); });
  $("watch-back").addEventListener("click", () => { stopWatch(); showFrame(watch.index - 1); });
  $("watch-step").addEventListener("click", () => { stopWatch(); showFrame(watch.index + 1); });
  $("watch-last").addEventListener("click", () => { stopWatch(); showFrame(Infinity); });
  $("watch-play").addEventListener("click", toggleWatch);
  $("watch-speed").addEventListener("change", () => { if (watch.timer) { stopWatch(); toggleWatch(); } });
  window.addEventListener("hashchange", route);
  route();
  loadPlayers();
  document.body.dataset.ready = "true";
});
