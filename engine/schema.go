package engine

import "strings"

// schemaSQL creates the jobs table idempotently. It never drops, resets or
// rewrites an existing row: reopening a store keeps every token, so a token
// number is never handed out twice.
//
// The table is WITHOUT ROWID: every operation finds its row by id, and
// clustering the rows on id makes that one B-tree search instead of two.
// seq is the insertion order ClaimNext follows, kept explicitly (a rowid
// would not be stable across VACUUM anyway).
//
// Two partial indexes hold only the jobs a claim can still look at, so
// ClaimNext walks neither the final jobs nor the held ones: jobs_free, the
// unowned open jobs by seq, whose first entry is the oldest of them; and
// jobs_expiry, the owned open jobs by lease_until, whose entries up to now
// are exactly the leases that have ended (nextSeqSQL). jobs_open, the open
// jobs by seq that ClaimNext walked in order, past every held job, is
// dropped where an older store has it.
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
	`DROP INDEX IF EXISTS jobs_open`,
	`CREATE INDEX IF NOT EXISTS jobs_free ON jobs (seq) WHERE status IN ('pending', 'leased') AND owner IS NULL`,
	`CREATE INDEX IF NOT EXISTS jobs_expiry ON jobs (lease_until, seq) WHERE status IN ('pending', 'leased') AND owner IS NOT NULL`,
}

// nextSeqSQL is the seq of the oldest job that is neither final nor held
// at the one parameter, now (NULL when there is none), with ended, the
// test that a lease has ended at now ("lease_until <= ?"). It takes the
// older of two: the first unowned open job, one step down jobs_free; and
// the oldest owned open job whose lease has ended, the least seq over the
// range of jobs_expiry up to now. Its cost grows with the leases that have
// ended (each a job the claim may take), never with the held ones. The
// unary plus in MIN(+seq) keeps SQLite from taking that least seq by
// walking the seq index in order, past every held job, instead of the
// range of jobs_expiry.
func nextSeqSQL(ended string) string {
	return `(SELECT MIN(seq) FROM (
SELECT MIN(seq) AS seq FROM jobs WHERE status IN ('pending', 'leased') AND owner IS NULL
UNION ALL
SELECT MIN(+seq) FROM jobs WHERE status IN ('pending', 'leased') AND owner IS NOT NULL AND ` + ended + `))`
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
