"""A rule or a card's rulings opened privately from a menu or a button is shown whole: its pages
turned as /rule and /ruling turn them."""
from bot.i18n import messages
from tests.e2e.helpers import answer_of, custom_ids, embed_text, option
from tests.fake_discord import payloads


async def test_a_rule_opened_from_a_menu_is_shown_with_its_pages(shared_bot):
    fake = shared_bot.fake
    answer = await fake.slash("ruling", [option("card", "Jadelight Ranger")], locale="fr")
    opened = await fake.click((await answer_of(fake, answer))["id"], "wf:ruling:rule", component_type=3,
                              values=["704.5"], locale="fr")
    first = await answer_of(fake, opened)
    assert first["flags"] & 64 and "704.5a" in embed_text(first)
    assert custom_ids(first) == ["wf:rule:page-prev", "wf:rule:page-next"]
    turned = await fake.click(first["id"], "wf:rule:page-next", locale="fr")
    second = await answer_of(fake, turned)
    assert second["id"] == first["id"] and "Page 2" in embed_text(second)
    assert embed_text(second) != embed_text(first)


async def test_rulings_opened_from_a_button_are_shown_with_their_pages(shared_bot):
    fake = shared_bot.fake
    oracle_id = shared_bot.bot.services.catalog.card_by_english_name("Nicanzil, Current Conductor").oracle_id
    message_id = payloads.snowflake()
    button = {"type": 2, "style": 2, "label": "Rulings", "custom_id": f"wf:inline:{oracle_id}"}
    fake.messages[message_id] = payloads.message(message_id, fake.channel_id, fake.bot_user,
                                                 {"content": "Nicanzil", "components": [{"type": 1, "components": [button]}]},
                                                 fake.guild_id)
    opened = await answer_of(fake, await fake.click(message_id, button["custom_id"], locale="it"))
    assert opened["flags"] & 64 and "Nicanzil" in embed_text(opened)
    assert custom_ids(opened)[:2] == ["wf:ruling:prev", "wf:ruling:next"]
    msg = messages("it")
    labels = [c["label"] for row in opened["components"] for c in row["components"]][:2]
    assert labels == [msg._("Previous"), msg._("Next")]
    second = await answer_of(fake, await fake.click(opened["id"], "wf:ruling:next", locale="it"))
    assert "Pagina 2 di 2" in embed_text(second) and embed_text(second) != embed_text(opened)
    back = await answer_of(fake, await fake.click(opened["id"], "wf:ruling:prev", locale="it"))
    assert embed_text(back) == embed_text(opened)
