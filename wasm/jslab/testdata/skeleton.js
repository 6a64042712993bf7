// The fencing lab in JavaScript. Each function takes db first: a small
// synchronous SQL API over this page's SQLite, a fresh database per test.
//   db.run(sql, ...params)  -> {changes, lastInsertRowid}
//   db.all(sql, ...params)  -> every row, an object by column name
//   db.get(sql, ...params)  -> the first row, or undefined
// The table: jobs(id, owner, until, fence, result, done).
// Throw a RangeError when ttl <= 0.

function initDb(db) {
  // make the table if it is missing; keep every row
}

function enqueue(db, jobId) {
  // add the job (owner NULL, until 0, fence 0, done 0); false if it exists
}

function state(db, jobId) {
  // the row as {id, owner, until, fence, result, done}, or null
}

function claim(db, jobId, owner, now, ttl) {
  // null for a missing or done job, or while until > now;
  // else owner, until = now + ttl, fence + 1, and return the new fence
}

function renew(db, jobId, owner, fence, now, ttl) {
  // true and until = now + ttl, only for the row's owner and fence, not done, until > now
}

function complete(db, jobId, owner, fence, now, result) {
  // the same check as renew; result stored and done = 1
}

function release(db, jobId, owner, fence) {
  // for the row's owner and fence, not done: owner NULL, until 0, the fence kept
}

function claimMany(db, jobId, owners, now, ttl) {
  // every owner's claim; the answers in the owners' order
}
