// The lobby's seeks: post an open seek (game, rated or casual, time control, rating range),
// pair at once with a matching seek, challenge a named player; accept or decline; the lobby
// chat; and the extra fields of the "New game" form (time control, rated). docs/protocol.md.

import { clear, html } from "./dom.js";
import { t } from "./i18n.js";
import { api, saveTokens } from "./api.js";
import { me, profileLink } from "./account.js";
import { ChatPanel } from "./chat.js";

const $ = (id) => document.getElementById(id);
const RANGES = [null, 100, 200, 300, 500];
let catalog = [];

function titleOf(game) {
  return catalog.find((g) => g.name === game)?.title || game;
}

/** "12 s ago", "5 min ago", "3 h ago". */
export function age(seconds) {
  if (seconds < 60) return t("{n} s ago", { n: Math.floor(seconds) });
  if (seconds < 3600) return t("{n} min ago", { n: Math.floor(seconds / 60) });
  return t("{n} h ago", { n: Math.floor(seconds / 3600) });
}

/** A lobby entry's player: name with rating. */
export function playerLabel(p) {
  if (!p.claimed) return t("open seat");
  return p.rating ? `${p.name} (${p.rating})` : p.name;
}

/** A lobby entry's details: rated, clock, spectators, age. */
export function gameMeta(g) {
  const parts = [g.rated ? t("rated") : t("casual")];
  if (g.clock) parts.push(g.clock);
  if (g.spectators) parts.push(t("{n} watching", { n: g.spectators }));
  if (g.age !== undefined) parts.push(age(g.age));
  return html("span", { class: "meta", "data-testid": "meta" }, ` · ${parts.join(" · ")}`);
}

function clockOptions(select, game) {
  const keep = select.value;
  clear(select);
  select.append(html("option", { value: "" }, t("untimed")));
  for (const c of catalog.find((g) => g.name === game)?.clocks || []) {
    select.append(html("option", { value: c.text }, c.delay ? t("{text} (delay)", { text: c.text }) : c.text));
  }
  if ([...select.options].some((o) => o.value === keep)) select.value = keep;
}

/** The "New game" form's clock and rated fields (added to #create-form). */
function mountCreateExtras(account) {
  const form = $("create-form");
  const before = $("create");
  if (!form || !before) return;
  const clock = html("select", { id: "clock", "data-testid": "create-clock" });
  const rated = html("input", { id: "rated", type: "checkbox", disabled: !account });
  form.insertBefore(html("label", {}, t("Time control"), " ", clock), before);
  form.insertBefore(html("label", { title: account ? "" : t("Log in to play rated games") }, rated, " ", t("Rated")), before);
  const refresh = () => clockOptions(clock, $("game").value);
  $("game").addEventListener("change", refresh);
  refresh();
}

/** The extra fields of the "New game" request. */
export function createExtras() {
  return { clock: $("clock")?.value || null, rated: Boolean($("rated")?.checked) };
}

function seekForm() {
  const game = html("select", { name: "game", "data-testid": "seek-game" }, catalog.map((g) => html("option", { value: g.name }, g.title)));
  const match = html("input", { name: "match", type: "number", min: 0, max: 25, value: 0, "data-testid": "seek-match" });
  const money = html("input", { name: "money", type: "checkbox", "data-testid": "seek-money" });
  const matchLabel = html("span", { class: "seek-backgammon" },
    html("label", {}, t("Match to (points, 0: one game)"), " ", match), " ",
    html("label", { class: "check" }, money, " ", t("cube and gammons")));
  const clock = html("select", { name: "clock", "data-testid": "seek-clock" });
  const rated = html("input", { name: "rated", type: "checkbox", "data-testid": "seek-rated" });
  const range = html("select", { name: "range" }, RANGES.map((r) => html("option", { value: r ?? "" }, r ? `± ${r}` : t("any rating"))));
  const to = html("input", { name: "to", maxlength: 24, placeholder: t("anybody"), "data-testid": "seek-to" });
  const error = html("div", { class: "message error", role: "alert", "data-testid": "seek-error" });
  const refresh = () => {
    clockOptions(clock, game.value);
    matchLabel.hidden = game.value !== "backgammon";
  };
  game.addEventListener("change", refresh);
  refresh();
  const body = (quick) => {
    const options = {};
    if (game.value === "backgammon") {
      if (Number(match.value) > 0) options.match_length = Number(match.value);
      if (money.checked) Object.assign(options, { cube: true, scoring: "standard" });
    }
    return { game: game.value, options, rated: rated.checked, clock: clock.value || null,
      range: range.value ? Number(range.value) : null, to: to.value.trim() || null, quick };
  };
  const submit = (quick) => async (ev) => {
    ev.preventDefault();
    error.textContent = "";
    try {
      const res = await api("/api/seeks", body(quick));
      if (res.game) {
        saveTokens(res.game.id, res.game.tokens);
        location.href = res.game.url;
        return;
      }
      to.value = "";
      refreshSeeks();
    } catch (err) {
      error.textContent = err.message;
    }
  };
  const form = html("form", { class: "seek-form", id: "seek-form" },
    html("label", {}, t("Game"), " ", game), matchLabel,
    html("label", {}, t("Time control"), " ", clock),
    html("label", { class: "check" }, rated, " ", t("Rated")),
    html("label", {}, t("Opponent's rating"), " ", range),
    html("label", {}, t("Challenge a player"), " ", to),
    html("div", {},
      html("button", { class: "btn primary", type: "submit", "data-button": "post-seek" }, t("Post seek")), " ",
      html("button", { class: "btn", type: "button", "data-button": "quick-pair", onclick: submit(true) }, t("Quick pairing"))),
    error);
  form.addEventListener("submit", submit(false));
  return form;
}

function seekLine(s, buttons) {
  const parts = [titleOf(s.game)];
  if (s.options?.match_length) parts.push(t("{n}-point match", { n: s.options.match_length }));
  parts.push(s.rated ? t("rated") : t("casual"));
  parts.push(s.clock ? s.clock.text : t("untimed"));
  if (s.range) parts.push(t("ratings {min}–{max}", { min: s.range[0], max: s.range[1] }));
  return html("li", { "data-seek": s.id },
    profileLink(s.username), ` (${s.rating}) `,
    html("span", { class: "meta" }, `${parts.join(" · ")} · ${age(s.age)}`), " ", ...buttons);
}

async function accept(id) {
  try {
    const res = await api(`/api/seeks/${id}/accept`, {});
    saveTokens(res.id, res.tokens);
    location.href = res.url;
  } catch (err) {
    $("seek-status").textContent = err.message;
  }
}

async function cancel(id) {
  try {
    await fetch(`/api/seeks/${id}`, { method: "DELETE" });
  } finally {
    refreshSeeks();
  }
}

let account = null;

async function refreshSeeks() {
  let data;
  try {
    data = await api("/api/seeks");
  } catch {
    return;
  }
  const accepted = data.mine.find((s) => s.status === "accepted" && s.game_id && !sessionStorage.getItem(`dicehall.seen.${s.id}`));
  if (accepted) {
    sessionStorage.setItem(`dicehall.seen.${accepted.id}`, "1");
    location.href = `/g/${accepted.game_id}`;
    return;
  }
  const list = clear($("seek-list"));
  const others = data.seeks.filter((s) => !account || s.username !== account.username);
  for (const s of data.challenges) {
    list.append(seekLine(s, [html("strong", {}, t("challenges you")), " ",
      html("button", { class: "btn small primary", "data-button": "accept-seek", onclick: () => accept(s.id) }, t("Accept")), " ",
      html("button", { class: "btn small", "data-button": "decline-seek", onclick: () => cancel(s.id) }, t("Decline"))]));
  }
  for (const s of others) {
    list.append(seekLine(s, [account
      ? html("button", { class: "btn small primary", "data-button": "accept-seek", disabled: !s.fits,
        title: s.fits ? "" : t("your rating is outside this seek's range"), onclick: () => accept(s.id) }, t("Accept"))
      : html("a", { class: "btn small", href: "/login?next=/" }, t("Log in to accept"))]));
  }
  for (const s of data.mine.filter((m) => m.status === "open")) {
    list.append(seekLine(s, [html("em", {}, s.to ? t("your challenge to {name}", { name: s.to }) : t("your seek")), " ",
      html("button", { class: "btn small", "data-button": "cancel-seek", onclick: () => cancel(s.id) }, t("Cancel"))]));
  }
  for (const s of data.mine.filter((m) => m.status === "declined")) {
    list.append(html("li", { class: "hint" }, t("{name} declined your challenge", { name: s.to })));
  }
  if (!list.children.length) list.append(html("li", { class: "empty" }, t("No open seeks: post one.")));
}

async function lobbyChat(box) {
  const panel = new ChatPanel(box, {
    room: "lobby",
    title: t("Lobby chat"),
    post: (text) => api("/api/chat/lobby", { text }).then((res) => panel.add([res.message])),
    canWrite: Boolean(account),
    hint: t("Log in to chat in the lobby."),
  });
  const poll = async () => {
    try {
      const res = await api(`/api/chat/lobby?after=${panel.lastId}`);
      panel.add(res.messages);
    } catch {
      // offline: the next poll tries again
    }
  };
  await poll();
  setInterval(poll, 3000);
}

/** Resolves when lobby.js has filled the game select (so the clock presets match it). */
function gamesListed() {
  return new Promise((resolve) => {
    const check = () => ($("game")?.options.length ? resolve() : setTimeout(check, 50));
    check();
  });
}

async function main() {
  catalog = await api("/api/catalog");
  account = await me();
  if ($("create-form")) {
    await gamesListed();
    mountCreateExtras(account);
  }
  const card = $("seeks-card");
  if (card) {
    clear(card);
    card.append(html("h2", {}, t("Play a person")));
    if (account) card.append(seekForm());
    else card.append(html("p", { class: "hint" }, html("a", { href: "/login?next=/", "data-button": "login-to-seek" }, t("Log in")), " ",
      t("to post seeks, pair by rating or challenge a player.")));
    card.append(html("div", { class: "message", id: "seek-status", role: "status" }),
      html("ul", { id: "seek-list", class: "game-list seek-list", "data-testid": "seek-list" }));
    await refreshSeeks();
    setInterval(refreshSeeks, 3000);
  }
  const chat = $("lobby-chat");
  if (chat) lobbyChat(chat);
}

main();
