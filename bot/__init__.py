"""Wayfinder: a Magic: The Gathering rules bot.

The core (catalog, matcher, rulings, explore engine, decks, settings, i18n) imports nothing from
discord; ``create_bot`` builds the discord.py bot around it.
"""


def create_bot(*args, **client_options):
    """Build the discord.py bot; keyword arguments go to ``commands.Bot`` (e.g. ``connector=``)."""
    from bot.discord_app.bot import create_bot as _create_bot
    return _create_bot(*args, **client_options)


__all__ = ["create_bot"]
