// The lobby: create a game (game, options, opponent), list open, live and finished games.

import { clear, html } from "./dom.js";
import { api, playerName, randomSeed, saveTokens, setPlayerName } from "./api.js";
import { t } from "./i18n.js";
import { gameTitle, optionGroups, wordsFor } from "./options.js";
import { createExtras, gameMeta } from "./seeks.js";

const $ = (id) => document.getElementById(id);
let catalog = [];

function current() {
  return catalog.find((g) => g.name === $("game").value);
}

/** One option's field: a human label, the input, and its explanation under it (visible on
 *  phones, and read with the field by screen readers through aria-describedby). */
function optionInput(game, o) {
  const id = `opt-${o.name}`;
  const words = wordsFor(game, o);
  const start = words.lobbyDefault !== undefined ? words.lobbyDefault : o.default;
  let input;
  if (o.choices) {
    input = html("select", { id, "data-option": o.name }, o.choices.map((c) =>
      html("option", { value: c, selected: c === start }, words.choices[c] || String(c))));
  } else if (o.type === "bool") {
    input = html("input", { id, type: "checkbox", "data-option": o.name, checked: start });
  } else if (o.type === "int") {
    input = html("input", { id, type: "number", "data-option": o.name, value: start, min: o.minimum ?? null, max: o.maximum ?? null });
  } else {
    input = html("input", { id, "data-option": o.name, value: start });
  }
  input.addEventListener("change", () => {
    // cube and match play count gammons, as players expect: suggest standard scoring
    if (game === "backgammon" && o.name === "cube" && input.checked) {
      const scoring = $("opt-scoring");
      if (scoring) scoring.value = "standard";
    }
    refreshOptions();
  });
  const help = words.help ? html("small", { class: "option-help", id: `${id}-help` }, words.help) : null;
  if (help) input.setAttribute("aria-describedby", help.id);
  return html("div", { class: `option${o.type === "bool" ? " option-bool" : ""}`, "data-option-row": o.name },
    html("label", { for: id }, words.label), input, help);
}

/** Show only the fields that matter for the values chosen so far (the cube's fields when the
 *  cube is on, the match's or the money session's), then the seats. */
function refreshOptions() {
  const g = current();
  const values = options();
  for (const o of g.options) {
    const row = $("options").querySelector(`[data-option-row="${o.name}"]`);
    if (row) row.hidden = !wordsFor(g.name, o).when(values);
  }
  for (const set of $("options").querySelectorAll("fieldset")) {
    set.hidden = [...set.querySelectorAll("[data-option-row]")].every((r) => r.hidden);
  }
  refreshSeats();
}

function options() {
  const out = {};
  for (const el of $("options").querySelectorAll("[data-option]")) {
    const name = el.dataset.option;
    if (el.type === "checkbox") out[name] = el.checked;
    else if (el.type === "number") out[name] = Number(el.value);
    else out[name] = el.value;
  }
  return out;
}

function players() {
  const g = current();
  const n = options().players;
  return Number.isInteger(n) ? n : g.min_players;
}

function refreshSeats() {
  const seat = $("seat");
  const keep = seat.value;
  clear(seat);
  // backgammon's opening roll decides who starts; in the others seat 1 moves first
  const rolled = current().name === "backgammon";
  for (let i = 0; i < players(); i += 1) {
    const label = !rolled && i === 0 ? t("{n} (starts)", { n: 1 }) : String(i + 1);
    seat.append(html("option", { value: i }, label));
  }
  seat.append(html("option", { value: "random" }, t("random")));
  if ([...seat.options].some((o) => o.value === keep)) seat.value = keep;
  $("seat-hint").textContent = rolled ? t("The opening roll decides who starts.") : "";
}

function opponentLabel(name) {
  if (name === "random") return t("computer: random moves");
  if (name === "bot") return t("computer: default level");
  return t("computer: {level}", { level: name.includes(":") ? name.split(":")[1] : name });
}

function refreshOpponentHint() {
  const value = $("opponent").value;
  const hints = {
    friend: t("You get a link to send; the game starts when your friend takes the seat."),
    local: t("Both seats play in this browser, taking turns."),
    random: t("The computer plays any legal move: for learning the rules."),
  };
  $("opponent-hint").textContent = hints[value] || t("The computer plays at the level chosen.");
}

function refreshGame() {
  const g = current();
  const box = clear($("options"));
  const groups = optionGroups()[g.name] || {};
  const sets = {};
  for (const o of g.options) {
    const field = optionInput(g.name, o);
    const group = wordsFor(g.name, o).group;
    if (group && groups[group]) {
      if (!sets[group]) {
        sets[group] = html("fieldset", { class: "option-group", "data-group": group }, html("legend", {}, groups[group]));
        box.append(sets[group]);
      }
      sets[group].append(field);
    } else {
      box.append(field);
    }
  }
  const opp = clear($("opponent"));
  for (const name of g.opponents) opp.append(html("option", { value: name }, opponentLabel(name)));
  opp.append(html("option", { value: "friend" }, t("a friend (send a link)")));
  opp.append(html("option", { value: "local" }, t("two players on this device")));
  const best = g.opponents.includes("bot") ? "bot" : g.opponents[0];
  opp.value = best;
  refreshOpponentHint();
  refreshOptions();
}

async function create(ev) {
  ev.preventDefault();
  $("create-error").textContent = "";
  const seatValue = $("seat").value;
  const name = $("name").value.trim();
  setPlayerName(name);
  try {
    const res = await api("/api/games", {
      game: $("game").value,
      options: options(),
      opponent: $("opponent").value,
      seat: seatValue === "random" ? null : Number(seatValue),
      name: name || null,
      ...createExtras(), // time control and rated (seeks.js)
    });
    saveTokens(res.id, res.tokens);
    // the seed goes only now, after the game's commitment was published
    const seeded = await fetch(`/api/games/${res.id}/seed`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Seat-Token": Object.values(res.tokens).join(",") },
      body: JSON.stringify({ seed: $("seed").value.trim() }),
    });
    if (!seeded.ok) {
      const data = await seeded.json().catch(() => null);
      throw new Error(data?.error?.message || t("the seed was refused (HTTP {status})", { status: seeded.status }));
    }
    location.href = res.url;
  } catch (err) {
    $("create-error").textContent = err.message;
  }
}

function describe(g) {
  const title = gameTitle(g.game, catalog.find((c) => c.name === g.game)?.title);
  const named = (p) => {
    if (!p.claimed) return t("open seat");
    const twins = g.players.filter((q) => q.claimed && q.name === p.name).length;
    const name = twins > 1 ? t("{name} {n}", { name: p.name, n: p.seat + 1 }) : p.name;
    return p.rating ? `${name} (${p.rating})` : name;
  };
  const names = g.players.map(named).join(t(" vs "));
  return `${title}: ${names}`;
}

function fillList(id, games, action) {
  const list = clear($(id));
  if (!games.length) {
    list.append(html("li", { class: "empty" }, t("none")));
    return;
  }
  for (const g of games) {
    const result = g.result ? ` (${g.result.map((r) => (r > 0 ? `+${r}` : r)).join(" / ")})` : "";
    list.append(html("li", { "data-game": g.id },
      html("span", { class: "desc" }, describe(g) + result), gameMeta(g), " ",
      action(g)));
  }
}

async function refreshLists() {
  try {
    const lobby = await api("/api/lobby");
    fillList("open", lobby.open, (g) => html("a", { class: "btn small primary", href: `/g/${g.id}`, "aria-label": t("Join {game}", { game: describe(g) }) }, t("Join")));
    fillList("live", lobby.live, (g) => html("a", { class: "btn small", href: `/g/${g.id}`, "aria-label": t("Watch {game}", { game: describe(g) }) }, t("Watch")));
    fillList("finished", lobby.finished, (g) => html("span", {},
      html("img", { class: "thumb", src: `/api/games/${g.id}/board.svg?size=96`, width: "96",
        alt: t("final position"), loading: "lazy" }), " ",
      html("a", { class: "btn small", href: `/g/${g.id}`, "aria-label": t("Result of {game}", { game: describe(g) }) }, t("Result")), " ",
      html("a", { class: "btn small", href: `/g/${g.id}/replay`, "aria-label": t("Replay of {game}", { game: describe(g) }) }, t("Replay"))));
  } catch (err) {
    console.warn(err);
  }
}

async function main() {
  catalog = await api("/api/catalog");
  const select = $("game");
  for (const g of catalog) select.append(html("option", { value: g.name }, gameTitle(g.name, g.title)));
  select.addEventListener("change", refreshGame);
  $("opponent").addEventListener("change", refreshOpponentHint);
  $("name").value = playerName();
  $("seed").value = randomSeed();
  refreshGame();
  $("create-form").addEventListener("submit", create);
  await refreshLists();
  setInterval(refreshLists, 5000);
}

main();
