// The replay viewer: step through every action of a game with the game's own board module.

import { clear, html, svg } from "./dom.js";
import { api, loadBoard, seatLabel } from "./api.js";
import { t } from "./i18n.js";
import { gameTitle } from "./options.js";

const gameId = decodeURIComponent(location.pathname.split("/")[2] || "");
const $ = (id) => document.getElementById(id);
let frames = [];
let meta = null;
let board = null;
let index = 0;
let timer = null;

let report = null;

window.dicehall = {
  get index() { return index; },
  get frames() { return frames; },
  get analysis() { return report; },
  show: (i) => show(i, false),
};

function snapAt(i) {
  const f = frames[i];
  const log = frames.slice(1, i + 1).map((x) => ({ seq: x.seq, actor: x.actor, text: x.text }));
  return {
    ...meta,
    status: i === frames.length - 1 ? meta.status : "replay",
    seq: f.seq,
    view: f.view,
    last: f.last,
    to_move: f.to_move,
    legal: null,
    moves: null,
    log,
    you: [],
  };
}

function show(i, animate) {
  index = Math.max(0, Math.min(frames.length - 1, i));
  const snap = snapAt(index);
  const previous = index > 0 ? snapAt(index - 1) : null;
  board.render($("board"), snap, {
    act: () => Promise.reject({ code: "replay", message: t("this is a replay") }),
    canAct: false,
    seat: 0,
    mySeats: [],
    previous,
    animate,
    replay: true,
    message: (t) => { $("message").textContent = t; },
  });
  $("slider").value = index;
  const f = frames[index];
  $("status").textContent = index === 0
    ? t("Start ({n} actions)", { n: frames.length - 1 })
    : `${index} / ${frames.length - 1}: ${f.actor < 0 ? t("dice") : seatLabel(meta, f.actor)} ${f.text}`;
  for (const li of $("log").children) li.classList.toggle("current", Number(li.dataset.index) === index);
  const cur = $("log").querySelector("li.current");
  if (cur) cur.scrollIntoView({ block: "nearest" });
  document.body.dataset.index = index;
}

function step(delta) {
  show(index + delta, delta === 1);
}

function togglePlay() {
  if (timer) {
    clearInterval(timer);
    timer = null;
    $("play").textContent = t("Play");
    return;
  }
  $("play").textContent = t("Pause");
  timer = setInterval(() => {
    if (index >= frames.length - 1) togglePlay();
    else step(1);
  }, 700);
}

async function main() {
  $("back").href = `/g/${gameId}`;
  try {
    [meta, frames] = await Promise.all([api(`/api/games/${gameId}`), api(`/api/games/${gameId}/frames`)]);
  } catch (err) {
    $("status").textContent = err.message;
    return;
  }
  board = await loadBoard(meta.game);
  $("title").textContent = t("Replay: {title}", { title: gameTitle(meta.game, meta.title) });
  const players = clear($("players"));
  for (const p of meta.players) {
    players.append(html("div", { class: "player" }, html("span", { class: "chip", style: { background: `var(--seat${p.seat})` } }), html("span", {}, seatLabel(meta, p.seat))));
  }
  const log = clear($("log"));
  frames.forEach((f, i) => {
    if (i === 0) return;
    const li = html("li", { class: f.actor < 0 ? "roll" : "move", "data-index": i, onclick: () => show(i, false) },
      html("span", { class: "num" }, `${i}.`), " ",
      html("span", { class: "who" }, f.actor < 0 ? t("dice") : seatLabel(meta, f.actor)), " ", f.text);
    log.append(li);
  });
  $("links").append(
    html("a", { class: "btn", href: `/api/games/${gameId}/record?download=1` }, t("Download record")),
    html("a", { class: "btn", href: `/g/${gameId}/fairness` }, t("Fairness check")));
  const slider = $("slider");
  slider.max = frames.length - 1;
  slider.addEventListener("input", () => show(Number(slider.value), false));
  $("first").onclick = () => show(0, false);
  $("prev").onclick = () => step(-1);
  $("next").onclick = () => step(1);
  $("last").onclick = () => show(frames.length - 1, false);
  $("play").onclick = togglePlay;
  document.addEventListener("keydown", (e) => {
    if (e.key === "ArrowRight") step(1);
    else if (e.key === "ArrowLeft") step(-1);
    else if (e.key === "Home") show(0, false);
    else if (e.key === "End") show(frames.length - 1, false);
  });
  show(0, false);
  if (meta.status === "finished" && ["backgammon", "coinrows", "whitedie"].includes(meta.game)) loadAnalysis();
}

/** The analysis of the finished game (GET /api/games/{id}/analysis): totals per player, each
 *  decision's value lost with errors and blunders marked (also in the move list), the
 *  equity graph; a click on a decision shows its position. The server answers at once with
 *  its quick analysis (backgammon 0-ply) and computes the deep one (expert, as the terminal's
 *  `dicehall analyze`) in the background: while `deeper` says how far it is, a progress bar
 *  shows it and the page asks again, then the deep analysis replaces the quick one. */
async function loadAnalysis() {
  const box = $("analysis");
  const body = clear($("analysis-body"));
  box.hidden = false;
  body.append(html("p", { class: "hint", role: "status" }, t("Analysing every decision…")));
  let shownLevel = null;
  for (;;) {
    let r;
    try {
      r = await api(`/api/games/${gameId}/analysis`);
    } catch (err) {
      if (report) { // keep what is shown; say why the deeper one stopped
        deeperStatus(body, { state: "failed", level: "", error: err.message });
        document.body.dataset.analysis = "final";
      } else {
        clear(body).append(html("p", { class: "message error" }, err.message));
      }
      return;
    }
    if (r.level !== shownLevel) {
      report = r;
      shownLevel = r.level;
      showAnalysis(body, r);
      document.body.dataset.analysisLevel = r.level;
      document.body.dataset.analysis = "ready";
    }
    const deeper = r.deeper;
    if (deeper) deeperStatus(body, deeper, r.level);
    if (!deeper || deeper.state === "failed") {
      if (!deeper) $("analysis-deeper")?.remove();
      document.body.dataset.analysis = "final";
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, deeper.state === "busy" ? 10_000 : 1_500));
  }
}

/** A bot level in words: backgammon's by search depth (the terminal's `dicehall analyze` uses
 *  expert), the others' as named. */
function levelName(level) {
  return {
    medium: () => t("0-ply"), hard: () => t("1-ply"), expert: () => t("expert, 2-ply"),
    intermediate: () => t("intermediate"), perfect: () => t("perfect"),
  }[level]?.() ?? level;
}

/** The line above the analysis that says how far the deeper analysis is (a progress bar). */
function deeperStatus(body, deeper, quick) {
  let box = $("analysis-deeper");
  if (!box) {
    box = html("div", { id: "analysis-deeper", class: "deeper", "data-testid": "analysis-progress" });
    body.prepend(box);
  }
  clear(box);
  box.dataset.state = deeper.state;
  deeper = { ...deeper, level: levelName(deeper.level) };
  quick = levelName(quick);
  const label = {
    queued: () => t("A deeper analysis ({level}) will replace this quick one ({quick}); it is waiting to start.", { level: deeper.level, quick }),
    running: () => (deeper.total
      ? t("A deeper analysis ({level}) will replace this quick one ({quick}): {done} of {total} decisions judged.", { level: deeper.level, quick, done: deeper.done, total: deeper.total })
      : t("A deeper analysis ({level}) will replace this quick one ({quick}); it is starting.", { level: deeper.level, quick })),
    busy: () => t("The server is busy: the deeper analysis ({level}) starts later; this is the quick one ({quick}).", { level: deeper.level, quick }),
    failed: () => t("The deeper analysis failed ({error}); this is the quick one.", { error: deeper.error || "" }),
  }[deeper.state] || (() => "");
  const text = label();
  box.append(html("p", { id: "analysis-deeper-text", class: "hint", role: "status" }, text));
  if (deeper.state === "running" || deeper.state === "queued") {
    box.append(html("progress", {
      max: Math.max(1, deeper.total || 0), value: deeper.done || 0, "aria-labelledby": "analysis-deeper-text",
    }));
  }
}

const MARKS = () => ({ error: t("error"), blunder: t("blunder") });

function showAnalysis(body, r) {
  clear(body);
  const unit = { equity: t("equity lost"), points: t("expected points lost"), result: t("expected result lost") }[r.unit];
  const name = (seat) => seatLabel(meta, seat);
  body.append(html("p", { class: "hint" }, r.game === "backgammon"
    ? t("Each play against the computer's best ({level}); error: {error} or more equity lost, blunder: {blunder} or more.", { level: levelName(r.level), error: r.error, blunder: r.blunder })
    : r.game === "whitedie"
      ? t("Each decision against the exact best choice: the expected points it lost.")
      : t("Each decision against the computer's evaluation ({level}): the expected result it lost.", { level: levelName(r.level) })));
  body.append(html("table", { class: "totals", "data-testid": "analysis-totals" },
    html("thead", {}, html("tr", {}, [t("player"), t("decisions"), unit, t("errors"), t("blunders")].map((h) => html("th", { scope: "col" }, h)))),
    html("tbody", {}, r.totals.map((x) => html("tr", { "data-seat": x.seat },
      html("td", {}, name(x.seat)), html("td", {}, x.decisions), html("td", {}, x.loss.toFixed(3)),
      html("td", {}, x.errors), html("td", {}, x.blunders))))));
  const graph = equityGraph(r);
  if (graph) body.append(graph);
  const marks = MARKS();
  const shown = r.decisions.filter((d) => d.loss > 0 || d.mark);
  body.append(html("table", { class: "decisions", "data-testid": "analysis-decisions" },
    html("caption", { class: "visually-hidden" }, t("Decisions that lost value")),
    html("thead", {}, html("tr", {}, ["#", t("player"), t("dice"), t("played"), t("best"), t("lost"), ""].map((h) => html("th", { scope: "col" }, h)))),
    html("tbody", {}, shown.map((d) => html("tr", { "data-n": d.n, class: d.mark ? `mark-${d.mark}` : "" },
      html("td", {}, html("button", { class: "btn small", type: "button", onclick: () => show(d.n - 1, false), "aria-label": t("show move {n}", { n: d.n }) }, d.n)),
      html("td", {}, name(d.seat)), html("td", {}, d.dice ? d.dice.join("-") : d.kind === "cube" ? t("cube") : ""),
      html("td", {}, d.played), html("td", {}, d.best), html("td", {}, d.loss.toFixed(3)),
      html("td", { "data-mark": d.mark || "" }, d.mark ? marks[d.mark] : ""))))));
  if (!shown.length) body.append(html("p", {}, t("No decision lost any value.")));
  // the marks in the move list too (those of an earlier, quicker analysis go)
  for (const old of $("log").querySelectorAll("[data-mark]")) old.remove();
  for (const d of r.decisions) {
    if (!d.mark) continue;
    const li = $("log").querySelector(`li[data-index="${d.n}"]`);
    if (li) li.append(html("span", { class: `mark-${d.mark}`, "data-mark": d.mark, title: marks[d.mark] }, d.mark === "blunder" ? "??" : "?"));
  }
}

/** The equity of the position for the first player, decision by decision (an SVG line). */
function equityGraph(r) {
  const points = r.decisions.filter((d) => d.equity !== null && d.equity !== undefined);
  if (points.length < 2) return null;
  const W = 600;
  const H = 160;
  const pad = 24;
  const last = frames.length - 1 || 1;
  const x = (n) => pad + ((W - 2 * pad) * n) / last;
  const lim = Math.max(1, ...points.map((d) => Math.abs(d.equity)));
  const y = (e) => H / 2 - ((H / 2 - 12) * e) / lim;
  const line = points.map((d) => `${x(d.n).toFixed(1)},${y(d.equity).toFixed(1)}`).join(" ");
  const first = seatLabel(meta, 0);
  const g = svg("svg", {
    viewBox: `0 0 ${W} ${H}`, class: "graph", role: "img", "data-testid": "equity-graph",
    "aria-label": t("Equity of {name} over the game, from {a} to {b}", { name: first, a: points[0].equity.toFixed(2), b: points[points.length - 1].equity.toFixed(2) }),
  });
  g.append(svg("line", { x1: pad, x2: W - pad, y1: H / 2, y2: H / 2, class: "axis" }));
  g.append(svg("text", { x: 2, y: 14 }, `+${lim}`), svg("text", { x: 2, y: H - 4 }, `−${lim}`));
  g.append(svg("text", { x: W - pad, y: 14, "text-anchor": "end" }, t("{name} ahead", { name: first })));
  g.append(svg("polyline", { points: line, class: "line" }));
  for (const d of points.filter((p) => p.mark)) {
    g.append(svg("circle", { cx: x(d.n), cy: y(d.equity), r: 4, class: `dot mark-${d.mark}`, fill: d.mark === "blunder" ? "var(--error)" : "var(--warn-text)" }));
  }
  return g;
}

main();
