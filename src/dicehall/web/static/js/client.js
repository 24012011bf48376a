// The game page: WebSocket connection (join, act, reconnect), players, status, log, result panel.
// The board itself is drawn by the game's module in /static/js/games/<game>.js
// (contract: docs/web-games.md; protocol: docs/protocol.md).

import { clear, html } from "./dom.js";
import { t } from "./i18n.js";
import { describeOptions, gameTitle } from "./options.js";
import { api, loadBoard, playerName, randomSeed, saveTokens, seatLabel, setPlayerName, tokensFor } from "./api.js";
import { me } from "./account.js";
import { autoPassEnabled, autoPassToggle, forcedPass } from "./autopass.js";
import { ChatPanel } from "./chat.js";
import { Table } from "./clock.js";
import { showRatingChanges } from "./ratings.js";

const PROTOCOL = 1;
const gameId = decodeURIComponent(location.pathname.split("/")[2] || "");

const $ = (id) => document.getElementById(id);
const state = {
  snap: null,
  previous: null,
  board: null,
  ws: null,
  connected: false,
  pending: new Map(),
  ref: 0,
  retry: 0,
  joinRef: null,
  closing: false,
  drawing: Promise.resolve(),
  pendingSnap: null,
  seeding: false,
  catalog: null,
  animateNext: false,
};

/** The games' option specs (for the title's words: only what differs from the defaults). */
const catalogReady = api("/api/catalog").then((c) => { state.catalog = c; }).catch(() => {});

/** Our seats that wait for their player seed: send one (the commitment is public now). */
async function sendSeed(snap) {
  const mine = (snap.you || []).filter((s) => snap.players[s] && !snap.players[s].seeded);
  if (!mine.length || state.seeding) return;
  state.seeding = true;
  try {
    const res = await fetch(`/api/games/${gameId}/seed`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Seat-Token": myTokens().join(",") },
      body: JSON.stringify({ seed: randomSeed() }),
    });
    if (!res.ok && res.status !== 409) message(t("could not send the seed for the dice"), "error");
  } finally {
    state.seeding = false;
  }
}

window.dicehall = {
  get snapshot() { return state.snap; },
  get autoPass() { return autoPassEnabled(); },
  get connected() { return state.connected; },
  act,
  reconnect: () => state.ws?.close(),
};

function message(text, kind = "info") {
  const box = $("message");
  box.textContent = text || "";
  box.className = `message ${kind}`;
  if (text && kind !== "error") {
    const shown = text;
    setTimeout(() => { if (box.textContent === shown) box.textContent = ""; }, 4000);
  }
}

function setConn(text, kind) {
  const el = $("conn");
  el.textContent = text;
  el.className = `conn ${kind}`;
  // offline: a banner that cannot be missed, and the board redrawn with nothing to play
  const offline = kind === "bad";
  const banner = $("offline");
  if (banner && banner.hidden !== !offline) {
    banner.hidden = !offline;
    document.body.dataset.offline = offline ? "1" : "";
    if (state.snap) redrawBoard();
  }
}

/** Clear an error shown in the message line (after a reconnect, an accepted action). */
function clearError() {
  const box = $("message");
  if (box.classList.contains("error")) message("");
}

function myTokens() {
  return Object.values(tokensFor(gameId));
}

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  // the game in the URL lets `serve --workers N` put every connection of a game in one
  // process (a routing hint only: the join message says which game, with the tokens)
  const ws = new WebSocket(`${proto}://${location.host}/ws${gameId ? `?game=${encodeURIComponent(gameId)}` : ""}`);
  state.ws = ws;
  setConn(state.retry ? t("reconnecting…") : t("connecting…"), state.retry ? "bad" : "wait");
  ws.onopen = () => {
    state.connected = true;
    state.retry = 0;
    setConn(t("connected"), "ok");
    clearError();
    sendJoin();
  };
  ws.onmessage = (ev) => {
    let msg;
    try {
      msg = JSON.parse(ev.data);
    } catch {
      return;
    }
    onMessage(msg);
  };
  ws.onclose = () => {
    state.connected = false;
    for (const { reject } of state.pending.values()) reject({ code: "disconnected", message: t("connection lost") });
    state.pending.clear();
    if (state.closing) return;
    setConn(t("offline — reconnecting…"), "bad");
    const delay = Math.min(5000, 250 * 2 ** state.retry);
    state.retry += 1;
    setTimeout(connect, delay);
  };
}

function send(msg) {
  if (!state.ws || state.ws.readyState !== WebSocket.OPEN) return false;
  state.ws.send(JSON.stringify({ v: PROTOCOL, ...msg }));
  return true;
}

function sendJoin() {
  state.ref += 1;
  state.joinRef = state.ref;
  send({ type: "join", ref: state.ref, game: gameId, tokens: myTokens() });
}

/** Send an action text for the seat to move; resolves when the server accepted it. */
export function act(text) {
  return new Promise((resolve, reject) => {
    if (!state.snap) return reject({ code: "not_joined", message: t("not connected yet") });
    if (!state.connected) {
      message(t("offline: nothing can be played until the connection is back"), "error");
      return reject({ code: "disconnected", message: t("offline") });
    }
    state.ref += 1;
    const ref = state.ref;
    if (!send({ type: "act", ref, text, seq: state.snap.seq })) {
      message(t("offline: the move was not sent; reconnecting…"), "error");
      return reject({ code: "disconnected", message: t("offline") });
    }
    state.pending.set(ref, { resolve, reject });
  });
}

/** Resign the game for my seats; resolves when the server accepted it. */
export function resign() {
  return new Promise((resolve, reject) => {
    state.ref += 1;
    const ref = state.ref;
    if (!send({ type: "resign", ref })) {
      message(t("offline: not resigned; reconnecting…"), "error");
      return reject({ code: "disconnected", message: t("offline") });
    }
    state.pending.set(ref, { resolve, reject });
  });
}

/** Send a request message ({type, ...}); resolves with the server's answer to it. */
export function request(msg) {
  return new Promise((resolve, reject) => {
    state.ref += 1;
    const ref = state.ref;
    if (!send({ ...msg, ref })) return reject({ code: "disconnected", message: t("offline: reconnecting…") });
    state.pending.set(ref, { resolve, reject });
  });
}

// the clocks and who is at the table (clock.js), and the chat of the room (chat.js)
const table = new Table({ clocks: $("clocks"), presence: $("presence"), request, onError: (text) => message(text, "error") });
let chat = null;
$("links").after(autoPassToggle());

async function showChat(history) {
  const box = $("chat");
  if (!box || !history) return;
  if (!chat || chat.room !== history.channel) {
    const players = history.channel === "players";
    const account = players ? null : await me();
    chat = new ChatPanel(box, {
      room: history.channel,
      title: players ? t("Chat with your opponent") : t("Spectators' chat"),
      post: (text) => request({ type: "chat", text }),
      canWrite: players || Boolean(account),
      hint: t("Log in to chat with the other spectators."),
    });
  }
  chat.add(history.messages);
}

/** What resigning costs, said before the second click (the server's rule: the resigning
 * seat loses, the others win; a backgammon match is lost whole). */
function resignCost(snap) {
  const match = snap?.view?.match;
  if (match && match.length > 0) return t("Really resign? You lose the match. Click again");
  if ((snap?.players || []).length > 2) return t("Really resign? You lose, the others share the win. Click again");
  return t("Really resign? You lose the game. Click again");
}

/** A Resign button that asks once more before it resigns (no modal dialog). */
function resignButton() {
  const button = html("button", { class: "btn", "data-button": "resign" }, t("Resign"));
  button.onclick = async () => {
    if (button.dataset.armed !== "1") {
      button.dataset.armed = "1";
      button.textContent = resignCost(state.snap);
      setTimeout(() => {
        button.dataset.armed = "";
        button.textContent = t("Resign");
      }, 4000);
      return;
    }
    try {
      await resign();
    } catch (err) {
      message(err.message, "error");
    }
  };
  return button;
}

function onMessage(msg) {
  const waiting = msg.ref !== undefined && state.pending.get(msg.ref);
  switch (msg.type) {
    case "snapshot": {
      // broadcast snapshots (no ref) follow live actions: animate them; a join's does not.
      // Snapshots are drawn strictly in order (the first one waits for the board module).
      const animate = msg.ref === undefined;
      showChat(msg.chat);
      state.pendingSnap = msg;
      state.drawing = state.drawing
        .then(() => showSnapshot(msg, animate && state.snap !== null))
        .catch((err) => console.error(err));
      break;
    }
    case "update": {
      // incremental: the new log entries and the changed view; the log is kept here. The
      // update that follows this connection's own accepted act carries the act's ref: it
      // is the act's answer (no separate "ok" comes)
      if (waiting) {
        state.pending.delete(msg.ref);
        waiting.resolve(msg);
        clearError();
      }
      const base = state.pendingSnap || state.snap;
      if (!base) break; // the join's snapshot is on its way
      const { type, entries, ref, ...rest } = msg;
      if (msg.seq - entries.length !== base.seq) {
        sendJoin(); // a gap (missed updates): ask for a full snapshot again
        break;
      }
      const merged = { ...base, ...rest, log: base.log.concat(entries), you: base.you };
      state.pendingSnap = merged;
      state.drawing = state.drawing
        .then(() => showSnapshot(merged, true))
        .catch((err) => console.error(err));
      break;
    }
    case "chat":
      if (chat && msg.message) chat.add([msg.message]);
      break;
    case "clock":
    case "ok":
      if (waiting) {
        state.pending.delete(msg.ref);
        waiting.resolve(msg);
        clearError();
      }
      break;
    case "error":
      message(msg.message, "error");
      if (waiting) {
        state.pending.delete(msg.ref);
        waiting.reject(msg);
      }
      if (msg.code === "unknown_game") {
        state.closing = true;
        state.ws.close();
        $("status").textContent = t("There is no such game.");
      }
      break;
    default:
      break;
  }
}

/** The result line, with the players' names (the board's own words when it has them). */
function summary(snap) {
  const own = state.board?.summary;
  if (own && !snap.ended) {
    try {
      const text = own(snap, (seat) => seatLabel(snap, seat));
      if (text) return text;
    } catch (err) {
      console.error(err);
    }
  }
  if (!snap.summary) return "";
  // a game ended other than by the rules (resigned, flag, abandonment): the server's line
  const ended = /^(.+) (resigned|lost on time|left the game and lost by abandonment)$/.exec(snap.summary);
  if (ended) {
    const name = ended[1];
    if (ended[2] === "resigned") return t("{name} resigned", { name });
    if (ended[2] === "lost on time") return t("{name} lost on time", { name });
    return t("{name} left the game and lost by abandonment", { name });
  }
  // the server's English line names seats: put the players' names in (translated when known)
  const named = snap.summary.replace(/\b[Ss]eat (\d+)\b/g, (whole, n) => seatLabel(snap, Number(n) - 1));
  return t(named);
}

/** Draw the board again from the current snapshot (e.g. when the connection comes or goes). */
function redrawBoard() {
  if (!state.snap || !state.board) return;
  const snap = state.snap;
  state.drawing = state.drawing.then(() => showSnapshot(snap, false, true)).catch((err) => console.error(err));
}

async function showSnapshot(snap, animate, again = false) {
  if (!state.board) state.board = await loadBoard(snap.game);
  if (!again) state.previous = state.snap;
  state.snap = snap;
  await catalogReady;
  const title = gameTitle(snap.game, snap.title);
  document.title = `${title} — dicehall`;
  const spec = state.catalog?.find((g) => g.name === snap.game);
  const words = describeOptions(snap.game, snap.options || {}, spec ? spec.options : []);
  $("title").textContent = words ? `${title} · ${words}` : title;
  const you = snap.you || [];
  // nothing can be played while offline: the board shows the position, without choices
  const canAct = state.connected && snap.to_move !== null && you.includes(snap.to_move) && snap.status === "playing";
  const ctx = {
    act,
    canAct,
    seat: canAct ? snap.to_move : you.length ? you[0] : 0,
    mySeats: you,
    previous: state.previous && state.previous.id === snap.id ? state.previous : null,
    animate: Boolean(animate),
    replay: false,
    message,
  };
  try {
    state.board.render($("board"), snap, ctx);
  } catch (err) {
    console.error(err);
    message(t("board error: {error}", { error: String(err) }), "error");
  }
  renderPlayers(snap);
  renderHint(snap, canAct);
  renderStatus(snap, canAct);
  const forced = forcedPass(snap, canAct, act); // a turn without a legal move passes by itself
  if (forced) $("status").textContent = forced;
  renderLog(snap);
  renderSeats(snap);
  renderResult(snap);
  table.update(snap);
  document.body.dataset.status = snap.status;
  document.body.dataset.seq = snap.seq;
  if (snap.status === "waiting") sendSeed(snap);
}

/** The Hint button of the seat to move (games that allow hints: never rated ones), and the
 *  bot's best options with their values once asked (GET /api/games/{id}/hint). */
function renderHint(snap, canAct) {
  const panel = $("hint");
  const key = `${snap.id}:${snap.seq}`;
  if (panel.dataset.key !== key) {
    panel.hidden = true;
    clear(panel);
    panel.dataset.key = key;
  }
  const allowed = canAct && !snap.rated && (snap.game !== "backgammon" || ["move", "cube", "take"].includes(snap.view?.phase));
  let button = $("links").querySelector("[data-button='hint']");
  if (!allowed) {
    button?.remove();
    return;
  }
  if (!button) {
    button = html("button", { class: "btn", "data-button": "hint", type: "button" }, t("Hint"));
    $("links").prepend(button);
  }
  button.onclick = async () => {
    button.disabled = true;
    try {
      const res = await fetch(`/api/games/${gameId}/hint`, { headers: { "X-Seat-Token": myTokens().join(",") } });
      const data = await res.json();
      if (!res.ok) throw new Error(data?.error?.message || t("HTTP error {status}", { status: res.status }));
      if (state.snap?.seq === snap.seq) showHint(panel, data);
    } catch (err) {
      message(err.message, "error");
    } finally {
      button.disabled = false;
    }
  };
}

function showHint(panel, data) {
  const pct = (x) => `${(100 * x).toFixed(1)}%`;
  const bg = data.game === "backgammon" && data.unit === "equity";
  const unit = { equity: t("equity"), points: t("expected points"), result: t("expected result"), cube: t("equity lost") }[data.unit] || data.unit;
  const head = [t("option"), unit, t("lost")].concat(bg ? [t("win"), t("gammon")] : []);
  clear(panel).append(
    html("h2", {}, t("Hint: the computer's best options")),
    html("table", { "data-testid": "hint-table" },
      html("thead", {}, html("tr", {}, head.map((h) => html("th", { scope: "col" }, h)))),
      html("tbody", {}, data.options.map((o, i) => html("tr", { "data-hint": o.text, class: i === 0 ? "best" : "" },
        html("td", {}, o.text), html("td", {}, o.value.toFixed(3)), html("td", {}, o.loss ? `−${o.loss.toFixed(3)}` : "—"),
        bg ? html("td", {}, pct(o.win)) : null, bg ? html("td", {}, pct(o.gammon)) : null)))),
    data.minimising ? html("p", { class: "hint" }, t("You are the opponent here: low values are good for you.")) : "");
  panel.hidden = false;
}

function renderPlayers(snap) {
  const box = clear($("players"));
  for (const p of snap.players) {
    const you = (snap.you || []).includes(p.seat);
    box.append(
      html("div", { class: `player${snap.to_move === p.seat ? " to-move" : ""}${you ? " you" : ""}`, "data-seat": p.seat },
        html("span", { class: "chip", style: { background: `var(--seat${p.seat})` } }),
        html("span", { class: "name" }, p.claimed ? seatLabel(snap, p.seat) : t("seat {n} (open)", { n: p.seat + 1 })),
        p.kind === "bot" ? html("span", { class: "tag" }, t("bot")) : null,
        you ? html("span", { class: "tag you" }, t("you")) : null,
        snap.returns ? html("span", { class: "score" }, `${snap.returns[p.seat] > 0 ? "+" : ""}${snap.returns[p.seat]}`) : null),
    );
  }
}

function renderStatus(snap, canAct) {
  let text;
  if (snap.status === "waiting") {
    const open = snap.players.filter((p) => !p.claimed).map((p) => p.seat + 1);
    text = open.length > 1
      ? t("Waiting for players (open seats {seats}). Share this page's link with a friend.", { seats: open.join(", ") })
      : t("Waiting for a player (open seat {seats}). Share this page's link with a friend.", { seats: open.join(", ") });
  } else if (snap.status === "finished" || snap.status === "abandoned") {
    text = summary(snap) || t("The game is over.");
  } else if (canAct) {
    text = snap.mode === "local" ? t("{name}: your turn", { name: seatLabel(snap, snap.to_move) }) : t("Your turn");
  } else if (snap.to_move !== null) {
    const p = snap.players[snap.to_move];
    text = p.kind === "bot"
      ? t("{name} is thinking…", { name: seatLabel(snap, snap.to_move) })
      : t("{name} to play", { name: seatLabel(snap, snap.to_move) });
  } else {
    text = t("Rolling…");
  }
  if (snap.status === "playing" && !state.connected) text = t("Offline: reconnecting…");
  $("status").textContent = text;
  $("status").className = `status${canAct ? " your-turn" : ""}`;
}

/** Who a dice entry of the log belongs to: the seat that rolled (the next to move, or the
 *  last mover for games where a roll ends the turn); null for the opening roll and draws. */
function roller(snap, index) {
  const e = snap.log[index];
  if (e.detail && e.detail.opening) return null;
  for (let k = index + 1; k < snap.log.length; k += 1) {
    if (snap.log[k].actor >= 0) return snap.log[k].actor;
  }
  if (index === snap.log.length - 1 && snap.to_move !== null && snap.to_move !== undefined) return snap.to_move;
  for (let k = index - 1; k >= 0; k -= 1) {
    if (snap.log[k].actor >= 0) return snap.log[k].actor;
  }
  return null;
}

function renderLog(snap) {
  const list = clear($("log"));
  const describe = state.board?.describe;
  let n = 0;
  for (const [index, e] of snap.log.entries()) {
    const rolledBy = e.actor < 0 ? roller(snap, index) : null;
    const who = e.actor >= 0 ? seatLabel(snap, e.actor) : rolledBy !== null ? seatLabel(snap, rolledBy) : t("dice");
    let text = e.text;
    if (describe) {
      try {
        text = describe(e, snap) || e.text;
      } catch {
        text = e.text;
      }
    }
    n += 1;
    const colour = e.actor >= 0 ? e.actor : rolledBy;
    list.append(html("li", {
      class: `${e.actor < 0 ? "roll" : "move"}${snap.last && snap.last.seq === e.seq ? " last" : ""}`,
      "data-seq": e.seq,
      style: colour !== null ? { borderLeftColor: `var(--seat${colour})` } : null,
    }, html("span", { class: "num" }, `${n}.`), " ", html("span", { class: "who" }, who), " ", html("span", { class: "what" }, text)));
  }
  if (!n) list.append(html("li", { class: "empty" }, t("No moves yet.")));
  list.scrollTop = list.scrollHeight;
}

function renderSeats(snap) {
  const box = clear($("seats"));
  const open = snap.players.filter((p) => !p.claimed);
  if (!open.length || (snap.you || []).length) {
    if (snap.status === "waiting" && snap.mode === "friend") {
      const link = location.href.split("#")[0];
      box.append(html("div", { class: "share" }, t("Invite:"), " ",
        html("input", { readonly: true, value: link, class: "share-link", "aria-label": t("Link to this game"), onclick: (e) => e.target.select() }),
        html("button", { class: "btn small", onclick: () => navigator.clipboard?.writeText(link).then(() => message(t("link copied"))) }, t("Copy"))));
    }
    return;
  }
  const name = html("input", { id: "join-name", placeholder: t("your name"), value: playerName(), maxlength: 40 });
  box.append(html("label", {}, t("Name"), " ", name));
  for (const p of open) {
    box.append(html("button", {
      class: "btn primary",
      "data-button": `join-${p.seat}`,
      onclick: async () => {
        try {
          setPlayerName(name.value.trim());
          const res = await api(`/api/games/${gameId}/join`, { seat: p.seat, name: name.value.trim() || null, seed: randomSeed() });
          saveTokens(gameId, { [res.seat]: res.token });
          sendJoin();
        } catch (err) {
          message(err.message, "error");
        }
      },
    }, t("Take seat {n}", { n: p.seat + 1 })));
  }
  box.append(html("span", { class: "hint" }, t("or just watch.")));
}

async function rematch() {
  try {
    const res = await api(`/api/games/${gameId}/rematch`, { tokens: myTokens() });
    saveTokens(res.id, res.tokens);
    location.href = res.url;
  } catch (err) {
    message(err.message, "error");
  }
}

function renderResult(snap) {
  const box = $("result");
  clear(box);
  const links = html("div", { class: "links" },
    html("a", { href: `/g/${gameId}/replay`, class: "btn", "data-button": "replay" }, t("Replay")),
    html("a", { href: `/api/games/${gameId}/record?download=1`, class: "btn", download: `dicehall-${gameId}.json`, "data-button": "download" }, t("Download record")),
    html("a", { href: `/g/${gameId}/fairness`, class: "btn", "data-button": "fairness" }, t("Fairness check")));
  if (snap.status !== "finished" && snap.status !== "abandoned") {
    box.hidden = true;
    const mine = (snap.you || []).length > 0 && snap.status === "playing";
    const kept = $("links").querySelector("[data-button='resign']");
    const hint = $("links").querySelector("[data-button='hint']");
    $("links").replaceChildren(...[hint, ...(mine ? [kept || resignButton(), links] : [links])].filter(Boolean));
    return;
  }
  $("links").replaceChildren();
  box.hidden = false;
  const mine = (snap.you || []).length > 0;
  const parts = [
    html("h2", {}, t("Game over")),
    html("p", { class: "summary", "data-testid": "summary" }, summary(snap)),
    html("table", { class: "scores" }, snap.players.map((p) =>
      html("tr", {}, html("td", {}, html("span", { class: "chip", style: { background: `var(--seat${p.seat})` } }), " ", seatLabel(snap, p.seat)),
        html("td", { class: "num" }, `${snap.returns[p.seat] > 0 ? "+" : ""}${snap.returns[p.seat]}`)))),
    mine ? html("button", { class: "btn primary", "data-button": "rematch", onclick: rematch },
      snap.rematch ? t("Join the rematch") : t("Rematch")) : null,
    !mine && snap.rematch ? html("a", { class: "btn", href: `/g/${snap.rematch}` }, t("Watch the rematch")) : null,
    links,
  ];
  box.append(...parts.filter(Boolean));
  if (snap.rated) {
    const changes = html("div", { class: "rating-changes", "data-testid": "rating-changes" });
    box.insertBefore(changes, box.querySelector(".links"));
    showRatingChanges(changes, snap);
  }
}

if (!gameId) {
  $("status").textContent = t("No game id in the address.");
} else {
  setInterval(() => send({ type: "ping" }), 25000);
  resumeSeats().finally(connect);
}

/** Logged in without this game's tokens (another browser, or a game made from a seek): ask
 *  for the seats bound to the account. Guests and spectators keep watching. */
async function resumeSeats() {
  if (myTokens().length || !(await me())) return;
  try {
    const res = await api(`/api/games/${gameId}/resume`, {});
    saveTokens(gameId, res.tokens);
  } catch {
    // not a player of this game
  }
}
