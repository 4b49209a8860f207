"""/ask: a question in the reader's own words and language → the rules, glossary entries and
rulings that decide it, cited. Retrieval and ranking over the catalog, no language model."""
