-- Per-guild settings, per-user language, saved decks (PostgreSQL; the same version as
-- 001_settings.sqlite.sql, written in PostgreSQL's own types).
CREATE TABLE guild_settings (
    guild_id             BIGINT PRIMARY KEY,
    reply_language       TEXT NOT NULL DEFAULT 'auto',   -- auto | en | es | fr | … | zht
    machine_translations TEXT NOT NULL DEFAULT 'show',   -- show | hide
    english_originals    TEXT NOT NULL DEFAULT 'click',  -- click | beside
    private_replies      BOOLEAN NOT NULL DEFAULT FALSE,
    inline_cards         BOOLEAN NOT NULL DEFAULT FALSE,
    default_deck         TEXT,
    default_policy       TEXT,                           -- NULL (ask) | keep | graveyard
    updated_at           TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE TABLE user_settings (
    user_id    BIGINT PRIMARY KEY,
    language   TEXT,
    updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE TABLE decks (
    guild_id  BIGINT NOT NULL,
    name      TEXT NOT NULL,
    list      TEXT NOT NULL,
    cards     INTEGER NOT NULL,
    saved_by  BIGINT NOT NULL,
    saved_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (guild_id, name)
);
