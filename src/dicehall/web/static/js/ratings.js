// Rating helpers shared by the pages: list titles, signed changes, and the rating change of a
// finished rated game on the game page's result panel.

import { html } from "./dom.js";
import { t } from "./i18n.js";

const TITLES = {
  backgammon: "Backgammon",
  "backgammon:money": "Backgammon (money game)",
  "backgammon:match": "Backgammon (match)",
  coinrows: "Coin Rows",
  whitedie: "White Die",
};

/** The title of a rating list (a game, or one of backgammon's formats). */
export function ratingListTitle(key) {
  return TITLES[key] ? t(TITLES[key]) : key;
}

/** "+12.3" / "-4.0". */
export function signed(x) {
  const v = Math.round(x * 10) / 10;
  return `${v > 0 ? "+" : ""}${v.toFixed(1)}`;
}

/** Show each seat's rating change of the finished rated game in `box` (the server rates the
 * game just after its end: ask a few times until the changes are there). */
export async function showRatingChanges(box, snap) {
  if (!snap.rated || snap.status !== "finished") return;
  for (let attempt = 0; attempt < 10; attempt += 1) {
    let changes = [];
    try {
      const res = await fetch(`/api/games/${snap.id}/ratings`);
      changes = res.ok ? await res.json() : [];
    } catch {
      changes = [];
    }
    if (changes.length) {
      box.replaceChildren(html("h3", {}, t("Rating changes")), ...changes.map((c) => {
        const name = snap.players[c.seat]?.name || "";
        return html("div", { class: "rating-change", "data-seat": c.seat, "data-testid": `rating-change-${c.seat}` },
          t("{name}: {before} → {after} ({change})", {
            name,
            before: Math.round(c.rating_before),
            after: Math.round(c.rating_after),
            change: signed(c.change),
          }));
      }));
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 500 * (attempt + 1)));
  }
}
