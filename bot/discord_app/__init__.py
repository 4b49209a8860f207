"""The discord.py adapters: the Bot subclass, the command translator and the shared views.

The only place in ``bot`` that imports discord; the cogs build on it.
"""
from bot.discord_app.tls import import_aiohttp

import_aiohttp()
