"""/settings: per-guild and per-user settings, saved decks, and the reply-language policy."""
