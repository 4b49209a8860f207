"""What changed between two editions of the Comprehensive Rules: rules added, removed,
renumbered (the same title under another number, its subrules following) and changed."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from bot.rules.book import Edition
from bot.rules.numbers import is_subrule, split_letter
from bot.text import fold

_SPACES = re.compile(r"\s+")
_QUOTES = str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"'})


@dataclass
class RulesDiff:
    old: str
    new: str
    added: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    renumbered: list[tuple[str, str]] = field(default_factory=list)   # (old number, new number)
    changed: list[str] = field(default_factory=list)                  # numbers in the new edition

    def as_dict(self) -> dict:
        return {"old": self.old, "new": self.new, "added": self.added, "removed": self.removed,
                "renumbered": [{"old": o, "new": n} for o, n in self.renumbered], "changed": self.changed}


def _normal(text: str) -> str:
    return _SPACES.sub(" ", text.translate(_QUOTES)).strip()


def diff(old: Edition, new: Edition) -> RulesDiff:
    result = RulesDiff(old.effective_date, new.effective_date)
    # titled rules keep their title when they move: that is how a renumbering is recognised
    moved: dict[str, str] = {}
    for number in old.order:
        rule = old.rules[number]
        if not rule.title or "." not in number or is_subrule(number):
            continue
        now = new.by_title.get(fold(rule.title))
        if not now or now == number:
            continue
        unchanged = number in new.rules and fold(new.rules[number].title or "") == fold(rule.title)
        if not unchanged:
            moved[number] = now

    def mapped(number: str) -> str:
        head, letter = split_letter(number)
        return moved[head] + letter if head in moved else number

    matched_new: set[str] = set()
    for number in old.order:
        target = mapped(number)
        if target not in new.rules:
            result.removed.append(number)
            continue
        matched_new.add(target)
        if target != number:
            result.renumbered.append((number, target))
        if _normal(old.rules[number].body) != _normal(new.rules[target].body) or \
                tuple(map(_normal, old.rules[number].examples)) != tuple(map(_normal, new.rules[target].examples)):
            result.changed.append(target)
    result.added = [n for n in new.order if n not in matched_new]
    return result


def format_diff(d: RulesDiff, new: Edition, old: Edition, limit: int = 200) -> str:
    lines = [f"Comprehensive Rules {d.old} → {d.new}: {len(d.added)} added, {len(d.removed)} removed,"
             f" {len(d.renumbered)} renumbered, {len(d.changed)} changed"]
    if d.renumbered:
        lines.append("\nRenumbered:")
        for o, n in d.renumbered[:limit]:
            title = new.rules[n].title
            lines.append(f"  {o} → {n}" + (f"  {title}" if title else ""))
    for label, numbers, edition in (("Added", d.added, new), ("Removed", d.removed, old), ("Changed", d.changed, new)):
        if numbers:
            lines.append(f"\n{label}:")
            for number in numbers[:limit]:
                text = edition.rules[number].text
                lines.append(f"  {text[:110]}{'…' if len(text) > 110 else ''}")
            if len(numbers) > limit:
                lines.append(f"  … and {len(numbers) - limit} more")
    return "\n".join(lines)
