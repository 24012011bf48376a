// Backgammon board: SVG, click-to-move with undo before confirming, pip counts, borne-off trays.
//
// Data from the server view (src/dicehall/server/views/backgammon.py):
//   view.sides[seat]  26 counts in that seat's own numbering (0 = off, 1..24, 25 = bar)
//   view.dice, view.turn, view.pips, view.phase
//   moves.nodes       the legal plays as a click graph (edges [from, to, die, hit, child]; text)
//
// Test hooks (stable selectors):
//   [data-point="N"]         click target of point N in the numbering of the seat drawn at the
//                            bottom (the mover when it is your turn); 25 = your bar, 0 = your
//                            bear-off tray. Clicking a checker's point selects it; clicking a lit
//                            destination moves it.
//   [data-button="confirm"]  send the play (also "pass" when there is no legal move)
//   [data-button="undo"]     take back the last checker moved
//   svg[data-seq]            the snapshot drawn; svg[data-bottom-seat]: the seat drawn at the bottom
//   root.dataset.node        index in moves.nodes of the position after the clicks so far
//
// Keyboard: every lit point, the bar and the tray are buttons (Tab, or the arrow keys between
// them; Enter or Space chooses): choose a checker, then its destination, then Confirm (focus
// moves there by itself). Screen readers get the whole position, the dice and the legal
// choices as text (#bg-position, described by the board), in the page's language.

import { animateTranslate, clear, dieFace, html, svg } from "../dom.js";
import { t } from "../i18n.js";

const t_ = t; // where a local variable `t` (an SVG text) is in scope
import { cubePanel, drawCube } from "./backgammon_cube.js";

const W = 700;
const H = 540;
const PW = 45; // point width
const R = 20; // checker radius
const TOP = 15;
const BOTTOM = H - 15;
const TRI = 200; // triangle height
const LEFT_X = 15;
const BAR_X = 285;
const BAR_W = 50;
const RIGHT_X = BAR_X + BAR_W;
const RIGHT_END = RIGHT_X + 6 * PW; // 605
const FRAME_W = RIGHT_END + 15; // 620
const TRAY_X = FRAME_W + 6;
const TRAY_W = W - TRAY_X - 4;
const MID = H / 2;
const NARROW = 560; // a board narrower than this (CSS px) is drawn for a phone
const BAND = 28; // the extra frame above and below the points that holds their numbers there
const LABEL_NARROW = 25; // their size there (user units; about 0.53 px each at 390 px)

const memory = new WeakMap(); // root -> {key, path, selected}

/** Centre x of point p (1..24) in the drawn orientation, and whether it is on the bottom row. */
function pointX(p) {
  if (p <= 6) return RIGHT_END - (p - 0.5) * PW;
  if (p <= 12) return BAR_X - (p - 6.5) * PW;
  if (p <= 18) return LEFT_X + (p - 12.5) * PW;
  return RIGHT_X + (p - 18.5) * PW;
}
const isBottom = (p) => p <= 12;

/** Position of the index-th checker (0-based) on point p / bar / tray, for `mine` (bottom side). */
function checkerPos(p, index, mine) {
  if (p === 25) {
    const k = Math.min(index, 3);
    return { x: BAR_X + BAR_W / 2, y: mine ? MID + 50 + k * 2 * R : MID - 50 - k * 2 * R };
  }
  if (p === 0) {
    const k = Math.min(index, 14);
    return { x: TRAY_X + TRAY_W / 2, y: mine ? BOTTOM - 6 - k * 13 : TOP + 6 + k * 13 };
  }
  const k = Math.min(index, 4);
  const x = pointX(p);
  return { x, y: isBottom(p) ? BOTTOM - R - k * 2 * R : TOP + R + k * 2 * R };
}

/** Translate a point of `seat`'s numbering into the numbering of the seat drawn at the bottom. */
function toViewer(p, seat, me) {
  if (seat === me || p === 0 || p === 25) return p;
  return 25 - p;
}

/** Reachable destinations of the checker on `src` from node n: dst -> chain of edges. */
function destinations(nodes, n, src) {
  const found = new Map();
  const queue = [{ node: n, at: src, chain: [] }];
  while (queue.length) {
    const { node, at, chain } = queue.shift();
    for (const edge of nodes[node].edges) {
      if (edge[0] !== at) continue;
      const dst = edge[1];
      const next = [...chain, edge];
      if (!found.has(dst)) found.set(dst, next);
      if (dst !== 0) queue.push({ node: edge[4], at: dst, chain: next });
    }
  }
  return found;
}

export function describe(entry, snap) {
  if (entry.actor >= 0) return entry.text;
  const detail = entry.detail;
  if (detail && detail.opening) {
    // the server says who starts (null: a tie, both roll again)
    const [a, b] = detail.roll;
    const who = detail.starts === null ? t("a tie: roll again") : t("{name} starts", { name: nameOf(snap, detail.starts) });
    return t("opening roll: {a} {x}, {b} {y} ({who})", { a: nameOf(snap, 0), x: a, b: nameOf(snap, 1), y: b, who });
  }
  return t("rolls {dice}", { dice: entry.text });
}

function nameOf(snap, seat) {
  return snap.players?.[seat]?.name || t("seat {n}", { n: seat + 1 });
}

/** The result line with the players' names (client.js shows it in the result panel). */
export function summary(snap, name) {
  const v = snap.view;
  if (!v || v.winner === null || v.winner === undefined) return "";
  const who = name(v.winner);
  const m = v.match;
  if (m && m.length) {
    return t("{name} wins the match to {length}, {a}–{b}.", { name: who, length: m.length, a: m.score[0], b: m.score[1] });
  }
  if (v.history && v.history.length > 1 && m) {
    const net = m.score[0] - m.score[1];
    const signed = (x) => (x > 0 ? `+${x}` : String(x));
    return t("Money session of {games} games: {a} {x}, {b} {y}.", { games: v.history.length, a: name(0), x: signed(net), b: name(1), y: signed(-net) });
  }
  const kind = { 1: t("a single game"), 2: t("a gammon"), 3: t("a backgammon") }[v.points];
  if (!v.cube?.enabled && kind) return t("{name} wins {kind} ({points} points).", { name: who, kind, points: v.points }).replace("(1 points)", t("(1 point)"));
  return v.points === 1 ? t("{name} wins 1 point.", { name: who }) : t("{name} wins {points} points.", { name: who, points: v.points });
}

/** Where a point is, in words: "point 13", "the bar", "off the board". */
function placeName(p) {
  if (p === 25) return t("the bar");
  if (p === 0) return t("off the board");
  return t("point {n}", { n: p });
}

function checkers(n) {
  return n === 1 ? t("1 checker") : t("{n} checkers", { n });
}

/** The whole position in text, for screen readers: every stack, bar, borne off, pips, dice,
 *  and what may be chosen now. Points in the numbering of the seat drawn at the bottom. */
function positionText(b, snap) {
  const { me, them, mine, theirs, pips, current, sources, dests, mem, view } = b;
  const side = (seat, own) => {
    const stacks = [];
    for (let p = 24; p >= 1; p -= 1) {
      const n = own ? mine[p] : theirs[25 - p];
      if (n) stacks.push(t("{count} on point {n}", { count: checkers(n), n: p }));
    }
    const bar = own ? mine[25] : theirs[25];
    const off = own ? mine[0] : theirs[0];
    const parts = [stacks.join(", ") || t("no checkers on the points")];
    parts.push(bar ? t("{count} on the bar", { count: checkers(bar) }) : t("none on the bar"));
    if (off) parts.push(t("{count} borne off", { count: checkers(off) }));
    return t("{name} ({colour}): {stacks}; {pips} pips.", {
      name: nameOf(snap, seat), colour: seat === 0 ? t("light checkers") : t("dark checkers"), stacks: parts.join("; "), pips: pips[seat],
    });
  };
  const lines = [
    t("Points numbered from {name}'s side: {name} moves from 24 down to 1 and bears off from the home board, points 1 to 6.", { name: nameOf(snap, me) }),
    side(me, true),
    side(them, false),
  ];
  if (view.dice) lines.push(t("Dice: {a} and {b}, rolled by {name}.", { a: view.dice[0], b: view.dice[1], name: nameOf(snap, view.turn) }));
  if (current) {
    if (current.text !== null && !mem.path.length && current.text === "pass") lines.push(t("No legal move: pass."));
    else if (current.text !== null) lines.push(t("Play complete: {play}. Confirm it, or undo.", { play: current.text }));
    else if (mem.selected !== null) {
      const to = [...dests.keys()].map(placeName).join(", ");
      lines.push(mem.selected === 25 ? t("Checker chosen on the bar; it can go to: {to}.", { to }) : t("Checker chosen on point {n}; it can go to: {to}.", { n: mem.selected, to }));
    }
    else lines.push(t("Checkers that can move: {from}.", { from: [...sources].sort((x, y) => y - x).map(placeName).join(", ") }));
  }
  return lines.join(" ");
}

/** Layout and state: what is drawn and what may be clicked, after the clicks so far. */
function boardState(root, snap, ctx) {
  const view = snap.view;
  const me = ctx.seat ?? 0;
  const them = 1 - me;
  const moves = ctx.canAct && snap.moves && snap.moves.seat === me ? snap.moves : null;
  const key = `${snap.id}:${snap.seq}`;
  let mem = memory.get(root);
  if (!mem || mem.key !== key) {
    mem = { key, path: [], selected: null };
    memory.set(root, mem);
  }
  // the board as it stands after the steps already clicked (not yet sent): the server's
  // node for it carries the sides and pip counts, so no rule of movement lives here
  let node = 0;
  for (const chain of mem.path) {
    for (const edge of chain) node = edge[4];
  }
  const current = moves ? moves.nodes[node] : null;
  const mine = (current ? current.sides[0] : view.sides[me]).slice();
  const theirs = (current ? current.sides[1] : view.sides[them]).slice();
  const pips = [0, 0];
  pips[me] = current ? current.pips[0] : view.pips[me];
  pips[them] = current ? current.pips[1] : view.pips[them];
  const sources = new Set(current ? current.edges.map((e) => e[0]) : []);
  const dests = current && mem.selected !== null ? destinations(moves.nodes, node, mem.selected) : new Map();
  // the last move (for highlighting and animation), in drawn numbering
  const last = snap.last && snap.last.detail && snap.last.detail.steps ? snap.last.detail : null;
  return { view, me, them, moves, mem, node, current, mine, theirs, pips, sources, dests, last };
}

/** Interaction: a click on point p selects a checker or moves the selected one there. */
function clicker(b, redraw) {
  const { mem, current, sources, dests } = b;
  return (p) => {
    if (!current) return;
    if (mem.selected !== null && dests.has(p)) {
      mem.path.push(dests.get(p));
      mem.selected = null;
      mem.focus = "source";
      redraw();
      return;
    }
    if (sources.has(p)) {
      // a checker with exactly one move by a single die: still wait for the destination click
      mem.selected = mem.selected === p ? null : p;
      mem.focus = mem.selected === null ? "source" : "dest";
      redraw();
      return;
    }
    mem.selected = null;
    redraw();
  };
}

/** Layout: the frame, the felt, the bar, the trays and the 24 numbered points. */
function drawFrame(s, band) {
  s.append(svg("rect", { x: 0, y: -band, width: FRAME_W, height: H + 2 * band, rx: 10, fill: "var(--wood)" }));
  s.append(svg("rect", { x: LEFT_X, y: TOP, width: 6 * PW, height: H - 2 * TOP, fill: "var(--felt)" }));
  s.append(svg("rect", { x: RIGHT_X, y: TOP, width: 6 * PW, height: H - 2 * TOP, fill: "var(--felt)" }));
  s.append(svg("rect", { x: BAR_X, y: TOP, width: BAR_W, height: H - 2 * TOP, fill: "var(--felt-dark)" }));
  // trays
  s.append(svg("rect", { x: TRAY_X, y: TOP, width: TRAY_W, height: MID - TOP - 15, rx: 6, fill: "var(--felt-dark)", class: "tray" }));
  s.append(svg("rect", { x: TRAY_X, y: MID + 15, width: TRAY_W, height: BOTTOM - MID - 15, rx: 6, fill: "var(--felt-dark)", class: "tray" }));
  for (let p = 1; p <= 24; p += 1) {
    const x = pointX(p);
    const bottom = isBottom(p);
    const base = bottom ? BOTTOM : TOP;
    const tip = bottom ? BOTTOM - TRI : TOP + TRI;
    const fill = p % 2 ? "var(--point-a)" : "var(--point-b)";
    s.append(svg("polygon", { points: `${x - PW / 2},${base} ${x + PW / 2},${base} ${x},${tip}`, fill, class: "point" }));
    // in the frame's edge; on a narrow screen in a wider band of it, in bigger type
    const size = band ? LABEL_NARROW : 15;
    const y = band ? (bottom ? H + band - 7 : -band + size - 1) : bottom ? H - 2 : 13;
    const label = svg("text", {
      x, y, "text-anchor": "middle", "font-size": size, "font-weight": 700, fill: "#fff8e6", class: "point-label",
    });
    label.textContent = String(p);
    s.append(label);
  }
}

/** Pieces: highlights of the last move and of the legal sources and destinations. */
function drawMarks(s, b) {
  const { me, mem, current, sources, dests, last } = b;
  const mark = (p, seat, cls, color) => {
    const isMine = seat === me;
    if (p === 25) {
      s.append(svg("rect", { x: BAR_X + 3, y: isMine ? MID + 25 : TOP + 5, width: BAR_W - 6, height: MID - TOP - 30, rx: 6, fill: color, opacity: 0.45, class: cls }));
    } else if (p === 0) {
      s.append(svg("rect", { x: TRAY_X, y: isMine ? MID + 15 : TOP, width: TRAY_W, height: MID - TOP - 15, rx: 6, fill: color, opacity: 0.45, class: cls }));
    } else {
      const x = pointX(p);
      const bottom = isBottom(p);
      const base = bottom ? BOTTOM : TOP;
      const tip = bottom ? BOTTOM - TRI : TOP + TRI;
      s.append(svg("polygon", { points: `${x - PW / 2},${base} ${x + PW / 2},${base} ${x},${tip}`, fill: color, opacity: 0.55, class: cls }));
    }
  };
  if (last && !mem.path.length) {
    // each point once, sources before destinations
    const from = new Set(last.steps.map(([src]) => toViewer(src, last.seat, me)));
    const to = new Set(last.steps.map(([, dst]) => toViewer(dst, last.seat, me)));
    for (const p of from) mark(p, last.seat, "last-from", "var(--highlight)");
    for (const p of to) mark(p, last.seat, "last-to", "var(--highlight)");
  }
  if (current) {
    for (const p of sources) mark(p, me, "source", p === mem.selected ? "var(--selected)" : "var(--legal)");
    for (const p of dests.keys()) mark(p, me, "dest", "var(--legal)");
  }
}

/** Pieces: one stack of `count` checkers of `seat` on point p (25 the bar, 0 the tray). */
function drawStack(s, checkerNodes, p, count, seat, isMine) {
  const shown = p === 0 ? count : p === 25 ? Math.min(count, 4) : Math.min(count, 5);
  for (let i = 0; i < shown; i += 1) {
    const pos = checkerPos(p, i, isMine);
    let c;
    if (p === 0) {
      c = svg("rect", { x: TRAY_X + 6, y: pos.y - 5, width: TRAY_W - 12, height: 11, rx: 3, fill: `var(--seat${seat})`, stroke: `var(--seat${seat}-edge)`, "stroke-width": 1.5, class: "checker off" });
    } else {
      c = svg("circle", { cx: pos.x, cy: pos.y, r: R - 1, fill: `var(--seat${seat})`, stroke: `var(--seat${seat}-edge)`, "stroke-width": 2, class: "checker", "data-seat": seat });
    }
    s.append(c);
    if (i === shown - 1) checkerNodes.set(`${seat}:${p}`, c);
  }
  if (count > shown || (p === 0 && count > 0)) {
    const pos = checkerPos(p, shown - 1, isMine);
    const t = svg("text", {
      x: pos.x, y: pos.y + 5, "text-anchor": "middle", "font-size": p === 0 ? 11 : 15, "font-weight": 700,
      fill: seat === 0 ? "#333" : "#fff", class: "count",
    });
    t.textContent = String(count);
    if (p === 0) {
      t.setAttribute("y", isMine ? BOTTOM - 18 - Math.min(count, 14) * 13 : TOP + 24 + Math.min(count, 14) * 13);
      t.setAttribute("fill", "#f3e6cc");
    }
    s.append(t);
  }
}

/** Pieces: every checker, rings on those that may move, ghosts where the selected may land.
 * Returns "seat:point" -> the top checker's node (for the animation). */
function drawCheckers(s, b) {
  const { me, them, mine, theirs, mem, sources, dests } = b;
  const checkerNodes = new Map();
  for (let p = 1; p <= 24; p += 1) {
    if (mine[p]) drawStack(s, checkerNodes, p, mine[p], me, true);
    if (theirs[25 - p]) drawStack(s, checkerNodes, p, theirs[25 - p], them, false);
  }
  drawStack(s, checkerNodes, 25, mine[25], me, true);
  drawStack(s, checkerNodes, 25, theirs[25], them, false);
  drawStack(s, checkerNodes, 0, mine[0], me, true);
  drawStack(s, checkerNodes, 0, theirs[0], them, false);
  for (const p of sources) {
    const count = mine[p] || 1;
    const pos = checkerPos(p, Math.min(count - 1, p === 25 ? 3 : 4), true);
    s.append(svg("circle", {
      cx: pos.x, cy: pos.y, r: R + 1, fill: "none", "stroke-width": 4, class: "source-ring",
      stroke: p === mem.selected ? "var(--selected)" : "var(--legal)",
    }));
  }
  for (const p of dests.keys()) {
    if (p === 0) continue;
    const pos = checkerPos(p, p === 25 ? 0 : mine[p] || 0, true);
    s.append(svg("circle", { cx: pos.x, cy: pos.y, r: R - 2, fill: "none", stroke: "var(--legal)", "stroke-width": 3, "stroke-dasharray": "5 4", class: "ghost" }));
  }
  return checkerNodes;
}

/** Pieces: the middle band, with pip counts, the dice (used ones faded) and the result. */
function drawMiddle(s, b, snap, ctx) {
  const { view, me, them, mine, theirs, pips, current } = b;
  const name = (seat) => nameOf(snap, seat);
  const pipText = (seat, y) => {
    const g = svg("g", { class: "pips", "data-pips-seat": seat });
    g.append(svg("circle", { cx: LEFT_X + 14, cy: y - 6, r: 8, fill: `var(--seat${seat})`, stroke: `var(--seat${seat}-edge)` }));
    const t = svg("text", { x: LEFT_X + 28, y, "font-size": 17, fill: "#fff" });
    t.textContent = t_("{name} · pips {pips} · off {off}", { name: name(seat), pips: pips[seat], off: seat === me ? mine[0] : theirs[0] });
    g.append(t);
    s.append(g);
  };
  pipText(them, MID - 14);
  pipText(me, MID + 24);
  if (view.dice) {
    const [a, d2] = view.dice;
    const all = a === d2 ? [a, a, a, a] : [a, d2];
    const left = current ? current.dice.slice() : all.slice();
    const size = a === d2 ? 30 : 36;
    const gap = 8;
    const total = all.length * size + (all.length - 1) * gap;
    // on the roller's side of the board, as at a real table: the bottom player rolls in the
    // right half, the top one in the left; in the roller's colour
    const half = view.turn === me ? RIGHT_X : LEFT_X;
    let x = half + (6 * PW - total) / 2;
    const rolled = ctx.animate && ctx.previous && snap.log.length && snap.log[snap.log.length - 1].actor < 0;
    for (const d of all) {
      const k = left.indexOf(d);
      const used = k < 0;
      if (!used) left.splice(k, 1);
      s.append(dieFace(x, MID - size / 2, size, d, { class: `die seat-die-${view.turn}${used ? " used" : ""}${rolled ? " rolling" : ""}`, "data-seat": view.turn }));
      x += size + gap;
    }
  }
  if (view.phase === "over" && view.winner !== null) {
    const t = svg("text", { x: RIGHT_X + 3 * PW, y: MID + 6, "text-anchor": "middle", "font-size": 18, "font-weight": 700, fill: "#fff" });
    t.textContent = view.points === 1 ? t_("{name} wins 1 point", { name: name(view.winner) }) : t_("{name} wins {points} points", { name: name(view.winner), points: view.points });
    s.append(t);
  }
}

/** Interaction: transparent click targets over the points, the bar and the tray. */
function drawTargets(s, b, click) {
  const { sources, dests, mem, mine } = b;
  const lit = (p) => (mem.selected !== null ? dests.has(p) || p === mem.selected : sources.has(p));
  const label = (p) => {
    if (mem.selected !== null && p === mem.selected) return t("{place}: chosen; choose again to put it back", { place: placeName(p) });
    if (mem.selected !== null) return t("move to {place}", { place: placeName(p) });
    return t("{place}, {count}: choose this checker", { place: placeName(p), count: checkers(mine[p] || 0) });
  };
  const target = (p, attrs) => {
    const on = lit(p);
    const r = svg("rect", {
      ...attrs, fill: "transparent", "data-point": p, class: sources.has(p) || dests.has(p) ? "legal target" : "target",
      ...(on ? { tabindex: 0, role: "button", "aria-label": label(p), "data-key": mem.selected !== null && p !== mem.selected ? "dest" : "source" } : {}),
    });
    r.addEventListener("click", () => click(p));
    if (on) r.addEventListener("keydown", (e) => keyOnTarget(e, s, p, click));
    s.append(r);
  };
  for (let p = 1; p <= 24; p += 1) {
    const x = pointX(p);
    target(p, { x: x - PW / 2, y: isBottom(p) ? MID + 5 : TOP, width: PW, height: MID - TOP - 5 });
  }
  target(25, { x: BAR_X, y: MID + 5, width: BAR_W, height: MID - TOP - 5 });
  target(0, { x: TRAY_X, y: MID + 15, width: TRAY_W, height: BOTTOM - MID - 15 });
}

/** Keys on a lit target: Enter/Space choose it, arrows move between the lit targets. */
function keyOnTarget(e, s, p, click) {
  if (e.key === "Enter" || e.key === " ") {
    e.preventDefault();
    click(p);
    return;
  }
  const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[e.key];
  if (!step) return;
  e.preventDefault();
  const all = [...s.querySelectorAll("[data-point][tabindex]")];
  const i = all.indexOf(e.currentTarget);
  all[(i + step + all.length) % all.length]?.focus();
}

// the focus ring shows after keys, not after clicks or when a turn starts by itself
let keyboardMode = false;
if (typeof document !== "undefined") {
  document.addEventListener("keydown", (e) => { if (e.key === "Tab" || e.key.startsWith("Arrow")) keyboardMode = true; }, true);
  document.addEventListener("pointerdown", () => { keyboardMode = false; }, true);
}

/** After a redraw caused by a choice, put the focus where the next choice is made. */
function restoreFocus(root, b) {
  const want = b.mem.focus;
  b.mem.focus = null;
  const active = document.activeElement;
  const inBoard = active && root.contains(active);
  if (!want && !(b.current && (inBoard || active === document.body) && b.mem.autofocus !== b.mem.key)) return;
  b.mem.autofocus = b.mem.key;
  const confirm = root.querySelector('[data-button="confirm"]:not([disabled])');
  let target = null;
  if (b.current && b.current.text !== null) target = confirm;
  else if (want === "dest") target = root.querySelector('[data-key="dest"]');
  if (!target && b.current) target = root.querySelector('[data-key="source"]') || confirm;
  if (target && (want || inBoard || active === document.body)) target.focus({ preventScroll: true, focusVisible: keyboardMode });
}

/** The choices as HTML buttons of at least 44 px (a phone's finger is wider than a drawn
 *  point): the checkers that may move, or the chosen one's destinations. */
function choicesBar(b, click) {
  const { current, mem, sources, dests } = b;
  if (!current || current.text !== null) return null;
  const points = mem.selected !== null ? [...dests.keys()] : [...sources];
  points.sort((x, y) => (x === 25 ? -1 : y === 25 ? 1 : x === 0 ? 1 : y === 0 ? -1 : y - x));
  const label = mem.selected !== null ? t("Move to:") : t("Checker on:");
  return html("div", { class: "bg-choices", role: "group", "aria-label": label },
    html("span", { class: "hint" }, label),
    points.map((p) => html("button", {
      class: "btn small legal", type: "button", "data-choice": p, tabindex: -1,
      "aria-label": mem.selected !== null ? t("move to {place}", { place: placeName(p) }) : placeName(p),
      onclick: () => click(p),
    }, p === 25 ? t("bar") : p === 0 ? t("bear off") : String(p))));
}

/** Controls: undo, confirm (or pass) and a line that says what to click. */
function makeControls(b, ctx, redraw) {
  const { view, mem, current } = b;
  const controls = html("div", { class: "board-controls" });
  if (!current) return controls;
  const dice = view.dice ? `${view.dice[0]}-${view.dice[1]}` : "";
  const final = current.text !== null;
  const isPass = final && current.text === "pass" && !mem.path.length;
  const info = isPass
    ? t("No legal move with {dice}.", { dice })
    : final
      ? t("Play: {play}", { play: current.text })
      : mem.selected !== null
        ? (mem.selected === 25 ? t("Move the checker from the bar: choose a lit point.") : t("Move the checker from point {n}: choose a lit point.", { n: mem.selected }))
        : t("To play {dice}: choose a lit checker (click, or Tab and Enter).", { dice });
  controls.append(
    html("button", {
      class: "btn",
      "data-button": "undo",
      disabled: !mem.path.length && mem.selected === null,
      onclick: () => {
        if (mem.selected !== null) mem.selected = null;
        else mem.path.pop();
        mem.focus = "source";
        redraw();
      },
    }, t("Undo")),
    html("button", {
      class: "btn primary",
      "data-button": "confirm",
      disabled: !final,
      onclick: (e) => {
        e.target.disabled = true;
        ctx.act(current.text).catch(() => {
          mem.path = [];
          mem.selected = null;
          redraw();
        });
      },
    }, isPass ? t("Pass") : t("Confirm")),
    html("span", { class: "hint", "data-testid": "play-info", "aria-live": "polite" }, info),
  );
  return controls;
}

/** Interaction: the checkers of the last move slide in from where they came. */
function animateLast(b, snap, ctx, checkerNodes) {
  const { me, mine, theirs, last } = b;
  if (!(ctx.animate && last && ctx.previous && (!ctx.previous.last || ctx.previous.last.seq !== snap.last.seq))) return;
  const lastSeat = last.seat;
  const isMine = lastSeat === me;
  const ends = new Map();
  for (const [src, dst] of last.steps) {
    // follow one checker through consecutive steps (13/8 8/5 -> 13/5)
    const start = [...ends.entries()].find(([, d]) => d === src);
    if (start) ends.set(start[0], dst);
    else ends.set(`${src}#${ends.size}`, dst);
  }
  const prevSides = ctx.previous.view.sides;
  for (const [startKey, dst] of ends) {
    const src = Number(startKey.split("#")[0]);
    const from = toViewer(src, lastSeat, me);
    const to = toViewer(dst, lastSeat, me);
    const node = checkerNodes.get(`${lastSeat}:${to}`);
    if (!node) continue;
    const before = prevSides[lastSeat][src] || 1;
    const a = checkerPos(from, Math.max(0, Math.min(before - 1, from === 0 ? 14 : 4)), isMine);
    const count = isMine ? mine[to === 0 ? 0 : to] : theirs[to === 0 ? 0 : to === 25 ? 25 : 25 - to];
    const end = checkerPos(to, Math.max(0, Math.min((count || 1) - 1, to === 0 ? 14 : 4)), isMine);
    // CSS translate on an SVG element is in user units: no scaling needed
    animateTranslate(node, a.x - end.x, a.y - end.y, 320);
  }
}

export function render(root, snap, ctx) {
  const b = boardState(root, snap, ctx);
  const redraw = () => render(root, snap, { ...ctx, animate: false });
  // a phone shows the board at about half size: the point numbers get bands of their own,
  // above and below the board, in type that stays legible (>= 12 px at a 390 px viewport)
  const band = root.clientWidth > 0 && root.clientWidth < NARROW ? BAND : 0;
  const s = svg("svg", {
    viewBox: `0 ${-band} ${W} ${H + 2 * band}`,
    class: "bg-board",
    role: "group",
    "aria-label": t("Backgammon board"),
    "aria-describedby": "bg-position",
    "data-seq": snap.seq,
    "data-bottom-seat": b.me,
  });
  drawFrame(s, band);
  drawMarks(s, b); // under the checkers
  const checkerNodes = drawCheckers(s, b);
  drawMiddle(s, b, snap, ctx);
  drawCube(s, { barX: BAR_X, barW: BAR_W, mid: MID, top: TOP, bottom: BOTTOM }, b.view, b.me);
  const click = clicker(b, redraw);
  if (b.current) drawTargets(s, b, click); // on top of everything
  const controls = makeControls(b, ctx, redraw);
  const choices = choicesBar(b, click);
  const described = html("p", { id: "bg-position", class: "visually-hidden", "data-testid": "position-text" }, positionText(b, snap));
  clear(root);
  root.append(s, described, choices || "", controls, cubePanel(snap, ctx, b.me));
  restoreFocus(root, b);
  root.dataset.node = b.current ? String(b.node) : "";
  root.dataset.selected = b.mem.selected === null ? "" : String(b.mem.selected);
  animateLast(b, snap, ctx, checkerNodes);
}
