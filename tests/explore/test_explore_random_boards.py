"""Random boards, actions, responses and answers: each either plays out, every step narrated, or is
refused with one message in the reader's language — never a traceback."""
import json
import random

import pytest

from bot.explore.choices import ScenarioError
from bot.explore.model import Event
from bot.explore.narrate import describe
from bot.explore.scenario import run
from bot.i18n import messages

CARDS = ["Merfolk Branchwalker", "Jadelight Ranger", "Wildgrowth Walker", "Nicanzil, Current Conductor", "Map",
         "Topography Tracker", "Twists and Turns // Mycoid Maze", "Path of Discovery", "Glowcap Lantern",
         "Lurking Chupacabra", "Emperor's Vanguard", "Seeker of Sunlight", "Tomb Robber", "Legion Vanguard",
         "Forest", "Opt", "Shadowed Caravel", "Merfolk Cave-Diver", "Jadelight Spelunker", "Deadeye Tracker"]
LIBRARY = ["Forest", "Opt", "Island", "Vraska's Contempt"]
ANSWERS = ["keep", "graveyard", "top", "bottom", "no", "Forest", "Topography Tracker", "Twists and Turns"]


def random_scenario(rng: random.Random) -> dict:
    ids = [f"p{k}" for k in range(rng.randint(0, 4))]

    def pick():
        return rng.choice(ids + ["zz"])

    board = [{"id": pid, "card": rng.choice(CARDS), **({"controller": "opponent"} if rng.random() < .2 else {}),
              **({"tapped": True} if rng.random() < .2 else {}), **({"creature": False} if rng.random() < .1 else {})}
             for pid in ids]
    if len(board) > 1 and rng.random() < .3:
        board[1]["attached_to"] = board[0]["id"]
    action = rng.choice([
        lambda: {"explore": pick(), "times": rng.randint(0, 3)},
        lambda: {"enter": rng.choice(CARDS), "id": "new", "x": rng.randint(0, 2),
                 **({"target": pick()} if rng.random() < .5 else {}),
                 **({"controller": "opponent"} if rng.random() < .2 else {})},
        lambda: {"cast": rng.choice(["Defossilize", "Enter the Unknown", "Opt"]),
                 "target": rng.choice(ids + ["Jadelight Ranger", "Opt"])},
        lambda: {"attack": pick(), "damage": rng.random() < .5},
        lambda: {"activate": pick(), "target": pick(), **({"discard": "Opt"} if rng.random() < .5 else {}),
                 **({"sacrifice": pick()} if rng.random() < .5 else {}),
                 **({"targets": rng.sample(["Opt", "Forest", "Opt", "Island"], rng.randint(1, 3))}
                    if rng.random() < .5 else {})},
    ])()
    leaving = []
    for _ in range(rng.randint(0, 2)):
        roll = rng.random()
        if roll < .4:
            leaving.append(pick())
        elif roll < .7:
            leaving.append({"id": rng.choice(ids + ["new"]), "returns": rng.random() < .6,
                            **({"to": "exile"} if rng.random() < .3 else {}),
                            **({"before": rng.choice(CARDS + ids)} if rng.random() < .4 else {})})
        elif roll < .85:
            leaving.append({"card": "Jadelight Ranger"})
        else:
            leaving.append({"card": rng.choice(["Opt", "Forest"]), "owner": rng.choice(["you", "opponent"])})
    choices = [rng.choice(ANSWERS + [{"order": [rng.choice(CARDS)]}]) for _ in range(rng.randint(0, 3))]
    return {"library": [rng.choice(LIBRARY) for _ in range(rng.randint(0, 5))],
            "hand": rng.choice([[], ["Opt"], ["Forest", "Opt"]]), "graveyard": rng.choice([[], ["Jadelight Ranger"]]),
            "battlefield": board, "action": action, "leaves_before_resolution": leaving, "choices": choices,
            **({"opponent": {"library": ["Forest", "Opt"], "graveyard": rng.choice([[], ["Opt"], ["Opt", "Forest"],
                                                                                 ["Forest", "Opt", "Opt"]])}}
               if rng.random() < .3 else {})}


@pytest.mark.parametrize("seed", range(4))
def test_random_boards_play_out_or_are_refused_clearly(seed, bundled_services):
    rng = random.Random(seed)
    played = refused = 0
    for _ in range(250):
        data = random_scenario(rng)
        try:
            result = run(json.loads(json.dumps(data)), bundled_services.card_facts)
        except ScenarioError as exc:
            assert exc.localized(messages("ja")).strip()
            refused += 1
            continue
        played += 1
        for event in result["events"]:
            params = {k: v for k, v in event.items() if k not in ("kind", "cites")}
            assert describe(Event(event["kind"], params, tuple(event["cites"])), messages("fr")), event["kind"]
    assert played > 25 and refused > 25
