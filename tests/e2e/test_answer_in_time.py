"""Discord fails an interaction not answered within 3 seconds. Right after start every language
answers in time, and when the work is slow on purpose the user gets "thinking…" (or a pending
edit) at once and the answer as a follow-up — for a slash command, a button and a modal."""
from __future__ import annotations

import asyncio
import threading
import time
from datetime import date

import pytest
from babel import Locale, localedata
from babel.dates import format_date

from bot import babel_data, i18n
from bot.languages import BABEL_LOCALE, DISCORD_LOCALES, LANGUAGES
from bot.rulings.command import ruling
from tests.e2e.helpers import answer_of, custom_ids, embed_text, module_of, option

DISCORD_LIMIT = 3.0   # seconds Discord waits for the first response to an interaction
SLOW = 4.0            # what the slowed-down core sleeps before it works


@pytest.fixture
def cold_caches(e2e_env):
    """No message catalog or Babel locale data loaded yet in this process: the bot loads its own."""
    i18n._translations.cache_clear()
    i18n._locale.cache_clear()
    localedata._cache.clear()


@pytest.fixture
def slow_down(discord_bot, monkeypatch):
    """The test-only hook: the core function ``module.name`` sleeps SLOW seconds, then works."""
    def slow_down(module: str, name: str) -> None:
        loaded = module_of(discord_bot, module)
        original = getattr(loaded, name)

        def slow(*args, **kwargs):
            time.sleep(SLOW)
            return original(*args, **kwargs)
        monkeypatch.setattr(loaded, name, slow)
    return slow_down


async def timed(coro):
    started = time.perf_counter()
    result = await coro
    return result, time.perf_counter() - started


async def test_the_first_ruling_in_each_language_after_start_is_answered_in_time(cold_caches, discord_bot):
    """A language's messages and Babel data are loaded by its first command, or by the background
    warm-up after READY, whichever comes first: each first answer is in time and in its language,
    its dates as Babel writes them in that language."""
    fake, services = discord_bot.fake, discord_bot.bot.services
    late = {}
    for lang in LANGUAGES:
        answer, elapsed = await timed(fake.slash("ruling", [option("card", "Defossilize")],
                                                 locale=DISCORD_LOCALES[lang][0]))
        if elapsed >= DISCORD_LIMIT:
            late[lang] = round(elapsed, 2)
        assert answer.type in (4, 5), lang   # the answer, or "thinking…" before it
        message = await answer_of(fake, answer)
        expected = await asyncio.to_thread(ruling, services, "Defossilize", lang)
        assert message["embeds"][0]["title"] == expected.pages[0].title, lang
        published = date.fromisoformat(expected.data["rulings"][0]["published_at"])
        assert format_date(published, format="long", locale=Locale.parse(BABEL_LOCALE[lang])) in embed_text(message)
    assert not late, f"first answers later than Discord's {DISCORD_LIMIT} s: {late}"
    assert all(isinstance(i18n._locale(lang), babel_data.CompiledLocale) for lang in LANGUAGES)


async def test_a_slow_ruling_is_deferred_at_once_and_answered_after(discord_bot, slow_down):
    fake = discord_bot.fake
    slow_down("cogs.ruling", "ruling_command")
    answer, elapsed = await timed(fake.slash("ruling", [option("card", "defossilizzare")], locale="it"))
    assert answer.type == 5 and elapsed < DISCORD_LIMIT   # "thinking…", in time
    assert not answer.data.get("flags", 0) & 64            # as public as the answer will be
    # the event loop is free meanwhile: someone else's autocomplete is answered before it ends
    other = await fake.autocomplete("ruling", [option("card", "tishana", focused=True)], locale="fr",
                                    user=fake.new_user("Other"))
    assert other.data["choices"] and fake.messages[answer.message_id]["embeds"] == []
    kind, message = await fake.next_edit(answer.token, timeout=SLOW + 10)
    assert kind == "followup"
    assert "Defossilizzare (Defossilize)" in embed_text(message)
    assert message["allowed_mentions"]["parse"] == []


async def test_a_slow_button_is_deferred_at_once_and_the_message_edited_after(discord_bot, slow_down):
    fake = discord_bot.fake
    answer = await fake.slash("ruling", [option("card", "defossilizzare")], locale="it")
    assert "wf:ruling:originals" in custom_ids(await answer_of(fake, answer))
    slow_down("cogs.ruling", "ruling_command")
    pressed, elapsed = await timed(fake.click((await answer_of(fake, answer))["id"], "wf:ruling:originals", locale="it"))
    assert pressed.type == 6 and elapsed < DISCORD_LIMIT   # a pending edit of the message, in time
    kind, message = await fake.next_edit(pressed.token, timeout=SLOW + 10)
    assert kind == "edit" and message["id"] == (await answer_of(fake, answer))["id"]
    assert "Originale inglese" in embed_text(message)
    assert "If a resolving spell or ability" in embed_text(message)
    assert message["allowed_mentions"]["parse"] == []


async def test_a_slow_decklist_is_deferred_at_once_and_answered_after(discord_bot, slow_down):
    fake = discord_bot.fake
    opened = await fake.slash("explore", [{"name": "deck", "type": 2, "options": [
        {"name": "save", "type": 1, "options": [{"name": "name", "type": 3, "value": "mine"}]}]}], locale="de")
    assert opened.type == 9
    slow_down("bot.explore.decks", "parse")
    submit = {"custom_id": opened.data["custom_id"], "components": [{"type": 1, "components": [
        {"type": 4, "custom_id": "wf:explore:decklist", "value": "4 Jadelight Ranger\n20 Forest\n"}]}]}
    answer, elapsed = await timed(fake.send(fake.interaction(5, submit, locale="de")))
    assert answer.type == 5 and elapsed < DISCORD_LIMIT
    assert answer.data["flags"] & 64                       # "thinking…" privately, as the answer
    kind, message = await fake.next_edit(answer.token, timeout=SLOW + 10)
    assert kind == "followup"
    assert message["content"] == i18n.messages("de")._("Deck “{deck}” saved ({count} cards).", deck="mine", count=24)


async def test_a_slow_private_answer_after_a_public_thinking_stays_private(discord_bot, slow_down):
    fake = discord_bot.fake
    slow_down("cogs.ruling", "ruling_command")
    answer = await fake.slash("ruling", [option("card", "???")], locale="fr")
    assert answer.type == 5 and not answer.data.get("flags", 0) & 64   # the answer's kind was not known yet
    kind, message = await fake.next_edit(answer.token, timeout=SLOW + 10)
    assert kind == "followup" and message["flags"] & 64                # an error is said privately
    assert message["content"] == i18n.messages("fr")._("That name has no letters or digits in it.")
    assert answer.message_id not in fake.messages                      # the public "thinking…" is gone


async def test_autocompletes_given_up_on_do_not_hold_up_the_commands_behind_them(discord_bot):
    """With every catalog worker busy, autocompletes that wait past their budget answer no choices
    and are dropped: once the workers are free, a /ruling does not wait behind them."""
    fake = discord_bot.fake
    loaded = module_of(discord_bot, "cogs.ruling")
    original, release, calls = loaded.autocomplete_choices, threading.Event(), []

    def held(*args):
        calls.append(args[1])
        release.wait(SLOW + 10)
        return original(*args)
    loaded.autocomplete_choices = held
    try:
        typed = ["tishana", "jadelight", "defossil", "explore", "merfolk", "ranger"]   # more than the workers
        answers = await asyncio.gather(*(fake.autocomplete("ruling", [option("card", text, focused=True)])
                                         for text in typed))
        assert all(answer.data["choices"] == [] for answer in answers)
        started = len(calls)
        assert 0 < started < len(typed)
    finally:
        release.set()
        loaded.autocomplete_choices = original
    message = await answer_of(fake, await fake.slash("ruling", [option("card", "defossilizzare")], locale="it"))
    assert "Defossilizzare (Defossilize)" in embed_text(message)
    assert len(calls) == started, f"autocompletes nobody waits for ran after: {calls[started:]}"
