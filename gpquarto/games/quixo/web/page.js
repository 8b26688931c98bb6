// Quixo on gpquarto's page (served at /games/quixo/page.js, after app.js, whose helpers it uses): click a cube you
// may take (it is selected, its legal ends light up), then an end to push it in.
"use strict";

(() => {
  const MARGIN = 50; // room around the board for the ends where a cube goes back in
  const DIRECTIONS = ["top", "bottom", "left", "right"]; // action = 4 * cell + direction
  let selected = null; // the cube you took, until you push it in

  function cellName(n, cell) { return "abcdefghi"[cell % n] + (Math.floor(cell / n) + 1); }
  function actionName(n, action) { return `${cellName(n, action >> 2)} to ${DIRECTIONS[action & 3]}`; }

  // Where the cube of an action ends up: the end of its row or column where it goes back in.
  function destination(n, action) {
    const cell = action >> 2, row = Math.floor(cell / n), col = cell % n;
    return [col, (n - 1) * n + col, row * n, row * n + n - 1][action & 3];
  }

  // The board: cubes carry data-cell; a cube you may take is a button; once one is selected (options.selected), the
  // ends of its row and column where it may go back in are buttons named by the action.
  function drawQuixo(svg, state, options = {}) {
    svg.replaceChildren();
    const n = state.size, M = MARGIN, side = n * CELL + 2 * M;
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

  registerGamePage("quixo", {
    seats: ["X (move first)", "O (move second)"],
    position: "...../...../...../...../..... X",
    watcher: "alphabeta:depth=2",
    style: `
      .quixo-frame { fill: var(--wood-dark); opacity: 0.35; }
      .cube rect { fill: #fbf3e2; stroke: var(--wood-dark); stroke-width: 2; }
      .cube .mark { fill: none; stroke-width: 9; stroke-linecap: round; }
      .cube-X .mark { stroke: #8e2c1b; }
      .cube-O .mark { stroke: #1f4f8e; }
      .cube.takable { cursor: pointer; }
      .cube.takable rect { stroke: var(--last); stroke-dasharray: 6 4; }
      .cube.takable:hover rect, .cube.takable:focus rect { fill: #f3e2c0; }
      .cube.selected rect { fill: #dbe7f7; stroke: var(--last); stroke-width: 5; stroke-dasharray: none; }
      .cube.last rect { stroke: var(--last); stroke-width: 5; }
      .cube.hint rect { fill: #cfe9d6; stroke: var(--hint); stroke-width: 5; }
      .cube.win rect { fill: #ffe9a8; stroke: var(--win); stroke-width: 6; }
      .end { cursor: pointer; }
      .end circle { fill: #dbe7f7; stroke: var(--last); stroke-width: 3; }
      .end:hover circle, .end:focus circle { fill: #b9d0f0; }
      .end.hint circle { fill: #cfe9d6; stroke: var(--hint); }
      .end .arrow { fill: var(--last); }
    `,
    parts: {
      "play-side": `<p id="play-quixo-info"></p>`,
      legend: `Quixo: take a border cube that is blank or yours, then push it back in at a lit end of its row or
        column; five (or the board's size) in a line wins, and completing the opponent's line loses. A third
        repetition of a position, or the ply limit, is a draw.`,
    },

    drawBoard(svg, state, move) {
      drawQuixo(svg, state, { last: move ? destination(state.size, move.action) : null });
    },

    newState() {
      selected = null;
    },

    drawPlay(game, idle, hint, context) {
      const opponent = displayName(game.opponent);
      const moves = game.moves;
      const me = "XO"[game.human_seat];
      const actions = idle ? game.legal_actions : [];
      if (selected !== null && !actions.some((action) => action >> 2 === selected)) selected = null;
      const last = moves.length ? moves[moves.length - 1].action : null;
      drawQuixo($("play-board"), game, {
        actions,
        selected,
        last: last === null ? null : destination(game.size, last),
        hint: hint ? hint.best_actions : null,
        onCell: (cell) => { selected = selected === cell ? null : cell; context.redraw(); },
        onAction: (action) => context.move({ action }),
      });
      $("play-quixo-info").textContent = `You play ${me} on the ${game.size}×${game.size} board (${game.rules} rules); ` +
        `move ${game.plies} of at most ${game.ply_limit}.`;
      if (game.over) return `Game over: ${game.result}.`;
      if (!game.your_turn) return `${opponent} is thinking…`;
      if (selected !== null) return `Your turn: push ${cellName(game.size, selected)} in at a lit end (or click it again to choose another cube).`;
      return `Your turn (${me}): click a border cube that is blank or ${me}.`;
    },
  });
})();
