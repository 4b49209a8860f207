"""What /explore shows comes from the core: the rules a run cites, the deck it runs on, the odds
behind the chart."""
import pytest

from bot.config import Config
from bot.explore.command import choose_deck, new_request, odds, run
from bot.i18n import messages
from bot.services import Services
from bot.settings.store import SettingsStore


@pytest.fixture(scope="module")
def services_with_rules(rules_catalog_path, tmp_path_factory):
    return Services(Config.from_env({"WAYFINDER_CATALOG": str(rules_catalog_path),
                                     "WAYFINDER_SETTINGS_DB": str(tmp_path_factory.mktemp("s") / "s.sqlite3")}))


def test_a_run_lists_the_rules_it_cites_with_their_titles(services_with_rules):
    request, problem = new_request(messages("en"), "Jadelight Ranger", "ixalan", seed="42")
    reply = run(services_with_rules, request, "en", interactive=False)
    assert problem is None and not reply.error
    cited = [c.value for c in reply.cited]
    assert "701.44a" in cited
    assert not [n for n in cited if n.startswith("ruling:")], "rulings are not rules to open"
    every_number = {n for e in reply.data["events"] for n in e["cites"] if not n.startswith("ruling:")}
    assert set(cited) == every_number, "each rule the steps cite, once"
    assert next(c.label for c in reply.cited if c.value == "701.44a").startswith("701.44a ")


def test_the_odds_chart_draws_the_odds_of_the_answer(bundled_services):
    request, _ = new_request(messages("fr"), "Jadelight Ranger", "ixalan", times="2")
    reply = odds(bundled_services, request, "fr", "graveyard")
    chart = reply.figure
    assert (chart.odds.library, chart.odds.lands, chart.odds.times, chart.odds.policy) == (
        reply.data["library"], reply.data["lands"], 2, "graveyard")
    assert chart.png().startswith(b"\x89PNG")


def test_bad_times_and_seeds_are_one_message_each():
    msg = messages("de")
    for times in ("0", "21", "x"):
        request, problem = new_request(msg, "Jadelight Ranger", times=times)
        assert request is None and "20" in problem
    request, problem = new_request(msg, "Jadelight Ranger", seed="-1")
    assert request is None and problem.startswith("Der Startwert muss eine ganze Zahl")


async def test_a_deck_is_a_preset_else_the_servers_saved_deck_else_a_message_listing_both(tmp_path):
    store = await SettingsStore.open(tmp_path / "settings.sqlite3")
    try:
        await store.save_deck(7, "mine", "4 Jadelight Ranger\n20 Forest", 24, 1)
        msg = messages("en")
        preset, _ = new_request(msg, "Jadelight Ranger", "lost-caverns")
        assert await choose_deck(preset, msg, store, 7) is None and preset.deck_text is None
        saved, _ = new_request(msg, "Jadelight Ranger", "mine")
        assert await choose_deck(saved, msg, store, 7) is None and "Jadelight" in saved.deck_text
        default, _ = new_request(msg, "Jadelight Ranger", None, default_deck="mine")
        assert default.deck == "mine"
        missing, _ = new_request(msg, "Jadelight Ranger", "nothing")
        problem = await choose_deck(missing, msg, store, 7)
        assert problem.startswith("No deck named “nothing”.") and "ixalan" in problem and "mine" in problem
        elsewhere, _ = new_request(msg, "Jadelight Ranger", "mine")
        assert "mine" not in (await choose_deck(elsewhere, msg, store, 8)).split("Decks:")[1]
    finally:
        await store.close()
