"""The keyword rules a card's text uses (the rules menu of /ruling, the rules /ask adds for a named
card), read from the bundled edition's titles: each cited rule is the one the words mean."""
import pytest

from bot.rules.keywords import Keywords


@pytest.fixture(scope="module")
def keywords(bundled_catalog):
    return Keywords.from_catalog(bundled_catalog)


def test_an_explorer_that_puts_a_counter_cites_explore_not_the_keyword_action_counter(keywords, bundled_catalog):
    jadelight = bundled_catalog.card_by_english_name("Jadelight Ranger")
    assert "+1/+1 counter on" in jadelight.oracle_text
    assert keywords.rules(jadelight.oracle_text) == ["701.44"]   # a +1/+1 counter is CR 122, not 701.6


@pytest.mark.parametrize("text, rules", [
    ("Counter target spell.", ["701.6"]),
    ("This spell can't be countered.", ["701.6"]),
    ("Put a shield counter on it. Counter target activated ability.", ["701.6"]),
    ("For each counter removed this way, you may counter that spell.", ["701.6"]),
    ("Remove a counter from it. For each counter that was removed, draw a card.", []),
    ("When this creature dies, return it with a -1/-1 counter on it.", []),
    ("Double strike", ["702.4"]),                                          # not 701.10 Double
    ("You may cast spells from exile. Cards in exile can't be the targets of spells.", ["701.5"]),   # zone: CR 406
    ("Exile target creature. Return the exiled card at the beginning of the next end step.", ["701.13"]),
    ("Double strike, trample. Double the number of +1/+1 counters on it.", ["701.10", "702.4", "702.19"]),
])
def test_a_keyword_is_cited_for_what_the_words_mean(keywords, text, rules):
    assert keywords.rules(text) == rules
    assert all(keywords.title(number) for number in rules)


@pytest.mark.parametrize("name, text, rules", [
    ("Opal Champion", "When an opponent casts a creature spell, if Opal Champion is an enchantment, Opal Champion"
                      " becomes a 3/3 Knight creature with first strike.", ["701.5", "702.7"]),   # not 702.72 Champion
    ("Etali, Primal Storm", "Whenever Etali attacks, exile the top card of each player's library.",
     ["701.13"]),                                                                   # not 702.40 Storm
    ("Exile", "Exile target nonwhite attacking creature. You gain life equal to its toughness.", ["701.13"]),
    ("Ash, Party Crasher", "Flash\nTrample", ["702.8", "702.19"]),   # its names, as words only
])
def test_the_cards_own_name_in_its_text_is_not_a_keyword(keywords, name, text, rules):
    assert keywords.rules(text, name=name) == rules
