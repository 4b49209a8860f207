"""Card-name matching: from what a person typed to the card they meant, in any print language."""
from bot.matching.index import NameIndex
from bot.matching.matcher import Candidate, Matcher, Resolution

__all__ = ["Candidate", "Matcher", "NameIndex", "Resolution"]
