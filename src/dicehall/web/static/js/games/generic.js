// The generic board: the text board, the legal actions as buttons, and a text box.
// Used for any game that has no board module of its own (see docs/web-games.md).
//
// Test hooks: every legal action is a button with data-action="<text>";
// the text box is input[data-input="action"] with button[data-button="send"].

import { clear, html } from "../dom.js";
import { t } from "../i18n.js";

export function render(root, snap, ctx) {
  clear(root);
  root.classList.add("generic-board");
  root.append(html("pre", { class: "text-board" }, snap.text || JSON.stringify(snap.view, null, 1)));
  if (!ctx.canAct || !snap.legal) return;
  const send = (text) => ctx.act(text).catch(() => {});
  const list = html("div", { class: "action-list" });
  for (const text of snap.legal.slice(0, 300)) {
    list.append(html("button", { class: "btn small legal", "data-action": text, onclick: () => send(text) }, text));
  }
  if (snap.legal.length > 300) list.append(html("span", { class: "hint" }, t("… and {n} more: type them", { n: snap.legal.length - 300 })));
  const input = html("input", { "data-input": "action", placeholder: t("type an action"), "aria-label": t("type an action"), autocomplete: "off" });
  const form = html("form", {
    class: "action-form",
    onsubmit: (e) => {
      e.preventDefault();
      if (input.value.trim()) send(input.value.trim());
    },
  }, input, html("button", { class: "btn primary", type: "submit", "data-button": "send" }, t("Play")));
  root.append(form, list);
}
