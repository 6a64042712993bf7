package engine

import "strings"

// schemaSQL creates the jobs table idempotently. It never drops, resets or
// rewrites an existing row: reopening a store keeps every token, so a token
// number is never handed out twice.
//
// The table is WITHOUT ROWID: every operation finds its row by id, and
// clustering the rows on id makes that one B-tree search instead of two.
// seq is the insertion order ClaimNext follows, kept explicitly (a rowid
// would not be stable across VACUUM anyway). The partial index holds only
// the jobs a claim can still look at, so ClaimNext does not walk the done
// ones.
//
// The CHECK on status names the open states and the final ones as two
// lists of two: SQLite builds an ephemeral b-tree, on every execution, for a
// constant IN list of more than two terms, and this CHECK runs on every
// write that sets status (a claim, a complete); one list of four was an
// eighth of the job cycle (make bench).
var schemaSQL = []string{
	`CREATE TABLE IF NOT EXISTS jobs (
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
) WITHOUT ROWID`,
	`CREATE INDEX IF NOT EXISTS jobs_open ON jobs (seq) WHERE status IN ('pending', 'leased')`,
}

// receiptsSQL creates the Receiver's table: one row per business id.
var receiptsSQL = []string{
	`CREATE TABLE IF NOT EXISTS receipts (
	job_id TEXT PRIMARY KEY NOT NULL,
	qty    INTEGER NOT NULL,
	owner  TEXT NOT NULL,
	token  INTEGER NOT NULL
)`,
}

const jobColumns = `id, qty, owner, lease_until, token, attempts, max_attempts, deadline, status, reason, result`

// storageSQL creates the Storage's table: one value per key, with the lease
// (owner and token) of the write that stored it.
var storageSQL = []string{
	`CREATE TABLE IF NOT EXISTS storage (
	key   TEXT PRIMARY KEY NOT NULL,
	value TEXT NOT NULL,
	owner TEXT NOT NULL,
	token INTEGER NOT NULL CHECK (token >= 0)
)`,
}

// placeholders is n question marks for an IN list: "?, ?, ?".
func placeholders(n int) string { return strings.Repeat(", ?", n)[2:] }
