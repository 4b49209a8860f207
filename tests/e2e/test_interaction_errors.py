"""An unexpected error in a button, a select, a modal submit or an autocomplete still answers the
user: privately, in their language, with the reference id the log carries beside the traceback."""
import re
import sys

from bot.i18n import messages
from tests.e2e.helpers import answer_of, custom_ids, module_of, option
from tests.fake_discord import payloads


def broken(*args, **kwargs):
    raise RuntimeError("the core fell over")


async def assert_answered(fake, answer, lang, caplog):
    """A private message in ``lang`` whose reference id is the one logged with the traceback."""
    message = await answer_of(fake, answer)
    assert message["flags"] & 64, (answer.body, message)
    content = message["content"]
    match = re.search(r"\b([0-9a-f]{8})\b", content)
    assert match, content
    reference = match.group(1)
    assert content == messages(lang)._("Something went wrong (reference {ref}). It has been logged.", ref=reference)
    assert "fell over" not in content and "Traceback" not in content
    logged = [r for r in caplog.records if r.name == "wayfinder.errors" and reference in r.getMessage()]
    assert logged and logged[0].exc_info and "fell over" in str(logged[0].exc_info[1])
    caplog.clear()   # the error was expected: the fixture checks that nothing else went wrong


def sub(command, **options):
    return [{"name": command, "type": 1, "options": [
        {"name": k, "type": 4 if isinstance(v, int) else 3, "value": v} for k, v in options.items()]}]


async def test_a_failing_button_answers_with_a_reference(shared_bot, monkeypatch, caplog):
    fake = shared_bot.fake
    answer = await fake.slash("explore", sub("run", deck="ixalan", explorer="Jadelight Ranger", seed="42"))
    assert "wf:explore:replay" in custom_ids(await answer_of(fake, answer))
    monkeypatch.setattr(module_of(shared_bot, "cogs.explore"), "run_command", broken)
    failed = await fake.click((await answer_of(fake, answer))["id"], "wf:explore:replay", locale="de")
    await assert_answered(fake, failed, "de", caplog)


async def test_a_failing_select_answers_with_a_reference(shared_bot, monkeypatch, caplog):
    fake = shared_bot.fake
    answer = await fake.slash("ruling", [option("card", "jadelight")], locale="ja")
    assert "wf:pick" in custom_ids(await answer_of(fake, answer))
    value = (await answer_of(fake, answer))["components"][0]["components"][0]["options"][0]["value"]
    monkeypatch.setattr(module_of(shared_bot, "cogs.ruling"), "ruling_command", broken)
    failed = await fake.click((await answer_of(fake, answer))["id"], "wf:pick", component_type=3, values=[value], locale="ja")
    await assert_answered(fake, failed, "ja", caplog)


async def test_a_failing_modal_submit_answers_with_a_reference(discord_bot, monkeypatch, caplog):
    fake = discord_bot.fake
    opened = await fake.slash("explore", [{"name": "deck", "type": 2, "options": sub("save", name="mine")}],
                              locale="es-ES")
    assert opened.type == 9
    monkeypatch.setattr(sys.modules["bot.explore.decks"], "parse", broken)
    submit = {"custom_id": opened.data["custom_id"], "components": [
        {"type": 1, "components": [{"type": 4, "custom_id": "wf:explore:decklist", "value": "20 Forest"}]}]}
    failed = await fake.send(fake.interaction(5, submit, locale="es-ES"))
    await assert_answered(fake, failed, "es", caplog)


async def test_a_failing_inline_rulings_button_answers_with_a_reference(shared_bot, monkeypatch, caplog):
    fake = shared_bot.fake
    message_id = payloads.snowflake()
    button = {"type": 2, "style": 2, "label": "Rulings",
              "custom_id": "wf:inline:00000000-0000-4000-8000-000000000000"}
    fake.messages[message_id] = payloads.message(message_id, fake.channel_id, fake.bot_user,
                                                 {"content": "Opt", "components": [{"type": 1, "components": [button]}]},
                                                 fake.guild_id)
    monkeypatch.setattr(sys.modules["bot.rulings.command"], "ruling", broken)   # what the button calls
    failed = await fake.click(message_id, button["custom_id"], locale="fr")
    await assert_answered(fake, failed, "fr", caplog)


async def test_a_failing_autocomplete_offers_nothing_and_logs(shared_bot, monkeypatch, caplog):
    fake = shared_bot.fake
    working = await fake.autocomplete("ruling", [option("card", "jadel", focused=True)])
    assert working.type == 8 and working.data["choices"]
    monkeypatch.setattr(module_of(shared_bot, "cogs.ruling"), "autocomplete_choices", broken)
    failed = await fake.autocomplete("ruling", [option("card", "jadel", focused=True)])
    assert failed.type == 8 and failed.data["choices"] == []
    logged = [r for r in caplog.records if r.name == "wayfinder.errors"]
    assert logged and "/ruling" in logged[0].getMessage() and "fell over" in str(logged[0].exc_info[1])
    caplog.clear()
