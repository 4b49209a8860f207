import pytest

from bot.catalog.comprehensive_rules import parse_rules, read_text
from tests.helpers import SHARED_DATA, needs_shared

CR = SHARED_DATA / "cr"


@needs_shared
def test_the_2026_edition_is_read_whole():
    raw = (CR / "MagicCompRules-20260116.txt").read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf") and b"\r\n" not in raw.replace(b"\r\n", b"", 12)[:0] + b""
    doc = parse_rules(read_text(CR / "MagicCompRules-20260116.txt"))
    assert doc.effective_date == "2026-01-16"
    numbered = [r for r in doc.rules if "." in r.number and r.number.split(".")[1]]
    assert len(numbered) == 3114
    assert sum(len(r.examples) for r in doc.rules) == 276
    assert len(doc.glossary) == 725
    rule = {r.number: r for r in doc.rules}
    assert rule["701.44"].title == "Explore"
    assert rule["701.44a"].text.startswith("701.44a Certain spells and abilities instruct a permanent to explore.")
    assert rule["701.44a"].parent == "701.44" and rule["701.44"].parent == "701" and rule["701"].parent == "7"
    assert not rule["701.44a"].text.startswith("\ufeff")


@needs_shared
@pytest.mark.parametrize("name, date, explore", [
    ("MagicCompRules-20170925.txt", "2017-09-29", "701.38"),
    ("MagicCompRules-20231117.txt", "2023-11-17", "701.40"),
    ("MagicCompRules-20251114.txt", "2025-11-14", "701.44"),
])
def test_older_editions_with_other_encodings_and_line_endings(name, date, explore):
    doc = parse_rules(read_text(CR / name))
    assert doc.effective_date == date
    titles = {r.number: r.title for r in doc.rules}
    assert titles[explore] == "Explore"
    assert all("\r" not in r.text for r in doc.rules)
