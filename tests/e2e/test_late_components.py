"""Buttons, menus and forms nothing waits for any more — on messages sent before a restart, or a
form submitted after it expired — still answer: from their custom id where that is enough (a rule,
a card's rulings, a decklist), else with one line saying what expired and what to run again."""
from bot.i18n import messages
from bot.settings.store import MAX_DECK_NAME
from tests.e2e.helpers import answer_of, custom_ids, embed_text, module_of, option, start_bot, stop_bot
from tests.fake_discord import payloads


def sub(command, **options):
    return [{"name": command, "type": 1, "options": [
        {"name": k, "type": 4 if isinstance(v, int) else 3, "value": v} for k, v in options.items()]}]


def old_message(fake, component: dict) -> str:
    """A message the bot sent before it restarted, with one component: no view of this run has it."""
    message_id = payloads.snowflake()
    fake.messages[message_id] = payloads.message(message_id, fake.channel_id, fake.bot_user,
                                                 {"content": "…", "components": [{"type": 1, "components": [component]}]},
                                                 fake.guild_id)
    return message_id


def menu(custom_id: str, value: str) -> dict:
    return {"type": 3, "custom_id": custom_id, "options": [{"label": value, "value": value}]}


def button(custom_id: str) -> dict:
    return {"type": 2, "style": 2, "label": "…", "custom_id": custom_id}


async def private(fake, callback) -> dict:
    message = await answer_of(fake, callback)
    assert message["flags"] & 64, message
    assert message["allowed_mentions"] == {"parse": []}
    return message


async def test_menus_and_rule_buttons_of_old_messages_open_what_they_offer(shared_bot):
    fake = shared_bot.fake
    jadelight = shared_bot.bot.services.catalog.card_by_english_name("Jadelight Ranger").oracle_id
    for custom_id in ("wf:ruling:rule", "wf:explore:rule"):
        opened = await fake.click(old_message(fake, menu(custom_id, "701.44")), custom_id, component_type=3,
                                  values=["701.44"], locale="fr")
        assert "701.44. Explore" in embed_text(await private(fake, opened))
        assert "Règles complètes" in embed_text(await private(fake, opened))   # the reader's language
    go = await fake.click(old_message(fake, button("wf:rule:go:701.44a")), "wf:rule:go:701.44a")
    assert "701.44a" in embed_text(await private(fake, go))
    asked = await fake.click(old_message(fake, menu("wf:ask:open", f"card:{jadelight}")), "wf:ask:open",
                             component_type=3, values=[f"card:{jadelight}"], locale="it")
    assert "Ranger della Luce di Giada (Jadelight Ranger)" in embed_text(await private(fake, asked))
    picked = await fake.click(old_message(fake, menu("wf:pick", f"id:{jadelight}")), "wf:pick",
                              component_type=3, values=[f"id:{jadelight}"], locale="de")
    assert "Jadelight Ranger" in embed_text(await private(fake, picked))


async def test_buttons_whose_state_is_gone_say_so_in_one_line(shared_bot):
    fake = shared_bot.fake
    replay = await fake.click(old_message(fake, button("wf:explore:replay")), "wf:explore:replay", locale="fr")
    assert (await private(fake, replay))["content"] == messages("fr")._(
        "This game has expired. Run {command} again, with the same seed to replay it.", command="/explorer lancer")
    for custom_id in ("wf:ruling:next", "wf:rule:page-prev", "wf:settings:reset", "wf:explore:deck-edit"):
        pressed = await fake.click(old_message(fake, button(custom_id)), custom_id, locale="de")
        assert (await private(fake, pressed))["content"] == messages("de")._(
            "These buttons have expired. Run the command again."), custom_id


async def test_after_a_restart_a_message_still_opens_its_rules_and_its_game_says_it_expired(discord_bot):
    fake = discord_bot.fake
    ruling = await answer_of(fake, await fake.slash("ruling", [option("card", "Jadelight Ranger")], locale="es-ES"))
    game = await answer_of(fake, await fake.slash("explore", sub("run", deck="ixalan", explorer="Jadelight Ranger",
                                                                      seed="42")))
    assert "wf:ruling:rule" in custom_ids(ruling) and "wf:explore:replay" in custom_ids(game)
    await stop_bot(discord_bot.bot, discord_bot.task)
    discord_bot.bot, discord_bot.task = await start_bot(fake)
    opened = await fake.click(ruling["id"], "wf:ruling:rule", component_type=3, values=["701.44"], locale="es-ES")
    assert "701.44. Explore" in embed_text(await private(fake, opened))
    replay = await fake.click(game["id"], "wf:explore:replay", locale="es-ES")
    assert (await private(fake, replay))["content"] == messages("es")._(
        "This game has expired. Run {command} again, with the same seed to replay it.", command="/explorar ejecutar")
    stale = await fake.click(ruling["id"], "wf:ruling:originals", locale="es-ES")
    assert (await private(fake, stale))["content"] == messages("es")._(
        "These buttons have expired. Run the command again.")


async def test_a_decklist_form_submitted_after_it_expired_or_a_restart_is_saved(discord_bot):
    fake = discord_bot.fake
    opened = await fake.slash("explore", [{"name": "deck", "type": 2, "options": sub("save", name="late: night")}],
                              locale="it")
    assert opened.type == 9
    await stop_bot(discord_bot.bot, discord_bot.task)    # the form is forgotten, as after its hour
    discord_bot.bot, discord_bot.task = await start_bot(fake)

    def submitted(custom_id):
        return fake.interaction(5, {"custom_id": custom_id, "components": [{"type": 1, "components": [
            {"type": 4, "custom_id": "wf:explore:decklist", "value": "4 Jadelight Ranger\n20 Forest\n"}]}]},
            locale="it")

    saved = await private(fake, await fake.send(submitted(opened.data["custom_id"])))
    assert saved["content"] == messages("it")._("Deck “{deck}” saved ({count} cards).", deck="late: night", count=24)
    listed = await answer_of(fake, await fake.slash("explore", [{"name": "deck", "type": 2, "options": sub("list")}]))
    assert "late: night" in embed_text(listed)
    older = await private(fake, await fake.send(submitted("wf:explore:deck-modal:1234")))  # a form of an older version
    assert older["content"] == messages("it")._("This form has expired. Run the command again.")


async def test_a_late_decklist_form_whose_id_names_no_deck_save_would_take_is_refused(shared_bot):
    """A crafted or old custom id saves nothing the command itself would refuse: a name too long
    to delete again, empty or padded with spaces, or a form submitted outside a server."""
    fake = shared_bot.fake
    before = await shared_bot.bot.settings.deck_names(int(fake.guild_id))

    def submitted(name, guild=True):
        return fake.interaction(5, {"custom_id": f"wf:explore:deck-modal:1:{name}", "components": [
            {"type": 1, "components": [{"type": 4, "custom_id": "wf:explore:decklist",
                                        "value": "4 Jadelight Ranger\n20 Forest\n"}]}]}, locale="ko", guild=guild)

    for payload in (submitted("x" * (MAX_DECK_NAME + 1)), submitted(" padded "), submitted(" "),
                    submitted("in private", guild=False)):
        refused = await private(fake, await fake.send(payload))
        assert refused["content"] == messages("ko")._("This form has expired. Run the command again.")
    assert await shared_bot.bot.settings.deck_names(int(fake.guild_id)) == before


async def test_a_live_view_answers_alone(shared_bot):
    """What a live view waits for is not also answered late (Discord accepts one answer)."""
    fake = shared_bot.fake
    answer = await answer_of(fake, await fake.slash("ruling", [option("card", "defossilizzare")], locale="it"))
    pressed = await fake.click(answer["id"], "wf:ruling:originals", locale="it")
    picked = await fake.click(answer["id"], "wf:ruling:rule", component_type=3, values=["701.44"], locale="it")
    assert "Originale inglese" in embed_text(await answer_of(fake, pressed))
    assert "701.44. Explore" in embed_text(await answer_of(fake, picked))
    await fake.settle()
    for callback in (pressed, picked):
        answers = [r for r in fake.requests if r.path.endswith(f"/{callback.token}/callback")]
        assert len(answers) == 1, [r.body for r in answers]


async def test_an_unloaded_cog_answers_nothing_late_and_a_reloaded_one_answers_again(discord_bot):
    """What a cog answers late goes with it when it unloads (the buttons say they expired) and
    comes back, once and from the code loaded anew, when it loads again."""
    fake, bot = discord_bot.fake, discord_bot.bot
    jadelight = bot.services.catalog.card_by_english_name("Jadelight Ranger").oracle_id
    offers = {"cogs.rule": (button("wf:rule:go:701.44a"), {}, "701.44a"),
              "cogs.ruling": (menu("wf:ruling:rule", "701.44"), {"component_type": 3, "values": ["701.44"]},
                              "701.44. Explore"),
              "cogs.explore": (menu("wf:explore:rule", "701.44"), {"component_type": 3, "values": ["701.44"]},
                               "701.44. Explore"),
              "cogs.ask": (menu("wf:ask:open", f"card:{jadelight}"),
                           {"component_type": 3, "values": [f"card:{jadelight}"]}, "Jadelight Ranger"),
              "cogs.inline": (button(f"wf:inline:{jadelight}"), {}, "Jadelight Ranger")}

    async def press(component, options):
        pressed = await fake.click(old_message(fake, component), component["custom_id"], locale="fr", **options)
        return await private(fake, pressed)

    expired = messages("fr")._("These buttons have expired. Run the command again.")
    for extension in offers:
        await bot.unload_extension(extension)
    for extension, (component, options, _) in offers.items():
        assert (await press(component, options))["content"] == expired, extension
    for extension in offers:
        await bot.load_extension(extension)
    for extension, (component, options, shown) in offers.items():
        assert shown in embed_text(await press(component, options)), extension
    # reloaded: the new code answers (the old cog's answer was taken back, not left first in line)
    await bot.reload_extension("cogs.rule")
    module = module_of(discord_bot, "cogs.rule")
    asked = []
    real = module.show_rule

    async def show_rule(interaction, services, number, lang):
        asked.append(number)
        await real(interaction, services, number, lang)

    module.show_rule = show_rule
    component, options, shown = offers["cogs.rule"]
    assert shown in embed_text(await press(component, options))
    assert asked == ["701.44a"]
