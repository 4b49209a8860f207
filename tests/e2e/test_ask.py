"""/ask end to end: the real bot, through discord.py's gateway and HTTP code, against the fake."""
import pytest

from tests.e2e.helpers import answer_of, custom_ids, embed_text, option


@pytest.fixture(scope="module")
def e2e_catalog(rules_catalog_path):
    return rules_catalog_path


async def test_a_french_question_is_answered_in_french_with_rules_to_open(shared_bot):
    fake = shared_bot.fake
    callback = await fake.slash("ask", [option("question", "que se passe-t-il si ma bibliothèque est vide quand"
                                                           " une créature explore ?")], locale="fr")
    message = await answer_of(fake, callback)
    text = embed_text(message)
    assert "Réponses à « que se passe-t-il" in text
    assert "701.44a" in text and "Langue : anglais" in text
    assert "wf:ask:open" in custom_ids(message)
    assert message["allowed_mentions"] == {"parse": []}
    options = [o["value"] for row in message["components"] for c in row["components"] for o in c.get("options", [])]
    assert "rule:701.44a" in options
    opened = await fake.click(message["id"], "wf:ask:open", values=["rule:701.44a"], component_type=3, locale="fr")
    opened_message = await answer_of(fake, opened)
    assert "701.44a" in embed_text(opened_message) and opened_message["flags"] & 64


async def test_a_nickname_and_two_cards_in_one_question(shared_bot):
    fake = shared_bot.fake
    nick = await answer_of(fake, await fake.slash("ask", [option("question", "when does chupacabra choose its target?")]))
    assert "Cards recognised: Lurking Chupacabra" in embed_text(nick)
    two = await answer_of(fake, await fake.slash("ask", [option(
        "question", "If Nicanzil is out and Jadelight Ranger explores a land, what happens?")]))
    text = embed_text(two)
    assert "Nicanzil, Current Conductor" in text and "Jadelight Ranger" in text
    assert "ruling of" in text


async def test_a_nonsense_question_says_nothing_matched_privately(shared_bot):
    fake = shared_bot.fake
    message = await answer_of(fake, await fake.slash("ask", [option("question", "zzqx wvvt plork @everyone")],
                                                     locale="de"))
    assert message["content"].startswith("Zu Ihrer Frage passt nichts.")
    assert message["flags"] & 64
