"""/rule: the Comprehensive Rules by number, keyword or glossary term; editions and their diff."""
