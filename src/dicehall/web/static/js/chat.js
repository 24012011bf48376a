// Chat panels: the players' room or the spectators' room of a game (over the page's WebSocket),
// and the lobby's room (over HTTP). Messages are text: they are inserted with textContent and
// never parsed as HTML. A reader can mute a room, and ignore an author in every room (both kept
// in localStorage).

import { clear, html } from "./dom.js";
import { t } from "./i18n.js";

const MUTE_KEY = "dicehall.chat.muted.v1";
const IGNORE_KEY = "dicehall.chat.ignored.v1";
const MAX = 300;

function mutedRooms() {
  try {
    return JSON.parse(localStorage.getItem(MUTE_KEY) || "{}") || {};
  } catch {
    return {};
  }
}

/** The authors this browser ignores (their messages are hidden in every room). */
function ignoredAuthors() {
  try {
    return new Set(JSON.parse(localStorage.getItem(IGNORE_KEY) || "[]"));
  } catch {
    return new Set();
  }
}

function setIgnored(author, ignored) {
  const all = ignoredAuthors();
  if (ignored) all.add(author);
  else all.delete(author);
  localStorage.setItem(IGNORE_KEY, JSON.stringify([...all]));
}

function setMuted(room, muted) {
  const all = mutedRooms();
  if (muted) all[room] = true;
  else delete all[room];
  localStorage.setItem(MUTE_KEY, JSON.stringify(all));
}

/** A chat panel in `box`. `room` names it for muting ("players", "spectators", "lobby");
 *  `post(text)` sends a message (a promise); `canWrite` false shows a hint instead of the input. */
export class ChatPanel {
  constructor(box, { room, title, post, canWrite = true, hint = "" }) {
    this.box = box;
    this.room = room;
    this.post = post;
    this.seen = new Set();
    this.lastId = 0;
    clear(box);
    box.hidden = false;
    box.dataset.room = room;
    this.list = html("ol", { class: "chat-list", "data-testid": "chat-list", "aria-live": "polite" });
    this.error = html("div", { class: "message error", role: "alert" });
    const mute = html("input", { type: "checkbox", "data-button": "mute-chat", checked: Boolean(mutedRooms()[room]) });
    mute.addEventListener("change", () => {
      setMuted(room, mute.checked);
      this.applyMute();
    });
    this.mute = mute;
    const head = html("div", { class: "chat-head" }, html("h2", {}, title),
      html("label", { class: "hint" }, mute, " ", t("mute")));
    this.ignoredNote = html("div", { class: "hint chat-ignored", "data-testid": "chat-ignored" });
    const unignore = html("button", { class: "btn small", type: "button", "data-button": "unignore",
      onclick: () => { localStorage.removeItem(IGNORE_KEY); this.applyIgnore(); } }, t("show everybody"));
    box.append(head, this.list, html("div", { class: "chat-ignore-bar" }, this.ignoredNote, unignore));
    this.unignore = unignore;
    if (canWrite) {
      const input = html("input", { class: "chat-input", maxlength: MAX, placeholder: t("Say something"), "data-testid": "chat-input", "aria-label": t("Chat message") });
      const form = html("form", { class: "chat-form" }, input, html("button", { class: "btn small", type: "submit", "data-button": "send-chat" }, t("Send")));
      form.addEventListener("submit", async (ev) => {
        ev.preventDefault();
        const text = input.value.trim();
        if (!text) return;
        this.error.textContent = "";
        try {
          await this.post(text);
          input.value = "";
        } catch (err) {
          this.error.textContent = err.message;
        }
      });
      box.append(form, this.error);
    } else if (hint) {
      box.append(html("p", { class: "hint" }, hint));
    }
    this.applyMute();
    this.applyIgnore();
  }

  get muted() {
    return this.mute.checked;
  }

  /** Ignore (or stop ignoring) an author: his messages are hidden, here and in every room. */
  toggleIgnore(author) {
    setIgnored(author, !ignoredAuthors().has(author));
    this.applyIgnore();
  }

  applyIgnore() {
    const ignored = ignoredAuthors();
    let hidden = 0;
    for (const li of this.list.children) {
      const off = ignored.has(li.dataset.author);
      li.hidden = off;
      hidden += off ? 1 : 0;
    }
    this.ignoredNote.textContent = ignored.size
      ? t("Ignoring {names} ({n} hidden).", { names: [...ignored].join(", "), n: hidden })
      : "";
    this.ignoredNote.hidden = !ignored.size;
    this.unignore.hidden = !ignored.size;
  }

  applyMute() {
    this.list.hidden = this.muted;
    this.box.classList.toggle("muted", this.muted);
  }

  /** Add messages ({id, author, text, at}) not shown yet. */
  add(messages) {
    for (const m of messages) {
      if (this.seen.has(m.id)) continue;
      this.seen.add(m.id);
      this.lastId = Math.max(this.lastId, m.id);
      // text only: html() makes text nodes of strings, so markup in a message stays text
      const ignore = html("button", { class: "chat-ignore", type: "button", "data-button": "ignore",
        title: t("ignore {name}", { name: m.author }), "aria-label": t("ignore {name}", { name: m.author }),
        onclick: () => this.toggleIgnore(m.author) }, "⊘");
      this.list.append(html("li", { class: "chat-message", "data-id": m.id, "data-author": m.author },
        html("span", { class: "chat-author" }, m.author), " ",
        html("span", { class: "chat-text" }, m.text), " ", ignore));
    }
    this.applyIgnore();
    while (this.list.children.length > 200) this.list.firstChild.remove();
    this.list.scrollTop = this.list.scrollHeight;
  }
}
