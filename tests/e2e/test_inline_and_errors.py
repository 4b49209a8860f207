"""Inline [[card]] (message-content intent on), one error handler with a reference id, and /explore
honouring the server's settings."""
import logging
import re

import pytest

from tests.e2e.helpers import answer_of, module_of, start_bot, stop_bot
from tests.e2e.helpers import embed_text, option
from tests.fake_discord.payloads import snowflake
from tests.fake_discord.server import ADMIN_PERMISSIONS


def setting(name, value):
    return [{"name": name, "type": 1, "options": [{"name": "value", "type": 3, "value": value}]}]


def message_create(fake, content, author):
    return {"id": snowflake(), "channel_id": fake.channel_id, "guild_id": fake.guild_id, "author": author,
            "member": {"roles": [], "joined_at": "2024-01-01T00:00:00+00:00", "deaf": False, "mute": False},
            "content": content, "timestamp": "2024-01-01T00:00:00+00:00", "edited_timestamp": None, "tts": False,
            "mention_everyone": False, "mentions": [], "mention_roles": [], "attachments": [], "embeds": [],
            "pinned": False, "type": 0, "flags": 0, "components": []}


async def test_inline_cards_answer_in_the_servers_language_with_a_rulings_button(discord_bot, monkeypatch):
    fake = discord_bot.fake
    monkeypatch.setenv("WAYFINDER_MESSAGE_CONTENT", "1")
    await stop_bot(discord_bot.bot, discord_bot.task)
    discord_bot.bot, discord_bot.task = await start_bot(fake)
    assert fake.identify[-1]["intents"] & (1 << 15), "the message-content intent is asked for"
    await fake.slash("settings", setting("inline", "on"), permissions=ADMIN_PERMISSIONS)
    await fake.slash("settings", setting("language", "it"), permissions=ADMIN_PERMISSIONS)
    author = fake.new_user("Talker")
    await fake.dispatch("MESSAGE_CREATE", message_create(
        fake, "what do [[defossilize]] and [[guidevoie]] do? and [[a]] [[b]] [[c]] @everyone", author))
    kind, reply = await fake.next_edit("channel")
    assert "Defossilizzare (Defossilize)" in reply["content"]
    assert "Apripista di Tishana (Tishana's Wayfinder)" in reply["content"]
    assert reply["content"].count("\n") <= 2          # three cards at most
    assert reply["allowed_mentions"]["parse"] == []
    buttons = [c for row in reply["components"] for c in row["components"]]
    assert buttons[0]["custom_id"].startswith("wf:inline:")
    opened = await fake.click(reply["id"], buttons[0]["custom_id"], locale="it")
    assert (await answer_of(fake, opened))["flags"] & 64 and "Se una magia" in embed_text(await answer_of(fake, opened))


async def test_inline_cards_follow_the_servers_locale_then_the_users_own_language(discord_bot, monkeypatch):
    """With the server's reply language on "auto", a message (which carries no locale of its
    author) is answered in the user's own /language, else in the server's Discord locale."""
    fake = discord_bot.fake
    monkeypatch.setenv("WAYFINDER_MESSAGE_CONTENT", "1")
    fake.guild_locale = "fr"
    await stop_bot(discord_bot.bot, discord_bot.task)
    discord_bot.bot, discord_bot.task = await start_bot(fake)
    await fake.slash("settings", setting("inline", "on"), permissions=ADMIN_PERMISSIONS)
    author = fake.new_user("Talker")
    await fake.dispatch("MESSAGE_CREATE", message_create(fake, "[[tishana's wayfinder]]", author))
    kind, reply = await fake.next_edit("channel")
    assert "Guidevoie de Tishana (Tishana's Wayfinder)" in reply["content"]
    await fake.slash("language", [option("value", "de")], user=author)
    await fake.dispatch("MESSAGE_CREATE", message_create(fake, "[[tishana's wayfinder]]", author))
    kind, reply = await fake.next_edit("channel")
    assert "Tishanas Pfadfinderin (Tishana's Wayfinder)" in reply["content"]


async def test_inline_cards_stay_quiet_when_the_setting_is_off(shared_bot):
    fake = shared_bot.fake
    await fake.dispatch("MESSAGE_CREATE", message_create(fake, "[[defossilize]]", fake.new_user()))
    with pytest.raises(TimeoutError):
        await fake.next_edit("channel", timeout=0.5)


async def test_an_unexpected_error_gives_a_reference_and_logs_the_traceback(shared_bot, monkeypatch, caplog):
    def broken(*args, **kwargs):
        raise RuntimeError("the catalog fell over")

    monkeypatch.setattr(module_of(shared_bot, "cogs.ruling"), "ruling_command", broken)
    answer = await shared_bot.fake.slash("ruling", [option("card", "nicanzil")], locale="fr")
    match = re.match(r"Une erreur s'est produite \(référence ([0-9a-f]{8})\)", (await answer_of(shared_bot.fake, answer))["content"])
    assert match and (await answer_of(shared_bot.fake, answer))["flags"] & 64
    assert "Traceback" not in (await answer_of(shared_bot.fake, answer))["content"] and "fell over" not in (await answer_of(shared_bot.fake, answer))["content"]
    logged = [r for r in caplog.records if r.name == "wayfinder.errors"]
    assert logged and match.group(1) in logged[0].getMessage() and logged[0].exc_info
    caplog.clear()   # the error was expected: the fixture checks that nothing else went wrong


async def test_explore_uses_the_servers_default_deck_and_private_replies(discord_bot):
    fake = discord_bot.fake
    await fake.slash("settings", setting("deck", "lost-caverns"), permissions=ADMIN_PERMISSIONS)
    await fake.slash("settings", setting("private", "on"), permissions=ADMIN_PERMISSIONS)
    answer = await fake.slash("explore", [{"name": "run", "type": 1, "options": [
        {"name": "explorer", "type": 3, "value": "Nicanzil"}, {"name": "seed", "type": 3, "value": "3"}]}])
    assert "Deck: lost-caverns" in embed_text(await answer_of(fake, answer)) and (await answer_of(fake, answer))["flags"] & 64
    logging.getLogger(__name__).info("ok")
