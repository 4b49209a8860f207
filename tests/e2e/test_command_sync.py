"""The slash commands are put on Discord when they changed, not at every start: Discord keeps an
application's commands, and putting them all again spends its daily allowance of command updates.
A restart whose commands are the ones Discord has answers without putting them; a start after a
translation changed puts them, the new text in them."""
from __future__ import annotations

import logging
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


async def start(caplog, ask: bool = False) -> FakeDiscord:
    """A start of the bot (its settings database the test's) until it is ready, and answers a
    /ruling if ``ask``; the fake Discord it reached, the bot stopped."""
    fake = FakeDiscord(token=TOKEN)   # the same application at every start, as with a real token
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


def french_description(fake: FakeDiscord) -> str:
    ruling = next(c for c in fake.commands["global"] if c["name"] == "ruling")
    assert ruling["description"] == DESCRIPTION
    return ruling["description_localizations"]["fr"]


async def test_a_restart_puts_the_commands_on_discord_only_when_they_changed(e2e_env, fresh_catalogs, monkeypatch,
                                                                            caplog):
    caplog.set_level(logging.INFO)
    first = await start(caplog)
    assert len(puts(first)) == 1 and french_description(first) == FRENCH

    again = await start(caplog, ask=True)   # nothing changed: Discord has them, and the bot answers
    assert puts(again) == [] and not again.commands

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
    changed = await start(caplog)
    assert len(puts(changed)) == 1 and french_description(changed) == NEW_FRENCH

    i18n._translations.cache_clear()
    assert puts(await start(caplog)) == []   # and it is recorded as what Discord has now
