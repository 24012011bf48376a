// The leaderboards: one rating list per game, and backgammon's formats apart.

import { clear, html } from "./dom.js";
import { t } from "./i18n.js";
import { api } from "./api.js";
import { ratingListTitle } from "./ratings.js";

const $ = (id) => document.getElementById(id);
const LISTS = ["backgammon", "backgammon:money", "backgammon:match", "coinrows", "whitedie"];

async function show(key) {
  const box = clear($("board"));
  let rows;
  try {
    rows = await api(`/api/leaderboard/${encodeURIComponent(key)}`);
  } catch (err) {
    box.append(html("p", { class: "message error" }, err.message));
    return;
  }
  if (!rows.length) {
    box.append(html("p", { class: "hint" }, t("No rated games on this list yet.")));
    return;
  }
  box.append(html("table", { class: "table", "data-testid": "leaderboard" },
    html("tr", {}, html("th", {}, "#"), html("th", {}, t("Player")), html("th", {}, t("Rating")), html("th", {}, t("Games"))),
    rows.map((r) => html("tr", {},
      html("td", { class: "num" }, String(r.rank)),
      html("td", {}, html("a", { href: `/players/${encodeURIComponent(r.username)}` }, r.username),
        r.kind === "bot" ? html("span", { class: "tag" }, t("bot")) : null),
      html("td", { class: "num" }, `${Math.round(r.rating)}${r.provisional ? "?" : ""}`),
      html("td", { class: "num" }, String(r.games))))));
}

function main() {
  $("page-title").textContent = t("Leaderboards");
  $("list-label").textContent = t("Rating list");
  const select = $("list");
  for (const key of LISTS) select.append(html("option", { value: key }, ratingListTitle(key)));
  const wanted = new URLSearchParams(location.search).get("list");
  if (LISTS.includes(wanted)) select.value = wanted;
  select.addEventListener("change", () => show(select.value));
  show(select.value);
}

main();
