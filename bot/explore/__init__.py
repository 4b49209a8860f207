"""The explore keyword action (CR 701.44), exactly: a small game state, an engine that produces
events citing the rule or ruling behind each step, seeded shuffles and exact odds."""
from bot.explore.engine import Engine, ScenarioError
from bot.explore.model import CardFacts, Event, GameState, Permanent

__all__ = ["CardFacts", "Engine", "Event", "GameState", "Permanent", "ScenarioError"]
