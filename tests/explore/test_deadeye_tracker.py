"""Deadeye Tracker: "{1}{B}, {T}: Exile two target cards from an opponent's graveyard. Deadeye Tracker
explores." — its targets, what happens when they leave in response (CR 608.2b and its 2017-09-29
rulings), and the steps as a reader in English, French or Japanese reads them, on the command line too."""
import json

import pytest

from bot.explore.choices import ScenarioError
from bot.explore.model import Event
from bot.explore.names import CardNames
from bot.explore.narrate import describe
from bot.explore.scenario import parse_leaving, run
from bot.i18n import messages
from bot.languages import LANGUAGES
from tests.test_cli import run as cli

TRACKER = [{"id": "d", "card": "Deadeye Tracker"}]


def play(services, **scenario):
    return run(scenario, services.card_facts)


def steps(services, result, lang):
    name = CardNames(services, lang)
    return [describe(Event(e["kind"], {k: v for k, v in e.items() if k not in ("kind", "cites")}, tuple(e["cites"])),
                     messages(lang), name) for e in result["events"]]


def test_two_cards_are_exiled_then_the_tracker_explores_said_in_english_and_french(bundled_services):
    result = play(bundled_services, library=["Forest"], battlefield=TRACKER,
                  opponent={"graveyard": ["Opt", "Jadelight Ranger", "Island"]},
                  action={"activate": "d", "targets": ["Jadelight Ranger", "Opt"]})
    assert result["state"]["opponent"]["exile"] == ["Jadelight Ranger", "Opt"]
    assert result["state"]["opponent"]["graveyard"] == ["Island"]
    assert result["state"]["hand"] == ["Forest"]
    assert result["explored"] == [{"permanent": "d", "card": "Deadeye Tracker", "revealed": "Forest"}]
    english = steps(bundled_services, result, "en")
    assert english[:7] == [
        "Deadeye Tracker's ability is activated. [CR 602.2]",
        "Deadeye Tracker targets Jadelight Ranger in the opponent's graveyard. [CR 602.2b; CR 601.2c; ruling 2017-09-29]",
        "Deadeye Tracker targets Opt in the opponent's graveyard. [CR 602.2b; CR 601.2c; ruling 2017-09-29]",
        "{1}{B} is paid. [CR 602.2b]",
        "Deadeye Tracker is tapped to pay the cost. [CR 602.2b]",
        "Deadeye Tracker's ability resolves. [CR 608.2]",
        "Jadelight Ranger is exiled from the opponent's graveyard. [CR 701.13a]",
    ]
    assert "Deadeye Tracker explores. [CR 701.44a]" in english
    french = steps(bundled_services, result, "fr")
    assert french[0] == "La capacité de Traqueur morne-œil (Deadeye Tracker) est activée. [CR 602.2]"
    assert ("Traqueur morne-œil cible Ranger jadefeu (Jadelight Ranger) dans le cimetière de l'adversaire. "
            "[CR 602.2b; CR 601.2c; ruling 2017-09-29]") in french
    assert "On exile Option depuis le cimetière de l'adversaire. [CR 701.13a]" in french
    assert "Traqueur morne-œil explore. [CR 701.44a]" in french


def test_when_both_targets_are_gone_nothing_is_exiled_and_it_does_not_explore(bundled_services):
    result = play(bundled_services, library=["Forest"], battlefield=TRACKER,
                  opponent={"graveyard": ["Opt", "Island"]}, action={"activate": "d", "targets": ["Opt", "Island"]},
                  leaves_before_resolution=[{"card": "Opt", "owner": "opponent"},
                                            {"card": "Island", "owner": "opponent"}])
    assert result["explored"] == [] and result["state"]["library"] == ["Forest"]
    assert result["state"]["battlefield"][0]["tapped"] is True          # the cost stays paid
    english = steps(bundled_services, result, "en")
    assert english[-1] == ("All the targets of Deadeye Tracker's ability are illegal: it doesn't resolve, and "
                           "Deadeye Tracker doesn't explore. [CR 608.2b; ruling 2017-09-29]")
    assert "Opt has left the graveyard: it is no longer a legal target of Deadeye Tracker's ability. [CR 608.2b; CR 400.7]" \
        in english
    japanese = steps(bundled_services, result, "ja")
    assert japanese[-1] == ("巧射艦隊の追跡者の能力の対象がすべて不適正なので、その能力は解決されず、巧射艦隊の追跡者は探検を行わない。"
                            " [CR 608.2b; ruling 2017-09-29]")


def test_when_one_target_is_gone_the_other_is_exiled_and_it_explores(bundled_services):
    result = play(bundled_services, library=["Opt"], battlefield=TRACKER,
                  opponent={"graveyard": ["Opt", "Opt"]}, action={"activate": "d", "targets": ["Opt", "Opt"]},
                  leaves_before_resolution=[{"card": "Opt", "owner": "opponent", "to": "exile"}])
    assert result["state"]["opponent"]["exile"] == ["Opt", "Opt"] and result["state"]["opponent"]["graveyard"] == []
    assert [e["kind"] for e in result["events"]].count("exile_card") == 1
    illegal = next(e for e in result["events"] if e["kind"] == "target_illegal")
    assert "ruling:deadeye-one" in illegal["cites"]
    assert result["explored"][0]["revealed"] == "Opt" and result["state"]["battlefield"][0]["counters"] == 1


def test_an_opponents_tracker_targets_your_graveyard(bundled_services):
    result = play(bundled_services, graveyard=["Opt", "Forest"], opponent={"library": ["Island"]},
                  battlefield=[{"id": "d", "card": "Deadeye Tracker", "controller": "opponent"}],
                  action={"activate": "d", "targets": ["Forest", "Opt"]})
    assert result["state"]["graveyard"] == [] and result["state"]["exile"] == ["Forest", "Opt"]
    assert result["state"]["opponent"]["hand"] == ["Island"]          # it explores with its controller's library
    english = steps(bundled_services, result, "en")
    assert "Deadeye Tracker targets Forest in your graveyard. [CR 602.2b; CR 601.2c; ruling 2017-09-29]" in english
    assert "Opt is exiled from your graveyard. [CR 701.13a]" in english


def test_targets_may_be_named_as_printed_in_another_language(bundled_services):
    result = play(bundled_services, library=["Forest"], battlefield=TRACKER,
                  opponent={"graveyard": ["Opt", "Forest"]}, action={"activate": "d", "targets": ["Forêt", "Option"]})
    assert result["state"]["opponent"]["exile"] == ["Forest", "Opt"]


@pytest.mark.parametrize("graveyard, targets, message", [
    (["Opt"], ["Opt", "Opt"], "can't be activated: it needs 2 different target cards in one opponent's graveyard"),
    ([], None, "can't be activated"),
    (["Opt", "Forest"], None, "needs 2 target cards in an opponent's graveyard: name them in “targets”"),
    (["Opt", "Forest"], ["Opt"], "name them in “targets”"),
    (["Opt", "Forest"], ["Opt", "Island"], "can't target “Island”: there is no card of that name"),
    (["Opt", "Forest"], ["Opt", "Opt"], "can't target the same card twice, and there is no other “Opt”"),
])
def test_targets_that_do_not_fit_refuse_the_activation(bundled_services, graveyard, targets, message):
    action = {"activate": "d", **({"targets": targets} if targets is not None else {})}
    # the cards in your own graveyard are not an opponent's
    with pytest.raises(ScenarioError, match=message):
        play(bundled_services, graveyard=["Opt", "Island", "Forest"], battlefield=TRACKER,
             opponent={"graveyard": graveyard}, action=action)


def test_targets_are_refused_for_an_ability_that_targets_no_cards(bundled_services):
    with pytest.raises(ScenarioError, match="Tomb Robber's ability doesn't target cards in a graveyard"):
        play(bundled_services, hand=["Opt"], battlefield=[{"id": "t", "card": "Tomb Robber"}],
             opponent={"graveyard": ["Opt", "Forest"]}, action={"activate": "t", "discard": "Opt",
                                                                "targets": ["Opt", "Forest"]})


def test_a_refusal_is_said_in_the_readers_language(bundled_services):
    with pytest.raises(ScenarioError) as caught:
        play(bundled_services, battlefield=TRACKER, opponent={"graveyard": ["Opt"]},
             action={"activate": "d", "targets": ["Opt", "Opt"]})
    assert caught.value.localized(messages("de")) == (
        "Die Fähigkeit von Deadeye Tracker kann nicht aktiviert werden: Sie braucht 2 verschiedene Karten als Ziel im "
        "Friedhof eines einzigen Gegners, und dieser Friedhof enthält weniger als 2 Karten (CR 115.3, 601.2c, 602.2).")


def test_a_card_leaving_names_its_owner(bundled_services):
    with pytest.raises(ScenarioError, match="“owner” must be one of you, opponent"):
        play(bundled_services, battlefield=TRACKER, opponent={"graveyard": ["Opt", "Island"]},
             action={"activate": "d", "targets": ["Opt", "Island"]},
             leaves_before_resolution=[{"card": "Opt", "owner": "them"}])
    with pytest.raises(ScenarioError, match="leaves_before_resolution"):
        play(bundled_services, battlefield=TRACKER, opponent={"graveyard": ["Opt", "Island"]},
             action={"activate": "d", "targets": ["Opt", "Island"]},
             leaves_before_resolution=[{"id": "d", "owner": "opponent"}])


@pytest.mark.parametrize("entry", [{"id": "d", "owner": "opponent"}, {"card": "Opt", "returns": True},
                                   {"card": "Opt", "id": "d"}, {"card": 7}, {"cards": "Opt"}])
def test_an_entry_that_leaves_is_refused_with_the_keys_it_may_have(entry):
    """Each of them, in every language, as the scenario is checked."""
    with pytest.raises(ScenarioError) as caught:
        parse_leaving([entry])
    for lang in LANGUAGES:
        said = caught.value.localized(messages(lang))
        assert said.count("id, returns, to, before") == said.count("card, owner, to, before") == 1, said
    assert str(caught.value) == ("Each entry of “leaves_before_resolution” is an id, an object with the keys id, returns,"
                                 " to, before (“id” required) or an object with the keys card, owner, to, before (“card”"
                                 " required: a card in a graveyard).")


def test_an_entry_that_leaves_may_have_every_key_the_refusal_names():
    by_id, by_card = parse_leaving([{"id": "d", "returns": True, "to": "hand", "before": "j"},
                                    {"card": "Opt", "owner": "opponent", "to": "exile", "before": "j"}])
    assert (by_id.id, by_id.returns, by_id.to, by_id.before) == ("d", True, "hand", "j")
    assert (by_card.card, by_card.owner, by_card.to, by_card.before) == ("Opt", "opponent", "exile", "j")


def test_the_command_line_runs_it(bundled_catalog_path, tmp_path):
    scenario = tmp_path / "deadeye.json"
    scenario.write_text(json.dumps({
        "library": ["Opt"], "battlefield": TRACKER, "opponent": {"graveyard": ["Opt", "Island", "Forest"]},
        "action": {"activate": "d", "targets": ["Island", "Forest"]},
        "leaves_before_resolution": ["d"], "choices": ["graveyard"]}))
    out = cli(["explore", "--scenario", str(scenario), "--json"], bundled_catalog_path)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    # it left in response: the cards are still exiled, and it still explores, with no counter (CR 701.44c)
    assert data["explored"] == [{"permanent": "d", "card": "Deadeye Tracker", "revealed": "Opt"}]
    assert data["state"]["opponent"]["exile"] == ["Island", "Forest"]
    assert data["state"]["graveyard"] == ["Deadeye Tracker", "Opt"] and data["state"]["battlefield"] == []
    explore = next(e for e in data["events"] if e["kind"] == "explore")
    assert "701.44c" in explore["cites"]
    assert [e["kind"] for e in data["events"]].count("exile_card") == 2
    out = cli(["explore", "--scenario", str(scenario), "--lang", "ja"], bundled_catalog_path)
    assert out.returncode == 0, out.stderr
    assert "巧射艦隊の追跡者（Deadeye Tracker）の能力を起動する。 [CR 602.2]" in out.stdout
    assert "巧射艦隊の追跡者は対戦相手の墓地の島（Island）を対象とする。 [CR 602.2b; CR 601.2c; ruling 2017-09-29]" in out.stdout
    assert "対戦相手の墓地から森を追放する。 [CR 701.13a]" in out.stdout
