"""/explore end to end: seeded runs, the choice buttons, odds with a chart, decklists in a modal."""
import re

from tests.e2e.helpers import ANSWERED_OR_DEFERRED, answer_of, custom_ids, edited, embed_text


def sub(command, **options):
    return [{"name": command, "type": 1, "options": [
        {"name": k, "type": 4 if isinstance(v, int) else 3, "value": v} for k, v in options.items()]}]


async def test_the_same_seed_gives_the_same_run(shared_bot):
    fake = shared_bot.fake
    first = await fake.slash("explore", sub("run", deck="ixalan", explorer="Jadelight Ranger", seed="42"))
    second = await fake.slash("explore", sub("run", deck="ixalan", explorer="Jadelight Ranger", seed="42"))
    assert first.type in (4, 5)
    assert embed_text(await answer_of(fake, first)) == embed_text(await answer_of(fake, second))
    assert "seed 42" in embed_text(await answer_of(fake, first))
    assert "CR 701.44a" in embed_text(await answer_of(fake, first))


@ANSWERED_OR_DEFERRED
async def test_choice_buttons_work_refuse_others_and_replay(shared_bot):
    fake = shared_bot.fake
    answer = await fake.slash("explore", sub("run", deck="ixalan", explorer="Jadelight Ranger", seed="42"),
                              locale="fr")
    ids = custom_ids(await answer_of(fake, answer))
    assert ids[:2] == ["wf:explore:choose:keep", "wf:explore:choose:graveyard"]
    assert "La laisser au-dessus ou la mettre au cimetière ?" in (await answer_of(fake, answer))["content"]
    stranger = await fake.click((await answer_of(fake, answer))["id"], "wf:explore:choose:graveyard", user=fake.new_user(), locale="fr")
    assert (await answer_of(fake, stranger))["flags"] & 64 and "Seule la personne" in (await answer_of(fake, stranger))["content"]
    chosen = await fake.click((await answer_of(fake, answer))["id"], "wf:explore:choose:graveyard", locale="fr")
    assert chosen.type in (6, 7)
    assert "va au cimetière (ce n'est pas meuler)" in embed_text(await answer_of(fake, chosen))
    replay = await fake.click((await answer_of(fake, answer))["id"], "wf:explore:replay", locale="fr")
    assert embed_text(await answer_of(fake, replay)) == embed_text(await answer_of(fake, answer))
    fresh = await fake.click((await answer_of(fake, answer))["id"], "wf:explore:new-seed", locale="fr")
    assert not re.search(r"graine 42\b", embed_text(await answer_of(fake, fresh)))   # a new seed may begin with 42


async def test_bad_seed_and_unknown_deck_are_localized_errors(shared_bot):
    fake = shared_bot.fake
    bad = await fake.slash("explore", sub("run", deck="ixalan", explorer="Jadelight Ranger", seed="abc"), locale="de")
    assert (await answer_of(fake, bad))["flags"] & 64 and (await answer_of(fake, bad))["content"].startswith("Der Startwert muss eine ganze Zahl")
    missing = await fake.slash("explore", sub("run", deck="mystery", explorer="Jadelight Ranger"), locale="es-ES")
    assert (await answer_of(fake, missing))["content"].startswith("No hay ningún mazo llamado «mystery».")
    absent = await fake.slash("explore", sub("run", deck="ixalan", explorer="Defossilize"), locale="en-US")
    assert (await answer_of(fake, absent))["content"] == "Defossilize is not in the deck."


def no_chart_kept(monkeypatch) -> None:
    """Forget the charts drawn by earlier tests in this process, so that this test's are drawn."""
    from collections import OrderedDict

    from bot.explore import chart
    monkeypatch.setattr(chart, "_drawn", OrderedDict())


def odds_ixalan(times=4):
    return sub("odds", deck="ixalan", explorer="Jadelight Ranger", times=times)


@ANSWERED_OR_DEFERRED
async def test_odds_are_seen_at_once_and_their_png_chart_follows(discord_bot, monkeypatch):
    no_chart_kept(monkeypatch)
    fake = discord_bot.fake
    answer = await fake.slash("explore", odds_ixalan())
    assert answer.type in (4, 5)   # directly, or deferred when slower than the answer budget
    again = await fake.slash("explore", odds_ixalan())
    assert "try again in" in (await answer_of(fake, again))["content"]
    first = await answer_of(fake, answer)
    assert "59.32% (35/59)" in embed_text(first)   # the exact odds, before the chart is drawn
    assert not first["attachments"] and "image" not in first["embeds"][0]
    final = await edited(fake, answer)
    assert "59.32% (35/59)" in embed_text(final) and not final["content"]
    assert final["embeds"][0]["image"]["url"] == "attachment://odds.png"
    chart = final["attachments"][0]
    assert chart["filename"] == "odds.png" and chart["size"] > 1000
    # the same odds asked again (by someone else: the cooldown is per user): the chart kept comes at once
    kept = await answer_of(fake, await fake.slash("explore", odds_ixalan(), user=fake.new_user()))
    assert "59.32% (35/59)" in embed_text(kept)
    assert kept["embeds"][0]["image"]["url"] == "attachment://odds.png"
    assert kept["attachments"][0]["filename"] == "odds.png" and kept["attachments"][0]["size"] == chart["size"]


@ANSWERED_OR_DEFERRED
async def test_a_chart_that_cannot_be_drawn_leaves_the_odds_and_says_so(discord_bot, monkeypatch):
    from bot.explore import chart
    no_chart_kept(monkeypatch)

    def broken(text, lang):
        raise RuntimeError("no canvas")
    monkeypatch.setattr(chart, "draw_png", broken)
    fake = discord_bot.fake
    answer = await fake.slash("explore", odds_ixalan(3), locale="fr")
    first = await answer_of(fake, answer)
    assert "Lands to hand" not in embed_text(first) and "Terrains en main" in embed_text(first)
    final = await edited(fake, answer)
    assert final["content"] == "Le graphique n'a pas pu être dessiné : les probabilités sont affichées sans lui."
    assert final["embeds"] == first["embeds"] and not final["attachments"]   # the odds stay, as they were


@ANSWERED_OR_DEFERRED
async def test_a_pasted_decklist_with_one_bad_line_reports_that_line(discord_bot):
    fake = discord_bot.fake
    opened = await fake.slash("explore", [{"name": "deck", "type": 2, "options": sub("save", name="mine")}])
    assert opened.type == 9
    decklist = "4 Jadelight Ranger\n20 Forest\n4 Zzqqxx Nothing\n"
    submit = {"custom_id": opened.data["custom_id"], "components": [
        {"type": 1, "components": [{"type": 4, "custom_id": "wf:explore:decklist", "value": decklist}]}]}
    answer = await fake.send(fake.interaction(5, submit))
    assert (await answer_of(fake, answer))["content"].startswith("Line 3: no card named “Zzqqxx Nothing”.")
    reopened = await fake.click((await answer_of(fake, answer))["id"], "wf:explore:deck-edit")
    assert reopened.type == 9
    field = reopened.data["components"][0]["components"][0]
    assert field["value"] == decklist, "the pasted list comes back, nothing is lost"
    good = await fake.send(fake.interaction(5, {"custom_id": reopened.data["custom_id"], "components": [
        {"type": 1, "components": [{"type": 4, "custom_id": "wf:explore:decklist", "value": "4 Jadelight Ranger\n20 Forest\n"}]}]}))
    assert (await answer_of(fake, good))["content"] == "Deck “mine” saved (24 cards)."
    opened = await fake.slash("explore", [{"name": "deck", "type": 2, "options": sub("save", name="mine")}])
    run = await fake.slash("explore", sub("run", deck="mine", explorer="Jadelight Ranger", seed="1"))
    assert "Deck: mine" in embed_text(await answer_of(fake, run))


def deck_form(opened, decklist):
    return {"custom_id": opened.data["custom_id"], "components": [
        {"type": 1, "components": [{"type": 4, "custom_id": "wf:explore:decklist", "value": decklist}]}]}


async def test_two_people_saving_decks_at_once_each_get_their_own(discord_bot):
    fake = discord_bot.fake
    alice, bob = fake.new_user("Alice"), fake.new_user("Bob")
    alice_form = await fake.slash("explore", [{"name": "deck", "type": 2, "options": sub("save", name="alice-deck")}],
                                  user=alice)
    bob_form = await fake.slash("explore", [{"name": "deck", "type": 2, "options": sub("save", name="bob-deck")}],
                                user=bob)
    assert alice_form.type == bob_form.type == 9
    alice_saved = await fake.send(fake.interaction(5, deck_form(alice_form, "4 Jadelight Ranger\n20 Forest\n"),
                                                   user=alice))
    assert (await answer_of(fake, alice_saved))["content"] == "Deck “alice-deck” saved (24 cards)."
    bob_saved = await fake.send(fake.interaction(5, deck_form(bob_form, "4 Merfolk Branchwalker\n30 Forest\n"),
                                                 user=bob))
    assert (await answer_of(fake, bob_saved))["content"] == "Deck “bob-deck” saved (34 cards)."
    on_alice = await fake.slash("explore", sub("run", deck="alice-deck", explorer="Jadelight Ranger", seed="1"))
    assert "Deck: alice-deck" in embed_text(await answer_of(fake, on_alice))
    on_bob = await fake.slash("explore", sub("run", deck="bob-deck", explorer="Jadelight Ranger", seed="1"))
    assert (await answer_of(fake, on_bob))["content"] == "Jadelight Ranger is not in the deck."


@ANSWERED_OR_DEFERRED
async def test_closing_the_bot_while_an_odds_chart_is_drawn_drops_the_chart_quietly(discord_bot, monkeypatch):
    """The odds are answered, then the bot closes before their chart is drawn: the chart is not
    attached, and nothing is logged as an error (discord_bot's teardown checks the log)."""
    import asyncio

    from bot.explore import chart
    from tests.e2e.helpers import module_of, stop_bot, until
    from tests.helpers import held
    no_chart_kept(monkeypatch)
    drawing, release = held(monkeypatch, chart, "draw_png")
    cog = module_of(discord_bot, "cogs.explore")
    real_edit, edits = cog.edit_answer, []

    async def edit_answer(*args, **kwargs):
        try:
            await real_edit(*args, **kwargs)
        finally:
            edits.append(discord_bot.bot.is_closed())
    monkeypatch.setattr(cog, "edit_answer", edit_answer)
    fake, bot = discord_bot.fake, discord_bot.bot
    answer = await fake.slash("explore", odds_ixalan(2))
    assert "Jadelight Ranger" in embed_text(await answer_of(fake, answer))
    assert await asyncio.to_thread(drawing.wait, 60)
    closing = asyncio.create_task(stop_bot(bot, discord_bot.task))
    await until(bot.is_closed)
    release.set()
    await closing
    await until(lambda: not [t for t in asyncio.all_tasks() if t.get_name() == "CommandTree-invoker"])
    assert True not in edits, "the chart was attached to an answer after the bot closed"
