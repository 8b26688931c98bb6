// Quarto on gpquarto's page (served at /games/quarto/page.js, after app.js, whose helpers it uses): the pieces, the
// board, the tray of pieces left and the piece in hand; you give a piece by clicking it, place one by clicking a
// square.
"use strict";

(() => {
  const CODES = [["S", "T"], ["L", "D"], ["H", "O"], ["R", "Q"]]; // bit 3 tall, 2 dark, 1 solid, 0 square
  const WORDS = [["short", "tall"], ["light", "dark"], ["hollow", "solid"], ["round", "square"]];
  const PLACE_OFFSET = 16; // actions 0-15 give that piece, 16-31 place on square action - 16

  function bits(piece) { return [(piece >> 3) & 1, (piece >> 2) & 1, (piece >> 1) & 1, piece & 1]; }
  function pieceCode(piece) { return bits(piece).map((bit, i) => CODES[i][bit]).join(""); }
  function pieceWords(piece) { return bits(piece).map((bit, i) => WORDS[i][bit]).join(" "); }
  function squareName(square) { return "abcd"[square % 4] + (Math.floor(square / 4) + 1); }
  function lastSquare(action) { return action !== undefined && action >= PLACE_OFFSET ? action - PLACE_OFFSET : null; }
  function isStraight(line) { return !(line[1] - line[0] === 1 && line[2] - line[1] === 3); } // 2x2 blocks are not

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

  const hand = (id) => `<div class="hand-box"><span>Piece in hand</span><svg id="${id}" class="hand" viewBox="0 0 100 100"></svg></div>`;

  registerGamePage("quarto", {
    seats: ["choose first", "place first"],
    position: "..../..../..../.... -",
    watcher: "novice",
    style: `
      .cell rect { fill: var(--wood); stroke: var(--wood-dark); stroke-width: 1; }
      .cell .socket { fill: none; stroke: var(--wood-dark); stroke-width: 2; stroke-dasharray: 4 3; }
      .cell.clickable { cursor: pointer; }
      .cell.clickable:hover rect { fill: #f3e2c0; }
      .cell.last rect { stroke: var(--last); stroke-width: 4; }
      .cell.hint rect { fill: #cfe9d6; stroke: var(--hint); stroke-width: 4; }
      .cell.win rect { fill: #ffe9a8; stroke: var(--win); stroke-width: 6; }
      .piece .body { stroke: var(--ink); stroke-width: 2.5; }
      .piece .body.dark { fill: var(--dark-piece); }
      .piece .body.light { fill: var(--light-piece); }
      .piece .hole { fill: var(--wood); stroke: var(--ink); stroke-width: 2.5; }
      .hand-box { display: flex; align-items: center; gap: 1rem; }
      .hand { width: 90px; height: 90px; background: var(--wood); border: 3px solid var(--last); border-radius: 10px; }
      .empty-hand { font-size: 30px; fill: var(--wood-dark); }
      .tray { width: 400px; height: 200px; }
      .slot rect { fill: #fff8ea; stroke: #e3d2b1; }
      .slot.clickable { cursor: pointer; }
      .slot.clickable:hover rect { fill: #f3e2c0; }
      .slot.hint rect { fill: #cfe9d6; stroke: var(--hint); stroke-width: 3; }
      .slot .hole { fill: #fff8ea; }
    `,
    parts: {
      "play-side": hand("play-hand"),
      "play-controls": `<h3>Pieces left <small>click one to give it</small></h3>
        <svg id="play-tray" class="tray" viewBox="0 0 400 200"></svg>`,
      "watch-side": hand("watch-hand"),
      legend: `Pieces: <b>tall</b> pieces are big, <b>short</b> small; <b>dark</b> or <b>light</b>;
        <b>hollow</b> ones have a hole in the top; <b>square</b> or <b>round</b> tops.`,
    },

    drawBoard(svg, state, move) {
      drawBoard(svg, state, { last: move ? lastSquare(move.action) : null });
    },

    drawFrame(frame) {
      drawHand($("watch-hand"), frame.in_hand);
    },

    drawPlay(game, idle, hint, context) {
      const opponent = displayName(game.opponent);
      const moves = game.moves;
      drawBoard($("play-board"), game, {
        last: moves.length ? lastSquare(moves[moves.length - 1].action) : null,
        hint: hint ? hint.squares : null,
        onSquare: idle && game.placement_due ? (square) => context.move({ square }) : null,
      });
      drawTray($("play-tray"), game.available, {
        hint: hint ? hint.pieces : null,
        onPiece: idle && game.choice_due ? (piece) => context.move({ piece }) : null,
      });
      drawHand($("play-hand"), game.in_hand);
      if (game.over) return `Game over: ${game.result}.`;
      if (!game.your_turn) return `${opponent} is thinking…`;
      if (game.placement_due) return "Your turn: click an empty square to place the piece in hand.";
      return `Your turn: click a piece to give to ${opponent}.`;
    },
  });
})();
