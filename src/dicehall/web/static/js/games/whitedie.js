// White Die board: every player's score, the white die and the challenge in play, reroll
// selection, choosing an opponent, the tic-tac-toe grid, the matches, the pips square, and the
// last challenge with its score explained.
// View model: src/dicehall/server/views/whitedie.py. Contract: docs/web-games.md.
//
// Test hooks (stable selectors):
//   [data-pick="0".."3"].legal    one of the mover's dice: toggles it for a reroll, or (tic-tac-toe)
//                                 selects the die to place
//   [data-cell="b1"].legal        a square the selected die may go on (tic-tac-toe)
//   [data-button="reroll"]        reroll the selected dice (disabled until the selection is legal)
//   [data-button="stand"]         keep the dice and score
//   [data-button="opponent"][data-seat="N"]  play against seat N (0-based)
//   [data-button="arrange"][data-points="P"]  Pips: arrange the square to score P (best first)
//   [data-button="claim"], [data-button="decline"]  tic-tac-toe: claim the empty squares or not
//   [data-score-seat="N"]         seat N's score card;  svg.whitedie-table[data-phase]
//
// Keyboard: the dice that may be picked, the squares and the buttons are buttons (Tab, Enter or
// Space). Screen readers get the scores, the white die, every die and the choices as text
// (#wd-position), in the page's language.

import { clear, dieFace, html, svg, pressable } from "../dom.js";
import { t, tm } from "../i18n.js";

const CSS = "/static/css/games-coinrows-whitedie.css";
// the table is 600 units wide beside the challenge's drawing, or 360 on a phone with the
// drawing under the dice (set per draw from the board's width)
let W = 600;
let NARROW = false;
const DIE = 56;
const GAP = 14;
const ROW_X = 16;
let RIGHT_X = 330;
const SEAT_FALLBACK = ["#f7f3e8", "#7a1f1f", "#1f4f7a", "#c99a1c", "#5a8f29", "#7b4fa3"];
const MATCH_COLORS = ["#f2b134", "#5cc8ff", "#ff7ab8", "#9be564"];
const SQUARES = ["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"];

const boards = new WeakMap(); // root -> {id, seq, picked: Set, value, snap, ctx}

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

const seatFill = (seat) => `var(--seat${seat}, ${SEAT_FALLBACK[seat % SEAT_FALLBACK.length]})`;
/** A seat's name, with its number when another seat has the same name (bots, guests). */
function nameOf(snap, seat) {
  const name = snap.players?.[seat]?.name;
  if (!name) return t("seat {n}", { n: seat + 1 });
  const twins = (snap.players || []).filter((p) => p.name === name).length;
  return twins > 1 ? t("{name} {n}", { name, n: seat + 1 }) : name;
}
const rerollsLeft = (n) => (n === 1 ? t("1 reroll left") : t("{n} rerolls left", { n }));
const pointsWord = (n) => (n === 1 ? t("1 point") : t("{n} points", { n }));

/** The challenge of a white die, in the page's language. */
function challengeName(white) {
  return { 1: t("no challenge"), 2: t("Poker"), 3: t("Tic-tac-toe"), 4: t("Matching"), 5: t("Pips"), 6: t("Sixes") }[white] || "";
}

/** The rules of the challenge in play, one line. */
function rulesLine(white) {
  return {
    2: t("Poker: stand, or reroll any dice up to two times; scored by the poker chart."),
    3: t("Tic-tac-toe: place dice next to fitting dice (opponent first); lines and 2x2 blocks of the player's squares score."),
    4: t("Matching: the player rerolls two, the opponent rerolls two, the player may reroll one; equal totals match (+1 if all four of the player's dice match)."),
    5: t("Pips: stand or reroll up to two times; then arrange the 2x2 square (the best is offered first): it scores its empty rows and columns of pip positions."),
    6: t("Sixes: stand or reroll up to two times; every set of dice adding up to 6 scores one."),
  }[white] || "";
}

function handName(hand) {
  return {
    "four of a kind": t("four of a kind"), straight: t("straight"), "three of a kind": t("three of a kind"),
    "two pairs": t("two pairs"), "one pair": t("one pair"), nothing: t("nothing"),
  }[hand] || hand;
}

/** The server's explanation of a score (views/whitedie.py) in the page's language: its
 *  message (a catalogue msgid and parameters) translated whole; its English text if none. */
export function explain(ex) {
  if (!ex) return "";
  return ex.message ? tm(ex.message) : ex.text || "";
}

/** What is happening, in words, with names. */
function statusLine(snap) {
  const v = snap.view;
  const who = v.turn !== null && v.turn !== undefined ? nameOf(snap, v.turn) : "";
  const opp = v.opponent !== null && v.opponent !== undefined ? nameOf(snap, v.opponent) : t("the opponent");
  const name = challengeName(v.white);
  switch (v.phase) {
    case "start": return t("Who starts: {names} roll all five", { names: (v.start?.contenders || []).map((c) => nameOf(snap, c)).join(", ") });
    case "roll": return t("{name} rolls all five dice", { name: who });
    case "over": return t("Game over: {name} wins", { name: nameOf(snap, v.winner ?? 0) });
    case "reroll": return t("{challenge}: {name} may stand or reroll ({left})", { challenge: name, name: who, left: rerollsLeft(v.rerolls_left) });
    case "choose": return t("{challenge}: {name} chooses an opponent", { challenge: name, name: who });
    case "opponent-roll": return t("{challenge}: {name} rolls his four dice", { challenge: name, name: opp });
    case "tictactoe": return t("Tic-tac-toe: {a} against {b}; {c} places a die", { a: who, b: opp, c: nameOf(snap, v.placing ?? v.turn) });
    case "match-player": return t("Matching: {name} must reroll two dice", { name: who });
    case "match-opponent": return t("Matching: {name} must reroll two dice", { name: opp });
    case "match-last": return t("Matching: {name} may reroll one die or stand", { name: who });
    case "arrange": return t("Pips: {name} arranges his square", { name: who });
    case "claim": return t("Tic-tac-toe: nobody can place; {name} may claim the empty squares", { name: who });
    default: return v.status_line;
  }
}

/** The result line of the result panel (client.js). */
export function summary(snap) {
  const v = snap.view;
  if (!v || v.winner === null || v.winner === undefined) return "";
  return t("{name} wins with {points} points ({scores}).", { name: nameOf(snap, v.winner), points: v.scores[v.winner], scores: v.scores.join(" – ") });
}

/** Everything in words for screen readers: scores, white die, dice, what may be chosen. */
function positionText(snap, moves, st) {
  const v = snap.view;
  const lines = [statusLine(snap)];
  lines.push(t("Scores (target {target}): {scores}.", { target: v.target, scores: v.scores.map((s, i) => `${nameOf(snap, i)} ${s}`).join(", ") }));
  if (v.white) lines.push(t("White die: {white}, {challenge}.", { white: v.white, challenge: challengeName(v.white) }));
  if (v.dice) lines.push(t("Dice of {name}: {dice}.", { name: nameOf(snap, v.turn), dice: v.dice.join(", ") }));
  if (v.opponent_dice && v.opponent !== null) lines.push(t("Dice of {name}: {dice}.", { name: nameOf(snap, v.opponent), dice: v.opponent_dice.join(", ") }));
  if (v.grid) {
    const cells = v.grid.map((sq, i) => (sq.value !== null ? `${SQUARES[i]} ${sq.value}` : null)).filter(Boolean);
    lines.push(t("Grid: {cells}.", { cells: cells.join(", ") || t("empty") }));
  }
  if (v.now) lines.push(t("Now: {points}.", { points: pointsWord(v.now.points) }));
  if (moves && moves.kind === "reroll") {
    const picked = [...st.picked].map((i) => moves.dice[i]);
    lines.push(picked.length ? t("Picked to reroll: {dice}.", { dice: picked.join(", ") }) : t("No die picked to reroll."));
    if (moves.stand) lines.push(t("You may also stand."));
  } else if (moves && moves.kind === "choose") {
    lines.push(t("Opponents to choose from: {names}.", { names: moves.opponents.map((o) => nameOf(snap, o.seat)).join(", ") }));
  } else if (moves && moves.kind === "place") {
    const where = moves.placements.map((p) => `${p.value} → ${SQUARES[p.square]}`);
    lines.push(t("Dice you may place, and where: {places}.", { places: where.join(", ") }));
  } else if (moves && moves.kind === "arrange") {
    lines.push(t("Squares you may arrange, by their points: {points}.", { points: moves.arrangements.map((a) => a.points).join(", ") }));
  } else if (moves && moves.kind === "claim") {
    lines.push(t("Claim the empty squares ({a}) or decline ({b}).", { a: pointsWord(moves.claim.points), b: pointsWord(moves.decline.points) }));
  }
  return lines.join(" ");
}

/** Draw one snapshot (see docs/web-games.md). */
export function render(root, snap, ctx) {
  ensureCss();
  const v = snap.view;
  if (!v || !v.scores) {
    clear(root).append(html("pre", { class: "text-board" }, snap.text || ""));
    return;
  }
  let st = boards.get(root);
  if (!st || st.seq !== snap.seq || st.id !== snap.id || !ctx.canAct) {
    st = { id: snap.id, seq: snap.seq, picked: new Set(), value: null, busy: false };
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
  redraw(root);
  st.ctx.act(text).catch(() => {
    st.busy = false;
    st.picked = new Set();
    st.value = null;
    redraw(root);
  });
}

// ---------------------------------------------------------------------------------------------
function draw(root, st, animate) {
  const { snap, ctx } = st;
  NARROW = root.clientWidth > 0 && root.clientWidth < 520;
  W = NARROW ? 360 : 600;
  RIGHT_X = NARROW ? 6 : 330;
  const v = snap.view;
  const moves = ctx.canAct && snap.moves && !st.busy ? snap.moves : null;
  const prev = ctx.previous && ctx.previous.view && ctx.previous.view.scores ? ctx.previous : null;
  if (moves && moves.kind === "place") {
    // one die value to place (or several equal dice): select it at once
    const values = [...new Set(moves.placements.map((p) => p.value))];
    if (st.value === null && values.length === 1) st.value = values[0];
    if (st.value !== null && !values.includes(st.value)) st.value = null;
  }

  const scores = drawScores(snap, animate ? prev : null);
  const table = drawTable(root, st, moves, animate ? prev : null);
  const controls = drawControls(root, st, moves);
  const last = v.last ? drawLast(snap, v.last) : null;

  clear(root).append(html("div", { class: "wd-wrap" }, scores, table, controls, last));
  if (st.focus) {
    root.querySelector(st.focus)?.focus();
    st.focus = null;
  }
}

// ---- scores ---------------------------------------------------------------------------------
function drawScores(snap, prev) {
  const v = snap.view;
  const n = v.players;
  const perRow = n <= 2 || NARROW ? 2 : 3;
  const rows = Math.ceil(n / perRow);
  const cw = W / perRow;
  const ch = 70;
  const out = svg("svg", { viewBox: `0 0 ${W} ${rows * ch}`, class: "wd-scores", role: "img", "aria-label": t("scores") });
  for (let seat = 0; seat < n; seat++) {
    const x = (seat % perRow) * cw + 4;
    const y = Math.floor(seat / perRow) * ch + 4;
    const w = cw - 8;
    const onTurn = v.phase !== "over" && v.turn === seat;
    const isOpp = v.opponent === seat && (v.white === 3 || v.white === 4);
    const cls = `wd-score${onTurn ? " on-turn" : ""}${isOpp ? " opponent" : ""}${v.winner === seat ? " winner" : ""}`;
    const g = svg("g", { class: cls, "data-score-seat": seat });
    g.append(svg("rect", { x, y, width: w, height: ch - 8, rx: 10, class: "wd-score-bg" }));
    g.append(svg("circle", { cx: x + 16, cy: y + 20, r: 8, style: { fill: seatFill(seat) }, stroke: "#0006" }));
    let name = nameOf(snap, seat);
    if (name.length > 16) name = `${name.slice(0, 15)}…`;
    // on a phone the card's border says it (gold: on turn, dashed blue: opponent)
    const tag = v.winner === seat ? t("★ winner") : NARROW ? "" : onTurn ? t("on turn") : isOpp ? t("opponent") : "";
    g.append(svg("text", { x: x + 30, y: y + 25, class: "wd-score-name" }, name,
      tag ? svg("tspan", { class: "wd-score-tag", dx: 8 }, tag) : null));
    const num = svg("text", { x: x + w - 12, y: y + 30, "text-anchor": "end", class: "wd-score-num", "data-score": seat }, v.scores[seat]);
    g.append(num);
    if (v.last && v.last.seat === seat && v.last.points > 0) {
      g.append(svg("text", { x: x + w - 12, y: y + 52, "text-anchor": "end", class: "wd-score-gain" }, `+${v.last.points}`));
    }
    const barW = w - 80;
    g.append(svg("rect", { x: x + 12, y: y + 42, width: barW, height: 10, rx: 5, class: "wd-score-bar" }));
    g.append(svg("rect", {
      x: x + 12, y: y + 42, height: 10, rx: 5, class: "wd-score-fill",
      width: Math.max(0, Math.min(1, v.scores[seat] / v.target)) * barW, style: { fill: seatFill(seat) },
    }));
    if (prev && prev.view.scores[seat] !== v.scores[seat]) {
      num.animate?.([{ transform: "scale(1.6)", opacity: 0.4 }, { transform: "scale(1)", opacity: 1 }], { duration: 450, easing: "ease-out" });
      num.style.transformBox = "fill-box";
      num.style.transformOrigin = "center";
    }
    out.append(g);
  }
  return out;
}

// ---- the table: white die, dice rows and the challenge ------------------------------------------
function drawTable(root, st, moves, prev) {
  const { snap } = st;
  const v = snap.view;
  const parts = [];
  let y = 0;

  // header: the white die and what it calls for
  const header = svg("g", { class: "wd-header" });
  if (v.white) {
    const white = dieFace(ROW_X, 10, 64, v.white, { class: "die wd-white", "data-white": v.white });
    header.append(svg("rect", { x: ROW_X - 5, y: 5, width: 74, height: 74, rx: 16, class: "wd-white-ring" }), white);
    if (prev && rolledSince(snap, prev) && (prev.view.white !== v.white || prev.view.turn !== v.turn || prev.view.challenge !== v.challenge)) white.classList.add("rolling");
    header.append(svg("text", { x: 100, y: 36, class: "wd-title" }, t("White {white}: {challenge}", { white: v.white, challenge: challengeName(v.white) })));
  } else {
    header.append(svg("text", { x: ROW_X, y: 36, class: "wd-title" }, v.phase === "over" ? t("{name} wins!", { name: nameOf(snap, v.winner) }) : t("White Die")));
  }
  header.append(svg("text", { x: v.white ? 100 : ROW_X, y: 62, class: "wd-sub" }, subtitle(snap)));
  parts.push(header);
  y = 92;

  // dice rows
  const rows = [];
  if (v.dice) rows.push({ side: "player", seat: v.turn, dice: v.dice });
  if (v.opponent_dice && v.opponent !== null) rows.push({ side: "opponent", seat: v.opponent, dice: v.opponent_dice });
  const colour = matchColours(v);
  const rowY = {};
  for (const row of rows) {
    rowY[row.side] = y;
    parts.push(drawDiceRow(root, st, moves, row, y, colour[row.side], prev));
    y += DIE + 44;
  }
  if (v.start) {
    const g = svg("g", {});
    g.append(svg("text", { x: ROW_X, y: y + 4, class: "wd-sub" }, t("To start: {names} roll all five", { names: v.start.contenders.map((c) => nameOf(snap, c)).join(", ") })));
    v.start.rolls.forEach(([seat, white, sum], i) => {
      g.append(svg("text", { x: ROW_X, y: y + 28 + i * 22, class: "wd-sub" }, t("{name}: white {white}, sum {sum}", { name: nameOf(snap, seat), white, sum })));
    });
    parts.push(g);
    y += 40 + v.start.rolls.length * 22;
  }

  // the challenge's own drawing on the right
  let right = 0;
  const top = NARROW ? y + 18 : 92;
  if (v.grid) {
    const legalCells = new Map();
    if (moves && moves.kind === "place" && st.value !== null) {
      for (const p of moves.placements) if (p.value === st.value) legalCells.set(p.square, p.text);
    }
    const lastPlace = snap.last?.detail?.kind === "place" ? snap.last.detail.square : null;
    const fresh = prev && lastPlace !== null && snap.last.seq !== prev.last?.seq;
    parts.push(drawGrid(RIGHT_X + 60, top, 62, v.grid, { root, legalCells, lastPlace, fresh, turn: v.turn }));
    right = top + 3 * 62 + 30;
  } else if (v.now && v.now.pips) {
    parts.push(drawPipSquare(RIGHT_X + 50, top + 4, 25, v.now.pips, t("Best square")));
    right = top + 6 * 25 + 30 + 26 + (v.now.pips.turns.some(Boolean) ? 14 : 0);
  } else if (v.now && v.now.matches) {
    parts.push(drawMatches(RIGHT_X + 10, top + 8, v.now));
    right = top + 40 + v.now.matches.length * 26;
  } else if (v.now && v.now.sets) {
    const g = svg("g", {});
    g.append(svg("text", { x: RIGHT_X + 10, y: top + 18, class: "wd-label" }, t("Sets adding up to 6")));
    const sets = v.now.sets.length ? v.now.sets.map((s) => s.join("+")) : [t("none")];
    sets.slice(0, 8).forEach((s, i) => g.append(svg("text", { x: RIGHT_X + 10 + (i % 2) * 120, y: top + 44 + Math.floor(i / 2) * 24, class: "wd-match" }, s)));
    parts.push(g);
    right = top + 50 + Math.ceil(Math.min(8, sets.length) / 2) * 24;
  } else if (v.white === 2 && v.now) {
    parts.push(drawChart(RIGHT_X + 10, top + 4, v.chart, v.now.hand));
    right = top + 4 + v.chart.length * 22 + 20;
  }
  y = Math.max(y, right);

  if (v.now) {
    const lines = wrap(t("Now: {text}", { text: explain(v.now) }), NARROW ? 40 : 70);
    y += 8;
    parts.push(svg("text", { x: ROW_X, y: y + 4, class: "wd-expl", "data-now": v.now.points },
      lines.map((line, i) => svg("tspan", { x: ROW_X, dy: i ? 20 : 0 }, line))));
    y += 20 * lines.length;
  }
  const height = Math.max(y + 10, 110);
  const table = svg("svg", {
    viewBox: `0 0 ${W} ${height}`,
    class: "whitedie-table",
    role: "group", // it holds the dice and squares to choose (buttons): not an image
    "aria-label": statusLine(snap),
    "aria-describedby": "wd-position",
    "data-phase": v.phase,
    "data-white": v.white ?? "",
  }, parts);
  return html("div", { class: "wd-table" }, table);
}

function subtitle(snap) {
  const v = snap.view;
  if (v.phase === "over") return t("Final: {scores} (target {target})", { scores: v.scores.join(" – "), target: v.target });
  if (v.turn === null || v.turn === undefined) return statusLine(snap);
  const who = nameOf(snap, v.turn);
  const opp = v.opponent !== null ? nameOf(snap, v.opponent) : "";
  switch (v.phase) {
    case "reroll": return t("{name}: stand or reroll ({left})", { name: who, left: rerollsLeft(v.rerolls_left) });
    case "choose": return t("{name}: choose an opponent", { name: who });
    case "tictactoe": return t("{a} vs {b}: {c} to place", { a: who, b: opp, c: nameOf(snap, v.placing) });
    case "match-player": return t("{a} vs {b}: the player rerolls two", { a: who, b: opp });
    case "match-opponent": return t("{a} vs {b}: the opponent rerolls two", { a: who, b: opp });
    case "match-last": return t("{a} vs {b}: the player may reroll one", { a: who, b: opp });
    case "arrange": return t("{name}: arrange the square", { name: who });
    case "claim": return t("{name}: claim the empty squares?", { name: who });
    default: return statusLine(snap);
  }
}

function rolledSince(snap, prev) {
  return (snap.log || []).slice(prev.seq).some((e) => e.actor < 0);
}

/** Split text into lines of at most `width` characters (at spaces). */
function wrap(text, width) {
  const lines = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(line);
  return lines;
}

/** Colours of the dice that are in a match: {player: [colour per position], opponent: [...]} */
function matchColours(v) {
  const out = { player: [], opponent: [] };
  const matches = v.now && v.now.matches;
  if (!matches) return out;
  const assign = (dice, groups, key) => {
    const used = new Array(dice.length).fill(null);
    groups.forEach((vals, i) => {
      for (const val of vals) {
        const pos = dice.findIndex((d, j) => d === val && used[j] === null);
        if (pos >= 0) used[pos] = MATCH_COLORS[i % MATCH_COLORS.length];
      }
    });
    out[key] = used;
  };
  assign(v.dice || [], matches.map((m) => m.mine), "player");
  assign(v.opponent_dice || [], matches.map((m) => m.theirs), "opponent");
  return out;
}

function drawDiceRow(root, st, moves, row, y, colours, prev) {
  const { snap } = st;
  const v = snap.view;
  const g = svg("g", { class: `wd-row wd-row-${row.side}`, "data-row": row.side });
  const label = row.side === "player"
    ? (v.opponent !== null ? t("{name} (player)", { name: nameOf(snap, row.seat) }) : nameOf(snap, row.seat))
    : t("{name} (opponent)", { name: nameOf(snap, row.seat) });
  g.append(svg("circle", { cx: ROW_X + 6, cy: y + 2, r: 6, style: { fill: seatFill(row.seat) }, stroke: "#0008" }));
  g.append(svg("text", { x: ROW_X + 18, y: y + 7, class: "wd-label" }, label));
  const mine = moves && moves.side === row.side && (moves.kind === "reroll" || moves.kind === "place");
  const prevRow = prev && prev.view[row.side === "player" ? "dice" : "opponent_dice"];
  const changed = prev && rolledSince(snap, prev) && JSON.stringify(prevRow) !== JSON.stringify(row.dice);
  const fresh = freshPositions(snap, row);
  row.dice.forEach((face, i) => {
    const x = ROW_X + i * (DIE + GAP);
    // in tic-tac-toe only dice with a legal square can be picked
    const can = mine && (moves.kind === "reroll" || moves.placements.some((p) => p.value === face));
    const picked = can && (moves.kind === "reroll" ? st.picked.has(i) : st.value === face);
    const cls = `die wd-die${row.side === "opponent" ? " opp" : ""}${can ? " legal" : ""}${picked ? " selected" : ""}${fresh.has(i) ? " fresh" : ""}`;
    const dy = picked && moves.kind === "reroll" ? -5 : 0;
    const die = dieFace(x, y + 20 + dy, DIE, face, {
      class: cls,
      "data-pick": can ? i : null,
      "data-value": face,
      ...press(root, can ? () => pickDie(root, i, face) : null, picked ? t("die {face}, picked", { face }) : t("die {face}", { face }), `[data-pick="${i}"]`),
    });
    if (changed && !(fresh.size && !fresh.has(i))) die.classList.add("rolling");
    g.append(die);
    if (colours && colours[i]) {
      g.append(svg("rect", { x: x + 6, y: y + 24 + DIE, width: DIE - 12, height: 6, rx: 3, style: { fill: colours[i] } }));
    }
    if (fresh.has(i)) {
      g.append(svg("circle", { cx: x + DIE - 4, cy: y + 24, r: 5, style: { fill: "var(--highlight)" } }));
    }
  });
  return g;
}

/** Positions of a row's dice that came from the last reroll (the kept dice are the others),
 *  while that reroll's challenge is still being played. */
function freshPositions(snap, row) {
  const d = snap.last && snap.last.detail;
  const v = snap.view;
  const out = new Set();
  if (!d || d.kind !== "reroll" || d.side !== row.side) return out;
  const current = d.side === "player"
    ? v.turn === d.seat && (v.phase === "reroll" || v.phase === "match-opponent")
    : v.phase === "match-last";
  if (!current || d.kept.length + d.values.length !== row.dice.length) return out;
  const kept = [...d.kept];
  row.dice.forEach((face, i) => {
    const k = kept.indexOf(face);
    if (k >= 0) kept.splice(k, 1);
    else out.add(i);
  });
  return out;
}

function pickDie(root, i, face) {
  const st = boards.get(root);
  const moves = st.snap.moves;
  if (moves.kind === "reroll") {
    if (st.picked.has(i)) st.picked.delete(i);
    else st.picked.add(i);
  } else {
    st.value = face;
  }
  redraw(root);
}

// ---- tic-tac-toe grid ------------------------------------------------------------------------
function drawGrid(x0, y0, cell, grid, opts) {
  const g = svg("g", { class: "wd-grid" });
  const cols = "abc";
  for (let c = 0; c < 3; c++) g.append(svg("text", { x: x0 + c * cell + cell / 2, y: y0 - 6, "text-anchor": "middle", class: "wd-label" }, cols[c]));
  for (let r = 0; r < 3; r++) g.append(svg("text", { x: x0 - 12, y: y0 + r * cell + cell / 2 + 5, "text-anchor": "middle", class: "wd-label" }, r + 1));
  grid.forEach((sq, i) => {
    const x = x0 + (i % 3) * cell;
    const y = y0 + Math.floor(i / 3) * cell;
    const text = opts.legalCells ? opts.legalCells.get(i) : undefined;
    const owner = sq.seat === null ? "" : sq.seat === opts.turn ? "player" : "opponent";
    const cls = `wd-cell${text ? " legal" : ""}${opts.lastPlace === i ? " last" : ""}${sq.claimed ? ` claimed-${owner}` : ""}`;
    g.append(svg("rect", {
      x: x + 2, y: y + 2, width: cell - 4, height: cell - 4, rx: 6, class: cls,
      "data-cell": SQUARES[i],
      ...press(opts.root, text && opts.root ? () => play(opts.root, text) : null, text ? t("place on {square}", { square: SQUARES[i] }) : null, `[data-cell="${SQUARES[i]}"]`),
    }, svg("title", {}, SQUARES[i])));
    if (sq.value !== null) {
      const size = cell - 16;
      const die = dieFace(x + 8, y + 8, size, sq.value, {
        class: `die wd-die${owner === "opponent" ? " opp" : ""}${sq.white ? " wd-white" : ""}`,
        "data-square-value": sq.value,
      });
      die.style.pointerEvents = "none";
      g.append(die);
      g.append(svg("rect", { x: x + 8, y: y + 8, width: size, height: size, rx: size * 0.18, fill: "none", stroke: seatFill(sq.seat), "stroke-width": 3, "pointer-events": "none" }));
      if (opts.fresh && opts.lastPlace === i) {
        die.animate?.([{ opacity: 0, transform: "scale(0.4)" }, { opacity: 1, transform: "scale(1)" }], { duration: 300, easing: "ease-out" });
        die.style.transformBox = "fill-box";
        die.style.transformOrigin = "center";
      }
    } else if (sq.claimed) {
      g.append(svg("text", { x: x + cell / 2, y: y + cell / 2 + 7, "text-anchor": "middle", class: "wd-title", "pointer-events": "none" }, owner === "player" ? "✓" : "✗"));
    }
  });
  const centre = (i) => [x0 + (i % 3) * cell + cell / 2, y0 + Math.floor(i / 3) * cell + cell / 2];
  for (const line of opts.lines || []) {
    const [a, b] = [centre(line[0]), centre(line[2])];
    g.append(svg("line", { x1: a[0], y1: a[1], x2: b[0], y2: b[1], class: "wd-line" }));
  }
  for (const block of opts.blocks || []) {
    const [a] = [centre(block[0])];
    g.append(svg("rect", { x: a[0] - cell / 2 + 5, y: a[1] - cell / 2 + 5, width: 2 * cell - 10, height: 2 * cell - 10, rx: 8, class: "wd-block" }));
  }
  return g;
}

// ---- pips square -----------------------------------------------------------------------------
/** The 2x2 square of four dice on their 3x3 pip positions, empty rows and columns shaded. */
function drawPipSquare(x0, y0, cell, pips, title) {
  const g = svg("g", { class: "wd-pipsq", "data-pips-score": pips.score });
  const gap = 6;
  const pos = (k) => k * cell + (k >= 3 ? gap : 0);
  const size = 6 * cell + gap;
  if (title) g.append(svg("text", { x: x0, y: y0 - 8, class: "wd-label" }, `${title}: ${pointsWord(pips.score)}`));
  if (pips.turns.some(Boolean)) {
    g.append(svg("text", { x: x0, y: y0 + size + 20, class: "wd-label wd-pipsq-legend" }, t("blue: turned a quarter turn")));
  }
  g.append(svg("rect", { x: x0 - 4, y: y0 - 4, width: size + 8, height: size + 8, rx: 6, class: "wd-pipsq-bg" }));
  for (const r of pips.empty_rows) g.append(svg("rect", { x: x0 - 4, y: y0 + pos(r), width: size + 8, height: cell, class: "wd-pipsq-empty", "data-empty-row": r }));
  for (const c of pips.empty_columns) g.append(svg("rect", { x: x0 + pos(c), y: y0 - 4, width: cell, height: size + 8, class: "wd-pipsq-empty", "data-empty-column": c }));
  for (let d = 0; d < 4; d++) {
    const dx = x0 + (d % 2) * (3 * cell + gap);
    const dy = y0 + Math.floor(d / 2) * (3 * cell + gap);
    g.append(svg("rect", {
      x: dx, y: dy, width: 3 * cell, height: 3 * cell, rx: cell * 0.5,
      class: `wd-pipsq-die${pips.turns[d] ? " turned" : ""}`, "data-turned": pips.turns[d] ? 1 : 0,
    }, svg("title", {}, pips.turns[d] ? t("{face}, turned a quarter turn", { face: pips.faces[d] }) : String(pips.faces[d]))));
  }
  pips.rows.forEach((row, r) => {
    [...row].forEach((ch, c) => {
      if (ch === "o") g.append(svg("circle", { cx: x0 + pos(c) + cell / 2, cy: y0 + pos(r) + cell / 2, r: cell * 0.3, class: "wd-pipsq-pip" }));
    });
  });
  return g;
}

// ---- matching and poker ----------------------------------------------------------------------
function drawMatches(x0, y0, now) {
  const g = svg("g", { class: "wd-matches" });
  g.append(svg("text", { x: x0, y: y0 + 10, class: "wd-label" }, now.matches.length ? t("Matches") : t("No match yet")));
  now.matches.forEach((m, i) => {
    const y = y0 + 36 + i * 26;
    g.append(svg("rect", { x: x0, y: y - 12, width: 10, height: 10, rx: 2, style: { fill: MATCH_COLORS[i % MATCH_COLORS.length] } }));
    g.append(svg("text", { x: x0 + 18, y, class: "wd-match" }, `${m.mine.join("+")} = ${m.theirs.join("+")}`));
  });
  if (now.bonus) g.append(svg("text", { x: x0, y: y0 + 36 + now.matches.length * 26, class: "wd-match" }, t("+1: all four matched")));
  return g;
}

function drawChart(x0, y0, chart, hand) {
  const g = svg("g", { class: "wd-chart" });
  chart.forEach(([name, pts], i) => {
    const y = y0 + 16 + i * 22;
    const on = name === hand;
    if (on) g.append(svg("rect", { x: x0 - 6, y: y - 15, width: 240, height: 21, rx: 4, style: { fill: "#f2b13466" } }));
    g.append(svg("text", { x: x0, y, class: on ? "wd-expl" : "wd-match" }, handName(name)));
    g.append(svg("text", { x: x0 + 220, y, "text-anchor": "end", class: on ? "wd-expl" : "wd-match" }, pts));
  });
  return g;
}

// ---- controls --------------------------------------------------------------------------------
function drawControls(root, st, moves) {
  const { snap } = st;
  const v = snap.view;
  const box = html("div", { class: "board-controls wd-controls" });
  const status = html("div", { class: "wd-status", "data-testid": "board-status" });
  const wrap = html("div", {}, status, box);
  if (v.rules) wrap.prepend(html("div", { class: "hint wd-rules" }, rulesLine(v.white) || v.rules));
  wrap.prepend(html("p", { id: "wd-position", class: "visually-hidden", "data-testid": "position-text" }, positionText(snap, moves, st)));
  if (st.busy) {
    status.textContent = "…";
    return wrap;
  }
  if (!moves) {
    status.textContent = statusLine(snap);
    return wrap;
  }
  if (moves.kind === "choose") {
    status.textContent = t("{challenge}: choose your opponent.", { challenge: challengeName(v.white) });
    for (const o of moves.opponents) {
      box.append(html("button", {
        class: "btn primary", "data-button": "opponent", "data-seat": o.seat, onclick: () => play(root, o.text),
      }, t("Play against {name} (score {score})", { name: nameOf(snap, o.seat), score: v.scores[o.seat] })));
    }
    return wrap;
  }
  if (moves.kind === "arrange") {
    // the seed lets the player arrange his square as he likes: every reachable score, best first
    status.textContent = t("Pips: choose how to arrange your square (the best first).");
    for (const a of moves.arrangements) {
      box.append(html("button", {
        class: a === moves.arrangements[0] ? "btn primary" : "btn", "data-button": "arrange", "data-points": a.points, onclick: () => play(root, a.text),
      }, t("Arrange for {points}", { points: pointsWord(a.points) })));
    }
    return wrap;
  }
  if (moves.kind === "claim") {
    status.textContent = t("Nobody can place and all your dice are placed: claim the empty squares?");
    box.append(html("button", { class: "btn primary", "data-button": "claim", onclick: () => play(root, moves.claim.text) },
      t("Claim ({points})", { points: pointsWord(moves.claim.points) })));
    box.append(html("button", { class: "btn", "data-button": "decline", onclick: () => play(root, moves.decline.text) },
      t("Decline ({points})", { points: pointsWord(moves.decline.points) })));
    return wrap;
  }
  if (moves.kind === "place") {
    status.textContent = st.value === null
      ? (moves.side === "player"
        ? t("Tic-tac-toe (you are the player): click one of your dice, then a green square.")
        : t("Tic-tac-toe (you are the opponent): click one of your dice, then a green square."))
      : t("Place your {value}: click a green square, or pick another die.", { value: st.value });
    return wrap;
  }
  // reroll / stand
  const picked = [...st.picked].map((i) => moves.dice[i]).sort((a, b) => a - b);
  const text = picked.length ? moves.rerolls[picked.join(" ")] : undefined;
  const sizes = moves.sizes;
  if (sizes.length === 1 && sizes[0] === 2 && !moves.stand) {
    status.textContent = moves.side === "opponent" ? t("Pick exactly two dice to reroll (you are the opponent).") : t("Pick exactly two dice to reroll.");
  } else if (sizes.length === 1 && sizes[0] === 1) {
    status.textContent = t("Pick one die to reroll, or stand.");
  } else {
    status.textContent = t("Click dice to reroll them, then Reroll; or Stand.") + (moves.rerolls_left ? ` ${rerollsLeft(moves.rerolls_left)}.` : "");
  }
  box.append(html("button", {
    class: "btn primary", "data-button": "reroll", disabled: !text, onclick: text ? () => play(root, text) : null,
  }, picked.length ? t("Reroll {dice}", { dice: picked.join(" ") }) : t("Reroll")));
  if (moves.stand) {
    box.append(html("button", { class: "btn", "data-button": "stand", onclick: () => play(root, moves.stand) }, v.now ? t("Stand ({points})", { points: pointsWord(v.now.points) }) : t("Stand")));
  }
  return wrap;
}

// ---- the last challenge ------------------------------------------------------------------------
function drawLast(snap, last) {
  const who = nameOf(snap, last.seat);
  const against = last.opponent !== null && last.opponent !== undefined;
  const params = { name: who, points: last.points, challenge: challengeName(last.white), white: last.white, opponent: against ? nameOf(snap, last.opponent) : "" };
  const box = html("div", { class: "wd-last", "data-testid": "last-challenge" },
    html("h3", {}, against
      ? t("Last challenge: {name} scored {points} in {challenge} (white {white}) against {opponent}", params)
      : t("Last challenge: {name} scored {points} in {challenge} (white {white})", params)),
    html("div", { class: "wd-last-text" }, explain(last.explain)));
  const ex = last.explain;
  let pic = null;
  if (last.grid) {
    pic = svg("svg", { viewBox: "0 0 230 200", class: "wd-last-pic" },
      svg("rect", { x: 0, y: 0, width: 230, height: 200, rx: 10, style: { fill: "var(--felt)" } }),
      drawGrid(40, 22, 56, last.grid, { turn: last.seat, lines: ex.lines, blocks: ex.blocks }));
  } else if (ex.pips) {
    const h = ex.pips.turns.some(Boolean) ? 206 : 190;
    pic = svg("svg", { viewBox: `0 0 320 ${h}`, class: "wd-last-pic" },
      svg("rect", { x: 0, y: 0, width: 320, height: h, rx: 10, style: { fill: "var(--felt)" } }),
      ...last.dice.map((d, i) => dieFace(10 + (i % 2) * 44, 20 + Math.floor(i / 2) * 44, 36, d)),
      drawPipSquare(120, 20, 24, ex.pips, null));
  } else if (last.dice.length) {
    const rows = [last.dice];
    if (last.opponent_dice.length) rows.push(last.opponent_dice);
    const colours = ex.matches ? matchColours({ now: ex, dice: last.dice, opponent_dice: last.opponent_dice }) : null;
    pic = svg("svg", { viewBox: `0 0 320 ${rows.length * 58 + 8}`, class: "wd-last-pic" },
      svg("rect", { x: 0, y: 0, width: 320, height: rows.length * 58 + 8, rx: 10, style: { fill: "var(--felt)" } }),
      rows.map((dice, r) => dice.map((d, i) => {
        const c = colours ? colours[r ? "opponent" : "player"][i] : null;
        return [
          dieFace(10 + i * 50, 8 + r * 58, 40, d, { class: `die${r ? " wd-die opp" : ""}` }),
          c ? svg("rect", { x: 14 + i * 50, y: 51 + r * 58, width: 32, height: 5, rx: 2, style: { fill: c } }) : null,
        ];
      })),
      ex.matches ? ex.matches.map((m, i) => svg("text", { x: 215, y: 24 + i * 20, class: "wd-match" }, `${m.mine.join("+")} = ${m.theirs.join("+")}`)) : null);
  }
  if (pic) box.append(pic);
  return box;
}

/** One line of the game log. */
export function describe(entry, snap) {
  const text = entry.text;
  if (entry.actor < 0) {
    const m = /^white (\d)(?::\s*(.*))?$/.exec(text);
    if (m) {
      const head = t("white {white} ({challenge})", { white: m[1], challenge: challengeName(Number(m[1])) });
      return m[2] ? `${head}: ${m[2]}` : head;
    }
    return t("rolls {dice}", { dice: text });
  }
  if (text === "stand") return t("stands");
  if (text === "claim") return t("claims the empty squares");
  if (text === "decline") return t("leaves the empty squares unclaimed");
  if (text.startsWith("arrange")) return t("arranges his square for {points}", { points: pointsWord(Number(text.slice(8))) });
  if (text.startsWith("reroll")) return t("rerolls {dice}", { dice: text.slice(7) });
  if (text.startsWith("place")) {
    const [, value, sq] = text.split(" ");
    return t("places {value} on {square}", { value, square: sq });
  }
  if (text.startsWith("opponent")) {
    const seat = Number(text.slice(9)) - 1;
    return t("plays against {name}", { name: snap ? nameOf(snap, seat) : t("seat {n}", { n: seat + 1 }) });
  }
  return text;
}
