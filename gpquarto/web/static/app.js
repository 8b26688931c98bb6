// gpquarto in the browser: plain JavaScript, no build step. The server holds the games; this file draws them.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const CELL = 100; // a board cell is 100 x 100 in SVG units

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

function displayName(spec) { return spec.includes("/") ? spec.split("/").pop() : spec; } // saved files by name

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
// The games' own page scripts (``/games/NAME/page.js``, listed by ``GET /api/games``) register what they draw and
// the controls they add here; they run after this file and may use its helpers (``$``, ``el``, ``html``, ``CELL``,
// ``winningSquares``, ``displayName``). A page is
//   { seats: [two labels], position: placeholder text, watcher: a player spec to watch by default, style: its CSS,
//     parts: { "play-side" | "play-controls" | "watch-side" | legend: markup put in the page's slot of that name },
//     drawBoard(svg, state, move), drawPlay(game, idle, hint, context) -> status line,
//     drawFrame(frame) (optional: what a watched frame shows beside the board), newState() (optional) }
// where ``context`` is { move(body): play a move request, redraw() }. A game without one gets the grid of its
// ``Board`` and its moves as buttons.
const GAME_PAGES = {};
function registerGamePage(name, page) {
  GAME_PAGES[name] = page;
  if (page.style) document.head.append(html("style", page.style, { "data-game": name }));
}

function loadScript(src) {
  return new Promise((resolve) => {
    const script = document.createElement("script");
    script.src = src;
    script.onload = resolve;
    script.onerror = () => { showError(`cannot load ${src}`); resolve(); };
    document.head.append(script);
  });
}

function winningSquares(lines) { return new Set(lines.flat()); }

// Any game's board as a grid of cells (its ``grid`` data: rows, columns, cells; values 1 and 2 the seats' marks
// where ``seat_marks``, other values as numbers), the cell of ``options.last`` marked.
const MARKS = ["", "X", "O"];
function drawGrid(svg, state, options = {}) {
  const { rows, columns, cells, seat_marks: seatMarks } = state.grid;
  const size = Math.min(360 / columns, 360 / rows), left = (400 - size * columns) / 2, top = (400 - size * rows) / 2;
  svg.replaceChildren();
  svg.dataset.game = state.game;
  cells.forEach((value, cell) => {
    const x = left + (cell % columns) * size, y = top + Math.floor(cell / columns) * size;
    const group = el("g", { class: "grid-cell", "data-cell": cell, "data-value": value }, svg);
    el("rect", { x: x + 2, y: y + 2, width: size - 4, height: size - 4, rx: 6, class: value ? `mark mark-${value}` : "empty" }, group);
    if (value) {
      const text = el("text", { x: x + size / 2, y: y + size / 2 + size / 8, "text-anchor": "middle", "font-size": size / 2.5 }, group);
      text.textContent = seatMarks && value <= 2 ? MARKS[value] : String(value);
    }
  });
}

// The legal moves of a game without controls of its own, as buttons with their names (the hint's marked).
function drawActions(game, idle, hint) {
  const best = new Set(hint ? hint.best_actions : []);
  $("play-actions").replaceChildren(...(game.legal_actions || []).map((action, i) => {
    const button = html("button", game.action_names[i], { type: "button", "data-action": action });
    button.disabled = !idle;
    if (best.has(action)) button.classList.add("hinted");
    button.addEventListener("click", () => playRequest("POST", `/api/games/${game.id}/move`, { action }));
    return button;
  }));
}

function drawGridPlay(game, idle, hint) {
  drawGrid($("play-board"), game);
  drawActions(game, idle, hint);
  const opponent = displayName(game.opponent);
  let status;
  if (game.over) status = `Game over: ${game.result}.`;
  else if (!game.your_turn) status = `${opponent} is thinking…`;
  else status = "Your turn: click one of your moves.";
  $("play-status").textContent = status;
}

// A game's board for a state or a frame, with the last move marked: the game page's own drawing, else the grid
// every game with a board of cells gets (else nothing: the position text is shown beside).
function drawAnyBoard(svg, state, move) {
  const page = GAME_PAGES[state.game];
  if (page && !state.grid) page.drawBoard(svg, state, move);
  else if (state.grid) drawGrid(svg, state);
  else svg.replaceChildren();
}

const GAMES = {}; // name -> {title, summary, settings, page_script}: GET /api/games

// Fill the page's slots (``[data-slot]``) inside ``root`` with the parts of ``game``'s page (emptied for a game
// without), and show the generic move buttons (``.generic-only``) only for a game without a page of its own.
function showGameParts(root, game) {
  const page = GAME_PAGES[game];
  root.querySelectorAll("[data-slot]").forEach((slot) => {
    if (slot.dataset.game === game) return; // already this game's: keep what it shows
    slot.dataset.game = game;
    slot.innerHTML = (page && page.parts && page.parts[slot.dataset.slot]) || "";
    slot.hidden = !slot.innerHTML;
  });
  root.querySelectorAll(".generic-only").forEach((node) => { node.hidden = Boolean(page); });
}

// The inputs of a game's settings (from its schema) in the form's settings box.
function settingInputs(prefix, game) {
  const box = $(`${prefix}-settings`);
  const schema = (GAMES[game] || { settings: [] }).settings;
  box.replaceChildren(...schema.map((setting) => {
    const id = `${prefix}-setting-${setting.name}`;
    let input;
    if (setting.choices.length) {
      input = html("select", "", { id, "data-setting": setting.name, "data-type": setting.type });
      input.append(...setting.choices.map((choice) => html("option", String(choice), { value: String(choice) })));
      input.value = String(setting.default);
    } else if (setting.type === "bool") {
      input = html("input", "", { id, type: "checkbox", "data-setting": setting.name, "data-type": "bool" });
      input.checked = Boolean(setting.default);
    } else {
      input = html("input", "", { id, type: setting.type === "str" ? "text" : "number", size: 5, "data-setting": setting.name, "data-type": setting.type });
      if (setting.minimum !== null) input.min = setting.minimum;
      if (setting.maximum !== null) input.max = setting.maximum;
      input.value = String(setting.default);
    }
    const label = html("label", `${setting.name.replace(/_/g, " ")} `, { title: setting.help });
    label.append(input);
    return label;
  }));
}

// The settings the form's generated inputs hold, typed as their schema says.
function settingValues(prefix) {
  const values = {};
  for (const input of $(`${prefix}-settings`).querySelectorAll("[data-setting]")) {
    const type = input.dataset.type;
    values[input.dataset.setting] = type === "bool" ? input.checked : (type === "int" || type === "float") ? Number(input.value) : input.value;
  }
  return values;
}

// Every installed game in the forms' game lists, with its players' list, from ``GET /api/games``.
async function loadGames() {
  const data = await api("GET", "/api/games").catch(() => null);
  if (!data) return;
  for (const game of data.games) {
    GAMES[game.name] = game;
    for (const prefix of ["play", "watch"]) {
      const select = $(`${prefix}-game`);
      if (![...select.options].some((option) => option.value === game.name)) select.append(html("option", game.title, { value: game.name }));
    }
    if (!$(`players-${game.name}`)) document.body.append(html("datalist", "", { id: `players-${game.name}` }));
  }
  await Promise.all(data.games.filter((game) => game.page_script).map((game) => loadScript(`/games/${encodeURIComponent(game.name)}/page.js`)));
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

// ------------------------------------------------------------------------------------------------ play
const play = { game: null, hint: null, busy: false, hintTimer: null };
const GENERIC_SEATS = ["you move first", "you move second"];

function setBusy(page, busy) {
  if (page === "play") play.busy = busy;
  $(`page-${page}`).dataset.busy = busy ? "true" : "false";
}

async function playRequest(method, url, body) {
  setBusy("play", true);
  stopHint();
  $("play-status").textContent = "thinking…";
  try {
    const state = await api(method, url, body);
    play.game = state;
    play.hint = null;
    const page = GAME_PAGES[state.game];
    if (page && page.newState) page.newState();
    $("play-hint-text").textContent = "";
    delete $("play-hint-text").dataset.actions;
    delete $("play-hint-text").dataset.solved;
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
  section.dataset.game = game.game;
  showGameParts(section.querySelector(".game"), game.game);
  showGameParts(document.querySelector("footer"), game.game);
  const page = GAME_PAGES[game.game];
  if (page && !game.grid) {
    const context = { move: (body) => playRequest("POST", `/api/games/${game.id}/move`, body), redraw: drawPlay };
    $("play-status").textContent = page.drawPlay(game, idle, hint, context);
  } else {
    drawGridPlay(game, idle, hint);
  }
  $("play-position-text").textContent = game.position;
  $("play-status").classList.toggle("result", game.over);
  $("play-undo").disabled = play.busy || !game.can_undo;
  $("play-hint").disabled = play.busy || game.over;
  $("play-save").hidden = !game.over;
  $("play-save").href = `/api/games/${game.id}/record`;
  $("play-save").download = `${game.game}-game.json`;
  const list = $("play-moves");
  list.replaceChildren(...moves.map((move) => moveItem(move, move.seat === game.human_seat ? "you" : opponent)));
  if (game.forfeit) list.append(html("li", `${game.forfeit.seat === game.human_seat ? "you" : opponent} forfeit: ${game.forfeit.reason}`, { class: "forfeit" }));
}

async function newGame(event) {
  event.preventDefault();
  const seed = $("play-seed").value;
  const game = $("play-game").value;
  const body = {
    game,
    opponent: $("play-opponent").value,
    seat: Number($("play-seat").value),
    position: $("play-position").value.trim() || null,
    seed: seed === "" ? null : Number(seed),
  };
  Object.assign(body, settingValues("play"));
  await playRequest("POST", "/api/games", body);
}

function stopHint() {
  if (play.hintTimer) clearTimeout(play.hintTimer);
  play.hintTimer = null;
}

// The solver's hint; while a solution is first computed (Quixo's tables, on the server, in a process of its own), the
// page says so and asks again every two seconds until it is there or the position changes.
async function askHint() {
  if (!play.game) return;
  stopHint();
  const key = play.game.id, moves = play.game.moves.length;
  setBusy("play", true);
  const text = $("play-hint-text");
  text.textContent = "solving…";
  try {
    play.hint = await api("GET", `/api/games/${key}/hint`);
    text.textContent = play.hint.solved ? `Hint: ${play.hint.text}` : play.hint.text;
    text.dataset.actions = play.hint.solved ? play.hint.best_actions.join(",") : "";
    text.dataset.solved = play.hint.solved;
    text.dataset.pending = Boolean(play.hint.pending);
    if (play.hint.pending) {
      play.hintTimer = setTimeout(() => {
        play.hintTimer = null;
        if (play.game && play.game.id === key && play.game.moves.length === moves) askHint();
      }, 2000);
    }
  } catch (error) {
    text.textContent = "";
  } finally {
    setBusy("play", false);
    drawPlay();
  }
}

// The controls of the game chosen in a form: its settings (from its schema), the seats' wording, the players offered.
function chooseGame(prefix) {
  const game = $(`${prefix}-game`).value;
  const page = GAME_PAGES[game] || {};
  settingInputs(prefix, game);
  if (prefix === "play") {
    [...$("play-seat").options].forEach((option, seat) => { option.textContent = (page.seats || GENERIC_SEATS)[seat]; });
    $("play-position").placeholder = page.position || "its position text";
  }
  const watcher = page.watcher || "alphabeta:depth=2";
  const inputs = prefix === "play" ? [["play-opponent", "random"]] : [["watch-a", watcher], ["watch-b", "random"]];
  for (const [id, fallback] of inputs) {
    const input = $(id);
    input.setAttribute("list", `players-${game}`);
    const known = [...$(`players-${game}`).options].map((option) => option.value);
    const foreign = known.length && !known.includes(input.value.split(":")[0]) && !input.value.includes("/") && !input.value.includes(".");
    if (!input.value || foreign) input.value = fallback;
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
  save.download = `${game.game}-game.json`;
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
  showGameParts($("page-watch").querySelector(".side"), frame.game);
  drawAnyBoard($("watch-board"), frame, frame.move);
  $("page-watch").dataset.game = frame.game;
  const page = GAME_PAGES[frame.game];
  if (page && page.drawFrame && !frame.grid) page.drawFrame(frame);
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
    const game = $("watch-game").value;
    const body = {
      game,
      players: [$("watch-a").value, $("watch-b").value],
      seed: seed === "" ? null : Number(seed),
    };
    Object.assign(body, settingValues("watch"));
    showGame(await api("POST", "/api/watch", body));
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
  const settings = Object.entries(run.settings || {}).map(([key, value]) => `${key} ${value}`);
  $("run-name").textContent = run.game ? `${run.name} (${[run.game, ...settings].join(", ")})` : run.name;
  drawCurve($("run-curve"), run.logbook);
  const plot = $("run-plot");
  plot.hidden = !run.has_plot;
  if (run.has_plot) plot.src = `/api/runs/${encodeURIComponent(name)}/fitness.png`;
  const best = $("run-best");
  best.replaceChildren();
  if (run.best_player) {
    const player = run.best_player;
    best.append(html("h3", `Best player: ${player.name}`));
    appendFitness(best, player.fitness);
    if (player.simplified) { // the simplified form first, as show prints it; the original folded away
      best.append(html("p", player.simplified.summary, { id: "run-simplification" }));
      appendRules(best, player.simplified.rules);
      const original = html("details", "", { id: "run-original" });
      original.append(html("summary", "original rules"));
      appendRules(original, player.rules);
      best.append(original);
    } else {
      appendRules(best, player.rules);
    }
    best.append(playButton(player.game, player.spec)); // an evolved player plays its own game
  }
  if (run.best_evaluator) {
    const evaluator = run.best_evaluator;
    best.append(html("h3", `Best evaluator: ${evaluator.name}`));
    appendFitness(best, evaluator.fitness);
    best.append(html("p", evaluator.formula, { class: "rules", id: "run-formula" }));
    if (evaluator.simplified && evaluator.simplified !== evaluator.formula) {
      best.append(html("p", `simplified: ${evaluator.simplified}`, { class: "rules", id: "run-simplified" }));
    }
    best.append(html("p", `played as ${evaluator.spec}`));
    best.append(playButton(evaluator.game, evaluator.spec)); // the search it was evolved for, in its game
  }
  for (const problem of run.problems) best.append(html("p", problem, { class: "problem" }));
  $("run-hof-title").hidden = !run.hall_of_fame;
  $("run-hof").textContent = run.hall_of_fame || "";
}

function appendRules(section, rulesByKind) {
  for (const [kind, rules] of Object.entries(rulesByKind)) {
    section.append(html("h4", `${kind} rules`));
    const list = html("ol", "", { class: "rules", "data-kind": kind });
    list.append(...rules.map((rule) => html("li", rule)));
    section.append(list);
  }
}

function appendFitness(section, fitness) {
  const parts = Object.entries(fitness).map(([key, value]) => `${key} ${typeof value === "number" ? +value.toFixed(4) : value}`);
  if (parts.length) section.append(html("p", parts.join(", ")));
}

// "Play against it": the Play page, set to the game and the opponent spec.
function playButton(game, spec) {
  const button = html("button", "Play against it", { type: "button", id: "run-play" });
  button.addEventListener("click", () => {
    $("play-game").value = game;
    chooseGame("play");
    $("play-opponent").value = spec;
    location.hash = "#play";
  });
  return button;
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

async function loadPlayers(game) {
  const data = await api("GET", `/api/players?game=${game}`).catch(() => null);
  if (!data) return;
  const options = [...data.players.map((p) => p.name), ...data.files];
  $(`players-${game}`).replaceChildren(...options.map((spec) => html("option", "", { value: spec })));
}

document.addEventListener("DOMContentLoaded", async () => {
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
  $("play-game").addEventListener("change", () => chooseGame("play"));
  $("watch-game").addEventListener("change", () => chooseGame("watch"));
  window.addEventListener("hashchange", route);
  route();
  await loadGames();
  await Promise.all(Object.keys(GAMES).map(loadPlayers));
  chooseGame("play"); // the browser may have kept a game chosen before a reload
  chooseGame("watch");
  document.body.dataset.ready = "true";
});
