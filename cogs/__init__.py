"""Thin discord.py extensions: read the interaction, call the core, draw embeds and views."""
