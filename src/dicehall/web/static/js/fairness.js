// The fairness page: recompute every roll of a record from the revealed seeds, in the browser.
// Scheme "hmac-sha256-d6-v1" (src/dicehall/core/fairness.py, docs/protocol.md).

import { clear, html } from "./dom.js";
import { t } from "./i18n.js";
import { hex, hmacSha256, sha256, utf8 } from "./sha256.js";

const $ = (id) => document.getElementById(id);

/** Dice source of the scheme: fresh HMAC blocks per chance event, counter over all blocks. */
class FairDice {
  constructor(seed, playerSeeds) {
    this.key = utf8(seed);
    this.seeds = playerSeeds;
    this.counter = 0;
  }

  *bytes() {
    for (;;) {
      const block = hmacSha256(this.key, utf8([...this.seeds, String(this.counter)].join(":")));
      this.counter += 1;
      yield* block;
    }
  }

  roll(count) {
    const faces = [];
    const stream = this.bytes();
    while (faces.length < count) {
      const b = stream.next().value;
      if (b < 252) faces.push((b % 6) + 1);
    }
    return faces;
  }

  draw(below) {
    const limit = Math.floor(2 ** 32 / below) * below;
    const stream = this.bytes();
    for (;;) {
      let v = 0;
      for (let i = 0; i < 4; i += 1) v = v * 256 + stream.next().value;
      if (v < limit) return v % below;
    }
  }
}

function sameMultiset(a, b) {
  return a.length === b.length && [...a].sort().join() === [...b].sort().join();
}

export function check(record) {
  const info = record?.meta?.fairness;
  if (!info || info.scheme !== "hmac-sha256-d6-v1") throw new Error(t("this record has no fairness data"));
  const result = { info, seedHash: null, hashOk: false, rows: [], ok: false, revealed: Boolean(info.server_seed) };
  if (!info.server_seed) return result;
  result.seedHash = hex(sha256(utf8(info.server_seed)));
  result.hashOk = result.seedHash === info.commitment;
  const dice = new FairDice(info.server_seed, info.player_seeds || []);
  let allOk = result.hashOk;
  for (const roll of info.rolls || []) {
    let ok;
    let computed;
    if (roll.dice) {
      computed = dice.roll(roll.dice.length);
      const digits = (roll.text.match(/[1-6]/g) || []).map(Number);
      // the faces must be the server's and appear in the recorded outcome text
      ok = computed.join() === roll.dice.join() && (digits.length !== computed.length || sameMultiset(digits, computed));
    } else {
      computed = [dice.draw(roll.below)];
      ok = computed[0] === roll.draw;
    }
    allOk = allOk && ok;
    // recorded and recomputed dice side by side in the order they were drawn (the outcome
    // text may list them sorted, e.g. backgammon's "6-5")
    result.rows.push({ index: roll.index, text: roll.text, recorded: roll.dice || [roll.draw], computed, ok });
  }
  result.ok = allOk;
  return result;
}

function show(record) {
  const r = check(record);
  $("result").hidden = false;
  $("commitment").textContent = r.info.commitment;
  $("seed").textContent = r.info.server_seed || t("(not revealed until the game ends)");
  $("seed-hash").textContent = r.seedHash || "—";
  $("hash-ok").textContent = r.revealed ? (r.hashOk ? t("✓ matches") : t("✗ does NOT match")) : "";
  $("hash-ok").className = r.hashOk ? "ok" : "bad";
  $("player-seeds").textContent = JSON.stringify(r.info.player_seeds || []);
  const body = clear($("rolls"));
  for (const row of r.rows) {
    body.append(html("tr", {}, html("td", {}, row.index + 1), html("td", {}, row.text),
      html("td", { "data-col": "recorded" }, row.recorded.join(" ")),
      html("td", { "data-col": "computed" }, row.computed.join(" ")),
      html("td", { class: row.ok ? "ok" : "bad" }, row.ok ? t("✓ same") : t("✗ different"))));
  }
  const verdict = $("verdict");
  if (!r.revealed) {
    verdict.textContent = t("The game is not over: the server seed is still secret.");
    verdict.className = "";
  } else {
    verdict.textContent = r.ok ? t("Fair: all {n} rolls match the seeds ✓", { n: r.rows.length }) : t("Mismatch: these dice do not follow from the seeds ✗");
    verdict.className = r.ok ? "ok" : "bad";
  }
  document.body.dataset.verdict = r.revealed ? (r.ok ? "ok" : "bad") : "secret";
}

async function loadGame(id) {
  try {
    const res = await fetch(`/api/games/${encodeURIComponent(id)}/record`);
    if (!res.ok) throw new Error((await res.json())?.error?.message || t("HTTP error {status}", { status: res.status }));
    show(await res.json());
  } catch (err) {
    $("result").hidden = false;
    $("verdict").textContent = String(err.message || err);
  }
}

const parts = location.pathname.split("/");
const fromPath = parts[1] === "g" ? decodeURIComponent(parts[2]) : "";
if (fromPath) {
  $("game-id").value = fromPath;
  $("back").href = `/g/${fromPath}`;
  $("back").textContent = t("back to the game");
  loadGame(fromPath);
}
$("load").addEventListener("submit", (e) => {
  e.preventDefault();
  loadGame($("game-id").value.trim());
});
$("check-text").addEventListener("click", () => {
  try {
    show(JSON.parse($("record-text").value));
  } catch (err) {
    $("result").hidden = false;
    $("verdict").textContent = t("Cannot read the record: {error}", { error: err.message });
  }
});
