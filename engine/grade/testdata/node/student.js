// A fencing lab in Node.js, graded with leaselab grade -cmd 'node student.js':
// the lab's functions over better-sqlite3 (SQLite in the process, no program
// started per call), and the loop that speaks leaselab grade's protocol.
'use strict';
const Database = require('better-sqlite3');

// One connection per database file, kept open: the grader gives each test a
// fresh file. timeout is SQLite's busy timeout, for the race, where two
// copies of this program claim on one file at once.
const open = new Map();
function db(path) {
  if (!open.has(path)) open.set(path, new Database(path, { timeout: 5000 }));
  return open.get(path);
}

function init_db(path) {
  db(path).exec(`CREATE TABLE IF NOT EXISTS jobs(id TEXT PRIMARY KEY, owner TEXT,
    until INTEGER NOT NULL DEFAULT 0, fence INTEGER NOT NULL DEFAULT 0,
    result TEXT, done INTEGER NOT NULL DEFAULT 0)`);
  return null;
}

function enqueue(path, jobId) {
  return db(path).prepare('INSERT OR IGNORE INTO jobs(id) VALUES (?)').run(jobId).changes === 1;
}

function state(path, jobId) {
  return db(path).prepare('SELECT id, owner, until, fence, result, done FROM jobs WHERE id = ?').get(jobId) ?? null;
}

function claim(path, jobId, owner, now, ttl) {
  if (ttl <= 0) throw new RangeError('ttl must be positive');
  const d = db(path);
  // The read and the write are one BEGIN IMMEDIATE transaction: no other
  // process can claim between them.
  return d
    .transaction(() => {
      const row = d.prepare('SELECT until, fence, done FROM jobs WHERE id = ?').get(jobId);
      if (!row || row.done || row.until > now) return null;
      d.prepare('UPDATE jobs SET owner = ?, until = ?, fence = ? WHERE id = ?').run(owner, now + ttl, row.fence + 1, jobId);
      return row.fence + 1;
    })
    .immediate();
}

function renew(path, jobId, owner, fence, now, ttl) {
  if (ttl <= 0) throw new RangeError('ttl must be positive');
  const sql = 'UPDATE jobs SET until = ? WHERE id = ? AND owner = ? AND fence = ? AND done = 0 AND until > ?';
  return db(path).prepare(sql).run(now + ttl, jobId, owner, fence, now).changes === 1;
}

function complete(path, jobId, owner, fence, now, result) {
  const sql = 'UPDATE jobs SET result = ?, done = 1 WHERE id = ? AND owner = ? AND fence = ? AND done = 0 AND until > ?';
  return db(path).prepare(sql).run(result, jobId, owner, fence, now).changes === 1;
}

function release(path, jobId, owner, fence) {
  const sql = 'UPDATE jobs SET owner = NULL, until = 0 WHERE id = ? AND owner = ? AND fence = ? AND done = 0';
  return db(path).prepare(sql).run(jobId, owner, fence).changes === 1;
}

// One claim after another, each its own transaction: exactly one owner
// gets the fence.
function claim_many(path, jobId, owners, now, ttl) {
  return owners.map((owner) => claim(path, jobId, owner, now, ttl));
}

const lab = { init_db, enqueue, state, claim, renew, complete, release, claim_many };

// The protocol: one line of JSON a message. Standard output is the
// grader's alone; this program's own output goes to standard error.
const say = (msg) => process.stdout.write(`${JSON.stringify(msg)}\n`);
say({ ready: true, missing: [] });
require('node:readline')
  .createInterface({ input: process.stdin })
  .on('line', (line) => {
    if (!line.trim()) return;
    const { fn, args } = JSON.parse(line);
    try {
      say({ return: lab[fn](...args) });
    } catch (e) {
      // A RangeError is the lab's ValueError; the grader takes either name.
      say({ error: e.name, message: e.message });
    }
  });
