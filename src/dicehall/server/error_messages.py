"""The server's error messages in the reader's language.

Errors keep their stable ``code`` and English ``message`` for programs (``docs/protocol.md``);
a request or WebSocket whose language is not English (``i18n.request_language``) gets the
message translated:

- a message the catalogue holds word for word (every fixed message of the server,
  :data:`FIXED`) is translated whole;
- an error with details (which move, which seat, which moves are legal) carries them as a
  structured ``detail`` message (a msgid and its parameters, built by the functions below:
  :func:`illegal_detail`, :func:`out_of_turn_detail` ...): the translated sentence of its code
  followed by the detail translated, no English left;
- any other becomes the translated sentence of its code followed by the English message, so
  nothing said is lost.

>>> translate_error("pt", "out_of_turn", "it is not your turn (seat 2 to move)",
...                 out_of_turn_detail(1))
'Não é a sua vez. Joga o lugar 2.'
>>> translate_error("pt", "stale", "that move was for an old position")
'A posição mudou: atualize e jogue outra vez. (that move was for an old position)'
>>> translate_error("en", "stale", "that move was for an old position")
'that move was for an old position'

The msgids are marked with ``N_`` for ``scripts/i18n_update.py``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from dicehall.server import i18n


def N_(message: str) -> str:  # gettext's name for "mark, do not translate yet"
    """Mark ``message`` for extraction; it is translated where it is shown."""
    return message


#: one sentence per error code, for messages with details the catalogue cannot hold
CODE_SENTENCES: dict[str, str] = {
    "unknown_game": N_("There is no such game."),
    "bad_request": N_("The request was not understood."),
    "seat_taken": N_("That seat is taken."),
    "stale": N_("The position changed: refresh and play again."),
    "not_your_seat": N_("That is not your seat."),
    "out_of_turn": N_("It is not your turn."),
    "illegal_action": N_("That move is not legal."),
    "game_over": N_("The game is over."),
    "not_started": N_("The game has not started yet."),
    "not_finished": N_("The game is not finished yet."),
    "too_long": N_("That is too long."),
    "already_seeded": N_("The seed for the dice was already given."),
    "username_taken": N_("That username is taken."),
    "bad_login": N_("Wrong username or password."),
    "not_logged_in": N_("You are not logged in."),
    "unknown_player": N_("There is no such player."),
    "no_hints": N_("No hints in rated games."),
    "name_taken": N_("That name belongs to an account: log in, or choose another name."),
    "rate_limited": N_("Too many requests: slow down."),
    "disconnected": N_("The connection was lost."),
    "internal_error": N_("The server failed; the game is safe."),
}

#: messages the server sends word for word (translated whole)
FIXED: tuple[str, ...] = (
    N_("no hints in rated games"),
    N_("a hint is for the seat to move, in its turn"),
    N_("the analysis comes when the game is over"),
    N_("send a join message first"),
    N_("too many messages: slow down"),
    N_("that token holds no seat here: you are watching"),
    N_("the game is over"),
    N_("the game ended first"),
    N_("the game was abandoned (nobody played for too long)"),
    N_("the game has not started"),
    N_("the game has not started: leave it instead"),
    N_("the game waits for players to take their seats and send seeds"),
    N_("empty action"),
    N_("you hold no seat in this game: you can watch"),
    N_("every seat of this game is taken; watch it"),
    N_("you already have a seat in this rated game"),
    N_("the rematch has started without you"),
    N_("a rematch is offered when the game is over"),
    N_("only the players can ask for a rematch"),
    N_("only a player can give a seat its seed"),
    N_("only a player can claim"),
    N_("resign needs the token of one of your seats"),
    N_("none of this game's seats is bound to you"),
    N_("there is no other player to claim against"),
    N_("your time ran out: you lost on time"),
    N_("wrong username or password"),
    N_("wrong password"),
    N_("not logged in: you play as a guest"),
    N_("log in to change your password"),
    N_("log in to chat as a spectator"),
    N_("log in to chat in the lobby"),
    N_("log in to resume your seats of a game"),
    N_("log in to seek or challenge players"),
    N_("an empty chat message"),
    N_("a chat message is a text"),
    N_("only its seeker can cancel a seek"),
    N_("that challenge is for another player"),
    N_("that is your own seek: wait for an opponent"),
    N_("you cannot challenge yourself"),
    N_("somebody else took this seek first, or it expired"),
    N_("the seek is not open any more"),
    N_("there is no such seek (it may have been taken)"),
    N_("a username is 3 to 24 characters: letters, digits, _ or -"),
    N_(
        "send your player seed after the game's commitment is published: create "
        "without a seed, then POST /api/games/{id}/seed"
    ),
    N_("a clock has an increment or a delay per move, not both"),
    N_(
        "a time control is MINUTES+SECONDS (increment) or MINUTES+SECONDSd (delay), "
        "e.g. 3+2 or 5+12d"
    ),
    N_(
        'clock is null (untimed), a text like "3+2" or "5+12d", or '
        "{initial, increment, delay} in seconds"
    ),
    N_('claim "win" or "abort"'),
    N_("game must be a registered game name"),
    N_(
        "a rated game needs you logged in and an opponent (a bot or a friend), "
        "not local play; guests play casual games"
    ),
    N_("opponent 'human': use friend (by link) or local instead"),
    N_("options must be an object of at most 20 options"),
    N_("log in to play a rated game; guests play casual games"),
    N_("your seats have their seeds: a seed cannot change"),
)

#: why an action is illegal, as the rules say it (``IllegalActionError.reason``), where the
#: reason has no details; other reasons are left out of the translation (the legal actions
#: that follow say what can be played)
REASONS: tuple[str, ...] = (
    # backgammon
    N_("play the dice"),
    N_("you have a legal play and must make it"),
    N_("not a legal play of these dice"),
    N_("the dice must be rolled now"),
    N_("a roll of the dice is expected"),
    N_("a play needs the dice rolled"),
    N_("the game is over"),
    N_("answer the resignation: accept or reject"),
    N_("resign single, resign gammon or resign backgammon"),
    N_("roll the dice: write two dice 1..6 like 5-3"),
    # coin rows
    N_("the dice are being rolled: write the two dice, like 3-4"),
    N_("each die shows 1 to 6"),
    N_("leaving is not allowed in this game (leaving=false)"),
    N_("no row can be captured now"),
    N_("write roll: the dice are rolled for you"),
    N_("in Phase A write roll, capture N (a row 2-6) or leave"),
    N_("squares are a1 to g7: columns a-g, rows 1-7"),
    N_("a roll moves one coin or two different coins, not more"),
    # white die
    N_("empty action"),
    N_("not a legal action here"),
    N_("choose your opponent by seat number, e.g. 'opponent 2'"),
    N_("place a die by value and square, e.g. 'place 4 b1'"),
    N_("say which dice to reroll, e.g. 'reroll 2 5'"),
    N_("positions are numbers 1..4, e.g. '#1 #3'"),
    N_("die faces are 1..6"),
    N_("write the roll as 'white 5: 1 2 2 6'"),
)
_REASONS = frozenset(REASONS)
#: legal actions listed in a detail at most (all of them are in the error's ``legal``)
SHOWN = 20


# -- details: structured messages ({"id": msgid, "params": {...}}, i18n.message_text) -----
def _message(msgid: str, **params: Any) -> dict[str, Any]:
    return {"id": msgid, "params": params}


def illegal_detail(action: str, reason: str, legal: Sequence[str]) -> dict[str, Any]:
    """Why ``action`` is illegal and which actions are legal instead.

    >>> detail = illegal_detail("24/10", "not a legal play of these dice", ["8/2 6/5", "13/7 13/8"])
    >>> i18n.message_text("en", detail)
    '“24/10”: not a legal play of these dice. Legal: 8/2 6/5, 13/7 13/8.'
    >>> i18n.message_text("pt", detail)
    '«24/10»: não é uma jogada legal destes dados. Ações legais: 8/2 6/5, 13/7 13/8.'
    """
    if reason in _REASONS:
        what = _message(N_("“{action}”: {reason}."), action=action, reason=_message(reason))
    else:
        what = _message(N_("“{action}” cannot be played here."), action=action)
    if not legal:
        return what
    shown = ", ".join(legal[:SHOWN])
    listed: Any = shown
    if len(legal) > SHOWN:
        listed = _message(N_("{shown} and {n} more"), shown=shown, n=len(legal) - SHOWN)
    return _message(N_("{what} Legal: {legal}."), what=what, legal=listed)


def out_of_turn_detail(to_move: int) -> dict[str, Any]:
    """Whose turn it is (``to_move`` a 0-based seat)."""
    return _message(N_("Seat {seat} is to move."), seat=to_move + 1)


def stale_detail(seq: int, seen: int) -> dict[str, Any]:
    """The game is at action ``seq``; the request was made at ``seen``."""
    return _message(N_("The game is at action {seq}; you saw action {seen}."), seq=seq, seen=seen)


def whole(msgid: str, **params: Any) -> dict[str, Any]:
    """A structured message that says everything its error says (``ServiceError.said``): it
    is translated whole, in place of the code's sentence."""
    return {"id": msgid, "params": params, "whole": True}


def seat_taken_detail(seat: int) -> dict[str, Any]:
    """Seat ``seat`` (0-based) was taken just before."""
    return _message(N_("Seat {seat} was just taken."), seat=seat + 1)


def too_long_detail(limit: int) -> dict[str, Any]:
    """An action longer than ``limit`` characters."""
    return _message(N_("An action is at most {n} characters."), n=limit)


def translate_error(
    lang: str, code: str, message: str, detail: Mapping[str, Any] | None = None
) -> str:
    """``message`` (of error ``code``) in ``lang``: whole when the catalogue has it, else the
    code's sentence followed by the structured ``detail`` translated, else by the English
    message in brackets; English unchanged."""
    if lang == i18n.DEFAULT or lang not in i18n.LANGUAGES:
        return message
    whole = i18n.gettext(lang, message)
    if whole != message:
        return whole
    if detail and detail.get("whole"):
        return i18n.message_text(lang, detail)
    sentence = CODE_SENTENCES.get(code)
    if sentence is None:
        return message
    if detail:
        return f"{i18n.gettext(lang, sentence)} {i18n.message_text(lang, detail)}"
    return f"{i18n.gettext(lang, sentence)} ({message})"
