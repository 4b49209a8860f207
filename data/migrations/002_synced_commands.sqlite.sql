-- The slash commands last put on Discord, per application and scope (global, or one server):
-- Discord keeps them between starts, so a start puts them again only when what it would send has
-- changed (its fingerprint differs from the one recorded here).
CREATE TABLE synced_commands (
    application_id INTEGER NOT NULL,
    scope          TEXT NOT NULL,                          -- global | a server id
    fingerprint    TEXT NOT NULL,
    synced_at      TEXT NOT NULL DEFAULT (datetime('now')),
    PRIMARY KEY (application_id, scope)
);
