"""The desk's SQLite schema, versioned: PRAGMA user_version says how far a file is, and `MIGRATIONS[k]`
takes a file from version k to k + 1. Entries are only ever appended, never edited."""

from __future__ import annotations

MIGRATIONS = (
    """
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE events (
        id INTEGER PRIMARY KEY,
        settings TEXT NOT NULL,
        current_version INTEGER REFERENCES versions(id),
        created TEXT NOT NULL
    );
    CREATE TABLE versions (
        id INTEGER PRIMARY KEY,
        event_id INTEGER NOT NULL REFERENCES events(id),
        parent INTEGER REFERENCES versions(id),
        kind TEXT NOT NULL,
        note TEXT NOT NULL,
        played INTEGER NOT NULL,
        schedule TEXT NOT NULL,
        figures TEXT NOT NULL,
        created TEXT NOT NULL
    );
    CREATE INDEX versions_of_event ON versions(event_id);
    CREATE TABLE runs (
        id INTEGER PRIMARY KEY,
        event_id INTEGER NOT NULL REFERENCES events(id),
        kind TEXT NOT NULL,
        request TEXT NOT NULL,
        status TEXT NOT NULL,
        pid INTEGER,
        time_limit REAL NOT NULL,
        started REAL NOT NULL,
        finished REAL,
        stop_asked INTEGER NOT NULL DEFAULT 0,
        progress TEXT NOT NULL DEFAULT '{}',
        message TEXT NOT NULL DEFAULT '',
        version_id INTEGER REFERENCES versions(id)
    );
    CREATE INDEX runs_of_event ON runs(event_id);
    """,
    # 1 -> 2: the rounds played live in the schedule itself (Schedule.played, set by optimizer.mark_played
    # and by a re-plan), not in a column of the desk's beside it.
    """
    UPDATE versions SET schedule = json_set(schedule, '$.played', played)
        WHERE played > coalesce(json_extract(schedule, '$.played'), 0);
    ALTER TABLE versions DROP COLUMN played;
    """,
    # 2 -> 3, the room (rotation.desk.room): each event's public id for the players' pages, its round
    # timer and paging pace, and the rounds released to the room (each with the seating it had then).
    """
    CREATE TABLE rooms (
        event_id INTEGER PRIMARY KEY REFERENCES events(id),
        public_id TEXT NOT NULL UNIQUE,
        minutes REAL NOT NULL DEFAULT 60,
        pace REAL NOT NULL DEFAULT 12,
        started REAL,
        left REAL
    );
    CREATE TABLE releases (
        event_id INTEGER NOT NULL REFERENCES events(id),
        round INTEGER NOT NULL,
        seating TEXT NOT NULL,
        released REAL NOT NULL,
        PRIMARY KEY (event_id, round)
    );
    """,
    # 3 -> 4, scores (rotation.desk.scores): every entry of a table's card is a row, never updated; the
    # newest of a (round, table) counts and the older ones are its corrections' history. `standings_at`:
    # the projector shows the standings while the latest round released is this one (None: the tables).
    """
    CREATE TABLE cards (
        id INTEGER PRIMARY KEY,
        event_id INTEGER NOT NULL REFERENCES events(id),
        round INTEGER NOT NULL,
        table_number INTEGER NOT NULL,
        card TEXT NOT NULL,
        entered TEXT NOT NULL
    );
    CREATE INDEX cards_of_event ON cards(event_id, round, table_number);
    ALTER TABLE rooms ADD COLUMN standings_at INTEGER;
    """,
    # 4 -> 5 (issue 42): an event put away (archived) is kept whole but listed apart on the desk's first page.
    """
    ALTER TABLE events ADD COLUMN archived INTEGER NOT NULL DEFAULT 0;
    """,
    # 5 -> 6, issue 41: each run names the desk that started it (a desk closes only its own runs, and a
    # restart those of a desk that is gone); every event has its room from the start, so no page that
    # only reads has to make one.
    """
    ALTER TABLE runs ADD COLUMN desk TEXT NOT NULL DEFAULT '';
    INSERT INTO rooms (event_id, public_id)
        SELECT id, lower(hex(randomblob(8))) FROM events WHERE id NOT IN (SELECT event_id FROM rooms);
    """,
    # 6 -> 7 (issue 42): the projector's standings show the top N places (None: every player).
    """
    ALTER TABLE rooms ADD COLUMN standings_top INTEGER;
    """,
    # 7 -> 8 (issue 44): a series' settings (the rule its standings rank by), and whether the projector's
    # standings are the night's or its series'.
    """
    CREATE TABLE series (name TEXT PRIMARY KEY, standings TEXT NOT NULL);
    ALTER TABLE rooms ADD COLUMN standings_series INTEGER NOT NULL DEFAULT 0;
    """,
    # 8 -> 9 (issue 53): a series' roster (members with their ids, added before they play or made members
    # from guests) and whether guests are ranked in its standings, as one JSON record.
    """
    ALTER TABLE series ADD COLUMN roster TEXT NOT NULL DEFAULT '{}';
    """,
)
SCHEMA_VERSION = len(MIGRATIONS)
