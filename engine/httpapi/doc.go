// Package httpapi serves the engine as a JSON API over HTTP. The same
// handler runs natively (leaselab serve, over a SQLite file: package
// sqliteapi) and in the Cloudflare Worker (wasm/worker, over D1); one
// contract suite (package httpapitest) runs unchanged against both. To
// serve your own store, mount New(store) on a mux of yours; the options
// choose the clock mode, the limits and whether timelines run.
//
// # Routes
//
// Every route is under /api/. Bodies are JSON objects (Content-Type is not
// looked at); answers are JSON with Cache-Control: no-store.
//
//	POST /api/jobs           {"id","qty","deadline","max_attempts"}  201 {"created":true,"job"}
//	                                                                  200 {"created":false,"job"}: the id exists, nothing changed
//	GET  /api/jobs           one page of the jobs, insertion order   200 {"jobs":[job...],"next"}
//	     ?limit=N&cursor=C
//	GET  /api/jobs/{id}      one job (id path-escaped)               200 job | 404 not_found
//	POST /api/claim          {"owner","job_id","now","ttl"}          200 {"lease","now"}
//	POST /api/renew          {"lease","now","ttl"}                   200 {"lease","now"}
//	POST /api/complete       {"lease","now","result"}                200 {"ok":true,"now"}
//	POST /api/release        {"lease"}                               200 {"ok":true}
//	POST /api/timeline       a timeline's text                       200 its trace (JSON)
//
// HEAD is taken wherever GET is and answers as GET would, without the
// body. Fields:
//
//   - list: "limit" is how many jobs the page holds at most, a whole
//     number in 1..limits.Default.ListPageMax (limits.Default.ListPage
//     when absent); "cursor" is the "next" of the page before (the first
//     page when absent). "next" is a cursor, opaque to clients, when more
//     jobs follow the page, and null on the last page. A job keeps its
//     place in the order for good: the pages read one after another hold
//     every job once, and a job enqueued meanwhile comes at the end. A bad
//     limit or cursor, a parameter given twice or any other parameter is
//     400.
//   - enqueue: "id" is required (a non-empty UTF-8 string of at most
//     limits.Default.NameBytes bytes, as every id and owner); "qty" 0 or
//     absent is 1; "deadline" 0 or absent is none; "max_attempts" 0 or
//     absent is unlimited.
//   - claim: "owner" and "ttl" (> 0) are required. "job_id" absent claims
//     the oldest claimable job (404 "empty" if there is none, after
//     quarantining on its way any older job whose budget is used up);
//     "job_id": null is 400, never "the next job".
//   - renew, complete, release: "lease" is the lease a claim returned,
//     posted back as is; only its job_id, owner and token are checked
//     (required), the row decides the rest. "result" is optional, at most
//     limits.Default.ResultBytes bytes.
//   - timeline: the body is the text itself (not JSON), run on a fresh
//     in-memory database of its own that never touches the queue.
//
// A lease is {"job_id","owner","qty","token","attempt","lease_until"}. A
// job is {"id","qty","owner","lease_until","token","attempts",
// "max_attempts","deadline","status","reason","result"}, every field
// always present; status is "pending", "leased" (also when the lease has
// ended: leases are judged by now), "done" or "quarantined", reason is
// "attempts" or "deadline" for a quarantined job, else "".
//
// # Time and clock modes
//
// Every time and duration is a JSON integer count of milliseconds in
// 0..2^53-1 (exact in a JavaScript number and in D1); now+ttl must stay
// in that range too. Whose clock "now" is depends on the mode
// (WithClockMode; leaselab serve -clock; the Worker's LEASELAB_CLOCK):
//
//   - client (ClientClock, the default: timelines and tests that step a
//     virtual clock by hand): a request may carry "now", any instant from 0 up to
//     MaxClockLead (1 s) past the server's clock; further ahead is 400,
//     naming that window, and changes nothing. Omitted or null, the
//     server reads its own clock (time.Now in milliseconds unless
//     WithClock says otherwise); every answer that took a time says which
//     in "now".
//   - server (ServerClock): every time is the server's clock; a request
//     that carries "now", null included, is 400 and changes nothing.
//
// What one client can do to another's job. The API authenticates no one,
// and a lease's owner and token are in every job's answer: whoever can
// write may claim a free job (for at most MaxTTL, renewing it again and
// again), use up a job's max_attempts by claiming and releasing it, and
// renew, complete or release any lease it can read, in either mode.
// Fencing is for workers that cooperate, not a lock against an attacker;
// a server that strangers reach needs a guard in front of it. What the
// client mode adds to that is bounded by the window: a now in the past
// only makes the rules judge an earlier instant, at which every lease that
// has not ended by the server's clock is still held and every deadline
// that has not passed by it has not passed; a now at most MaxClockLead
// ahead ends another's lease, or passes a job's deadline (the claim that
// quarantines it), at most MaxClockLead early, and no lease outlives the
// server's clock plus MaxClockLead plus MaxTTL. A client cannot take a
// job another holds before its lease ends (less MaxClockLead), nor
// quarantine a job by deadline before the deadline (less MaxClockLead).
// What a past now does allow is a client's own lateness: a claim at an
// earlier instant may take a job no one holds whose deadline has passed by
// the server's clock (its lease then ends at that deadline, in the past),
// and a holder whose lease has ended but was not taken may still renew or
// complete it. Fencing holds whatever the time: a stale token is refused.
// Choose server for queues that real workers share; client for virtual
// clocks (timelines, the contract suite, tests that step time by hand).
//
// # Answers
//
// Every error body is {"error": code, "message": for people}; a refusal
// by a rule adds the rejection.
//
//	200, 201  success, as above
//	400 bad_request         the request is wrong; the message names the field (see Strict JSON)
//	403 cross_origin        a browser's write from a page of another origin (see Cross-origin)
//	404 not_found           GET of an unknown job; an unknown route
//	404 not_found           claim, renew, complete or release of an unknown job: the rejection body
//	                        with reason "not_found" and current null
//	404 empty               claim of the next job when none is claimable
//	405 method_not_allowed  a method the route does not take, with Allow
//	409 refused             a rule refused it: {"error","op","reason","presented","current","now","message"},
//	                        reason "held", "superseded", "done", "quarantined" or "expired";
//	                        current is the row as it stood; a claim refused "quarantined" may have
//	                        just quarantined the job (committed, as the contract says)
//	413 too_large           a body over the route's limit (see Limits)
//	421 misdirected         leaselab serve on loopback, a Host it does not serve (GuardHost)
//	500 database            the server failed; the cause is in its log, never in the answer
//	501 not_implemented     POST /api/timeline where no timelines run (the Worker)
//	503 contention          WithoutTransactions (D1): the write lost the race for its row on every
//	                        attempt; nothing changed; Retry-After: 1
//	503 database_busy       the database stayed locked by other writers past its busy timeout
//	                        (engine.ErrBusy): the call did not commit, nothing changed; Retry-After: 1
//	503 busy                every timeline slot, or every job list slot, is taken; Retry-After: 1
//	503 timeout             the timeline ran to its deadline and was stopped
//
// A 5xx never means the client erred. A panic while answering, in the
// handler or in a goroutine the request started (a timeline's run, the
// engine's concurrent claim), is that request's 500; the server goes on. Every call is safe to repeat: a
// claim whose answer was lost either won (the retry is refused "held"
// with current.owner the caller's) or did not. Clients retry a 503 (the
// Workers runtime answers one when an instance restarts mid-request). A
// busy database is never a 500: on SQLite a call's writes are one
// transaction, or one statement, that either committed (2xx) or did not
// (503 database_busy); an enqueue that created its job answers the row it
// wrote, with no read after the write. D1 reports no busy error of its
// own: the errors it names as worth a retry (a lost connection, a reset)
// do not say whether a write happened, so they stay 500.
// Every answer carries X-Content-Type-Options: nosniff.
//
// # Strict JSON
//
// A body is read by github.com/go-json-experiment/json (encoding/json v2's
// origin) with its strict defaults: invalid UTF-8 anywhere, a field named
// twice, a field name that matches only in another case ("ID" for "id"),
// an unknown field, null for any field but "now", a value of the wrong
// type or a fraction, anything after the one object, and an empty body are
// all 400 with a message that names the field (nested ones as
// "lease.token"), and nothing changes. An id in the path must be UTF-8
// too. A timeline's text must be UTF-8 and not blank.
//
// # Cross-origin and Host
//
// A browser's state-changing request (any method but GET, HEAD and
// OPTIONS) sent by a page of another origin is 403 cross_origin before any
// route runs, so it changes nothing: net/http.CrossOriginProtection, by
// Sec-Fetch-Site, or without it by comparing Origin with Host. This stops
// the "simple" cross-site POST (Content-Type text/plain) a page can send
// without a CORS preflight. Same-origin pages pass, and so do clients that
// are no browser (no Sec-Fetch-Site and no Origin: curl, Go's
// http.Client, scripts). Reads pass; the API sends no CORS headers, so a
// page of another origin cannot read their answers, but it can make the
// server compute them: that is why a job list is one bounded page and job
// lists at once are capped (see Limits).
//
// GuardHost, which leaselab serve puts in front of the page and the API,
// guards against DNS rebinding: on a loopback address it serves only the
// Hosts 127.0.0.1:PORT, localhost:PORT, [::1]:PORT and the exact address
// it listens on, and answers 421 misdirected to any other. A server on
// another address is unguarded: it cannot know the names it is reached by.
//
// # Limits
//
//	JSON body                 DefaultMaxBodyBytes (64 KiB) unless WithMaxBodyBytes; 413 over it
//	timeline text             limits.Default.TextBytes (128 KiB); 413 over it; and the
//	                          parser's own limits (steps, jobs, workers, time) as 400
//	one timeline run          DefaultTimelineDeadline (10 s) unless WithTimelineDeadline; 503 timeout
//	timeline runs at once     DefaultTimelineRuns (2×GOMAXPROCS) unless WithTimelineRuns; 503 busy
//	job lists at once         DefaultListsAtOnce (2×GOMAXPROCS) unless WithListsAtOnce; 503 busy
//	one job list              limits.Default.ListPageMax jobs (limits.Default.ListPage by default)
//	ids, owners, results      limits.Default.NameBytes, limits.Default.ResultBytes bytes; 400 over them
//	numbers                   0..MaxSafeInteger (2^53-1), now+ttl included
//	a request's now           at most MaxClockLead (1 s) past the server's clock (client mode)
//
// A timeline runs under a context that ends at its deadline or when its
// client leaves; for a client that left nothing is written. A runner that
// does not stop at once is not waited for, but keeps its slot until it
// returns, so the cap counts the runs that really go on. The connection
// limits of leaselab serve (headers, stalled bodies, idle connections) are
// its http.Server's, not the handler's.
package httpapi
