// A correct fencing lab: the lab's functions over the table
// jobs(id, owner, until, fence, result, done), on the page's SQLite.

function initDb(db) {
  db.run(`CREATE TABLE IF NOT EXISTS jobs(
    id TEXT PRIMARY KEY, owner TEXT, until INTEGER NOT NULL DEFAULT 0,
    fence INTEGER NOT NULL DEFAULT 0, result TEXT, done INTEGER NOT NULL DEFAULT 0)`);
}

function enqueue(db, jobId) {
  return db.run('INSERT OR IGNORE INTO jobs(id) VALUES (?)', jobId).changes === 1;
}

function state(db, jobId) {
  return db.get('SELECT id, owner, until, fence, result, done FROM jobs WHERE id = ?', jobId) ?? null;
}

function claim(db, jobId, owner, now, ttl) {
  if (ttl <= 0) throw new RangeError('ttl must be positive');
  db.run('BEGIN IMMEDIATE');
  try {
    const row = db.get('SELECT until, fence, done FROM jobs WHERE id = ?', jobId);
    if (!row || row.done || row.until > now) {
      db.run('ROLLBACK');
      return null;
    }
    db.run('UPDATE jobs SET owner = ?, until = ?, fence = ? WHERE id = ?', owner, now + ttl, row.fence + 1, jobId);
    db.run('COMMIT');
    return row.fence + 1;
  } catch (e) {
    db.run('ROLLBACK');
    throw e;
  }
}

function renew(db, jobId, owner, fence, now, ttl) {
  if (ttl <= 0) throw new RangeError('ttl must be positive');
  return (
    db.run(
      'UPDATE jobs SET until = ? WHERE id = ? AND owner = ? AND fence = ? AND done = 0 AND until > ?',
      now + ttl, jobId, owner, fence, now,
    ).changes === 1
  );
}

function complete(db, jobId, owner, fence, now, result) {
  return (
    db.run(
      'UPDATE jobs SET result = ?, done = 1 WHERE id = ? AND owner = ? AND fence = ? AND done = 0 AND until > ?',
      result, jobId, owner, fence, now,
    ).changes === 1
  );
}

function release(db, jobId, owner, fence) {
  return (
    db.run(
      'UPDATE jobs SET owner = NULL, until = 0 WHERE id = ? AND owner = ? AND fence = ? AND done = 0',
      jobId, owner, fence,
    ).changes === 1
  );
}

function claimMany(db, jobId, owners, now, ttl) {
  return owners.map((owner) => claim(db, jobId, owner, now, ttl));
}
