// sqlite.js: the bare job cycle on the official SQLite WebAssembly build
// (npm @sqlite.org/sqlite-wasm, pinned in web/.sqlite-wasm: the same SQLite,
// 3.54.1, as the engine's own build, served by make bench under
// ./sqlite-wasm/), through its oo1 API on the page's main thread.
//
// It is the engine's cycle written again by hand: the same schema, the same
// statements (the engine's own texts: a test in engine/internal/bench/browser
// checks each statement of the engine's cycle appears here verbatim), each
// prepared once, and the same decisions in between: enqueue (INSERT ... ON
// CONFLICT DO NOTHING); claim = BEGIN IMMEDIATE, SELECT the row, decide,
// UPDATE guarded by the row's version, COMMIT; complete likewise.

import { start } from './measure.js';
import sqlite3InitModule from './sqlite-wasm/sqlite3.js';

const SCHEMA = [
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
];
const ENQUEUE = `INSERT INTO jobs (id, seq, qty, max_attempts, deadline)
VALUES (?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM jobs), ?, ?, ?)
ON CONFLICT (id) DO NOTHING`;
const SELECT_JOB = `SELECT id, qty, owner, lease_until, token, attempts, max_attempts, deadline, status, reason, result FROM jobs WHERE id = ?`;
const CLAIM = `UPDATE jobs SET owner = ?, lease_until = ?, token = token + 1, attempts = attempts + 1, status = 'leased' WHERE id = ? AND token = ? AND status = ? AND lease_until = ?`;
const COMPLETE = `UPDATE jobs SET status = 'done', result = ? WHERE id = ? AND token = ? AND status = ? AND lease_until = ?`;

const TTL = 30000; // long enough that no lease of the benchmark ends

/**
 * The cycle's statements on db, each prepared once, and run(s, args): bind,
 * step, reset.
 * @param {any} db
 */
function prepare(db) {
  const st = {
    begin: db.prepare('BEGIN IMMEDIATE'),
    commit: db.prepare('COMMIT'),
    rollback: db.prepare('ROLLBACK'),
    enqueue: db.prepare(ENQUEUE),
    select: db.prepare(SELECT_JOB),
    claim: db.prepare(CLAIM),
    complete: db.prepare(COMPLETE),
  };
  const run = (s, args) => {
    if (args) s.bind(args);
    s.step();
    s.reset(true);
  };
  return { st, run };
}

/**
 * The row of job id, or null.
 * @param {any} select the prepared SELECT_JOB
 * @param {string} id
 */
function readJob(select, id) {
  select.bind([id]);
  let j = null;
  if (select.step()) {
    const r = select.get([]);
    j = {
      id: r[0],
      qty: r[1],
      owner: r[2] ?? '',
      leaseUntil: r[3],
      token: r[4],
      attempts: r[5],
      maxAttempts: r[6],
      deadline: r[7] ?? 0,
      status: r[8],
      reason: r[9] ?? '',
      result: r[10] ?? '',
    };
  }
  select.reset(true);
  return j;
}

/**
 * The engine's claim and complete on db: each one transaction that reads
 * the row, decides, and writes it guarded by the row's version.
 * @param {any} db
 */
function store(db) {
  const { st, run } = prepare(db);
  // atomic runs fn inside BEGIN IMMEDIATE ... COMMIT, rolling back on a throw.
  const atomic = (fn) => {
    run(st.begin);
    try {
      const out = fn();
      run(st.commit);
      return out;
    } catch (err) {
      run(st.rollback);
      throw err;
    }
  };
  const guarded = (s, args) => {
    run(s, args);
    if (db.changes() !== 1) throw new Error('row changed between read and write');
  };
  const claim = (id, owner, now) =>
    atomic(() => {
      const cur = readJob(st.select, id);
      if (!cur) throw new Error(`claim ${id}: not found`);
      if (cur.status === 'done' || cur.status === 'quarantined') throw new Error(`claim ${id}: ${cur.status}`);
      if (cur.owner !== '' && now < cur.leaseUntil) throw new Error(`claim ${id}: held`);
      if ((cur.maxAttempts > 0 && cur.attempts >= cur.maxAttempts) || (cur.deadline > 0 && now >= cur.deadline)) {
        throw new Error(`claim ${id}: budget used up`);
      }
      let until = now + TTL;
      if (cur.deadline > 0 && until > cur.deadline) until = cur.deadline;
      guarded(st.claim, [owner, until, cur.id, cur.token, cur.status, cur.leaseUntil]);
      return { id: cur.id, owner, token: cur.token + 1, leaseUntil: until };
    });
  const complete = (l, now, result) =>
    atomic(() => {
      const cur = readJob(st.select, l.id);
      if (!cur) throw new Error(`complete ${l.id}: not found`);
      if (cur.status === 'done' || cur.status === 'quarantined') throw new Error(`complete ${l.id}: ${cur.status}`);
      if (cur.token !== l.token || cur.owner !== l.owner) throw new Error(`complete ${l.id}: superseded`);
      if (now >= cur.leaseUntil || (cur.deadline > 0 && now >= cur.deadline))
        throw new Error(`complete ${l.id}: expired`);
      guarded(st.complete, [result, cur.id, cur.token, cur.status, cur.leaseUntil]);
    });
  const enqueue = (id) => run(st.enqueue, [id, 1, 0, null]);
  return { enqueue, claim, complete };
}

start(async () => {
  const sqlite3 = await sqlite3InitModule({ print: () => {}, printErr: () => {} });
  const db = new sqlite3.oo1.DB(':memory:', 'c');
  for (const q of SCHEMA) db.exec(q);
  const jobs = store(db);
  let next = 0;
  const cycles = (n) => {
    for (let k = 0; k < n; k++) {
      const i = next++;
      const id = `bench-${i}`;
      jobs.enqueue(id);
      if (db.changes() !== 1) throw new Error(`enqueue ${id}: not added`);
      const l = jobs.claim(id, 'w', i);
      if (l.token !== 1) throw new Error(`claim ${id}: token ${l.token}`);
      jobs.complete(l, i, 'ok');
    }
    return n;
  };
  return {
    version: `SQLite ${sqlite3.version.libVersion} (official WebAssembly build, oo1 API)`,
    cycles,
    wasmBytes: () => sqlite3.wasm.heap8u().byteLength,
  };
});
