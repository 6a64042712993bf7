// Package jslab grades the fencing lab written in JavaScript in the page:
// the learner's source declares the lab's functions, JavaScript's names
// for the Python ones package engine/grade documents,
//
//	initDb(db)                                  init_db
//	enqueue(db, jobId) -> boolean               enqueue
//	state(db, jobId) -> object | null           state
//	claim(db, jobId, owner, now, ttl) -> number | null
//	renew(db, jobId, owner, fence, now, ttl) -> boolean
//	complete(db, jobId, owner, fence, now, result) -> boolean
//	release(db, jobId, owner, fence) -> boolean
//	claimMany(db, jobId, owners, now, ttl) -> array
//
// each taking, where the Python functions take the file's path, db: a
// small synchronous SQL API over the page's own SQLite (the engine's, in
// WebAssembly), one in-memory database per test:
//
//	db.run(sql, ...params)   {changes, lastInsertRowid}
//	db.all(sql, ...params)   every row, an object by column name
//	db.get(sql, ...params)   the first row, or undefined
//
// A parameter is a number, a string, a boolean (1 or 0) or null; an
// integer column comes back a number. A statement that fails throws an
// Error named SQLError. A RangeError thrown by the learner is the lab's
// ValueError (a ttl <= 0); any other exception is an answer of its own.
//
// Grade runs engine/grade's tests on them, the same as leaselab grade runs
// on a Python module, and reports in JavaScript's terms (claimMany(db, …),
// null, true, throw RangeError). One call may run at most Budget
// statements and take at most the per-call limit: past either, the db
// refuses every statement and the call breaks the test ("an endless
// loop?"). A loop that never calls the db cannot be stopped from here: the
// page ends the worker (engine.js).
//
// On other platforms the package is empty. The package serves the
// simulator's page and carries no compatibility promise.
package jslab
