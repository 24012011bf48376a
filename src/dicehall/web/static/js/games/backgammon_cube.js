// The doubling cube, match score and resignations of the backgammon board.
//
// Data from the server view (src/dicehall/server/views/backgammon.py, cube_view):
//   view.cube    {enabled, value, owner (seat or null = centred), offered}
//   view.match   {length (0 = money), score [seat 0, seat 1], game, crawford, post_crawford}
//   view.resign  {level, name} of a resignation waiting for an answer
//   view.phase   "cube" (roll or double), "take", "raccoon", "resign", "move", ...
//   moves.choices  the legal answers at a cube/resignation question; the resign offers at a play
//
// Test hooks (stable selectors):
//   g[data-cube]                       the cube on the board: data-cube = value, data-owner = seat
//                                      or "centre"
//   [data-testid="match-score"]        match score line; [data-testid="crawford"] its marker
//   [data-button="roll"|"double"]      before the roll
//   [data-testid="take-dialog"]        the answer to a double: [data-button="take"|"pass"|"beaver"]
//                                      (after a beaver: "take" or "raccoon")
//   [data-testid="resign-dialog"]      the answer to a resignation: [data-button="accept"|"reject"]
//   select[data-select="resign"] + [data-button="resign"]  offer to resign at the chosen level
//   [data-button="download-mat"]       the record as a .mat file

import { html, svg } from "../dom.js";
import { t } from "../i18n.js";

const LEVEL_POINTS = { single: 1, gammon: 2, backgammon: 3 };

/** The cube drawn on the bar: centred in the middle, else at its owner's end. */
export function drawCube(board, geom, view, me) {
  const cube = view.cube;
  if (!cube || !cube.enabled) return;
  const size = 36;
  const x = geom.barX + (geom.barW - size) / 2;
  let y = geom.mid - size / 2;
  if (cube.owner !== null && cube.owner !== undefined) {
    y = cube.owner === me ? geom.bottom - size - 6 : geom.top + 6;
  }
  const g = svg("g", {
    class: `cube${cube.offered ? " offered" : ""}`,
    "data-cube": cube.value,
    "data-owner": cube.owner === null || cube.owner === undefined ? "centre" : cube.owner,
  });
  g.append(svg("rect", {
    x, y, width: size, height: size, rx: 5, fill: "#f7f3e8",
    stroke: cube.offered ? "var(--selected)" : "#333", "stroke-width": cube.offered ? 4 : 2,
  }));
  const t = svg("text", {
    x: x + size / 2, y: y + size / 2 + 7, "text-anchor": "middle", "font-size": 20,
    "font-weight": 700, fill: "#222",
  });
  // a centred cube shows 64, as on a real board; an owned one its value
  t.textContent = String(cube.owner === null && cube.value === 1 ? 64 : cube.value);
  g.append(t);
  board.append(g);
}

function scoreLine(snap, me) {
  const view = snap.view;
  const m = view.match;
  if (!m || !view.extended) return null;
  const name = (seat) => snap.players?.[seat]?.name || t("seat {n}", { n: seat + 1 });
  const what = m.length ? t("Match to {n}", { n: m.length }) : t("Money");
  const parts = [
    html("span", { "data-testid": "match-score" },
      t("{what} · game {game} · {me} {a} – {b} {them}", { what, game: m.game, me: name(me), a: m.score[me], b: m.score[1 - me], them: name(1 - me) })),
  ];
  if (m.crawford) parts.push(html("span", { class: "badge", "data-testid": "crawford" }, " ", t("Crawford game")));
  else if (m.post_crawford) parts.push(html("span", { class: "badge", "data-testid": "crawford" }, " ", t("post-Crawford")));
  if (view.cube?.enabled) parts.push(html("span", { class: "hint" }, " · ", t("cube {value}", { value: view.cube.value })));
  return html("div", { class: "match-line" }, ...parts);
}

function button(name, label, ctx, primary = false) {
  return html("button", {
    class: primary ? "btn primary" : "btn",
    "data-button": name,
    onclick: (e) => {
      e.target.disabled = true;
      ctx.act(name).catch(() => { e.target.disabled = false; });
    },
  }, label);
}

function resignPicker(choices, ctx) {
  const offers = choices.filter((c) => c.startsWith("resign "));
  if (!offers.length) return null;
  const select = html("select", { "data-select": "resign" }, offers.map((c) =>
    html("option", { value: c }, levelName(c.slice("resign ".length)))));
  select.setAttribute("aria-label", t("Resign at this level"));
  return html("span", { class: "resign" },
    select,
    html("button", {
      class: "btn",
      "data-button": "resign",
      onclick: (e) => {
        e.target.disabled = true;
        ctx.act(select.value).catch(() => { e.target.disabled = false; });
      },
    }, t("Resign")));
}

function levelName(level) {
  return { single: t("a single game"), gammon: t("a gammon"), backgammon: t("a backgammon") }[level] || level;
}

/** Score line, cube buttons, take/pass and resignation dialogs, .mat download. */
export function cubePanel(snap, ctx, me) {
  const view = snap.view;
  const panel = html("div", { class: "cube-panel" });
  if (!view.extended) return panel;
  const line = scoreLine(snap, me);
  if (line) panel.append(line);
  const moves = ctx.canAct && snap.moves && snap.moves.seat === me ? snap.moves : null;
  const choices = moves ? moves.choices || [] : [];
  const value = view.cube?.value || 1;
  if (moves && view.phase === "cube") {
    const row = html("div", { class: "board-controls" }, button("roll", t("Roll"), ctx, true));
    if (choices.includes("double")) row.append(button("double", t("Double to {value}", { value: 2 * value }), ctx));
    const resign = resignPicker(choices, ctx);
    if (resign) row.append(resign);
    panel.append(row);
  } else if (moves && (view.phase === "take" || view.phase === "raccoon")) {
    const question = view.phase === "take"
      ? t("Your opponent doubles to {double}. Take (play on for {double}) or pass (lose {value})?", { double: 2 * value, value })
      : t("Your opponent beavered: the cube is at {value}. Play on, or raccoon to {double}?", { double: 2 * value, value });
    const dialog = html("div", { class: "dialog", role: "dialog", "data-testid": "take-dialog" },
      html("p", {}, question));
    for (const c of choices) {
      const label = { take: view.phase === "take" ? t("Take") : t("Play on"), pass: t("Pass"), beaver: t("Beaver (to {value})", { value: 4 * value }), raccoon: t("Raccoon (to {value})", { value: 2 * value }) }[c] || c;
      dialog.append(button(c, label, ctx, c === "take"));
    }
    panel.append(dialog);
  } else if (moves && view.phase === "resign") {
    const level = view.resign.name;
    const points = (LEVEL_POINTS[level] || 1) * value;
    const dialog = html("div", { class: "dialog", role: "dialog", "data-testid": "resign-dialog" },
      html("p", {}, points === 1
        ? t("Your opponent resigns {level} (1 point). Accept?", { level: levelName(level) })
        : t("Your opponent resigns {level} ({points} points). Accept?", { level: levelName(level), points })),
      button("accept", t("Accept"), ctx, true),
      button("reject", t("Reject"), ctx));
    panel.append(dialog);
  } else if (moves && view.phase === "move") {
    const resign = resignPicker(choices, ctx);
    if (resign) panel.append(html("div", { class: "board-controls" }, resign));
  } else if (!moves && ["cube", "take", "raccoon", "resign"].includes(view.phase)) {
    const waiting = { cube: t("Waiting: deciding to double or roll."), take: t("Waiting: answering the double."), raccoon: t("Waiting: answering the beaver."), resign: t("Waiting: answering the resignation.") }[view.phase];
    panel.append(html("p", { class: "hint", "data-testid": "waiting" }, waiting));
  }
  if (snap.id) {
    panel.append(html("a", {
      href: `/api/games/${snap.id}/record?download=1&format=mat`, class: "btn",
      download: `dicehall-${snap.id}.mat`, "data-button": "download-mat",
    }, t("Download .mat")));
  }
  return panel;
}
