"""Pig as a dicehall plug-in: the whole declaration is this one entry."""

from dicehall.core.declaration import GameEntry

ENTRY = GameEntry(
    "pig",
    rules="dicehall_pig.rules:Pig",
    bots="dicehall_pig.bots:BOTS",
    terminal_view="dicehall_pig.views:TERMINAL",
    web_view="dicehall_pig.views:WEB",
    statistics="dicehall_pig.views:statistics",
)
