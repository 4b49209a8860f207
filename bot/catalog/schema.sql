-- The card catalog: built by the importers, opened read-only by the bot.

CREATE TABLE IF NOT EXISTS cards (
    oracle_id   TEXT PRIMARY KEY,
    name        TEXT NOT NULL,           -- English; faces joined with " // "
    layout      TEXT NOT NULL DEFAULT 'normal',
    type_line   TEXT NOT NULL DEFAULT '',
    oracle_text TEXT NOT NULL DEFAULT '',
    mana_cost   TEXT NOT NULL DEFAULT '',
    faces       TEXT,                    -- JSON list of {name, type_line, oracle_text, mana_cost}
    image_uri   TEXT,
    kind        TEXT NOT NULL DEFAULT 'card'   -- card | token | art | playtest
);

CREATE INDEX IF NOT EXISTS cards_by_name ON cards(name COLLATE NOCASE);

-- Every printed name: one row per (card, language, spelling), faces included.
CREATE TABLE IF NOT EXISTS names (
    oracle_id TEXT NOT NULL REFERENCES cards(oracle_id) ON DELETE CASCADE,
    lang      TEXT NOT NULL,
    name      TEXT NOT NULL,
    face      INTEGER NOT NULL DEFAULT -1,   -- -1: the whole card; 0, 1…: that face
    folded    TEXT NOT NULL,                 -- bot.text.fold(name): what the matcher compares
    prints    INTEGER NOT NULL DEFAULT 1,    -- how many printings carry this spelling, in the last card file
                                             -- imported that has it (the same file again: the same count)
    counting  INTEGER,                       -- while a card file is imported: its printings counted so far
    PRIMARY KEY (oracle_id, lang, name)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS names_by_name ON names(name);
-- the folded names in order, covering what the name index is built from (and look-ups by folded name)
CREATE INDEX IF NOT EXISTS names_by_key ON names(folded, face, prints);
DROP INDEX IF EXISTS names_by_folded;

-- A card's text as printed in another language (Scryfall printed_*, MTGJSON foreignData).
CREATE TABLE IF NOT EXISTS printed_texts (
    oracle_id TEXT NOT NULL REFERENCES cards(oracle_id) ON DELETE CASCADE,
    lang      TEXT NOT NULL,
    face      INTEGER NOT NULL DEFAULT -1,    -- -1: the whole card; 0, 1…: that face
    name      TEXT,
    type_line TEXT NOT NULL DEFAULT '',
    text      TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (oracle_id, lang, face)
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS documents (
    id          INTEGER PRIMARY KEY,
    key         TEXT NOT NULL UNIQUE,    -- what identifies the source: kind + file name
    kind        TEXT NOT NULL,           -- scryfall-rulings | mtgjson | seed | cr
    path        TEXT NOT NULL,
    title       TEXT,
    notice      TEXT                     -- e.g. a machine-translation notice
);

CREATE TABLE IF NOT EXISTS rulings (
    id           INTEGER PRIMARY KEY,
    oracle_id    TEXT NOT NULL,
    published_at TEXT,                   -- ISO date, NULL when the document gives none
    source       TEXT NOT NULL DEFAULT 'unknown',   -- wotc | scryfall | unknown
    lang         TEXT NOT NULL,
    text         TEXT NOT NULL,
    status       TEXT NOT NULL DEFAULT 'original',  -- original | translation | machine | partial
    original_id  INTEGER REFERENCES rulings(id) ON DELETE SET NULL,
    document_id  INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    position     INTEGER NOT NULL DEFAULT 0,
    wordings     TEXT,                   -- JSON list of further wordings folded into this one
    mixed_langs  TEXT                    -- languages of sentences left untranslated, e.g. "en"
);
CREATE INDEX IF NOT EXISTS rulings_by_card ON rulings(oracle_id, lang);
CREATE INDEX IF NOT EXISTS rulings_by_original ON rulings(original_id);

-- Every document a ruling came from (a ruling is one ruling whatever the number of sources).
CREATE TABLE IF NOT EXISTS ruling_sources (
    ruling_id    INTEGER NOT NULL REFERENCES rulings(id) ON DELETE CASCADE,
    document_id  INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    published_at TEXT,
    source       TEXT NOT NULL DEFAULT 'unknown',
    position     INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (ruling_id, document_id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS ruling_sources_by_document ON ruling_sources(document_id);

-- What identifies a ruling: card, language and folded text (of each of its wordings).
CREATE TABLE IF NOT EXISTS ruling_texts (
    oracle_id TEXT NOT NULL,
    lang      TEXT NOT NULL,
    key       TEXT NOT NULL,
    ruling_id INTEGER NOT NULL REFERENCES rulings(id) ON DELETE CASCADE,
    PRIMARY KEY (oracle_id, lang, key)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS ruling_texts_by_ruling ON ruling_texts(ruling_id);

CREATE TABLE IF NOT EXISTS cr_editions (
    id             INTEGER PRIMARY KEY,
    effective_date TEXT NOT NULL,
    lang           TEXT NOT NULL DEFAULT 'en',
    document_id    INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    UNIQUE (effective_date, lang)
);

CREATE TABLE IF NOT EXISTS cr_rules (
    edition_id INTEGER NOT NULL REFERENCES cr_editions(id) ON DELETE CASCADE,
    number     TEXT NOT NULL,            -- "701", "701.44", "701.44a"
    parent     TEXT,
    title      TEXT,                     -- for sections and rules: "Explore"
    text       TEXT NOT NULL,            -- exactly as published (rule lines, no examples)
    examples   TEXT,                     -- JSON list of the rule's "Example:" paragraphs
    position   INTEGER NOT NULL,
    PRIMARY KEY (edition_id, number)
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS cr_glossary (
    edition_id INTEGER NOT NULL REFERENCES cr_editions(id) ON DELETE CASCADE,
    term       TEXT NOT NULL,
    definition TEXT NOT NULL,
    PRIMARY KEY (edition_id, term)
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS imports (
    id          INTEGER PRIMARY KEY,
    path        TEXT NOT NULL,
    kind        TEXT NOT NULL,
    imported_at TEXT NOT NULL,
    counts      TEXT NOT NULL,           -- JSON {"cards": …, "names": …, …}
    warnings    INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE IF NOT EXISTS meta (
    key   TEXT PRIMARY KEY,
    value TEXT
);
