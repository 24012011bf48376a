// The game page's clocks and presence: each seat's reserve counting down in the browser, resynced
// from the server (every snapshot and update carries `clock`; the page asks for it every few
// seconds and when a reserve reaches zero, so the server drops the flag), and who has left the
// table, with the claim/abort buttons once the grace period has passed (docs/protocol.md).

import { clear, html } from "./dom.js";
import { t } from "./i18n.js";

const RESYNC_MS = 10000;

/** "4:05", "0:09.4" under ten seconds. */
export function formatClock(seconds) {
  const s = Math.max(0, seconds);
  if (s < 10) return `0:0${s.toFixed(1)}`;
  const whole = Math.ceil(s);
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const sec = String(whole % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${sec}` : `${m}:${sec}`;
}

/** The clocks and presence of one game page. `request(msg)` sends a WebSocket request and
 *  resolves with its answer; `onError(text)` shows a message. */
export class Table {
  constructor({ clocks, presence, request, onError }) {
    this.clocksBox = clocks;
    this.presenceBox = presence;
    this.request = request;
    this.onError = onError;
    this.snap = null;
    this.clock = null;
    this.clockAt = 0;
    this.presenceAt = 0;
    this.asked = false;
    this.lastSync = 0;
    setInterval(() => this.tick(), 200);
  }

  /** A new snapshot or update arrived. */
  update(snap) {
    this.snap = snap;
    this.setClock(snap.clock);
    this.presenceAt = performance.now();
    this.renderPresence();
  }

  /** The server's clock (from a snapshot, an update or a clock answer). */
  setClock(clock) {
    this.clock = clock || null;
    this.clockAt = performance.now();
    this.asked = false;
    this.lastSync = this.clockAt;
    this.renderClocks();
  }

  shown(seat) {
    const c = this.clock;
    if (!c) return null;
    if (c.running !== seat || this.snap?.status !== "playing") return c.remaining[seat];
    const elapsed = (performance.now() - this.clockAt) / 1000;
    return c.remaining[seat] - Math.max(0, elapsed - c.delay_left);
  }

  renderClocks() {
    const box = this.clocksBox;
    if (!box) return;
    if (!this.clock || !this.snap) {
      box.hidden = true;
      clear(box);
      return;
    }
    box.hidden = false;
    const c = this.clock;
    const rows = this.snap.players.map((p) => {
      const left = this.shown(p.seat);
      const running = c.running === p.seat && this.snap.status === "playing";
      const elapsed = (performance.now() - this.clockAt) / 1000;
      const inDelay = running && c.delay_left - elapsed > 0;
      return html("div", {
        class: `clock${running ? " running" : ""}${left !== null && left < 10 ? " low" : ""}`,
        "data-seat": p.seat,
        "data-testid": `clock-${p.seat}`,
      },
      html("span", { class: "chip", style: { background: `var(--seat${p.seat})` } }),
      html("span", { class: "clock-name" }, p.name),
      html("span", { class: "clock-time" }, formatClock(left ?? 0)),
      inDelay ? html("span", { class: "clock-delay" }, t("delay {s}", { s: Math.ceil(c.delay_left - elapsed) })) : null);
    });
    box.replaceChildren(html("span", { class: "clock-control" }, c.control.text), ...rows);
  }

  renderPresence() {
    const box = this.presenceBox;
    const snap = this.snap;
    if (!box || !snap) return;
    clear(box);
    const pres = snap.presence;
    if (!pres || snap.status !== "playing") return;
    const mine = snap.you || [];
    const elapsed = (performance.now() - this.presenceAt) / 1000;
    const waitFor = (p) => pres.grace - (pres.gone_for[p.seat] || 0) - elapsed;
    const others = snap.players.filter((p) => p.kind === "human" && !mine.includes(p.seat));
    // false: was here and left (told at once); null: not seen yet (told once the grace is over)
    const gone = others.filter((p) => pres.online[p.seat] === false || (pres.online[p.seat] === null && waitFor(p) <= 0));
    if (!gone.length) return;
    for (const p of gone) {
      box.append(html("div", { class: "presence-line", "data-testid": "opponent-gone" },
        pres.online[p.seat] === false
          ? t("{name} has left the game", { name: p.name })
          : t("{name} has not come to the table", { name: p.name })));
    }
    if (!mine.length || gone.length < others.length) return;
    const wait = Math.max(...gone.map(waitFor));
    if (wait > 0) {
      box.append(html("div", { class: "hint" }, t("If nobody comes back within {s} s you can claim the win or abort.", { s: Math.ceil(wait) })));
      return;
    }
    const claim = (what) => async () => {
      try {
        await this.request({ type: "claim", what });
      } catch (err) {
        this.onError(err.message);
      }
    };
    box.append(
      html("button", { class: "btn primary", "data-button": "claim-win", onclick: claim("win") }, t("Claim the win")), " ",
      html("button", { class: "btn", "data-button": "claim-abort", onclick: claim("abort") }, t("Abort the game")));
  }

  tick() {
    if (!this.snap) return;
    const playing = this.snap.status === "playing";
    const now = performance.now();
    let due = playing && now - this.lastSync > RESYNC_MS; // resync clock and presence
    if (this.clock) {
      this.renderClocks();
      const c = this.clock;
      const left = playing && c.running !== null ? this.shown(c.running) : null;
      if (left !== null && left <= 0 && !this.asked) due = true; // the flag: the server drops it
    }
    if (due) {
      this.asked = true;
      this.lastSync = now;
      this.request({ type: "clock" }).then((msg) => {
        if (msg.presence && this.snap) {
          this.snap = { ...this.snap, presence: msg.presence };
          this.presenceAt = performance.now();
        }
        this.setClock(msg.clock);
      }).catch(() => {});
    }
    if (this.snap.presence && playing) this.renderPresence();
  }
}
