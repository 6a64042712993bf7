-- The engine's jobs table, as engine.New creates it (engine/schema.go);
-- a native test checks that the two stay the same.
CREATE TABLE IF NOT EXISTS jobs (
	id           TEXT PRIMARY KEY NOT NULL,
	seq          INTEGER NOT NULL UNIQUE,
	qty          INTEGER NOT NULL DEFAULT 1,
	owner        TEXT,
	lease_until  INTEGER NOT NULL DEFAULT 0,
	token        INTEGER NOT NULL DEFAULT 0 CHECK (token >= 0),
	attempts     INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
	max_attempts INTEGER NOT NULL DEFAULT 0 CHECK (max_attempts >= 0),
	deadline     INTEGER,
	status       TEXT NOT NULL DEFAULT 'pending'
	             CHECK (status IN ('pending', 'leased') OR status IN ('done', 'quarantined')),
	reason       TEXT,
	result       TEXT
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS jobs_open ON jobs (seq) WHERE status IN ('pending', 'leased');
