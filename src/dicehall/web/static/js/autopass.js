// Turns with no legal move pass by themselves after a short visible pause (a setting of this
// browser, on by default): when the only legal action of the seat to move is "pass", the page
// says so and sends it after PAUSE_MS, unless something changed meanwhile.

import { html } from "./dom.js";
import { t } from "./i18n.js";

const KEY = "dicehall.autopass.v1";
export const PAUSE_MS = 1500;

/** Whether this browser passes forced turns by itself. */
export function autoPassEnabled() {
  return localStorage.getItem(KEY) !== "off";
}

export function setAutoPass(on) {
  localStorage.setItem(KEY, on ? "on" : "off");
}

/** The setting's checkbox. */
export function autoPassToggle() {
  const box = html("input", { type: "checkbox", "data-button": "autopass", checked: autoPassEnabled() });
  box.addEventListener("change", () => setAutoPass(box.checked));
  return html("label", { class: "hint autopass" }, box, " ", t("Pass by myself when I have no legal move"));
}

let timer = null;
let armedFor = null;

/** Called with every snapshot: arm the pass of a forced turn, or disarm. Returns the status
 *  line to show instead of "Your turn" (or null). */
export function forcedPass(snap, canAct, act) {
  const forced = canAct && Array.isArray(snap.legal) && snap.legal.length === 1 && snap.legal[0] === "pass";
  const key = `${snap.id}:${snap.seq}`;
  if (!forced || !autoPassEnabled()) {
    if (timer && armedFor !== key) {
      clearTimeout(timer);
      timer = null;
      armedFor = null;
    }
    return forced ? t("No legal move: confirm the pass") : null;
  }
  if (armedFor !== key) {
    clearTimeout(timer);
    armedFor = key;
    timer = setTimeout(() => {
      timer = null;
      act("pass").catch(() => {
        armedFor = null; // offline or stale: the next snapshot arms it again if still forced
      });
    }, PAUSE_MS);
  }
  return t("No legal move: your turn passes…");
}
