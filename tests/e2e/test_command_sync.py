"""The slash commands are put on Discord when they changed, not at every start: Discord keeps an
application's commands, and putting them all again spends its daily allowance of command updates.
A restart whose commands are the ones Discord has answers without putting them; a start after a
translation changed puts them, the new text in them; a start after the commands were deleted or
replaced on Discord (another deployment of the application, with its own settings database) puts
them back; WAYFINDER_SYNC_COMMANDS=force puts them at that start."""
from __future__ import annotations

import logging
import os
import shutil

import pytest

from bot import i18n
from tests.e2e.conftest import assert_nothing_went_wrong
from tests.e2e.helpers import TOKEN, answer_of, embed_text, option, start_bot, stop_bot
from tests.fake_discord import FakeDiscord

DESCRIPTION = "Show a card's official rulings in your language"   # /ruling's, in the catalogs
FRENCH = "Affiche les clarifications officielles d'une carte dans votre langue"
NEW_FRENCH = "Les clarifications officielles d'une carte, dans votre langue"


@pytest.fixture
def fresh_catalogs():
    """Each start below reads the message catalogs as a new process would."""
    i18n._translations.cache_clear()
    yield
    i18n._translations.cache_clear()


async def start(caplog, held: dict, ask: bool = False) -> FakeDiscord:
    """A start of the bot (its settings database the test's) until it is ready, and answers a
    /ruling if ``ask``; the fake Discord it reached, the bot stopped. ``held``: the commands Discord
    holds for the application, kept from one start to the next as on Discord."""
    fake = FakeDiscord(token=TOKEN, commands=held)   # the same application at every start, as with a real token
    await fake.start()
    try:
        bot, task = await start_bot(fake)
        try:
            if ask:
                answer = await answer_of(fake, await fake.slash("ruling", [option("card", "Jadelight Ranger")]))
                assert "Jadelight Ranger" in embed_text(answer)
        finally:
            await stop_bot(bot, task)
    finally:
        await fake.close()
    assert_nothing_went_wrong(fake, caplog)
    return fake


def puts(fake: FakeDiscord) -> list:
    return [r for r in fake.requests if r.method == "PUT" and r.path.endswith("/commands")]


async def synced(caplog) -> dict:
    """The commands Discord holds for the application once a first start put them."""
    caplog.set_level(logging.INFO)
    held = {}
    assert len(puts(await start(caplog, held))) == 1
    return held


async def put_back(caplog, held: dict, ask: bool = False) -> None:
    """A start puts the commands on Discord again, once: the next one finds them as it left them."""
    back = await start(caplog, held, ask)
    assert len(puts(back)) == 1 and french_description(back) == FRENCH
    assert puts(await start(caplog, held)) == []


def french_description(fake: FakeDiscord) -> str:
    ruling = next(c for c in fake.commands["global"] if c["name"] == "ruling")
    assert ruling["description"] == DESCRIPTION
    return ruling["description_localizations"]["fr"]


async def test_a_restart_puts_the_commands_on_discord_only_when_they_changed(e2e_env, fresh_catalogs, monkeypatch,
                                                                            caplog):
    caplog.set_level(logging.INFO)
    held = {}
    first = await start(caplog, held)
    assert len(puts(first)) == 1 and french_description(first) == FRENCH

    again = await start(caplog, held, ask=True)   # nothing changed: Discord has them, and the bot answers
    assert puts(again) == [] and french_description(again) == FRENCH

    # a new version of the French catalog: the next start puts the commands, with the new text
    locales = e2e_env / "locales"
    shutil.copytree(i18n.LOCALES_DIR, locales, ignore=shutil.ignore_patterns("*.mo"))
    po = i18n.po_path("fr", locales)
    text = po.read_text(encoding="utf-8")
    assert f'msgstr "{FRENCH}"' in text
    po.write_text(text.replace(f'msgstr "{FRENCH}"', f'msgstr "{NEW_FRENCH}"'), encoding="utf-8")
    i18n.write_compiled(po)
    monkeypatch.setattr(i18n, "LOCALES_DIR", locales)
    i18n._translations.cache_clear()
    changed = await start(caplog, held)
    assert len(puts(changed)) == 1 and french_description(changed) == NEW_FRENCH

    i18n._translations.cache_clear()
    assert puts(await start(caplog, held)) == []   # and it is recorded as what Discord has now


async def test_commands_deleted_on_discord_are_put_back_at_the_next_start(e2e_env, fresh_catalogs, caplog):
    held = await synced(caplog)
    held.clear()   # someone deleted them on Discord
    await put_back(caplog, held, ask=True)


async def test_commands_replaced_by_another_deployment_are_put_back(e2e_env, fresh_catalogs, monkeypatch, caplog):
    held = await synced(caplog)
    ours = {c["name"]: c["version"] for c in held["global"]}

    # another deployment of the same application, with its own settings database, puts its own
    ours_db = os.environ["WAYFINDER_SETTINGS_DB"]
    monkeypatch.setenv("WAYFINDER_SETTINGS_DB", str(e2e_env / "other-settings.sqlite3"))
    assert len(puts(await start(caplog, held))) == 1
    assert all(c["version"] != ours[c["name"]] for c in held["global"])   # every version changed

    # ours again: Discord holds what it did not put, so it puts its own back, once
    monkeypatch.setenv("WAYFINDER_SETTINGS_DB", ours_db)
    await put_back(caplog, held)


async def test_force_puts_the_commands_at_that_start(e2e_env, fresh_catalogs, monkeypatch, caplog):
    held = await synced(caplog)
    assert puts(await start(caplog, held)) == []
    monkeypatch.setenv("WAYFINDER_SYNC_COMMANDS", "force")
    assert len(puts(await start(caplog, held))) == 1
    monkeypatch.setenv("WAYFINDER_SYNC_COMMANDS", "1")   # recorded as what Discord has: the next start does not
    assert puts(await start(caplog, held)) == []


async def test_a_start_that_cannot_ask_discord_goes_on(e2e_env, fresh_catalogs, monkeypatch, caplog):
    """Discord refuses the GET of the commands: the start logs it and goes on, keeping
    what it last put when nothing changed here."""
    held = await synced(caplog)
    monkeypatch.setattr(FakeDiscord, "_held", refuse)
    assert puts(await start(caplog, held)) == []
    assert any("could not ask Discord which slash commands it holds" in r.getMessage() for r in caplog.records)


async def refuse(self, request):
    from aiohttp import web
    return web.json_response({"message": "403: Forbidden", "code": 50001}, status=403)


async def test_commands_gone_from_the_development_server_are_put_back_there_alone(e2e_env, fresh_catalogs,
                                                                                   monkeypatch, caplog):
    caplog.set_level(logging.INFO)
    guild = "123456789012345678"
    monkeypatch.setenv("WAYFINDER_DEV_GUILD", guild)
    held = {}
    assert len(puts(await start(caplog, held))) == 2   # globally, and on the development server
    del held[guild]   # the application was removed from the server, then added again
    again = await start(caplog, held)
    assert [r.path.endswith(f"/guilds/{guild}/commands") for r in puts(again)] == [True]
    assert {c["name"] for c in held[guild]} == {c["name"] for c in held["global"]}
    assert puts(await start(caplog, held)) == []
