"""The decisions a player makes while explore resolves, answered in order, with defaults."""
from __future__ import annotations

from dataclasses import dataclass, field


class ScenarioError(ValueError):
    """A scenario, an action or an answer that does not fit: said clearly, never a traceback.

    ``message`` is an English message id with ``{placeholders}`` filled from ``values``, so that a
    front end can say it in the reader's language (``localized``)."""

    def __init__(self, message: str, **values):
        self.message, self.values = message, values
        super().__init__(message.format(**values) if values else message)

    def localized(self, msg) -> str:
        """In ``msg``'s language, the values that are notes themselves (a reason) and numbers too."""
        from bot.i18n import localized
        values = {k: localized(v, msg) for k, v in self.values.items()}
        return msg._(self.message, **values) if values else msg._(self.message)


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
    hand | no), "replacement" (the card whose replacement effect applies first), "target" (the id of
    a target, when several are legal). When the answers run out the defaults apply — keep, top, no,
    battlefield order, the first legal target — unless ``interactive``, which stops at the first
    unanswered decision (``NeedChoice``).

    The order of abilities that trigger at the same time is answered only by an answer of the form
    ``{"order": [names or ids]}`` where it comes: the abilities named go on the stack in that order
    (the last one put on the stack resolves first), the others after them in the default order, in
    which the ability whose source came first onto the battlefield resolves first.
    """

    def __init__(self, answers: list | None = None, *, interactive: bool = False,
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
            match = (next((o for o in options if o.lower() == answer.strip().lower()), None)
                     if isinstance(answer, str) else None)
            if match is None:
                raise ScenarioError("Answer {number} ({answer}) does not fit the decision “{decision}”: expected "
                                    "one of {options}.", number=self.used, answer=repr(answer), decision=decision,
                                    options=", ".join(options))
            answer = match
        elif self.interactive:
            raise NeedChoice(decision, tuple(options), default, about)
        else:
            answer = default
        self.log.append((decision, answer))
        return answer

    def order(self, labels: list[str], default: list[int], ids: list[str]) -> list[int]:
        """The order in which abilities go on the stack (indexes into ``labels``): the next answer if
        it is an {"order": [...]} answer, else ``default``."""
        if len(labels) < 2:
            return default
        answer = self.answers[self.used] if self.used < len(self.answers) else None
        if not (isinstance(answer, dict) and set(answer) == {"order"} and isinstance(answer["order"], list)):
            return default
        self.used += 1
        placed: list[int] = []
        for name in answer["order"]:
            free = [i for i in range(len(labels)) if i not in placed
                    and str(name).strip().lower() in (labels[i].lower(), ids[i].lower())]
            if not free:
                raise ScenarioError("Answer {number}: “{name}” is not one of the abilities to put on the stack "
                                    "({options}).", number=self.used, name=str(name), options=", ".join(labels))
            placed.append(free[0])
        placed += [i for i in default if i not in placed]
        self.log.append(("order", ", ".join(labels[i] for i in placed)))
        return placed
