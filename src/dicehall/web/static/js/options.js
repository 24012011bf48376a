// Human words for the games' options: a label, an explanation shown under the field (phones have
// no tooltips), words for each choice, and when a field matters at all (the backgammon cube and
// match fields only where they apply). The option names and values are the server's
// (GET /api/catalog); an option not listed here falls back to its name and description.

import { t } from "./i18n.js";

/** {game: {option: {label, help, choices: {value: words}, when(values), group}}} */
export function optionWords() {
  return {
    backgammon: {
      scoring: {
        label: t("Scoring"),
        help: t("Single: every win scores 1, as in the Portuguese rules. Standard: a gammon scores 2 and a backgammon 3."),
        choices: { single: t("single (every win 1)"), standard: t("standard (gammons and backgammons)") },
      },
      cube: {
        label: t("Doubling cube"),
        help: t("Before rolling, a player may double the stakes; the other takes (plays on for twice as much) or passes (loses now)."),
        group: "cube",
      },
      match_length: {
        label: t("Match to (points)"),
        help: t("0: money play, one game or a session. A number: a match to that many points, with the cube."),
        group: "cube",
        when: (v) => v.cube,
      },
      crawford: {
        label: t("Crawford rule"),
        help: t("No doubling in the one game after a player first comes within one point of winning the match."),
        group: "cube",
        when: (v) => v.cube && v.match_length > 0,
      },
      games: {
        label: t("Games in the session"),
        help: t("Money play: how many games are played, with the points added up."),
        group: "cube",
        when: (v) => v.cube && !v.match_length,
      },
      jacoby: {
        label: t("Jacoby rule"),
        help: t("Money play: gammons and backgammons count only once the cube has been turned."),
        group: "cube",
        when: (v) => v.cube && !v.match_length,
      },
      beavers: {
        label: t("Beavers"),
        help: t("Money play: a doubled player may redouble at once and keep the cube."),
        group: "cube",
        when: (v) => v.cube && !v.match_length,
      },
      raccoons: {
        label: t("Raccoons"),
        help: t("With beavers: the doubler may answer a beaver by doubling again."),
        group: "cube",
        when: (v) => v.cube && !v.match_length && v.beavers,
      },
      max_cube: {
        label: t("Highest cube value"),
        help: t("The cube stops at this value."),
        group: "cube",
        when: (v) => v.cube,
      },
    },
    coinrows: {
      purse: {
        label: t("Coins each"),
        help: t("Each player starts with this many coins; player 1 puts 5 of them on the board, player 2 puts 2."),
      },
      leaving: {
        label: t("Players may leave"),
        help: t("On: in Phase A a player may end the game and keep what he has. The computer leaves as soon as it leads, so games against it are short; off by default here."),
        lobbyDefault: false,
      },
      capture: {
        label: t("Capture"),
        help: t("Row: a capture takes every coin of the row. Adjacent: one run of two or more coins in neighbouring columns."),
        choices: { row: t("the whole row"), adjacent: t("a run of neighbouring coins") },
      },
      turn_limit: { label: t("Turn limit"), help: t("The game ends after this many turns.") },
      opening: {
        label: t("Opening coins"),
        help: t("Coins player 1 and player 2 put on their home rows at the start: the seed's 5-2, or a fairer start found by the exact solver."),
      },
      payoff: {
        label: t("Result"),
        help: t("Win or loss: +1, 0 or -1. Coins: each player's net gain or loss of coins."),
        choices: { result: t("win, draw or loss"), coins: t("coins won or lost") },
      },
    },
    whitedie: {
      players: { label: t("Players"), help: t("Two to six players; the computer takes every seat but yours.") },
      target: { label: t("Points to win"), help: t("The first player to reach this score wins.") },
      poker_chart: {
        label: t("Poker chart"),
        help: t("Standard: four of a kind 6, straight 4, three of a kind 3, two pairs 2, a pair 1. No straights: straights score 0. Flat: four of a kind 4, straight 3."),
        choices: { standard: t("standard"), "no-straights": t("no straights"), flat: t("flat") },
      },
    },
  };
}

/** A game's title in the page's language (the server's English title for a game we do not know). */
export function gameTitle(name, title) {
  return { backgammon: t("Backgammon"), coinrows: t("Coin Rows"), whitedie: t("White Die") }[name] || title || name;
}

/** The groups of fields drawn as their own fieldset: {game: {group: legend}}. */
export function optionGroups() {
  return { backgammon: { cube: t("Cube and match") } };
}

/** Human words for one option: {label, help, choices, when, group, lobbyDefault}. */
export function wordsFor(game, option) {
  const words = optionWords()[game]?.[option.name] || {};
  return {
    label: words.label || option.name.replace(/_/g, " "),
    help: words.help || option.description || "",
    choices: words.choices || {},
    when: words.when || (() => true),
    group: words.group || null,
    lobbyDefault: words.lobbyDefault,
  };
}

/** One line for a game's options, in words ("Doubling cube: on, Match to (points): 7"). */
export function describeOptions(game, options, catalogOptions = []) {
  const specs = new Map(catalogOptions.map((o) => [o.name, o]));
  const parts = [];
  for (const [name, value] of Object.entries(options || {})) {
    const spec = specs.get(name) || { name, description: "" };
    if (specs.size && spec.default === value) continue; // only what differs from the default
    const words = wordsFor(game, spec);
    const shown = typeof value === "boolean" ? (value ? t("on") : t("off")) : words.choices[value] || String(value);
    parts.push(`${words.label}: ${shown}`);
  }
  return parts.join(", ");
}
