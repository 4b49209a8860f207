"""The explore engine: CR 701.44a–d, every explore ruling of the seeds, the cards with behaviour,
and XMage's published explore cases as scenario files (tests/scenarios/)."""
import json
from pathlib import Path

import pytest

from bot.explore.choices import ScenarioError
from bot.explore.scenario import run

SCENARIOS = Path(__file__).parent.parent / "scenarios"


@pytest.fixture(scope="module")
def lookup(bundled_services):
    return bundled_services.card_facts


def play(lookup, **scenario):
    return run(scenario, lookup)


def counters(result, pid):
    return next(p["counters"] for p in result["state"]["battlefield"] if p["id"] == pid)


def kinds(result):
    return [e["kind"] for e in result["events"]]


def cites(result, kind):
    return [c for e in result["events"] if e["kind"] == kind for c in e["cites"]]


@pytest.mark.parametrize("path", sorted(SCENARIOS.glob("*.json")), ids=lambda p: p.stem)
def test_scenario_files(path, lookup):
    """Each file states a board, the outcome a judge expects and the rule that decides it."""
    data = json.loads(path.read_text())
    expect, rule = data.pop("expect"), data.pop("rule")
    assert rule.strip(), "every scenario names the rule that decides it"
    if "error" in expect:
        with pytest.raises(ScenarioError, match=expect["error"]):
            run(data, lookup)
        return
    result = run(data, lookup)
    assert [[e["permanent"], e["revealed"]] for e in result["explored"]] == expect["explored"]
    state = result["state"]
    for zone in ("hand", "library", "graveyard", "exile", "life"):
        if zone in expect:
            assert state[zone] == expect[zone], zone
    for key, value in expect.get("opponent", {}).items():
        assert state["opponent"][key] == value, f"opponent's {key}"
    for pid, n in expect.get("counters", {}).items():
        assert counters(result, pid) == n, pid
    for pid, effects in expect.get("effects", {}).items():
        assert next(p.get("effects", []) for p in state["battlefield"] if p["id"] == pid) == effects, pid
    if "battlefield" in expect:
        assert [p["id"] for p in state["battlefield"]] == expect["battlefield"]
    if "tapped_lands" in expect:
        assert [p["card"] for p in state["battlefield"] if p["tapped"]] == expect["tapped_lands"]
    if "tapped" in expect:
        assert [p["id"] for p in state["battlefield"] if p["tapped"]] == expect["tapped"]
    for kind in expect.get("events", []):
        assert kind in kinds(result), kind
    for kind in expect.get("no_events", []):
        assert kind not in kinds(result), kind
    if "sequence" in expect:
        wanted = set(expect["sequence"]["of"])
        assert [k for k in kinds(result) if k in wanted] == expect["sequence"]["is"]
    if "resolved" in expect:
        assert [e["card"] for e in result["events"] if e["kind"] == "resolve"] == expect["resolved"]
    every = {c for e in result["events"] for c in e["cites"]}
    for number in expect.get("cited", []):
        assert number in every, number
    for number in expect.get("not_cited", []):
        assert number not in every, number


# -- ruling: "If an ability instructs a creature to explore, its controller reveals the top card…"

def test_land_goes_to_hand_nonland_gets_a_counter_and_may_go_to_the_graveyard(lookup):
    result = play(lookup, library=["Forest"], battlefield=[{"id": "c", "card": "Merfolk Branchwalker"}],
                  action={"explore": "c"})
    assert result["state"]["hand"] == ["Forest"] and counters(result, "c") == 0
    assert "701.44a" in cites(result, "land_to_hand")
    result = play(lookup, library=["Opt"], battlefield=[{"id": "c", "card": "Merfolk Branchwalker"}],
                  action={"explore": "c"}, choices=["graveyard"])
    assert result["state"]["graveyard"] == ["Opt"] and counters(result, "c") == 1


# -- ruling: "If no card is revealed … the exploring creature receives a +1/+1 counter."

def test_empty_library_still_gives_the_counter(lookup):
    result = play(lookup, library=[], battlefield=[{"id": "c", "card": "Merfolk Branchwalker"}],
                  action={"explore": "c"})
    assert counters(result, "c") == 1
    assert result["explored"] == [{"permanent": "c", "card": "Merfolk Branchwalker", "revealed": None}]
    assert "ruling:empty" in cites(result, "empty_library")
    assert "701.44a" in cites(result, "counter")   # "Otherwise": no land card was revealed


# -- ruling: a specific creature that has left the battlefield still explores

def test_explorer_that_left_still_explores_without_a_counter_and_payoffs_trigger(lookup):
    board = [{"id": "c", "card": "Merfolk Branchwalker"}, {"id": "w", "card": "Wildgrowth Walker"}]
    result = play(lookup, library=["Opt"], battlefield=board, action={"explore": "c"},
                  leaves_before_resolution=["c"], choices=["graveyard"])
    assert "no_counter_left" in kinds(result)
    assert result["state"]["graveyard"] == ["Merfolk Branchwalker", "Opt"]  # it left; the revealed card may go too
    assert counters(result, "w") == 1 and result["state"]["life"] == 23   # "whenever a creature explores" triggers
    assert "701.44c" in cites(result, "explore")


def test_explorer_leaving_before_its_enter_trigger_resolves_still_explores(lookup):
    board = [{"id": "n", "card": "Nicanzil, Current Conductor"}]
    result = play(lookup, library=["Opt"], battlefield=board, action={"enter": "Merfolk Branchwalker", "id": "b"},
                  leaves_before_resolution=["b"])
    assert result["explored"][0]["revealed"] == "Opt"
    assert counters(result, "n") == 1   # Nicanzil's nonland trigger still happens


def test_a_permanent_that_left_and_came_back_is_a_new_object_and_gets_no_counter(lookup):
    result = play(lookup, library=["Opt", "Island"], battlefield=[{"id": "c", "card": "Ixalli's Diviner"}],
                  action={"explore": "c"}, leaves_before_resolution=[{"id": "c", "returns": True}],
                  choices=["keep", "keep"])
    assert "no_counter_new_object" in kinds(result)
    assert result["explored"][0]["revealed"] == "Opt"
    # the new object's own enter trigger explores again: that counter is the only one it has
    assert len(result["explored"]) == 2 and counters(result, "c") == 1


# -- ruling: noncreature permanents may explore

def test_a_noncreature_permanent_explores_gets_the_counter_and_creature_payoffs_do_not_trigger(lookup):
    board = [{"id": "x", "card": "Merfolk Branchwalker", "creature": False},
             {"id": "w", "card": "Wildgrowth Walker"}]
    result = play(lookup, library=["Opt"], battlefield=board, action={"explore": "x"})
    assert counters(result, "x") == 1
    assert counters(result, "w") == 0 and result["state"]["life"] == 20
    assert "ruling:noncreature" in cites(result, "explore")


# -- ruling: explore several times; a nonland left on top is revealed again

def test_exploring_again_reveals_the_same_nonland_card(lookup):
    result = play(lookup, library=["Opt", "Forest"], battlefield=[{"id": "c", "card": "Merfolk Branchwalker"}],
                  action={"explore": "c", "times": 3})
    assert [e["revealed"] for e in result["explored"]] == ["Opt", "Opt", "Opt"]
    assert counters(result, "c") == 3
    assert "ruling:again" in cites(result, "keep_on_top")


# -- ruling: nobody acts in the middle; triggers wait until the whole ability has resolved

def test_triggers_wait_until_the_explore_ability_has_resolved(lookup):
    board = [{"id": "w", "card": "Wildgrowth Walker"}]
    result = play(lookup, library=["Opt", "Forest"], action={"enter": "Jadelight Ranger", "id": "j"},
                  battlefield=board, choices=["graveyard"])
    events = kinds(result)
    last_explored = max(i for i, k in enumerate(events) if k == "explored")
    first_gain = events.index("gain_life")
    assert first_gain > last_explored
    assert result["state"]["life"] == 26 and counters(result, "w") == 2
    assert "ruling:no-actions" in cites(result, "trigger")


# -- Nicanzil rulings: its land ability resolves after exploring; it judges the card as revealed

def test_nicanzil_may_put_the_explored_land_or_another_from_hand_tapped(lookup):
    board = [{"id": "n", "card": "Nicanzil, Current Conductor"}]
    result = play(lookup, library=["Island"], hand=["Swamp"], battlefield=board,
                  action={"enter": "Merfolk Branchwalker", "id": "b"}, choices=["Swamp"])
    lands = [p for p in result["state"]["battlefield"] if p["card"] == "Swamp"]
    assert lands and lands[0]["tapped"] and result["state"]["hand"] == ["Island"]
    assert "ruling:nicanzil-after" in cites(result, "land_to_battlefield")


def test_nicanzil_counts_the_card_as_it_was_revealed_even_after_it_went_to_the_graveyard(lookup):
    board = [{"id": "n", "card": "Nicanzil, Current Conductor"}]
    result = play(lookup, library=["Opt"], battlefield=board, action={"enter": "Merfolk Branchwalker", "id": "b"},
                  choices=["graveyard"])
    assert counters(result, "n") == 1
    assert "ruling:nicanzil-revealed" in cites(result, "counter")


def test_answers_that_do_not_fit_are_errors(lookup):
    with pytest.raises(ScenarioError, match="does not fit"):
        play(lookup, library=["Opt"], battlefield=[{"id": "c", "card": "Merfolk Branchwalker"}],
             action={"explore": "c"}, choices=["bottom"])


def test_putting_the_revealed_card_in_the_graveyard_is_not_milling(lookup):
    result = play(lookup, library=["Opt"], battlefield=[{"id": "c", "card": "Merfolk Branchwalker"}],
                  action={"explore": "c"}, choices=["graveyard"])
    assert "mill" not in kinds(result)
    assert cites(result, "to_graveyard") == ["701.44a"]   # explore's own rule, not the mill rule 701.17a


def test_several_explorers_at_once_explore_one_after_the_other_in_the_chosen_order(lookup):
    board = [{"id": "p", "card": "Path of Discovery"}]
    result = play(lookup, library=["Forest", "Island", "Opt"], battlefield=board,
                  action={"enter": "Jadelight Ranger", "id": "j"}, choices=["keep"])
    # Jadelight Ranger's own trigger and Path of Discovery's both tell it to explore: one at a time
    assert [e["revealed"] for e in result["explored"]] == ["Forest", "Island", "Opt"]
    assert "order" in kinds(result) and "603.3b" in cites(result, "order")


def test_a_double_faced_card_in_the_library_has_only_its_front_face(lookup):
    result = play(lookup, library=["Kazandu Mammoth // Kazandu Valley"],
                  battlefield=[{"id": "c", "card": "Merfolk Branchwalker"}], action={"explore": "c"})
    assert counters(result, "c") == 1 and result["state"]["hand"] == []   # a creature card, not a land
    assert "712.8a" in cites(result, "reveal")
    result = play(lookup, library=["Twists and Turns // Mycoid Maze"],
                  battlefield=[{"id": "c", "card": "Merfolk Branchwalker"}], action={"explore": "c"})
    assert counters(result, "c") == 1


def test_defossilize_returns_a_creature_that_explores_twice_then_its_own_trigger(lookup):
    result = play(lookup, library=["Opt", "Forest", "Island", "Swamp"], graveyard=["Jadelight Ranger"],
                  action={"cast": "Defossilize", "target": "Jadelight Ranger"}, choices=["graveyard"])
    revealed = [e["revealed"] for e in result["explored"]]
    assert revealed == ["Opt", "Forest", "Island", "Swamp"]   # two from Defossilize, two from its own trigger
    assert result["state"]["graveyard"] == ["Opt", "Defossilize"]


def test_glowcap_lantern_explores_on_attack_and_lets_you_look_at_the_top_card(lookup):
    board = [{"id": "c", "card": "Merfolk Branchwalker"}, {"id": "g", "card": "Glowcap Lantern", "attached_to": "c"}]
    result = play(lookup, library=["Opt", "Forest"], battlefield=board, action={"attack": "c"})
    assert result["explored"][0]["revealed"] == "Opt"
    assert result["state"]["top_card_visible"] == "Opt"
    loose = play(lookup, library=["Opt"], battlefield=[{"id": "g", "card": "Glowcap Lantern"}],
                 action={"explore": "g"})
    assert "top_card_visible" not in loose["state"]


def test_map_token_is_sacrificed_and_its_target_explores(lookup):
    board = [{"id": "c", "card": "Merfolk Branchwalker"}, {"id": "m", "card": "Map"}]
    result = play(lookup, library=["Forest"], battlefield=board, action={"activate": "m", "target": "c"})
    assert [p["id"] for p in result["state"]["battlefield"]] == ["c"]
    assert result["state"]["hand"] == ["Forest"]


def test_topography_tracker_makes_a_map_and_doubles_explores(lookup):
    result = play(lookup, library=["Forest", "Island"], action={"enter": "Topography Tracker", "id": "tr"})
    assert any(p["card"] == "Map" for p in result["state"]["battlefield"])
    assert cites(result, "create_token") == ["111.10s"]   # the predefined Map token, not just "a token"
    result = play(lookup, library=["Forest", "Island"], battlefield=[{"id": "tr", "card": "Topography Tracker"}],
                  action={"enter": "Merfolk Branchwalker", "id": "b"})
    assert [e["revealed"] for e in result["explored"]] == ["Forest", "Island"]


def test_both_replacements_the_controller_chooses_which_applies_first(lookup):
    board = [{"id": "tr", "card": "Topography Tracker"}, {"id": "tt", "card": "Twists and Turns // Mycoid Maze"},
             {"id": "b", "card": "Merfolk Branchwalker"}]
    first = play(lookup, library=["Opt", "Forest", "Island"], battlefield=board, action={"explore": "b"},
                 choices=["Twists and Turns", "bottom"])
    assert [e["card"] for e in first["events"] if e["kind"] == "replacement_order"] == ["Twists and Turns"]
    assert [e["revealed"] for e in first["explored"]] == ["Forest", "Island"]   # scry 1 (Opt to the bottom), then twice
    with pytest.raises(ScenarioError):
        play(lookup, library=["Opt"], battlefield=board, action={"explore": "b"}, choices=["Forest"])


def test_merfolk_cave_diver_and_shadowed_caravel(lookup):
    board = [{"id": "cd", "card": "Merfolk Cave-Diver"}, {"id": "sc", "card": "Shadowed Caravel"}]
    result = play(lookup, library=["Forest"], battlefield=board, action={"enter": "Merfolk Branchwalker", "id": "b"})
    cave = next(p for p in result["state"]["battlefield"] if p["id"] == "cd")
    assert cave["effects"] == ["+1/+0, can't be blocked this turn"]
    assert counters(result, "sc") == 1


@pytest.mark.parametrize("scenario, message", [
    ({}, "has no “action”"),
    ({"action": {"dance": 1}}, "one of"),
    ({"action": {"explore": "nope"}}, "No permanent"),
    ({"library": "Forest", "action": {"explore": "x"}}, "list of card names"),
    ({"library": ["Not A Real Card Zzqx"], "action": {"explore": "x"}}, "No card named"),
    ({"battlefield": [{"card": "Forest"}], "action": {"explore": "x"}}, "needs an “id”"),
    ({"action": {"explore": "x", "times": "lots"}, "battlefield": [{"id": "x", "card": "Forest"}]}, "whole number"),
    ({"deck": "ixalan", "seed": "abc", "action": {"explore": "x"}}, "seed"),
    ({"action": {"cast": "Defossilize", "target": "Opt"}}, "creature card in your graveyard"),
    ({"surprise": 1, "action": {"explore": "x"}}, "Unknown field"),
])
def test_bad_scenarios_are_clear_errors(lookup, scenario, message):
    with pytest.raises(ScenarioError, match=message):
        run(scenario, lookup, deck_lookup=lambda name: [])


def test_action_fields_are_checked_by_kind(lookup):
    board = [{"id": "c", "card": "Merfolk Branchwalker"}]
    with pytest.raises(ScenarioError, match="explore action has no field"):
        play(lookup, library=["Opt"], battlefield=board, action={"explore": "c", "tims": 2})
    with pytest.raises(ScenarioError, match="“times” must be between 0 and 100"):
        play(lookup, library=["Opt"], battlefield=board, action={"explore": "c", "times": 101})
    with pytest.raises(ScenarioError, match="leaves_before_resolution"):
        play(lookup, library=["Opt"], battlefield=board, action={"explore": "c"}, leaves_before_resolution=[3])


def test_a_payoff_is_one_entry_in_the_card_table(lookup, monkeypatch):
    from bot.explore import cards
    board = [{"id": "v", "card": "Llanowar Visionary"}]
    plain = play(lookup, library=["Opt"], battlefield=board, action={"enter": "Merfolk Branchwalker", "id": "b"})
    assert counters(plain, "v") == 0
    monkeypatch.setitem(cards.CARDS, "Llanowar Visionary", cards.Card(payoffs=(cards.Payoff(("counter",)),)))
    paid = play(lookup, library=["Opt"], battlefield=board, action={"enter": "Merfolk Branchwalker", "id": "b"})
    assert counters(paid, "v") == 1
