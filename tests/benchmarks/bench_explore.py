"""/explore odds for a 60-card deck exploring 4 times: exact computation time, beside a naive baseline
measured in the same run (a 10,000-game Monte Carlo through the engine, which is only approximate).

    python tests/benchmarks/bench_explore.py
"""
from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))


def main() -> None:
    from bot.explore.command import ExploreRequest, odds
    from bot.config import Config
    from bot.explore.choices import Choices
    from bot.explore.engine import Engine
    from bot.explore.model import CardFacts, Explore, GameState, Permanent
    from bot.explore.odds import explore_odds
    from bot.services import Services

    times = []
    for _ in range(200):
        t0 = time.perf_counter()
        explore_odds(59, 24, 4, "graveyard")
        explore_odds(59, 24, 4, "keep")
        times.append((time.perf_counter() - t0) * 1000)
    print(f"exact odds, 59-card library, 4 explores, both policies: median {statistics.median(times):.3f} ms")

    services = Services(Config.from_env())
    services.matcher  # noqa: B018
    request = ExploreRequest(deck="ixalan", explorer="Jadelight Ranger", times=4)
    command = []
    for _ in range(50):
        t0 = time.perf_counter()
        odds(services, request, "en", "keep")
        command.append((time.perf_counter() - t0) * 1000)
    print(f"/explore odds command (parse the preset deck, resolve names, exact odds, page): "
          f"median {statistics.median(command):.2f} ms")

    land, spell = CardFacts("Forest", "Basic Land — Forest"), CardFacts("Opt", "Instant")
    explorer = CardFacts("Jadelight Ranger", "Creature — Merfolk Scout")
    rng = random.Random(1)
    cards = [land] * 24 + [spell] * 35
    t0 = time.perf_counter()
    for _ in range(10_000):
        library = cards[:]
        rng.shuffle(library)
        state = GameState(library=library, battlefield={"e": Permanent("e", explorer, object_number=1)})
        Engine(state, Choices(policy="graveyard")).run_action(Explore("e", 4))
    print(f"naive baseline, Monte Carlo of 10,000 games (approximate): {(time.perf_counter() - t0) * 1000:.0f} ms")


if __name__ == "__main__":
    main()
