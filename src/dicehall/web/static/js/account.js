// Who is logged in: the session cookie is HTTP-only, so the page asks the server (GET /api/me)
// and shows a "Log in" link or the username (a link to the profile) with "Log out" in the
// header slot #account of every page.

import { clear, html } from "./dom.js";
import { t } from "./i18n.js";

let mePromise = null;

/** The logged-in account ({id, username, kind}) or null for a guest (asked once a page). */
export function me() {
  if (!mePromise) {
    mePromise = fetch("/api/me")
      .then((res) => (res.ok ? res.json() : null))
      .then((data) => data?.account || null)
      .catch(() => null);
  }
  return mePromise;
}

/** Log out and reload the page as a guest. */
export async function logout() {
  await fetch("/api/session", { method: "DELETE" });
  mePromise = null;
  location.reload();
}

/** The link to a player's profile page. */
export function profileLink(username, attrs = {}) {
  return html("a", { href: `/players/${encodeURIComponent(username)}`, class: "player-link", ...attrs }, username);
}

/** Fill the header slot #account (if the page has one). */
export async function mountAccount() {
  const slot = document.getElementById("account");
  if (!slot) return null;
  const account = await me();
  clear(slot);
  if (account) {
    slot.append(
      profileLink(account.username, { "data-testid": "me" }), " · ",
      html("a", { href: "/leaderboard" }, t("Leaderboard")), " · ",
      html("a", { href: "#", "data-button": "logout", onclick: (e) => { e.preventDefault(); logout(); } }, t("Log out")),
    );
  } else {
    slot.append(
      html("a", { href: "/leaderboard" }, t("Leaderboard")), " · ",
      html("a", { href: `/login?next=${encodeURIComponent(location.pathname)}`, "data-button": "login" }, t("Log in or register")),
    );
  }
  return account;
}

mountAccount();
