// The lobby: create a game (game, options, opponent), list open, live and finished games.

import { clear, html } from "./dom.js";
import { api, playerName, randomSeed, saveTokens, setPlayerName } from "./api.js";
import { createExtras, gameMeta, playerLabel } from "./seeks.js";

const $ = (id) => document.getElementById(id);
let catalog = [];

function current() {
  return catalog.find((g) => g.name === $("game").value);
}

function optionInput(o) {
  const id = `opt-${o.name}`;
  let input;
  if (o.choices) {
    input = html("select", { id, "data-option": o.name }, o.choices.map((c) =>
      html("option", { value: c, selected: c === o.default }, String(c))));
  } else if (o.type === "bool") {
    input = html("input", { id, type: "checkbox", "data-option": o.name, checked: o.default });
  } else if (o.type === "int") {
    input = html("input", { id, type: "number", "data-option": o.name, value: o.default, min: o.minimum ?? null, max: o.maximum ?? null });
  } else {
    input = html("input", { id, "data-option": o.name, value: o.default });
  }
  input.addEventListener("change", refreshSeats);
  return html("label", { title: o.description || "" }, `${o.name} `, input);
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
  for (let i = 0; i < players(); i += 1) seat.append(html("option", { value: i }, i === 0 ? "1 (starts)" : String(i + 1)));
  seat.append(html("option", { value: "random" }, "random"));
  if ([...seat.options].some((o) => o.value === keep)) seat.value = keep;
}

function refreshGame() {
  const g = current();
  const box = clear($("options"));
  for (const o of g.options) box.append(optionInput(o));
  const opp = clear($("opponent"));
  for (const name of g.opponents) {
    const label = name === "random"
      ? "computer: random moves"
      : name === "bot"
        ? "computer: default level"
        : `computer: ${name.includes(":") ? name.split(":")[1] : name}`;
    opp.append(html("option", { value: name }, label));
  }
  opp.append(html("option", { value: "friend" }, "a friend (send a link)"));
  opp.append(html("option", { value: "local" }, "two players on this device"));
  const best = g.opponents.includes("bot") ? "bot" : g.opponents[0];
  opp.value = best;
  refreshSeats();
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
      throw new Error(data?.error?.message || `the seed was refused (HTTP ${seeded.status})`);
    }
    location.href = res.url;
  } catch (err) {
    $("create-error").textContent = err.message;
  }
}

function describe(g) {
  const title = catalog.find((c) => c.name === g.game)?.title || g.game;
  const names = g.players.map(playerLabel).join(" vs ");
  return `${title}: ${names}`;
}

function fillList(id, games, action) {
  const list = clear($(id));
  if (!games.length) {
    list.append(html("li", { class: "empty" }, "none"));
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
    fillList("open", lobby.open, (g) => html("a", { class: "btn small primary", href: `/g/${g.id}` }, "Join"));
    fillList("live", lobby.live, (g) => html("a", { class: "btn small", href: `/g/${g.id}` }, "Watch"));
    fillList("finished", lobby.finished, (g) => html("span", {},
      html("img", { class: "thumb", src: `/api/games/${g.id}/board.svg?size=96`, width: "96",
        alt: "final position", loading: "lazy" }), " ",
      html("a", { class: "btn small", href: `/g/${g.id}` }, "Result"), " ",
      html("a", { class: "btn small", href: `/g/${g.id}/replay` }, "Replay")));
  } catch (err) {
    console.warn(err);
  }
}

async function main() {
  catalog = await api("/api/catalog");
  const select = $("game");
  for (const g of catalog) select.append(html("option", { value: g.name }, g.title));
  select.addEventListener("change", refreshGame);
  $("name").value = playerName();
  $("seed").value = randomSeed();
  refreshGame();
  $("create-form").addEventListener("submit", create);
  await refreshLists();
  setInterval(refreshLists, 5000);
}

main();
