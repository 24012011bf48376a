// Messages in the reader's language. Every user-visible string in the browser goes through t():
// the msgid is the English text itself (as in gettext), and `{name}` placeholders are filled
// from `params`, so a sentence is translated whole and its words can move.
//
//   import { t } from "./i18n.js";
//   t("Your turn");                      // "É a sua vez" in Portuguese
//   t("{name} wins", { name: "Ann" });   // "Ann vence"
//
// The catalogue of the page's language is installed with setCatalog(); without one (English),
// t() returns the msgid with its placeholders filled. The server renders every page with its
// catalogue inlined as JSON (<script type="application/json" id="i18n-messages">, derived from
// web/locale/<lang>/LC_MESSAGES/messages.po), and this module installs it when first imported,
// so t() is right before any other module draws (also served at /api/i18n/<lang>.json).

let catalog = {};

function inlineCatalog() {
  const el = typeof document !== "undefined" && document.getElementById("i18n-messages");
  if (!el) return {};
  try {
    return JSON.parse(el.textContent || "{}");
  } catch {
    return {};
  }
}

/** Install the messages of the page's language: an object {msgid: translation}. */
export function setCatalog(messages) {
  catalog = messages && typeof messages === "object" ? messages : {};
}

/** The translation of `msgid` with `{key}` placeholders replaced by `params[key]`. */
export function t(msgid, params = {}) {
  const text = Object.prototype.hasOwnProperty.call(catalog, msgid) && catalog[msgid] ? catalog[msgid] : msgid;
  return text.replace(/\{(\w+)\}/g, (whole, key) =>
    Object.prototype.hasOwnProperty.call(params, key) ? String(params[key]) : whole,
  );
}

/** A structured message from the server, {id: msgid, params: {...}}, in the page's language:
 *  a parameter that is a message itself is translated first (server/i18n.py message_text). */
export function tm(message) {
  if (!message || typeof message !== "object") return message === undefined || message === null ? "" : String(message);
  const params = {};
  for (const [key, value] of Object.entries(message.params || {})) {
    params[key] = value && typeof value === "object" ? tm(value) : value;
  }
  return t(message.id, params);
}

/** The page's language code, from <html lang> (set by the server from Accept-Language or the switch). */
export function lang() {
  return document.documentElement.lang || "en";
}

setCatalog(inlineCatalog());
