"""The server's error messages in the reader's language.

Errors keep their stable ``code`` and English ``message`` for programs (``docs/protocol.md``);
a request or WebSocket whose language is not English (``i18n.request_language``) gets the
message translated. A message the catalogue holds word for word is translated whole; any other
(most say which move or seat, e.g. ``"it is not your turn (seat 2 to move)"``) becomes the
translated sentence of its code followed by the English detail, so nothing said is lost:

>>> translate_error("pt", "stale", "that move was for an old position")
'A posição mudou: atualize e jogue outra vez. (that move was for an old position)'
>>> translate_error("en", "stale", "that move was for an old position")
'that move was for an old position'

The msgids are marked with ``N_`` for ``scripts/i18n_update.py``.
"""

from __future__ import annotations

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
)


def translate_error(lang: str, code: str, message: str) -> str:
    """``message`` (of error ``code``) in ``lang``: whole when the catalogue has it, else the
    code's sentence with the English detail in brackets; English unchanged."""
    if lang == i18n.DEFAULT or lang not in i18n.LANGUAGES:
        return message
    whole = i18n.gettext(lang, message)
    if whole != message:
        return whole
    sentence = CODE_SENTENCES.get(code)
    if sentence is None:
        return message
    return f"{i18n.gettext(lang, sentence)} ({message})"
