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
  svg.setAttribute("viewBox", "0 0 400 400");
  svg.dataset.game = "quarto";
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

// ---------------------------------------------------------------------------------------------- Quixo
const QUIXO_MARGIN = 50; // room around the board for the ends where a cube goes back in
const DIRECTIONS = ["top", "bottom", "left", "right"]; // action = 4 * cell + direction

function cellName(n, cell) { return "abcde"[cell % n] + (Math.floor(cell / n) + 1); }
function actionName(n, action) { return `${cellName(n, action >> 2)} to ${DIRECTIONS[action & 3]}`; }

// Where the cube of an action ends up: the end of its row or column where it goes back in.
function destination(n, action) {
  const cell = action >> 2, row = Math.floor(cell / n), col = cell % n;
  return [col, (n - 1) * n + col, row * n, row * n + n - 1][action & 3];
}

// The Quixo board: cubes carry data-cell; a cube you may take is a button; once one is selected
// (options.selected), the ends of its row and column where it may go back in are buttons named by the action.
function drawQuixo(svg, state, options = {}) {
  svg.replaceChildren();
  const n = state.size, M = QUIXO_MARGIN, side = n * CELL + 2 * M;
  svg.setAttribute("viewBox", `0 0 ${side} ${side}`);
  svg.dataset.game = "quixo";
  const winning = winningSquares(state.winning_lines);
  const takable = new Set((options.actions || []).map((action) => action >> 2));
  const hintCells = new Set((options.hint || []).map((action) => action >> 2));
  el("rect", { class: "quixo-frame", x: M - 8, y: M - 8, width: n * CELL + 16, height: n * CELL + 16, rx: 14 }, svg);
  for (let cell = 0; cell < n * n; cell++) {
    const x = M + (cell % n) * CELL, y = M + Math.floor(cell / n) * CELL;
    const symbol = state.cells[cell];
    const classes = ["cube", symbol ? `cube-${symbol}` : "cube-blank"];
    if (winning.has(cell)) classes.push("win");
    if (options.last === cell) classes.push("last");
    if (hintCells.has(cell)) classes.push("hint");
    if (takable.has(cell)) classes.push("takable");
    if (options.selected === cell) classes.push("selected");
    const label = `${cellName(n, cell)}: ${symbol || "blank"}`;
    const cube = el("g", { class: classes.join(" "), "data-cell": cell, "aria-label": label }, svg);
    el("title", {}, cube).textContent = label;
    el("rect", { x: x + 5, y: y + 5, width: CELL - 10, height: CELL - 10, rx: 12 }, cube);
    if (symbol === "X") {
      el("path", { class: "mark", d: `M${x + 28},${y + 28} L${x + 72},${y + 72} M${x + 72},${y + 28} L${x + 28},${y + 72}` }, cube);
    } else if (symbol === "O") {
      el("circle", { class: "mark", cx: x + 50, cy: y + 50, r: 24 }, cube);
    }
    if (takable.has(cell) && options.onCell) {
      cube.setAttribute("role", "button");
      cube.setAttribute("tabindex", "0");
      cube.addEventListener("click", () => options.onCell(cell));
      cube.addEventListener("keydown", (event) => { if (event.key === "Enter" || event.key === " ") options.onCell(cell); });
    }
  }
  if (options.selected !== undefined && options.selected !== null && options.onAction) {
    const cell = options.selected, row = Math.floor(cell / n), col = cell % n;
    for (const action of options.actions.filter((a) => a >> 2 === cell)) {
      const direction = action & 3;
      const [cx, cy] = [
        [M + col * CELL + 50, M / 2 - 4],
        [M + col * CELL + 50, M + n * CELL + M / 2 + 4],
        [M / 2 - 4, M + row * CELL + 50],
        [M + n * CELL + M / 2 + 4, M + row * CELL + 50],
      ][direction];
      const name = actionName(n, action);
      const classes = ["end"];
      if ((options.hint || []).includes(action)) classes.push("hint");
      const end = el("g", { class: classes.join(" "), "data-action": action, "data-direction": DIRECTIONS[direction], role: "button", tabindex: "0", "aria-label": name }, svg);
      el("title", {}, end).textContent = `push in: ${name}`;
      el("circle", { cx, cy, r: 20 }, end);
      const rotation = [180, 0, 90, 270][direction]; // the arrow points into the board
      el("path", { class: "arrow", d: "M0,-9 L9,5 L-9,5 Z", transform: `translate(${cx},${cy}) rotate(${rotation})` }, end);
      end.addEventListener("click", () => options.onAction(action));
      end.addEventListener("keydown", (event) => { if (event.key === "Enter" || event.key === " ") options.onAction(action); });
    }
  }
  for (const line of state.winning_lines) {
    const centre = (c) => [M + (c % n) * CELL + 50, M + Math.floor(c / n) * CELL + 50];
    const [x1, y1] = centre(line[0]), [x2, y2] = centre(line[line.length - 1]);
    el("line", { class: "win-line", x1, y1, x2, y2 }, svg);
  }
}

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

// A game's board for a state or a frame, with the last move marked: the built-in games' own drawings, else the
// grid every game with a board of cells gets (else nothing: the position text is shown beside).
function drawAnyBoard(svg, state, move) {
  if (state.grid) {
    drawGrid(svg, state);
  } else if (state.game === "quixo") {
    drawQuixo(svg, state, { last: move ? destination(state.size, move.action) : null });
  } else {
    drawBoard(svg, state, { last: move ? lastSquare(move.action) : null });
  }
}

// The games whose controls are written in the page; every other installed game gets the generic ones (a form
// from its settings schema, its board as a grid, its moves as buttons).
const OWN_CONTROLS = ["quarto", "quixo"];
const GAMES = {}; // name -> {title, summary, settings}: GET /api/games

// Show the elements of one game (class quarto-only or quixo-only; generic-only for a game without controls of
// its own, own-only for those with) inside ``root``, hide the others'.
function showGameParts(root, game) {
  const own = OWN_CONTROLS.includes(game);
  root.querySelectorAll(".quarto-only").forEach((node) => { node.hidden = game !== "quarto"; });
  root.querySelectorAll(".quixo-only").forEach((node) => { node.hidden = game !== "quixo"; });
  root.querySelectorAll(".generic-only").forEach((node) => { node.hidden = own; });
  root.querySelectorAll(".own-only").forEach((node) => { node.hidden = !own; });
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
const play = { game: null, hint: null, busy: false, selected: null, hintTimer: null };
const SEATS = { quarto: ["choose first", "place first"], quixo: ["X (move first)", "O (move second)"] };
const RULES = {
  quarto: [["classic", "classic"], ["advanced", "advanced (2×2 blocks win)"]],
  quixo: [["official", "official"], ["course", "course (first line found wins)"]],
};
const POSITIONS = { quarto: "..../..../..../.... -", quixo: "...../...../...../...../..... X" };
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
    play.selected = null;
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
  if (game.grid) drawGridPlay(game, idle, hint);
  else if (game.game === "quixo") drawQuixoPlay(game, idle, hint);
  else drawQuartoPlay(game, idle, hint);
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

function drawQuartoPlay(game, idle, hint) {
  const opponent = displayName(game.opponent);
  const moves = game.moves;
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
  let status;
  if (game.over) status = `Game over: ${game.result}.`;
  else if (!game.your_turn) status = `${opponent} is thinking…`;
  else if (game.placement_due) status = "Your turn: click an empty square to place the piece in hand.";
  else status = `Your turn: click a piece to give to ${opponent}.`;
  $("play-status").textContent = status;
}

// Quixo: click a cube you may take (it is selected, its legal ends light up), then an end to push it in.
function drawQuixoPlay(game, idle, hint) {
  const opponent = displayName(game.opponent);
  const moves = game.moves;
  const me = "XO"[game.human_seat];
  const actions = idle ? game.legal_actions : [];
  if (play.selected !== null && !actions.some((action) => action >> 2 === play.selected)) play.selected = null;
  const last = moves.length ? moves[moves.length - 1].action : null;
  drawQuixo($("play-board"), game, {
    actions,
    selected: play.selected,
    last: last === null ? null : destination(game.size, last),
    hint: hint ? hint.best_actions : null,
    onCell: (cell) => { play.selected = play.selected === cell ? null : cell; drawPlay(); },
    onAction: (action) => playRequest("POST", `/api/games/${game.id}/move`, { action }),
  });
  $("play-quixo-info").textContent = `You play ${me} on the ${game.size}×${game.size} board (${game.rules} rules); ` +
    `move ${game.plies} of at most ${game.ply_limit}.`;
  let status;
  if (game.over) status = `Game over: ${game.result}.`;
  else if (!game.your_turn) status = `${opponent} is thinking…`;
  else if (play.selected !== null) status = `Your turn: push ${cellName(game.size, play.selected)} in at a lit end (or click it again to choose another cube).`;
  else status = `Your turn (${me}): click a border cube that is blank or ${me}.`;
  $("play-status").textContent = status;
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
  if (OWN_CONTROLS.includes(game)) body.rules = $("play-rules").value;
  else Object.assign(body, settingValues("play"));
  if (game === "quixo") body.size = Number($("play-size").value);
  await playRequest("POST", "/api/games", body);
}

function stopHint() {
  if (play.hintTimer) clearTimeout(play.hintTimer);
  play.hintTimer = null;
}

// The solver's hint; while a Quixo solution is first computed (on the server, in a process of its own), the
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

// The controls of the game chosen in a form: seat and rules wording, the board size, the players offered.
function chooseGame(prefix) {
  const game = $(`${prefix}-game`).value;
  const form = $(`${prefix}-form`);
  showGameParts(form, game);
  const own = OWN_CONTROLS.includes(game);
  if (own) {
    const rules = $(`${prefix}-rules`);
    rules.replaceChildren(...RULES[game].map(([value, label]) => html("option", label, { value })));
  } else {
    settingInputs(prefix, game);
  }
  if (prefix === "play") {
    [...$("play-seat").options].forEach((option, seat) => { option.textContent = (SEATS[game] || GENERIC_SEATS)[seat]; });
    $("play-position").placeholder = POSITIONS[game] || "its position text";
  }
  const watcher = game === "quarto" ? "novice" : "alphabeta:depth=2";
  const inputs = prefix === "play" ? [["play-opponent", "random"]] : [["watch-a", watcher], ["watch-b", "random"]];
  for (const [id, fallback] of inputs) {
    const input = $(id);
    input.setAttribute("list", `players-${game}`);
    const known = [...$(`players-${game}`).options].map((option) => option.value);
    if (known.length && !known.includes(input.value.split(":")[0]) && !input.value.includes("/") && !input.value.includes(".")) input.value = fallback;
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
  drawAnyBoard($("watch-board"), frame, frame.move);
  showGameParts($("page-watch").querySelector(".side"), frame.game);
  $("page-watch").dataset.game = frame.game;
  if (frame.game === "quarto" && !frame.grid) drawHand($("watch-hand"), frame.in_hand);
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
    if (OWN_CONTROLS.includes(game)) body.rules = $("watch-rules").value;
    else Object.assign(body, settingValues("watch"));
    if (game === "quixo") body.size = Number($("watch-size").value);
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
    best.append(playButton(player.game || "quarto", player.spec)); // an evolved player plays its own game
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
    best.append(playButton("quarto", evaluator.spec)); // evolved evaluators search Quarto positions
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
