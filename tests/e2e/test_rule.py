"""/rule end to end, on the four real editions of the Comprehensive Rules."""
import pytest

from tests.e2e.helpers import answer_of, custom_ids, embed_text


@pytest.fixture(scope="module")
def e2e_catalog(rules_catalog_path):
    return rules_catalog_path


def q(value, focused=False):
    data = {"name": "query", "type": 3, "value": value}
    if focused:
        data["focused"] = True
    return data


async def test_rule_by_number_with_navigation_and_citations(shared_bot):
    fake = shared_bot.fake
    answer = await fake.slash("rule", [q("702.9")])
    text = embed_text(await answer_of(fake, answer))
    assert "702.9. Flying" in text
    assert "Comprehensive Rules, effective January 16, 2026" in text
    ids = custom_ids(await answer_of(fake, answer))
    assert "wf:rule:go:702.10" in ids and "wf:rule:go:702.17" in ids
    cited = await fake.click((await answer_of(fake, answer))["id"], "wf:rule:go:702.17")
    assert "702.17. Reach" in embed_text(await answer_of(fake, cited))
    parent = await fake.click((await answer_of(fake, answer))["id"], "wf:rule:go:702")
    assert "702. Keyword Abilities" in embed_text(await answer_of(fake, parent))


async def test_rule_by_keyword_and_glossary_term(shared_bot):
    fake = shared_bot.fake
    answer = await fake.slash("rule", [q("explore")], locale="de")
    text = embed_text(await answer_of(fake, answer))
    assert "Glossar — Explore" in text and "701.44a" in text
    assert "Umfassende Regeln, gültig ab 16. Januar 2026" in text
    old = await fake.slash("rule", [q("701.38")], locale="en-US")
    assert "it is now rule 701.44" in embed_text(await answer_of(fake, old))
    moved = await fake.click((await answer_of(fake, old))["id"], "wf:rule:go:701.44")
    assert "701.44. Explore" in embed_text(await answer_of(fake, moved))


async def test_rule_autocomplete(shared_bot):
    answer = await shared_bot.fake.autocomplete("rule", [q("expl", focused=True)])
    assert {"name": "701.44 Explore", "value": "701.44"} in answer.data["choices"]


async def test_ruling_and_explore_link_to_the_rules_they_cite(shared_bot):
    fake = shared_bot.fake
    answer = await fake.slash("ruling", [{"name": "card", "type": 3, "value": "Jadelight Ranger"}])
    assert "wf:ruling:rule" in custom_ids(await answer_of(fake, answer))
    opened = await fake.click((await answer_of(fake, answer))["id"], "wf:ruling:rule", component_type=3, values=["701.44"])
    assert (await answer_of(fake, opened))["flags"] & 64 and "701.44. Explore" in embed_text(await answer_of(fake, opened))
    run = await fake.slash("explore", [{"name": "run", "type": 1, "options": [
        {"name": "deck", "type": 3, "value": "ixalan"}, {"name": "explorer", "type": 3, "value": "Jadelight Ranger"},
        {"name": "seed", "type": 3, "value": "42"}]}])
    assert "wf:explore:rule" in custom_ids(await answer_of(fake, run))
    rule = await fake.click((await answer_of(fake, run))["id"], "wf:explore:rule", component_type=3, values=["701.44b"])
    assert "701.44b A permanent “explores”" in embed_text(await answer_of(fake, rule))
