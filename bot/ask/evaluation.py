"""Judging /ask: questions with the rules, glossary entries or rulings that decide them, and the
recall of an answer (the share of those found among its results)."""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class JudgeQuestion:
    text: str
    lang: str
    expect: tuple[str, ...]     # "rule:704.5b", "glossary:Explore", "ruling:<card or *>|<words of it>";
    #                             "rule:704.5d||rule:111.7": either decides it


def load_questions(path: Path) -> list[JudgeQuestion]:
    out = []
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        if line.strip():
            item = json.loads(line)
            out.append(JudgeQuestion(item["q"], item["lang"], tuple(item["expect"])))
    return out


def found(expected: str, results: list[dict]) -> bool:
    kind, _, what = expected.partition(":")
    for result in results:
        if result["kind"] != kind:
            continue
        if kind == "rule" and result["number"] == what:
            return True
        if kind == "glossary" and result["term"].lower() == what.lower():
            return True
        if kind == "ruling":
            card, _, words = what.partition("|")
            if card not in ("*", result["card"]):
                continue
            if words.lower() in result["text"].lower():
                return True
    return False


def recall_at(answer: dict, expect) -> float:
    """Each expected item counts once; "a||b" is satisfied by either."""
    return sum(any(found(e, answer["results"]) for e in item.split("||"))
               for item in expect) / len(expect)
