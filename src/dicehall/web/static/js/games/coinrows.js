// Coin Rows board: the 7x7 grid seen from ctx.seat's side, both purses, the phase, the
// last roll, capture / roll / leave buttons and click-to-move (one coin or two).
// View model: src/dicehall/server/views/coinrows.py. Contract: docs/web-games.md.
//
// Test hooks (stable selectors):
//   [data-coin="c1"].legal        one of your coins that can move (click to select it)
//   [data-square="c6"].legal      a destination of the selected coin (click to move there)
//   [data-capture="capture 4"]    a capture: the row band on the board and a button
//   [data-button="roll"]          roll the dice (Phase A)
//   [data-button="leave"]         leave the game; then [data-button="confirm"] / [data-button="undo"]
//   [data-button="undo"]          while moving two coins: take back the first coin
//   svg[data-phase], svg[data-turn] the phase ("A", "B", "over") and the seat on turn
//
// Keyboard: the movable coins, the green squares and the capture bands are buttons (Tab, Enter
// or Space). Screen readers get every coin, both purses, the dice and the choices as text
// (#cr-position), in the page's language.

import { animateTranslate, clear, dieFace, html, svg, pressable } from "../dom.js";
import { t } from "../i18n.js";

const CSS = "/static/css/games-coinrows-whitedie.css";
const COLS = "abcdefg";
const N = 7;
const CELL = 54;
const X0 = 32;
const GRID_TOP = 92;
const W = X0 * 2 + N * CELL; // 442
const GRID_BOTTOM = GRID_TOP + N * CELL;
const H = GRID_BOTTOM + 92;
const PANEL_H = 64;
const ANIM_MS = 350;

const boards = new WeakMap(); // root -> {seq, steps, selected, leaving, snap, ctx}

function ensureCss() {
  if (!document.querySelector(`link[href="${CSS}"]`)) {
    document.head.append(html("link", { rel: "stylesheet", href: CSS }));
  }
}

/** A board button (see pressable) that keeps keyboard focus across redraws. */
function press(root, fn, label, selector) {
  return pressable(fn, label, () => {
    const st = boards.get(root);
    if (st) st.focus = selector;
  });
}

const square = (c, r) => `${COLS[c]}${r + 1}`;
const sameStep = (a, b) => a[0] === b[0] && a[1] === b[1] && a[2] === b[2];
const seatName = (snap, seat) => snap.players?.[seat]?.name || t("seat {n}", { n: seat + 1 });

/** Why the game ended and who won, with the players' names. */
function resultLine(snap) {
  const v = snap.view;
  const name = (seat) => seatName(snap, seat);
  const why = v.ending === "left"
    ? t("{name} left", { name: name(v.ended_by ?? 0) })
    : v.ending === "broke"
      ? t("{name} is broke", { name: name(v.ended_by ?? 0) })
      : t("the turn limit ({n}) is reached", { n: v.turn_limit });
  const outcome = v.winner === null || v.winner === undefined ? t("drawn") : t("{name} wins", { name: name(v.winner) });
  return t("{why}; totals {a} to {b}, {outcome}.", { why, a: v.scores[0], b: v.scores[1], outcome });
}

/** The result line shown in the result panel (client.js). */
export function summary(snap) {
  const v = snap.view;
  if (!v || v.phase !== "over") return "";
  const line = resultLine(snap);
  return line[0].toUpperCase() + line.slice(1);
}

/** Whose turn, which phase, what may be done: one line, with names. */
function phaseLine(snap) {
  const v = snap.view;
  if (v.phase === "over") return t("Game over: {result}", { result: resultLine(snap) });
  const head = t("Turn {n}/{limit}, {name}", { n: v.turn_number, limit: v.turn_limit, name: seatName(snap, v.turn) });
  if (v.phase === "A") {
    if (v.captures.length) return v.leaving ? t("{head}: Phase A, capture, roll or leave", { head }) : t("{head}: Phase A, capture or roll", { head });
    return v.leaving ? t("{head}: Phase A, no capture possible; roll or leave", { head }) : t("{head}: Phase A, no capture possible; roll", { head });
  }
  if (v.dice) {
    const [lo, hi] = v.dice;
    return t("{head}: Phase B, move {lo}-{hi} (one coin {total}, or two coins {lo} and {hi})", { head, lo, hi, total: lo + hi });
  }
  return t("{head}: Phase B, rolling the dice", { head });
}

/** The board in words, for screen readers: every coin by square, purses, dice, choices. */
function positionText(snap, cs, moves, st) {
  const v = snap.view;
  const lines = [phaseLine(snap)];
  for (const seat of [0, 1]) {
    const coins = [];
    cs.board.forEach((coin, c) => { if (coin && coin[1] === seat) coins.push(square(c, coin[0])); });
    lines.push(t("{name} ({mark}, home row {row}): coins on {squares}; purse {purse}, total {total}.", {
      name: seatName(snap, seat), mark: v.marks[seat], row: v.home_rows[seat] + 1,
      squares: coins.join(", ") || t("none"), purse: v.purses[seat], total: v.scores[seat],
    }));
  }
  if (v.last_roll) lines.push(t("Last roll: {a} and {b}.", { a: v.last_roll[0], b: v.last_roll[1] }));
  if (moves && moves.phase === "B") {
    if (st.selected !== null) lines.push(t("Coin on column {col} chosen; it can go to {squares}.", { col: COLS[st.selected], squares: cs.targets.map(([c, , to]) => square(c, to)).join(", ") }));
    else lines.push(t("Coins that can move: {squares}.", { squares: [...cs.movable].map((c) => square(c, cs.board[c][0])).join(", ") }));
  }
  return lines.join(" ");
}

function geometry(viewer) {
  const colX = (c) => X0 + (viewer === 0 ? c : N - 1 - c) * CELL;
  const rowY = (r) => GRID_TOP + (viewer === 0 ? N - 1 - r : r) * CELL;
  return {
    colX,
    rowY,
    cx: (c) => colX(c) + CELL / 2,
    cy: (r) => rowY(r) + CELL / 2,
    panelY: (seat) => (seat === viewer ? GRID_BOTTOM + 24 : 4),
  };
}

/** What the board module draws for one snapshot (see docs/web-games.md). */
export function render(root, snap, ctx) {
  ensureCss();
  const v = snap.view;
  if (!v || !v.board) {
    clear(root).append(html("pre", { class: "text-board" }, snap.text || ""));
    return;
  }
  let st = boards.get(root);
  if (!st || st.seq !== snap.seq || st.id !== snap.id || !ctx.canAct) {
    st = { id: snap.id, seq: snap.seq, steps: [], selected: null, leaving: false };
    boards.set(root, st);
  }
  st.snap = snap;
  st.ctx = ctx;
  draw(root, st, ctx.animate);
}

function redraw(root) {
  const st = boards.get(root);
  if (st) draw(root, st, false);
}

function play(root, text) {
  const st = boards.get(root);
  st.busy = true;
  st.ctx.act(text).catch(() => {
    st.busy = false;
    st.steps = [];
    st.selected = null;
    st.leaving = false;
    redraw(root);
  });
}

/** Interaction state: the board with the steps clicked so far, the plays still possible,
 * the coins that may move and the squares the selected coin may reach. */
function clickState(st, moves, v) {
  const board = v.board.map((coin) => (coin ? [...coin] : null));
  for (const [c, , to] of st.steps) board[c][0] = to;
  let candidates = [];
  const movable = new Set();
  const targets = [];
  if (moves && moves.phase === "B") {
    candidates = moves.moves.filter((m) => st.steps.every((s) => m.steps.some((t) => sameStep(s, t))));
    const done = new Set(st.steps.map((s) => s[0]));
    for (const m of candidates) for (const s of m.steps) if (!done.has(s[0])) movable.add(s[0]);
    if (movable.size === 1 && st.selected === null) st.selected = [...movable][0];
    if (st.selected !== null && !movable.has(st.selected)) st.selected = null;
    if (st.selected !== null) {
      const seen = new Set();
      for (const m of candidates) {
        for (const s of m.steps) {
          if (s[0] === st.selected && !seen.has(s[2])) {
            seen.add(s[2]);
            targets.push(s);
          }
        }
      }
    }
  }
  return { board, movable, targets };
}

/** Layout: the squares (home rows marked) and the column and row names. */
function drawGrid(root_svg, g, v) {
  const grid = svg("g", { class: "cr-grid" });
  for (let r = 0; r < N; r++) {
    for (let c = 0; c < N; c++) {
      const home = v.home_rows.indexOf(r);
      grid.append(svg("rect", {
        x: g.colX(c), y: g.rowY(r), width: CELL, height: CELL,
        class: `cr-cell ${(r + c) % 2 ? "odd" : "even"}${home >= 0 ? ` home home-${home}` : ""}`,
      }));
    }
  }
  grid.append(svg("rect", { x: X0, y: GRID_TOP, width: N * CELL, height: N * CELL, class: "cr-frame" }));
  root_svg.append(grid);
  const labels = svg("g", { class: "cr-labels" });
  for (let c = 0; c < N; c++) {
    labels.append(svg("text", { x: g.cx(c), y: GRID_TOP - 6, "text-anchor": "middle" }, COLS[c]));
    labels.append(svg("text", { x: g.cx(c), y: GRID_BOTTOM + 16, "text-anchor": "middle" }, COLS[c]));
  }
  for (let r = 0; r < N; r++) {
    labels.append(svg("text", { x: X0 - 10, y: g.cy(r) + 5, "text-anchor": "middle" }, r + 1));
    labels.append(svg("text", { x: W - X0 + 10, y: g.cy(r) + 5, "text-anchor": "middle" }, r + 1));
  }
  root_svg.append(labels);
}

/** Pieces: marks of the last move or capture, and of the columns refilled this turn. */
function drawMarks(root_svg, g, v, last) {
  const marks = svg("g", { class: "cr-marks" });
  if (last && last.kind === "move") {
    for (const [c, from, to] of last.steps) {
      marks.append(svg("rect", { x: g.colX(c) + 3, y: g.rowY(from) + 3, width: CELL - 6, height: CELL - 6, class: "cr-last-from" }));
      marks.append(svg("rect", { x: g.colX(c) + 3, y: g.rowY(to) + 3, width: CELL - 6, height: CELL - 6, class: "cr-last-to" }));
      marks.append(svg("line", { x1: g.cx(c), y1: g.cy(from), x2: g.cx(c), y2: g.cy(to), class: "cr-last-path" }));
    }
  } else if (last && last.kind === "capture") {
    for (const c of last.columns) {
      marks.append(svg("rect", { x: g.colX(c) + 3, y: g.rowY(last.row) + 3, width: CELL - 6, height: CELL - 6, class: "cr-last-capture" }));
    }
  }
  if (v.refilled.length && (v.phase === "A" || v.phase === "over")) {
    const home = v.home_rows[v.turn];
    for (const c of v.refilled) {
      marks.append(svg("rect", { x: g.colX(c) + 6, y: g.rowY(home) + 6, width: CELL - 12, height: CELL - 12, class: "cr-refill" }));
    }
  }
  root_svg.append(marks);
}

/** Interaction: the capture bands of Phase A (clickable when they are the player's). */
function drawCaptures(root, root_svg, g, st, v, captures) {
  const capLayer = svg("g", { class: "cr-captures" });
  const showCaptures = captures.length ? captures : (v.phase === "A" ? v.captures : []);
  for (const cap of showCaptures) {
    const xs = cap.columns.map((c) => g.colX(c));
    const x1 = Math.min(...xs);
    const x2 = Math.max(...xs) + CELL;
    const clickable = captures.includes(cap) && !st.busy;
    capLayer.append(svg("rect", {
      x: x1 + 1, y: g.rowY(cap.row) + 1, width: x2 - x1 - 2, height: CELL - 2, rx: 10,
      class: `cr-capture${clickable ? " legal" : ""}`,
      "data-capture": clickable ? cap.text : null,
      "data-row": cap.row + 1,
      ...press(root, clickable ? () => play(root, cap.text) : null, cap.text, `[data-capture="${cap.text}"]`),
    }, svg("title", {}, clickable ? t("{capture}: take {n} coins", { capture: cap.text, n: cap.columns.length }) : t("row {n} can be captured", { n: cap.row + 1 }))));
  }
  root_svg.append(capLayer);
}

/** Pieces and interaction: the coins (movable ones clickable), ghosts where clicked coins
 * stood, and the squares the selected coin may reach. Returns column -> coin node. */
function drawCoins(root, root_svg, g, st, v, cs) {
  const targetLayer = svg("g", { class: "cr-targets" });
  for (const [c, from, to] of cs.targets) {
    const step = [c, from, to];
    targetLayer.append(svg("rect", {
      x: g.colX(c) + 4, y: g.rowY(to) + 4, width: CELL - 8, height: CELL - 8, rx: 8,
      class: "cr-target legal",
      "data-square": square(c, to),
      ...press(root, () => chooseStep(root, step), t("move to {square}", { square: square(c, to) }), "[data-coin].legal"),
    }));
  }
  const coinLayer = svg("g", { class: "cr-coins" });
  const coinNodes = new Map();
  for (let c = 0; c < N; c++) {
    const coin = cs.board[c];
    if (!coin) continue;
    const [r, owner] = coin;
    const stepped = st.steps.some((s) => s[0] === c);
    const canClick = cs.movable.has(c) && !st.busy;
    const node = svg("g", {
      class: `cr-coin seat-${owner}${canClick ? " legal" : ""}${st.selected === c ? " selected" : ""}${stepped ? " tentative" : ""}`,
      "data-coin": square(c, r),
      "data-owner": owner,
      ...press(root, canClick ? () => selectCoin(root, c) : null, t("coin on {square}", { square: square(c, r) }), "[data-square].legal"),
    });
    node.append(
      // the whole square takes the tap (a phone's finger is wider than the coin)
      canClick ? svg("rect", { x: g.colX(c), y: g.rowY(r), width: CELL, height: CELL, fill: "transparent", class: "cr-hit" }) : null,
      svg("circle", { cx: g.cx(c), cy: g.cy(r), r: CELL * 0.37, class: "cr-coin-body", style: { fill: `var(--seat${owner})` } }),
      svg("circle", { cx: g.cx(c), cy: g.cy(r), r: CELL * 0.24, class: "cr-coin-ring" }),
      svg("text", { x: g.cx(c), y: g.cy(r) + 6, "text-anchor": "middle", class: "cr-coin-mark" }, v.marks[owner]),
    );
    coinLayer.append(node);
    coinNodes.set(c, node);
  }
  for (const [c, from] of st.steps) {
    coinLayer.append(svg("circle", { cx: g.cx(c), cy: g.cy(from), r: CELL * 0.37, class: "cr-ghost" }));
  }
  root_svg.append(coinLayer, targetLayer);
  return coinNodes;
}

/** Pieces: each seat's panel (purse, total, the dice he rolled). Returns the dice nodes. */
function drawPanels(root_svg, g, snap) {
  const v = snap.view;
  const diceOwner = diceSeat(snap);
  const panels = svg("g", { class: "cr-panels" });
  const diceNodes = [];
  for (const seat of [0, 1]) {
    const y = g.panelY(seat);
    const onTurn = v.phase !== "over" && v.turn === seat;
    const won = v.winner === seat;
    const p = svg("g", { class: `cr-panel${onTurn ? " on-turn" : ""}${won ? " winner" : ""}`, "data-panel": seat });
    p.append(svg("rect", { x: X0, y, width: N * CELL, height: PANEL_H, rx: 10, class: "cr-panel-bg" }));
    p.append(svg("circle", { cx: X0 + 24, cy: y + PANEL_H / 2, r: 15, class: "cr-coin-body", style: { fill: `var(--seat${seat})` } }));
    p.append(svg("text", { x: X0 + 24, y: y + PANEL_H / 2 + 5, "text-anchor": "middle", class: "cr-coin-mark" }, v.marks[seat]));
    p.append(svg("text", { x: X0 + 48, y: y + 25, class: "cr-name" },
      `${seatName(snap, seat)}${onTurn ? " ◀" : ""}${won ? ` ★ ${t("wins")}` : ""}`));
    p.append(svg("text", { x: X0 + 48, y: y + 48, class: "cr-purse", "data-purse": seat },
      t("purse {purse} + {board} on board = ", { purse: v.purses[seat], board: v.on_board[seat] }),
      svg("tspan", { class: "cr-total", "data-score": seat }, v.scores[seat])));
    if (diceOwner === seat && v.last_roll) {
      const active = v.phase === "B";
      const size = 38;
      const x = X0 + N * CELL - 2 * size - 20;
      v.last_roll.forEach((face, i) => {
        const d = dieFace(x + i * (size + 8), y + (PANEL_H - size) / 2, size, face, { class: `die${active ? "" : " used"}` });
        p.append(d);
        diceNodes.push(d);
      });
      const total = v.last_roll[0] + v.last_roll[1];
      if (!active && v.roll_ends_turn && snap.last && snap.last.text === "roll") {
        p.append(svg("text", { x: x - 8, y: y + PANEL_H / 2 + 5, "text-anchor": "end", class: "cr-note" }, t("{total}: turn over", { total })));
      }
    }
    panels.append(p);
  }
  root_svg.append(panels);
  return diceNodes;
}

/** Controls: roll, capture, leave (with a confirmation) in Phase A; undo in Phase B. */
function makeControls(root, st, v, moves, captures) {
  const controls = html("div", { class: "board-controls cr-controls" });
  if (moves && moves.phase === "A" && !st.busy) {
    if (st.leaving) {
      controls.append(
        html("span", { class: "hint" }, t("Leave now? The game ends and is scored as it stands.")),
        html("button", { class: "btn primary", "data-button": "confirm", onclick: () => play(root, "leave") }, t("Yes, leave")),
        html("button", { class: "btn", "data-button": "undo", onclick: () => { st.leaving = false; redraw(root); } }, t("Keep playing")),
      );
    } else {
      controls.append(html("button", { class: "btn primary", "data-button": "roll", onclick: () => play(root, "roll") }, t("Roll the dice")));
      for (const cap of captures) {
        controls.append(html("button", {
          class: "btn legal", "data-button": "capture", "data-capture": cap.text, onclick: () => play(root, cap.text),
        }, v.capture_rule === "adjacent"
          ? t("Capture row {row} {from}-{to} ({n})", { row: cap.row + 1, from: COLS[cap.columns[0]], to: COLS[cap.columns[cap.columns.length - 1]], n: cap.columns.length })
          : t("Capture row {row} ({n})", { row: cap.row + 1, n: cap.columns.length })));
      }
      if (moves.buttons.some((b) => b.button === "leave")) {
        controls.append(html("button", { class: "btn", "data-button": "leave", onclick: () => { st.leaving = true; redraw(root); } }, t("Leave")));
      }
    }
  } else if (moves && moves.phase === "B" && st.steps.length && !st.busy) {
    controls.append(html("button", { class: "btn", "data-button": "undo", onclick: () => { st.steps = []; st.selected = null; redraw(root); } }, t("Undo")));
  }
  return controls;
}

function draw(root, st, animate) {
  const { snap, ctx } = st;
  const v = snap.view;
  const viewer = ctx.seat === 1 ? 1 : 0;
  const g = geometry(viewer);
  const moves = ctx.canAct && snap.moves ? snap.moves : null;
  const last = snap.last && snap.last.detail ? snap.last.detail : null;
  const cs = clickState(st, moves, v);
  const root_svg = svg("svg", {
    viewBox: `0 0 ${W} ${H}`,
    class: "coinrows-board",
    role: "group",
    "aria-label": t("Coin Rows board"),
    "aria-describedby": "cr-position",
    "data-phase": v.phase,
    "data-turn": v.turn,
    "data-viewer": viewer,
  });
  drawGrid(root_svg, g, v);
  drawMarks(root_svg, g, v, last);
  const captures = moves && moves.phase === "A" ? moves.captures : [];
  drawCaptures(root, root_svg, g, st, v, captures);
  const coinNodes = drawCoins(root, root_svg, g, st, v, cs);
  const diceNodes = drawPanels(root_svg, g, snap);
  const note = html("div", { class: "cr-status", "data-testid": "board-status" }, statusText(st, moves));
  const controls = makeControls(root, st, v, moves, captures);
  const described = html("p", { id: "cr-position", class: "visually-hidden", "data-testid": "position-text" }, positionText(snap, cs, moves, st));
  clear(root).append(html("div", { class: "cr-wrap" }, root_svg, described, note, controls));
  if (st.focus) {
    root.querySelector(st.focus)?.focus();
    st.focus = null;
  }
  if (animate && ctx.previous && ctx.previous.view && ctx.previous.view.board) {
    animateChange(root_svg, snap, ctx.previous, g, coinNodes, diceNodes);
  }
}

/** The seat whose roll the dice show: the mover in Phase B, else whoever rolled last. */
function diceSeat(snap) {
  const v = snap.view;
  if (v.phase === "B") return v.turn;
  const d = snap.last && snap.last.detail;
  if (d && (d.kind === "roll" || d.kind === "move")) return snap.last.actor;
  return null;
}

function statusText(st, moves) {
  const v = st.snap.view;
  if (!moves) return [refillNote(st.snap), phaseLine(st.snap)].filter(Boolean).join(" ");
  if (st.busy) return "…";
  if (moves.phase === "A") {
    const leave = moves.buttons.length > 1;
    const turn = v.turn_number;
    const said = moves.captures.length
      ? (leave ? t("Turn {turn}, Phase A: capture a row, roll the dice or leave.", { turn }) : t("Turn {turn}, Phase A: capture a row or roll the dice.", { turn }))
      : (leave ? t("Turn {turn}, Phase A: roll the dice or leave.", { turn }) : t("Turn {turn}, Phase A: roll the dice.", { turn }));
    return [refillNote(st.snap), said].filter(Boolean).join(" ");
  }
  const [lo, hi] = moves.roll;
  const head = t("Turn {turn}, Phase B, roll {lo}-{hi}:", { turn: v.turn_number, lo, hi });
  if (st.steps.length) return `${head} ${t("now move your second coin (click it, then a green square), or undo.")}`;
  if (st.selected !== null) return `${head} ${t("click a green square for the selected coin, or pick another coin.")}`;
  return `${head} ${t("move one coin {total}, or two coins {lo} and {hi}. Click a coin.", { total: lo + hi, lo, hi })}`;
}

/** Phase C in words: who paid coins into which home squares at the start of this turn. */
function refillNote(snap) {
  const v = snap.view;
  if (!v.refilled.length || !(v.phase === "A" || v.phase === "over")) return "";
  const home = v.home_rows[v.turn];
  const squares = v.refilled.map((c) => square(c, home)).join(", ");
  const n = v.refilled.length;
  return n === 1
    ? t("{name} paid 1 coin into {squares} (Phase C).", { name: seatName(snap, v.turn), squares })
    : t("{name} paid {n} coins into {squares} (Phase C).", { name: seatName(snap, v.turn), n, squares });
}

function selectCoin(root, c) {
  const st = boards.get(root);
  st.selected = c;
  redraw(root);
}

function chooseStep(root, step) {
  const st = boards.get(root);
  const chosen = [...st.steps, step];
  const moves = st.snap.moves.moves;
  const exact = moves.find((m) => m.steps.length === chosen.length && chosen.every((s) => m.steps.some((t) => sameStep(s, t))));
  if (exact) {
    st.steps = chosen;
    st.selected = null;
    play(root, exact.text);
    redraw(root);
    return;
  }
  st.steps = chosen;
  st.selected = null;
  redraw(root);
}

function animateChange(root_svg, snap, prev, g, coinNodes, diceNodes) {
  const v = snap.view;
  const last = snap.last && snap.last.detail;
  const newDecision = snap.last && (!prev.last || prev.last.seq !== snap.last.seq);
  if (newDecision && last && last.kind === "move") {
    for (const [c, from, to] of last.steps) {
      animateTranslate(coinNodes.get(c), 0, g.cy(from) - g.cy(to), ANIM_MS);
    }
  }
  if (newDecision && last && last.kind === "capture") {
    // the captured coins fly to the capturer's purse and fade
    const layer = svg("g", { class: "cr-flying" });
    const py = g.panelY(last.seat) + PANEL_H / 2;
    for (const c of last.columns) {
      const coin = prev.view.board[c];
      if (!coin) continue;
      const ghost = svg("circle", { cx: g.cx(c), cy: g.cy(coin[0]), r: CELL * 0.37, class: "cr-coin-body", style: { fill: `var(--seat${coin[1]})` } });
      layer.append(ghost);
      ghost.animate?.(
        [{ transform: "translate(0px, 0px)", opacity: 1 }, { transform: `translate(${X0 + 24 - g.cx(c)}px, ${py - g.cy(coin[0])}px)`, opacity: 0 }],
        { duration: ANIM_MS * 1.5, easing: "ease-in", fill: "forwards" },
      );
    }
    root_svg.append(layer);
    setTimeout(() => layer.remove(), ANIM_MS * 1.6);
    // the refill comes out of the other purse
    const home = v.home_rows[v.turn];
    const from = g.panelY(v.turn) + PANEL_H / 2;
    for (const c of v.refilled) animateTranslate(coinNodes.get(c), X0 + 24 - g.cx(c), from - g.cy(home), ANIM_MS * 1.5);
  }
  const rolled = (snap.log || []).slice(prev.seq).some((e) => e.actor < 0);
  if (rolled) for (const d of diceNodes) d.classList.add("rolling");
}

/** One line of the game log. */
export function describe(entry) {
  const text = entry.text;
  if (entry.actor < 0) {
    const [a, b] = text.split("-").map(Number);
    return [7, 11, 12].includes(a + b) ? t("rolls {dice}: {total} ends the turn", { dice: text, total: a + b }) : t("rolls {dice}", { dice: text });
  }
  if (text === "roll") return t("rolls the dice");
  if (text === "leave") return t("leaves the game");
  if (text.startsWith("capture")) return t("captures row {row}", { row: text.slice(8) });
  return t("moves {play}", { play: text });
}
