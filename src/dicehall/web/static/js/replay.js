// The replay viewer: step through every action of a game with the game's own board module.

import { clear, html } from "./dom.js";
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

window.dicehall = { get index() { return index; }, get frames() { return frames; }, show: (i) => show(i, false) };

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
}

main();
