// Light or dark: the system's choice (prefers-color-scheme) unless the reader picked one with the
// switch in the header, remembered in localStorage. A classic script loaded in <head>, so the
// page is painted in the right colours from the start (CSS: :root[data-theme] in css/app.css).
// The switch cycles: as the system -> light -> dark; its labels come from the server-rendered
// page (data-label-auto/-light/-dark), already in the page's language.
(function () {
  const KEY = "dicehall.theme";
  const root = document.documentElement;

  function stored() {
    try {
      const v = localStorage.getItem(KEY);
      return v === "light" || v === "dark" ? v : "auto";
    } catch {
      return "auto";
    }
  }

  function apply(choice) {
    if (choice === "auto") delete root.dataset.theme;
    else root.dataset.theme = choice;
    const button = document.getElementById("theme-switch");
    if (button) {
      button.textContent = button.dataset[`label${choice[0].toUpperCase()}${choice.slice(1)}`] || button.textContent;
      button.dataset.choice = choice;
    }
  }

  /** The theme in effect: "light" or "dark". */
  function effective() {
    const choice = stored();
    if (choice !== "auto") return choice;
    return window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
  }

  apply(stored());
  window.dicehallTheme = { effective, choice: stored };
  document.addEventListener("DOMContentLoaded", () => {
    const button = document.getElementById("theme-switch");
    apply(stored());
    if (!button) return;
    button.addEventListener("click", () => {
      const next = { auto: "light", light: "dark", dark: "auto" }[stored()];
      try {
        if (next === "auto") localStorage.removeItem(KEY);
        else localStorage.setItem(KEY, next);
      } catch {
        /* private mode: the choice lasts for this page only */
      }
      apply(next);
    });
  });
})();
