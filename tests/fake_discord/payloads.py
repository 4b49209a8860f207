"""Discord payloads, shaped as the real API sends them."""
from __future__ import annotations

import itertools
import time

_counter = itertools.count(1)
DISCORD_EPOCH = 1420070400000


def snowflake() -> str:
    return str(((int(time.time() * 1000) - DISCORD_EPOCH) << 22) + next(_counter))


def token_user_id(token: str) -> str:
    """The bot user's id a token names, as Discord writes it: its first part is the id, in base64.
    A bot's application has the same id as its user."""
    import base64
    first = token.split(".")[0]
    return base64.b64decode(first + "=" * (-len(first) % 4)).decode()


def user(user_id: str, name: str, bot: bool = False) -> dict:
    return {"id": user_id, "username": name, "global_name": name, "discriminator": "0", "avatar": None,
            "bot": bot, "public_flags": 0}


def member(user_obj: dict, permissions: int) -> dict:
    return {"user": user_obj, "roles": [], "joined_at": "2024-01-01T00:00:00+00:00", "deaf": False,
            "mute": False, "flags": 0, "pending": False, "nick": None, "avatar": None,
            "permissions": str(permissions)}


def guild(guild_id: str, owner_id: str, channel_id: str, locale: str = "en-US") -> dict:
    return {
        "id": guild_id, "name": "Test Guild", "icon": None, "owner_id": owner_id, "afk_channel_id": None,
        "afk_timeout": 300, "verification_level": 0, "default_message_notifications": 0,
        "explicit_content_filter": 0, "features": [], "mfa_level": 0, "system_channel_id": None,
        "system_channel_flags": 0, "rules_channel_id": None, "vanity_url_code": None, "description": None,
        "banner": None, "premium_tier": 0, "preferred_locale": locale, "public_updates_channel_id": None,
        "nsfw_level": 0, "premium_progress_bar_enabled": False, "emojis": [], "stickers": [],
        "roles": [{"id": guild_id, "name": "@everyone", "permissions": "0", "position": 0, "color": 0,
                   "hoist": False, "managed": False, "mentionable": False, "flags": 0}],
        "channels": [{"id": channel_id, "type": 0, "name": "general", "position": 0,
                      "permission_overwrites": [], "guild_id": guild_id, "nsfw": False, "topic": None,
                      "last_message_id": None, "rate_limit_per_user": 0, "parent_id": None}],
        "threads": [], "members": [], "voice_states": [], "presences": [], "stage_instances": [],
        "guild_scheduled_events": [], "member_count": 2, "large": False, "unavailable": False,
        "joined_at": "2024-01-01T00:00:00+00:00", "soundboard_sounds": [],
    }


def attachments(body: dict, files: list[dict] | None = None) -> list[dict]:
    """The attachments of a sent message as Discord returns them (id, size, urls), given the
    ``attachments`` of the payload and the uploaded ``files`` (files[n] is attachment n)."""
    sizes = [f.get("size", 0) for f in files or []]
    shaped = []
    for n, item in enumerate(body.get("attachments") or []):
        if "size" in item:   # already as Discord returns it
            shaped.append(item)
            continue
        ident = snowflake()
        url = f"https://cdn.discordapp.com/attachments/{ident}/{item['filename']}"
        shaped.append({"id": ident, "filename": item["filename"], "url": url, "proxy_url": url,
                       "size": sizes[n] if n < len(sizes) else 0})
    return shaped


def message(message_id: str, channel_id: str, author: dict, body: dict, guild_id: str | None = None,
            files: list[dict] | None = None) -> dict:
    return {
        "id": message_id, "channel_id": channel_id, "guild_id": guild_id, "author": author,
        "content": body.get("content") or "", "timestamp": "2024-01-01T00:00:00+00:00",
        "edited_timestamp": None, "tts": False, "mention_everyone": False, "mentions": [],
        "mention_roles": [], "attachments": attachments(body, files), "embeds": body.get("embeds") or [],
        "pinned": False, "type": 0, "flags": body.get("flags") or 0, "components": body.get("components") or [],
    }
