// HTTP calls and the seats (secret tokens) this browser holds, kept in localStorage.

import { t } from "./i18n.js";

const KEY = "dicehall.tokens.v1";

function loadAll() {
  try {
    return JSON.parse(localStorage.getItem(KEY) || "{}") || {};
  } catch {
    return {};
  }
}

/** {seat: token} for the game `id`. */
export function tokensFor(id) {
  return loadAll()[id] || {};
}

/** Remember tokens (an object {seat: token}) for the game `id`. */
export function saveTokens(id, tokens) {
  const all = loadAll();
  all[id] = { ...(all[id] || {}), ...tokens };
  localStorage.setItem(KEY, JSON.stringify(all));
}

export function playerName() {
  return localStorage.getItem("dicehall.name") || "";
}

export function setPlayerName(name) {
  localStorage.setItem("dicehall.name", name);
}

/** A random player seed for the fair dice (the player may type his own). */
export function randomSeed() {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export class ApiError extends Error {
  constructor(status, error) {
    super(error?.message || t("HTTP error {status}", { status }));
    this.status = status;
    this.code = error?.code || "http_error";
    this.legal = error?.legal;
  }
}

/** fetch JSON; throws ApiError with the server's message on errors. */
export async function api(path, body) {
  const init = body === undefined
    ? {}
    : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  const res = await fetch(path, init);
  let data = null;
  try {
    data = await res.json();
  } catch {
    data = null;
  }
  if (!res.ok) {
    let err = data?.error;
    if (!err && data?.detail) {
      err = { code: "bad_request", message: Array.isArray(data.detail)
        ? data.detail.map((d) => `${(d.loc || []).join(".")}: ${d.msg}`).join("; ")
        : String(data.detail) };
    }
    throw new ApiError(res.status, err);
  }
  return data;
}

/** Load the board module of a game, or the generic one. */
export async function loadBoard(game) {
  try {
    return await import(`/static/js/games/${game}.js`);
  } catch (err) {
    console.info(`no board module for ${game} (${err}); using the generic board`);
    return await import("/static/js/games/generic.js");
  }
}

/** A seat's name, with its number when several seats share it (bots, guests). */
export function seatLabel(snap, seat) {
  const p = snap.players?.[seat];
  if (!p || !p.name) return t("seat {n}", { n: seat + 1 });
  const twins = (snap.players || []).filter((q) => q.name === p.name).length;
  return twins > 1 ? t("{name} {n}", { name: p.name, n: seat + 1 }) : p.name;
}
