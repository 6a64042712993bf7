// Package httpapi serves the engine as a JSON API over HTTP: the same
// handler runs natively (serve.go, over a SQLite file) and in the
// Cloudflare Worker (wasm/worker, over D1).
//
// Routes, all under /api/:
//
//	POST /api/jobs            enqueue {"id","qty","deadline","max_attempts"}    201 {"created":true,"job"} | 200 {"created":false,"job"}
//	GET  /api/jobs            every job in insertion order                       200 {"jobs":[job...]}
//	GET  /api/jobs/{id}       state of one job                                   200 job | 404
//	POST /api/claim           {"owner","job_id","now","ttl"}; no job_id: next    200 {"lease","now"}
//	POST /api/renew           {"lease","now","ttl"}                              200 {"lease","now"}
//	POST /api/complete        {"lease","now","result"}                           200 {"ok":true,"now"}
//	POST /api/release         {"lease"}                                          200 {"ok":true}
//	POST /api/timeline        the timeline's text                                200 trace JSON
//
// A lease is {"job_id","owner","qty","token","attempt","lease_until"}, as
// a claim returns it; renew, complete and release take it back as is and
// check only job_id, owner and token (the row decides the rest). A job is
// {"id","qty","owner","lease_until","token","attempts","max_attempts",
// "deadline","status","reason","result"}.
//
// Time: every time and duration is a JSON integer count of milliseconds in
// 0..2^53-1 (exact in a JavaScript number and in D1). "now" is the caller's
// clock: a virtual clock passes it explicitly; when it is omitted or null,
// the server reads its own clock (time.Now().UnixMilli() unless WithClock
// says otherwise) and every answer that took a time says which in "now".
// now+ttl must also stay within 2^53-1.
//
// Answers: a refusal by a rule of the contract is 409 with the rejection
// ({"error":"refused","op","reason","presented","current","now","message"};
// reason is one of "done", "quarantined", "held", "superseded", "expired");
// a claim, renew, complete or release of an unknown job is the same body
// with status 404 and reason "not_found"; GET of an unknown job is 404; a
// claim of the next job when none is claimable is 404 with error "empty".
// Bad input (malformed JSON, an unknown field, a missing or out-of-range
// value) is 400 with a message naming the field; a body over the limit
// (DefaultMaxBodyBytes unless WithMaxBodyBytes) is 413; a method a route
// does not take is 405 with Allow. A store WithoutTransactions (D1) whose
// write lost the race for its row on every attempt answers 503 with error
// "contention" and Retry-After: 1; nothing changed. Every error body is
// JSON with "error" and "message". A 500 means the database failed, never
// that the client erred.
package httpapi
