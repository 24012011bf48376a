// Small DOM and SVG helpers shared by the pages and the board modules (see docs/web-games.md).

const SVG_NS = "http://www.w3.org/2000/svg";

function build(node, attrs, children) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      node.addEventListener(key.slice(2), value);
    } else if (key === "text") {
      node.textContent = value;
    } else if (key === "style" && typeof value === "object") {
      Object.assign(node.style, value);
    } else {
      node.setAttribute(key, value === true ? "" : String(value));
    }
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** An SVG element: svg("circle", {cx: 5, cy: 5, r: 3, class: "legal"}, ...children). */
export function svg(tag, attrs = {}, ...children) {
  return build(document.createElementNS(SVG_NS, tag), attrs, children);
}

/** An HTML element: html("button", {class: "btn", onclick: f}, "Roll"). */
export function html(tag, attrs = {}, ...children) {
  return build(document.createElement(tag), attrs, children);
}

/** Remove every child of `node`. */
export function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
  return node;
}

const PIPS = {
  1: [[0, 0]],
  2: [[-1, -1], [1, 1]],
  3: [[-1, -1], [0, 0], [1, 1]],
  4: [[-1, -1], [1, -1], [-1, 1], [1, 1]],
  5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]],
  6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]],
};

/** An SVG die showing `value` (1..6) with its top-left corner at (x, y). */
export function dieFace(x, y, size, value, attrs = {}) {
  const g = svg("g", { class: "die", "data-die": value, ...attrs });
  g.append(svg("rect", { x, y, width: size, height: size, rx: size * 0.18, class: "die-body" }));
  const c = size / 2;
  const d = size * 0.26;
  for (const [dx, dy] of PIPS[value] || []) {
    g.append(svg("circle", { cx: x + c + dx * d, cy: y + c + dy * d, r: size * 0.09, class: "die-pip" }));
  }
  return g;
}

/** Slide `node` from (dx, dy) away back to where it is, in `ms` milliseconds. */
export function animateTranslate(node, dx, dy, ms = 300) {
  if (!node || (!dx && !dy) || window.matchMedia?.("(prefers-reduced-motion: reduce)").matches) return;
  if (node.animate) {
    node.animate(
      [{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "translate(0px, 0px)" }],
      { duration: ms, easing: "ease-out" },
    );
  }
}

/** The CSS colour of a seat (variables --seat0 .. --seat5 in css/app.css). */
export function seatColor(seat) {
  return `var(--seat${seat})`;
}

/** Escape text for use inside innerHTML (prefer textContent where possible). */
export function escapeText(text) {
  return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Attributes that make an SVG element a button: click, Enter/Space, focusable.
 *  `onKey` runs before `fn` when the key was used (boards remember focus with it). */
export function pressable(fn, label, onKey = () => {}) {
  if (!fn) return {};
  return {
    onclick: fn,
    onkeydown: (e) => {
      if (e.key !== "Enter" && e.key !== " ") return;
      e.preventDefault();
      onKey();
      fn();
    },
    tabindex: 0,
    role: "button",
    "aria-label": label,
  };
}
