"""The decisions a player makes while explore resolves, answered in order, with defaults."""
from __future__ import annotations

from dataclasses import dataclass, field


class ScenarioError(ValueError):
    """A scenario, an action or an answer that does not fit: said clearly, never a traceback."""


@dataclass
class NeedChoice(Exception):
    """Raised in interactive mode when a decision has no answer yet."""
    decision: str
    options: tuple[str, ...]
    default: str
    about: dict = field(default_factory=dict)


class Choices:
    """Answers to decisions, in the order the decisions come.

    Decisions: "reveal" (keep | graveyard), "scry" (top | bottom), "land" (a land card's name in
    hand | no), "replacement" (the card whose replacement effect applies first). When the answers
    run out the defaults apply — keep, top, no, battlefield order — unless ``interactive``, which
    stops at the first unanswered decision (``NeedChoice``).
    """

    def __init__(self, answers: list[str] | None = None, *, interactive: bool = False,
                 policy: str | None = None):
        self.answers = list(answers or [])
        self.used = 0
        self.interactive = interactive
        self.policy = policy          # a standing answer to "reveal" decisions (odds, /explore policy)
        self.log: list[tuple[str, str]] = []

    def ask(self, decision: str, options: list[str], default: str, **about) -> str:
        if decision == "reveal" and self.policy and self.used >= len(self.answers):
            answer = self.policy
        elif self.used < len(self.answers):
            answer = self.answers[self.used]
            self.used += 1
            match = next((o for o in options if o.lower() == str(answer).strip().lower()), None)
            if match is None:
                raise ScenarioError(f"answer {self.used} ({answer!r}) does not fit the decision {decision!r}:"
                                    f" expected one of {', '.join(options)}")
            answer = match
        elif self.interactive:
            raise NeedChoice(decision, tuple(options), default, about)
        else:
            answer = default
        self.log.append((decision, answer))
        return answer
