// The account page: log in, register, and (logged in) change the password or log out.

import { clear, html } from "./dom.js";
import { t } from "./i18n.js";
import { api } from "./api.js";
import { logout, me, profileLink } from "./account.js";

const $ = (id) => document.getElementById(id);

function nextPage() {
  const next = new URLSearchParams(location.search).get("next") || "/";
  return next.startsWith("/") && !next.startsWith("//") ? next : "/";
}

function field(label, attrs) {
  return html("label", {}, label, " ", html("input", attrs));
}

function credentialsForm(kind) {
  const error = html("div", { class: "message error", role: "alert" });
  const form = html("form", { class: "account-form", "data-form": kind },
    field(t("Username"), { name: "username", required: true, maxlength: 24, autocomplete: "username" }),
    field(t("Password"), { name: "password", type: "password", required: true, minlength: kind === "register" ? 8 : null,
      maxlength: 256, autocomplete: kind === "register" ? "new-password" : "current-password" }),
    html("button", { class: "btn primary", type: "submit", "data-button": kind }, kind === "register" ? t("Create account") : t("Log in")),
    error);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    error.textContent = "";
    const body = { username: form.username.value.trim(), password: form.password.value };
    try {
      await api(kind === "register" ? "/api/accounts" : "/api/session", body);
      location.href = nextPage();
    } catch (err) {
      error.textContent = err.message;
    }
  });
  return form;
}

function passwordForm() {
  const note = html("div", { class: "message", role: "status" });
  const form = html("form", { class: "account-form", "data-form": "password" },
    field(t("Current password"), { name: "old", type: "password", required: true, autocomplete: "current-password" }),
    field(t("New password"), { name: "new", type: "password", required: true, minlength: 8, autocomplete: "new-password" }),
    html("button", { class: "btn", type: "submit", "data-button": "change-password" }, t("Change password")),
    note);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    try {
      await api("/api/me/password", { old: form.old.value, new: form.new.value });
      note.className = "message info";
      note.textContent = t("Password changed; your other sessions were logged out.");
      form.reset();
    } catch (err) {
      note.className = "message error";
      note.textContent = err.message;
    }
  });
  return form;
}

async function main() {
  const box = clear($("account-page"));
  const account = await me();
  if (account) {
    box.append(
      html("section", { class: "card" },
        html("h2", {}, t("Logged in as {name}", { name: account.username })),
        html("p", {}, profileLink(account.username), " · ",
          html("a", { href: "/" }, t("Back to the lobby"))),
        html("button", { class: "btn", "data-button": "logout-page", onclick: logout }, t("Log out"))),
      html("section", { class: "card" }, html("h2", {}, t("Change password")), passwordForm()));
    return;
  }
  box.append(
    html("section", { class: "card" }, html("h2", {}, t("Log in")), credentialsForm("login")),
    html("section", { class: "card" }, html("h2", {}, t("Register")),
      html("p", { class: "hint" }, t("A username of 3 to 24 letters, digits, _ or -, and a password of at least 8 characters. Guests can play without an account; rated games, seeks and chat outside your games need one.")),
      credentialsForm("register")));
}

main();
