"""/rule on the bundled catalog: the current Comprehensive Rules ship with the bot."""
from tests.e2e.helpers import answer_of, embed_text


async def test_rule_explore_works_out_of_the_box(shared_bot):
    answer = await shared_bot.fake.slash("rule", [{"name": "query", "type": 3, "value": "explore"}], locale="fr")
    text = embed_text(await answer_of(shared_bot.fake, answer))
    assert "701.44a" in text and "Glossaire — Explore" in text, text
    assert "Règles complètes, en vigueur le 16 janvier 2026" in text
    assert not (await answer_of(shared_bot.fake, answer)).get("flags", 0) & 64
