"""/settings end to end, with the settings in SQLite and in PostgreSQL: admins only (declared and
checked again), kept across a restart, honoured by /ruling and /explore; mentions never ping; the
token never shows."""
import pytest

from tests.e2e.helpers import ANSWERED_OR_DEFERRED, answer_of, start_bot, stop_bot
from tests.e2e.helpers import embed_text, option
from tests.fake_discord.server import ADMIN_PERMISSIONS, MEMBER_PERMISSIONS


def setting(name, value):
    return [{"name": name, "type": 1, "options": [{"name": "value", "type": 3, "value": value}]}]


@pytest.fixture
def e2e_settings_db(settings_db) -> str:
    """Every test here runs with the settings in SQLite and in PostgreSQL."""
    return settings_db


SETTINGS = [("language", "fr"), ("machine", "hide"), ("originals", "beside"), ("private", "on"),
            ("inline", "on"), ("deck", "ixalan"), ("policy", "keep")]


async def test_the_command_is_declared_for_managers_only(discord_bot):
    command = next(c for c in discord_bot.fake.commands["global"] if c["name"] == "settings")
    assert int(command["default_member_permissions"]) == 1 << 5


async def test_members_without_manage_guild_are_refused_every_setting(discord_bot):
    fake = discord_bot.fake
    member = fake.new_user("Member")
    for name, value in SETTINGS + [("reset", None)]:
        options = [{"name": "reset", "type": 1, "options": []}] if value is None else setting(name, value)
        # the server owner may have opened the command to everyone: the run-time check still refuses
        answer = await fake.slash("settings", options, user=member, permissions=MEMBER_PERMISSIONS, locale="it")
        assert (await answer_of(fake, answer))["flags"] & 64, name
        assert (await answer_of(fake, answer))["content"] == "Serve il permesso Gestisci server per cambiare queste impostazioni.", name
    shown = await fake.slash("settings", [{"name": "show", "type": 1, "options": []}], user=member, locale="it")
    assert "Lingua delle risposte" in embed_text(await answer_of(fake, shown))


async def test_an_admin_change_survives_a_restart_and_changes_ruling_for_everyone(discord_bot, e2e_env):
    fake = discord_bot.fake
    saved = await fake.slash("settings", setting("language", "fr"), permissions=ADMIN_PERMISSIONS)
    assert (await answer_of(fake, saved))["content"].startswith("Paramètre enregistré : Langue des réponses")
    await stop_bot(discord_bot.bot, discord_bot.task)
    discord_bot.bot, discord_bot.task = await start_bot(fake)
    reader = fake.new_user("Reader")
    answer = await fake.slash("ruling", [option("card", "agente da rainha")], user=reader, locale="it")
    assert "Agent de la reine (Queen's Agent)" in embed_text(await answer_of(fake, answer))


async def test_every_member_may_set_their_own_language(discord_bot):
    """/language is a command of its own: /settings is declared for managers only, and Discord
    sets permissions per top-level command."""
    command = next(c for c in discord_bot.fake.commands["global"] if c["name"] == "language")
    assert command.get("default_member_permissions") is None
    assert {c["value"] for c in command["options"][0]["choices"]} >= {"auto", "de", "ja", "zht"}
    assert "me" not in {o["name"] for c in discord_bot.fake.commands["global"] if c["name"] == "settings"
                        for o in c["options"]}
    fake = discord_bot.fake
    user = fake.new_user("Traveller")
    chosen = await fake.slash("language", [option("value", "ja")], user=user, guild=False, locale="en-US")
    assert (await answer_of(fake, chosen))["content"] == "あなたの言語は日本語になりました。"   # in a direct message
    ruling = await fake.slash("ruling", [option("card", "tishana")], user=user, permissions=MEMBER_PERMISSIONS,
                              locale="en-US")
    assert "ティシャーナの道探し (Tishana's Wayfinder)" in embed_text(await answer_of(fake, ruling))


async def test_a_users_own_language_beats_the_servers_auto(discord_bot):
    fake = discord_bot.fake
    user = fake.new_user("Polyglot")
    answer = await fake.slash("language", [option("value", "de")], user=user, permissions=MEMBER_PERMISSIONS,
                              locale="en-US")
    assert (await answer_of(fake, answer))["content"] == "Deine Sprache ist jetzt: Deutsch."
    ruling = await fake.slash("ruling", [option("card", "tishana")], user=user, locale="en-US")
    assert "Tishanas Pfadfinderin (Tishana's Wayfinder)" in embed_text(await answer_of(fake, ruling))


@ANSWERED_OR_DEFERRED
async def test_private_replies_and_english_originals_beside(discord_bot):
    fake = discord_bot.fake
    await fake.slash("settings", setting("private", "on"), permissions=ADMIN_PERMISSIONS)
    await fake.slash("settings", setting("originals", "beside"), permissions=ADMIN_PERMISSIONS)
    answer = await fake.slash("ruling", [option("card", "defossilizzare")], locale="it")
    assert (await answer_of(fake, answer))["flags"] & 64
    assert "Originale inglese" in embed_text(await answer_of(fake, answer))


async def test_reset_asks_for_confirmation(discord_bot):
    fake = discord_bot.fake
    await fake.slash("settings", setting("language", "ja"), permissions=ADMIN_PERMISSIONS)
    asked = await fake.slash("settings", [{"name": "reset", "type": 1, "options": []}], permissions=ADMIN_PERMISSIONS)
    assert "wf:settings:reset" in str((await answer_of(fake, asked))["components"])
    done = await fake.click((await answer_of(fake, asked))["id"], "wf:settings:reset", permissions=ADMIN_PERMISSIONS)
    assert done.type in (6, 7)
    answer = await fake.slash("ruling", [option("card", "nicanzil")], locale="en-US")
    assert "Nicanzil, Current Conductor" in embed_text(await answer_of(fake, answer)) and "の裁定" not in embed_text(await answer_of(fake, answer))


async def test_mentions_in_every_text_option_ping_nobody(discord_bot):
    fake = discord_bot.fake
    pings = "@everyone @here <@&123> <@456>"
    await answer_of(fake, await fake.slash("ruling", [option("card", pings)]))
    await answer_of(fake, await fake.slash("ruling", [option("card", "nicanzil"), option("search", pings)]))
    await answer_of(fake, await fake.slash("rule", [{"name": "query", "type": 3, "value": pings}]))
    for name, value in (("deck", pings), ("explorer", pings), ("seed", pings)):
        run = {"deck": "ixalan", "explorer": "Jadelight Ranger", name: value}
        await answer_of(fake, await fake.slash("explore", [{"name": "run", "type": 1, "options": [
            {"name": k, "type": 3, "value": v} for k, v in run.items()]}]))
    await answer_of(fake, await fake.slash("settings", setting("deck", pings), permissions=ADMIN_PERMISSIONS))
    bodies = fake.bodies_sent()
    assert len(bodies) >= 7
    for body in bodies:
        assert body.get("allowed_mentions", {}).get("parse") == [], body
        assert "@everyone" not in (body.get("content") or "")
