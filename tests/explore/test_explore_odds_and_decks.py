"""Exact odds cross-checked by simulation; seeded shuffles; decklists; /explore's core replies."""
import math
import random

import pytest

from bot.explore import decks
from bot.explore.command import ExploreRequest, odds, run
from bot.explore.choices import Choices
from bot.explore.engine import Engine
from bot.explore.model import CardFacts, Explore, GameState, Permanent
from bot.explore.odds import explore_odds
from bot.explore.shuffle import SplitMix64, parse_seed, shuffled
from bot.i18n import messages

LAND = CardFacts("Forest", "Basic Land — Forest")
SPELL = CardFacts("Opt", "Instant")
EXPLORER = CardFacts("Merfolk Branchwalker", "Creature — Merfolk Scout")


def simulate(library_size, lands, times, policy, trials, rng):
    counts = {"lands": {}, "counters": {}, "graveyard": {}}
    cards = [LAND] * lands + [SPELL] * (library_size - lands)
    for _ in range(trials):
        library = cards[:]
        rng.shuffle(library)
        state = GameState(library=library, battlefield={"e": Permanent("e", EXPLORER, object_number=1)})
        engine = Engine(state, Choices(policy=policy))
        engine.run_action(Explore("e", times))
        outcome = {"lands": len(state.hand), "counters": state.battlefield["e"].counters,
                   "graveyard": len(state.graveyard)}
        for key, value in outcome.items():
            counts[key][value] = counts[key].get(value, 0) + 1
    return counts


@pytest.mark.parametrize("policy", ["keep", "graveyard"])
def test_exact_odds_agree_with_a_monte_carlo_run(policy):
    library, lands, times, trials = 59, 24, 4, 20_000
    exact = explore_odds(library, lands, times, policy)
    seen = simulate(library, lands, times, policy, trials, random.Random(7))
    for key, distribution in (("lands", exact.lands_to_hand), ("counters", exact.counters),
                              ("graveyard", exact.to_graveyard)):
        assert sum(distribution.values()) == 1
        for k, p in distribution.items():
            observed = seen[key].get(k, 0) / trials
            sigma = math.sqrt(float(p) * (1 - float(p)) / trials)
            assert abs(observed - float(p)) <= 5 * sigma + 1e-9, (key, k, observed, float(p))


def test_odds_with_more_explores_than_cards():
    result = explore_odds(2, 2, 4, "graveyard")
    assert result.lands_to_hand == {2: 1} and result.counters == {2: 1}


def test_the_seeded_shuffle_is_documented_and_stable():
    rng = SplitMix64(1234567)
    assert [rng.next() for _ in range(3)] == [6457827717110365317, 3203168211198807973, 9817491932198370423]
    assert shuffled(list(range(10)), 42) == shuffled(list(range(10)), 42)
    assert shuffled(list(range(10)), 42) != shuffled(list(range(10)), 43)
    assert sorted(shuffled(list(range(60)), 5)) == list(range(60))


@pytest.mark.parametrize("bad", ["abc", "-1", "1.5", "", "99999999999999999999"])
def test_bad_seeds_are_refused(bad):
    with pytest.raises(ValueError):
        parse_seed(bad)


def test_preset_decks_are_sixty_real_cards(bundled_matcher):
    assert set(decks.preset_names()) >= {"ixalan", "lost-caverns", "double-faced"}
    for name in decks.preset_names():
        deck = decks.parse(decks.preset_text(name), bundled_matcher, messages("en"))
        assert deck.errors == [] and deck.size == 60, name


def test_decklists_in_mtga_mtgo_and_plain_forms_in_any_language(bundled_matcher):
    msg = messages("en")
    mtga = "Deck\n4 Jadelight Ranger (XLN) 144\n2 Guidevoie de Tishana (XLN) 65\n\nSideboard\n2 Opt (XLN) 65\n"
    deck = decks.parse(mtga, bundled_matcher, msg)
    assert deck.errors == [] and deck.size == 6
    mtgo = "4 Jadelight Ranger\n20 Forest\n\n3 Opt\n"
    assert decks.parse(mtgo, bundled_matcher, msg).size == 24
    plain = "4x Agente da Rainha\nSB: 2 Opt\n10 Bosque\n"
    assert decks.parse(plain, bundled_matcher, msg).size == 14


def test_bad_decklist_lines_are_reported_one_by_one(bundled_matcher):
    msg = messages("fr")
    deck = decks.parse("4 Jadelight Ranger\nhello\n4 Zzqqxx Nothing\n999 Forest\n", bundled_matcher, msg)
    assert deck.errors[0] == "Ligne 2 : « nombre nom » attendu, comme « 4 Jadelight Ranger »."
    assert deck.errors[1].startswith("Ligne 3 : aucune carte ne s'appelle « Zzqqxx Nothing ».")
    assert deck.errors[2].startswith("Ligne 4 : 999 exemplaires")
    assert decks.parse("", bundled_matcher, msg).errors == [
        "Un deck doit compter entre 1 et 500 cartes ; celui-ci en a 0."]
    huge = "\n".join("1 Forest" for _ in range(700))
    assert "trop longue" in decks.parse(huge, bundled_matcher, msg).errors[0]


def test_run_is_the_same_for_the_same_seed_and_asks_about_nonland_reveals(bundled_services):
    request = ExploreRequest(deck="ixalan", explorer="Jadelight Ranger", seed=42)
    first = run(bundled_services, request, "en")
    again = run(bundled_services, ExploreRequest(deck="ixalan", explorer="Jadelight Ranger", seed=42), "en")
    assert first.data["events"] == again.data["events"] and first.data["state"] == again.data["state"]
    other = run(bundled_services, ExploreRequest(deck="ixalan", explorer="Jadelight Ranger", seed=43), "en")
    assert other.data["state"]["library"] != first.data["state"]["library"]
    assert first.data["pending"]["decision"] == "reveal"
    answered = run(bundled_services, ExploreRequest(deck="ixalan", explorer="Jadelight Ranger", seed=42,
                                                    answers=["graveyard"]), "en")
    assert answered.data["pending"] is None or answered.data["answers"] == ["graveyard"]


def test_run_errors_are_localized(bundled_services):
    out = run(bundled_services, ExploreRequest(deck="nope", explorer="Jadelight Ranger"), "it")
    assert out.error and out.content.startswith("Nessun mazzo si chiama «nope».")
    out = run(bundled_services, ExploreRequest(deck="ixalan", explorer="Defossilize"), "de")
    assert out.error and out.content == "Defossilize ist nicht im Deck."
    out = run(bundled_services, ExploreRequest(deck="ixalan", explorer="Jadelight Ranger", times=0), "es")
    assert out.error and "de 1 a 20" in out.content


def test_odds_reply_for_a_preset(bundled_services):
    reply = odds(bundled_services, ExploreRequest(deck="ixalan", explorer="Jadelight Ranger", times=4), "en", "keep")
    assert reply.data["library"] == 59 and reply.data["lands"] == 24
    assert "59.32% (35/59)" in reply.pages[0].as_text()


def test_odds_without_times_use_the_explorers_own_count(bundled_services):
    own = odds(bundled_services, ExploreRequest(deck="ixalan", explorer="Jadelight Ranger"), "en", "graveyard")
    assert own.data["times"] == 2   # "it explores, then it explores again"
    twice = odds(bundled_services, ExploreRequest(deck="ixalan", explorer="Jadelight Ranger", times=2), "en",
                 "graveyard")
    assert own.data["lands_to_hand"] == twice.data["lands_to_hand"]
    once = odds(bundled_services, ExploreRequest(deck="ixalan", explorer="Merfolk Branchwalker"), "en", "graveyard")
    assert once.data["times"] == 1


def exhaustive(library_size, lands, times, policy):
    """Every order of a small library through the engine, each equally likely."""
    from fractions import Fraction
    from itertools import permutations
    cards = [LAND] * lands + [SPELL] * (library_size - lands)
    orders = list(permutations(range(library_size)))
    counts = {"lands": {}, "counters": {}, "graveyard": {}}
    for order in orders:
        state = GameState(library=[cards[i] for i in order],
                          battlefield={"e": Permanent("e", EXPLORER, object_number=1)})
        Engine(state, Choices(policy=policy)).run_action(Explore("e", times))
        outcome = {"lands": len(state.hand), "counters": state.battlefield["e"].counters,
                   "graveyard": len(state.graveyard)}
        for key, value in outcome.items():
            counts[key][value] = counts[key].get(value, 0) + Fraction(1, len(orders))
    return counts


@pytest.mark.parametrize("library_size, lands, times", [(0, 0, 2), (1, 1, 1), (3, 1, 2), (4, 2, 3), (5, 3, 4),
                                                        (5, 2, 7), (6, 0, 2), (6, 6, 3)])
@pytest.mark.parametrize("policy", ["keep", "graveyard"])
def test_exact_odds_agree_with_every_order_of_a_small_library(library_size, lands, times, policy):
    exact = explore_odds(library_size, lands, times, policy)
    seen = exhaustive(library_size, lands, times, policy)
    assert exact.lands_to_hand == seen["lands"]
    assert exact.counters == seen["counters"]
    assert exact.to_graveyard == seen["graveyard"]
