"""The explore keyword action (CR 701.44), exactly: a small game state (model), an engine that
produces events citing the rule or ruling behind each step (engine), seeded shuffles and exact odds.

Each module is imported by name: the decks or the odds need not load the engine.
"""
