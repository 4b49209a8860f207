-- The slash commands last put on Discord (PostgreSQL; the same version as
-- 002_synced_commands.sqlite.sql, written in PostgreSQL's own types).
CREATE TABLE synced_commands (
    application_id BIGINT NOT NULL,
    scope          TEXT NOT NULL,                          -- global | a server id
    fingerprint    TEXT NOT NULL,
    synced_at      TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (application_id, scope)
);
