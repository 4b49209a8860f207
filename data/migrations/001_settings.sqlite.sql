-- Per-guild settings, per-user language, saved decks.
CREATE TABLE guild_settings (
    guild_id             INTEGER PRIMARY KEY,
    reply_language       TEXT NOT NULL DEFAULT 'auto',   -- auto | en | es | fr | … | zht
    machine_translations TEXT NOT NULL DEFAULT 'show',   -- show | hide
    english_originals    TEXT NOT NULL DEFAULT 'click',  -- click | beside
    private_replies      INTEGER NOT NULL DEFAULT 0,
    inline_cards         INTEGER NOT NULL DEFAULT 0,
    default_deck         TEXT,
    default_policy       TEXT,                           -- NULL (ask) | keep | graveyard
    updated_at           TEXT NOT NULL DEFAULT (datetime('now'))
);

CREATE TABLE user_settings (
    user_id    INTEGER PRIMARY KEY,
    language   TEXT,
    updated_at TEXT NOT NULL DEFAULT (datetime('now'))
);

CREATE TABLE decks (
    guild_id  INTEGER NOT NULL,
    name      TEXT NOT NULL,
    list      TEXT NOT NULL,
    cards     INTEGER NOT NULL,
    saved_by  INTEGER NOT NULL,
    saved_at  TEXT NOT NULL DEFAULT (datetime('now')),
    PRIMARY KEY (guild_id, name)
);
