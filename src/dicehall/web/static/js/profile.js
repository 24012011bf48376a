// A player's profile: ratings per game (and backgammon format) and the game history, each game
// with its replay and, when rated, its rating change.

import { clear, html } from "./dom.js";
import { t } from "./i18n.js";
import { api } from "./api.js";
import { ratingListTitle, signed } from "./ratings.js";

const $ = (id) => document.getElementById(id);
const username = decodeURIComponent(location.pathname.split("/")[2] || "");

function when(seconds) {
  return new Date(seconds * 1000).toLocaleString();
}

function outcome(g) {
  if (g.status !== "finished" || !g.result) return t(g.status === "playing" ? "in play" : g.status);
  const mine = g.result[g.seat];
  const best = Math.max(...g.result);
  if (mine === best && g.result.filter((r) => r === best).length === 1) return t("won");
  if (mine === best) return t("drew");
  return t("lost");
}

async function main() {
  const box = clear($("profile"));
  let data;
  try {
    data = await api(`/api/players/${encodeURIComponent(username)}`);
  } catch (err) {
    box.append(html("p", { class: "message error" }, err.message));
    return;
  }
  document.title = `${data.account.username} — dicehall`;
  box.append(html("h1", { "data-testid": "profile-name" }, data.account.username,
    data.account.kind === "bot" ? html("span", { class: "tag" }, t("bot")) : null));
  const ratings = html("table", { class: "table", "data-testid": "ratings" },
    html("tr", {}, html("th", {}, t("Rating list")), html("th", {}, t("Rating")), html("th", {}, t("Deviation")), html("th", {}, t("Games"))),
    data.ratings.map((r) => html("tr", { "data-list": r.game },
      html("td", {}, ratingListTitle(r.game)),
      html("td", { class: "num", "data-testid": `rating-${r.game}` }, `${Math.round(r.rating)}${r.provisional ? "?" : ""}`),
      html("td", { class: "num" }, `±${Math.round(r.deviation)}`),
      html("td", { class: "num" }, String(r.games)))));
  box.append(html("section", { class: "card" }, html("h2", {}, t("Ratings")),
    data.ratings.length ? ratings : html("p", { class: "hint" }, t("No rated games yet."))));
  const games = html("table", { class: "table", "data-testid": "history" },
    html("tr", {}, html("th", {}, t("Game")), html("th", {}, t("Result")), html("th", {}, t("Rating change")), html("th", {}, t("When")), html("th", {}, "")),
    data.games.map((g) => html("tr", { "data-game": g.id },
      html("td", {}, ratingListTitle(g.game), g.rated ? html("span", { class: "tag" }, t("rated")) : null),
      html("td", {}, outcome(g)),
      html("td", { class: "num", "data-testid": "change" }, g.rating_change ? signed(g.rating_change.change) : ""),
      html("td", {}, when(g.updated)),
      html("td", {}, html("a", { class: "btn small", href: `/g/${g.id}` }, t("Game")), " ",
        html("a", { class: "btn small", href: g.replay }, t("Replay"))))));
  box.append(html("section", { class: "card" }, html("h2", {}, t("Games")),
    data.games.length ? games : html("p", { class: "hint" }, t("No games yet."))));
}

main();
