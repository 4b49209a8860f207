"""The cards whose abilities the explore engine knows, and the rulings it cites.

Every other card is a plain card: a land or a nonland by its front face's type line.
"""
from __future__ import annotations

# When it enters, it explores N times ("X": the X paid to cast it).
EXPLORES_ON_ENTERING = {
    "Merfolk Branchwalker": 1, "Tishana's Wayfinder": 1, "Queen's Agent": 1, "Seekers' Squire": 1,
    "Ixalli's Diviner": 1, "Jadelight Ranger": 2, "Jadelight Spelunker": "X",
}
CREATES_MAP_ON_ENTERING = {"Topography Tracker"}
TARGET_EXPLORES_ON_ENTERING = {"Twists and Turns"}          # target creature you control explores
CREATURES_ENTERING_EXPLORE = {"Path of Discovery"}          # whenever a creature enters under your control
EXPLORES_WHEN_ATTACKING_EQUIPMENT = {"Glowcap Lantern"}     # the equipped creature explores when it attacks
MAP_TOKEN = "Map"                                           # {1}, {T}, sacrifice: target creature you control explores
RETURNS_AND_EXPLORES_TWICE = {"Defossilize"}

# Whenever a creature you control explores …
PAYOFFS = {"Wildgrowth Walker", "Nicanzil, Current Conductor", "Merfolk Cave-Diver", "Shadowed Caravel"}

# If a creature you control would explore, instead …
REPLACEMENTS = {
    "Topography Tracker": "twice",   # … it explores, then it explores again
    "Twists and Turns": "scry",      # … you scry 1, then that creature explores
}

# The rulings cited by the events, as published (2023-11-10 for The Lost Caverns of Ixalan).
RULINGS = {
    "ruling:how": "If an ability instructs a creature to explore, its controller reveals the top card of their "
                  "library. If it's a land card, they'll put it into their hand. Otherwise, they'll put a +1/+1 "
                  "counter on that creature, then choose to either leave that card on top of their library or "
                  "put it into their graveyard.",
    "ruling:left": "If a resolving spell or ability instructs a specific creature to explore but that creature "
                   "has left the battlefield, the creature still explores. If you reveal a nonland card this way, "
                   "you won't put a +1/+1 counter on anything, but you may put the revealed card into your "
                   "graveyard. Effects that trigger \"whenever a creature explores\" trigger as appropriate.",
    "ruling:left-before": "If a creature leaves the battlefield before an effect instructs it to explore, it "
                          "still explores. Abilities like Nicanzil's that trigger whenever a creature you "
                          "control explores will still trigger.",
    "ruling:empty": "If no card is revealed, most likely because that player's library is empty, the exploring "
                    "creature receives a +1/+1 counter.",
    "ruling:noncreature": "In some unusual cases, noncreature permanents may explore. For example, if the "
                          "creature card returned by Defossilize is somehow not a creature once it's on the "
                          "battlefield, it can still explore. You'll take all the same actions, and you may end "
                          "up putting a +1/+1 counter on the permanent.",
    "ruling:again": "Some spells or abilities might cause a creature to explore multiple times in a row. If you "
                    "reveal a nonland card when a creature explores and leave it on top of your library, then "
                    "the creature explores again immediately afterwards, you'll reveal the same card again.",
    "ruling:no-actions": "Once an ability that causes a creature to explore begins to resolve, no player may "
                         "take any other actions until it's done. Notably, opponents can't try to remove the "
                         "exploring creature after you reveal a nonland card but before it receives a counter.",
    "ruling:nicanzil-after": "Nicanzil's first ability won't resolve until after you're done exploring. You may "
                             "put any land card from your hand onto the battlefield, including the land card you "
                             "explored (if it's still in your hand) or one that was already in your hand.",
    "ruling:nicanzil-revealed": "Nicanzil, Current Conductor's triggered abilities care about the characteristics "
                                "of the card as it was revealed while a creature explored. It doesn't matter what "
                                "happened to the card after that.",
}
RULING_DATE = "2023-11-10"
