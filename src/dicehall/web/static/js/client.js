// The game page: WebSocket connection (join, act, reconnect), players, status, log, result panel.
// The board itself is drawn by the game's module in /static/js/games/<game>.js
// (contract: docs/web-games.md; protocol: docs/protocol.md).

import { clear, html } from "./dom.js";
import { api, loadBoard, playerName, randomSeed, saveTokens, seatLabel, setPlayerName, tokensFor } from "./api.js";
import { me } from "./account.js";
import { autoPassEnabled, autoPassToggle, forcedPass } from "./autopass.js";
import { ChatPanel } from "./chat.js";
import { Table } from "./clock.js";
import { t } from "./i18n.js";
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
};

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
    if (!res.ok && res.status !== 409) message("could not send the seed for the dice", "error");
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
}

function myTokens() {
  return Object.values(tokensFor(gameId));
}

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/ws`);
  state.ws = ws;
  setConn(state.retry ? "reconnecting…" : "connecting…", "wait");
  ws.onopen = () => {
    state.connected = true;
    state.retry = 0;
    setConn("connected", "ok");
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
    for (const { reject } of state.pending.values()) reject({ code: "disconnected", message: "connection lost" });
    state.pending.clear();
    if (state.closing) return;
    setConn("offline — reconnecting…", "bad");
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
    if (!state.snap) return reject({ code: "not_joined", message: "not connected yet" });
    state.ref += 1;
    const ref = state.ref;
    if (!send({ type: "act", ref, text, seq: state.snap.seq })) {
      message("offline: the move was not sent; reconnecting…", "error");
      return reject({ code: "disconnected", message: "offline" });
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
      message("offline: not resigned; reconnecting…", "error");
      return reject({ code: "disconnected", message: "offline" });
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

/** A Resign button that asks once more before it resigns (no modal dialog). */
function resignButton() {
  const button = html("button", { class: "btn", "data-button": "resign" }, "Resign");
  button.onclick = async () => {
    if (button.dataset.armed !== "1") {
      button.dataset.armed = "1";
      button.textContent = "Really resign? Click again";
      setTimeout(() => {
        button.dataset.armed = "";
        button.textContent = "Resign";
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
      // incremental: the new log entries and the changed view; the log is kept here
      const base = state.pendingSnap || state.snap;
      if (!base) break; // the join's snapshot is on its way
      const { type, entries, ...rest } = msg;
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
        $("status").textContent = "There is no such game.";
      }
      break;
    default:
      break;
  }
}

async function showSnapshot(snap, animate) {
  if (!state.board) state.board = await loadBoard(snap.game);
  state.previous = state.snap;
  state.snap = snap;
  document.title = `${snap.title} — dicehall`;
  $("title").textContent = `${snap.title}${snap.options && Object.keys(snap.options).length ? " · " + Object.entries(snap.options).map(([k, v]) => `${k} ${v}`).join(", ") : ""}`;
  const you = snap.you || [];
  const canAct = snap.to_move !== null && you.includes(snap.to_move) && snap.status === "playing";
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
    message(`board error: ${err}`, "error");
  }
  renderPlayers(snap);
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

function renderPlayers(snap) {
  const box = clear($("players"));
  for (const p of snap.players) {
    const you = (snap.you || []).includes(p.seat);
    box.append(
      html("div", { class: `player${snap.to_move === p.seat ? " to-move" : ""}${you ? " you" : ""}`, "data-seat": p.seat },
        html("span", { class: "chip", style: { background: `var(--seat${p.seat})` } }),
        html("span", { class: "name" }, p.claimed ? p.name : `seat ${p.seat + 1} (open)`),
        p.kind === "bot" ? html("span", { class: "tag" }, "bot") : null,
        you ? html("span", { class: "tag you" }, "you") : null,
        snap.returns ? html("span", { class: "score" }, `${snap.returns[p.seat] > 0 ? "+" : ""}${snap.returns[p.seat]}`) : null),
    );
  }
}

function renderStatus(snap, canAct) {
  let text;
  if (snap.status === "waiting") {
    const open = snap.players.filter((p) => !p.claimed).map((p) => p.seat + 1);
    text = `Waiting for players (open seat${open.length > 1 ? "s" : ""} ${open.join(", ")}). Share this page's link with a friend.`;
  } else if (snap.status === "finished" || snap.status === "abandoned") {
    text = snap.summary || "The game is over.";
  } else if (canAct) {
    text = snap.mode === "local" ? `${seatLabel(snap, snap.to_move)}: your turn` : "Your turn";
  } else if (snap.to_move !== null) {
    const p = snap.players[snap.to_move];
    text = `${seatLabel(snap, snap.to_move)} ${p.kind === "bot" ? "is thinking…" : "to play"}`;
  } else {
    text = "Rolling…";
  }
  $("status").textContent = text;
  $("status").className = `status${canAct ? " your-turn" : ""}`;
}

function renderLog(snap) {
  const list = clear($("log"));
  const describe = state.board?.describe;
  let n = 0;
  for (const e of snap.log) {
    const who = e.actor < 0 ? "dice" : seatLabel(snap, e.actor);
    let text = e.text;
    if (describe) {
      try {
        text = describe(e, snap) || e.text;
      } catch {
        text = e.text;
      }
    }
    n += 1;
    list.append(html("li", {
      class: `${e.actor < 0 ? "roll" : "move"}${snap.last && snap.last.seq === e.seq ? " last" : ""}`,
      "data-seq": e.seq,
      style: e.actor >= 0 ? { borderLeftColor: `var(--seat${e.actor})` } : null,
    }, html("span", { class: "who" }, who), " ", html("span", { class: "what" }, text)));
  }
  if (!n) list.append(html("li", { class: "empty" }, "No moves yet."));
  list.scrollTop = list.scrollHeight;
}

function renderSeats(snap) {
  const box = clear($("seats"));
  const open = snap.players.filter((p) => !p.claimed);
  if (!open.length || (snap.you || []).length) {
    if (snap.status === "waiting" && snap.mode === "friend") {
      const link = location.href.split("#")[0];
      box.append(html("div", { class: "share" }, "Invite: ",
        html("input", { readonly: true, value: link, class: "share-link", onclick: (e) => e.target.select() }),
        html("button", { class: "btn small", onclick: () => navigator.clipboard?.writeText(link).then(() => message("link copied")) }, "Copy")));
    }
    return;
  }
  const name = html("input", { id: "join-name", placeholder: "your name", value: playerName(), maxlength: 40 });
  box.append(html("label", {}, "Name ", name));
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
    }, `Take seat ${p.seat + 1}`));
  }
  box.append(html("span", { class: "hint" }, " or just watch."));
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
    html("a", { href: `/g/${gameId}/replay`, class: "btn", "data-button": "replay" }, "Replay"),
    html("a", { href: `/api/games/${gameId}/record?download=1`, class: "btn", download: `dicehall-${gameId}.json`, "data-button": "download" }, "Download record"),
    html("a", { href: `/g/${gameId}/fairness`, class: "btn", "data-button": "fairness" }, "Fairness check"));
  if (snap.status !== "finished" && snap.status !== "abandoned") {
    box.hidden = true;
    const mine = (snap.you || []).length > 0 && snap.status === "playing";
    const kept = $("links").querySelector("[data-button='resign']");
    $("links").replaceChildren(...(mine ? [kept || resignButton(), links] : [links]));
    return;
  }
  $("links").replaceChildren();
  box.hidden = false;
  const mine = (snap.you || []).length > 0;
  const parts = [
    html("h2", {}, "Game over"),
    html("p", { class: "summary", "data-testid": "summary" }, snap.summary || ""),
    html("table", { class: "scores" }, snap.players.map((p) =>
      html("tr", {}, html("td", {}, html("span", { class: "chip", style: { background: `var(--seat${p.seat})` } }), " ", p.name),
        html("td", { class: "num" }, `${snap.returns[p.seat] > 0 ? "+" : ""}${snap.returns[p.seat]}`)))),
    mine ? html("button", { class: "btn primary", "data-button": "rematch", onclick: rematch },
      snap.rematch ? "Join the rematch" : "Rematch") : null,
    !mine && snap.rematch ? html("a", { class: "btn", href: `/g/${snap.rematch}` }, "Watch the rematch") : null,
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
  $("status").textContent = "No game id in the address.";
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
