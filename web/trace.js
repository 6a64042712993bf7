// @ts-check
// trace.js reads a leaselab trace (format 2: the JSON the engine produces,
// documented in engine/timeline/trace.go): the types of its fields, the
// jobs table and the fenced storage at any cursor, and a step's outcome in
// the timeline's words. It touches no DOM, so it runs under node --test.
//
// The cursor is a position between steps: 0 is before the first step (the
// jobs as enqueued), k is after the k-th step.

/**
 * @typedef {object} Row one row of the jobs table, as stored
 * @property {string} id
 * @property {number} qty
 * @property {string} owner "" when unowned
 * @property {number} lease_until 0 when unowned
 * @property {number} token
 * @property {number} attempts
 * @property {number} max_attempts 0: unlimited
 * @property {number} deadline 0: none
 * @property {string} status pending, leased, done or quarantined
 * @property {string} reason why quarantined, else ""
 * @property {string} result
 */

/**
 * @typedef {object} Lease a lease as a worker holds or presents it
 * @property {string} job
 * @property {string} owner
 * @property {number} qty
 * @property {number} token
 * @property {number} attempt
 * @property {number} lease_until
 * @property {number} [believes] with a service clock, the instant on its owner's own clock until which the owner
 *   believes it valid
 */

/**
 * @typedef {object} Outcome how a step ended
 * @property {string} kind ok, refused, empty, invalid, failed or error
 * @property {string} reason the refusal's rule for refused, else ""
 * @property {string} error
 */

/**
 * @typedef {object} Rejection a refusal, presented against current
 * @property {string} op
 * @property {string} reason
 * @property {Lease} presented
 * @property {Row} current
 * @property {number} now
 * @property {string} message
 */

/**
 * @typedef {object} Stored one value of the fenced storage and the lease that wrote it
 * @property {string} key
 * @property {string} value
 * @property {string} owner
 * @property {number} token
 */

/**
 * @typedef {object} Expiry the instant (true time) a lease ended
 * @property {number} at
 * @property {string} job
 * @property {string} owner
 * @property {number} token
 */

/**
 * @typedef {object} Verdict one invariant check after a step
 * @property {string} invariant
 * @property {boolean} ok
 * @property {string} detail
 * @property {boolean} [expected] a violation the timeline announced (violates=)
 */

/**
 * @typedef {object} ExpectResult the result of a step's `-> …` expectation
 * @property {string} text
 * @property {boolean} ok
 * @property {string} expected
 * @property {string} got
 */

/**
 * @typedef {object} Contender one claim of a concurrent claim
 * @property {string} actor
 * @property {Outcome} outcome
 * @property {Lease | null} lease
 */

/**
 * @typedef {object} Receipt the receiver's side of a send or deliver
 * @property {string} job
 * @property {boolean} delivered
 * @property {number} total
 */

/**
 * @typedef {object} Statement one SQL statement as it ran
 * @property {string} sql
 * @property {Array<string | number | null>} args
 */

/**
 * @typedef {object} Step one step line as it ran
 * @property {number} index
 * @property {number} line
 * @property {string} source
 * @property {string} note the author's words for readers, lines joined by \n
 * @property {number} time true time (ms)
 * @property {number} now the actor's own clock (ms)
 * @property {number} end the clock after the step
 * @property {number} [sent] for a message in flight (arrives=), the instant it was sent; time is when it arrived
 * @property {number} [heard] for a slow send others act inside, the instant its courier hears back: a complete (or release) step of the same line then ends it
 * @property {string[]} actors
 * @property {string} op
 * @property {string} job
 * @property {{ttl?: number, token?: number, key?: string, value?: string, for?: number}} args
 * @property {Outcome} outcome
 * @property {Lease | null} lease
 * @property {Lease | null} presented
 * @property {Rejection | null} rejection
 * @property {Contender[] | null} contenders
 * @property {Receipt | null} receipt
 * @property {Stored | null} stored
 * @property {Lease[] | null} forgot leases a crash made its worker forget
 * @property {{holder: string, token: number, since: number, until: number, waited: number, wait: number}} [watch] a candidate's stopwatch on a held job's record (takeover observed)
 * @property {{node: string, outcome: Outcome, lease: Lease | null, released?: boolean, unreached?: boolean}[]} [nodes] each node's answer to a claim, renew or release of a lock on several nodes (service nodes)
 * @property {Lease[]} [renewed] leases a new leader of the lock service renewed for their whole ttl (service leader-change reset)
 * @property {string} explain
 * @property {Statement[]} sql
 * @property {Expiry[]} expired
 * @property {Row[]} rows the rows the step changed, whole
 * @property {string[]} gone ids of the rows it removed
 * @property {{job: string, column: string}[]} changed
 * @property {Verdict[]} verdicts
 * @property {ExpectResult | null} expect
 * @property {{choices: string[], answer: string}} [predict] a step marked `-> ?`: what a learner chooses from, and the answer
 */

/**
 * @typedef {object} Summary
 * @property {number} steps
 * @property {number} expectations
 * @property {number} failed
 * @property {number} violations unannounced violations
 * @property {number} [announced] violations the timeline announced
 * @property {boolean} passed
 */

/**
 * @typedef {object} Trace
 * @property {number} format
 * @property {string} name
 * @property {string} title
 * @property {string} lang
 * @property {string} mutant
 * @property {string[]} actors
 * @property {{line: number, worker: string, offset: number}[]} [clocks]
 * @property {{line: number, worker: string, offset: number}} [service] the lock service's clock, which judges every lease, when the timeline declares one
 * @property {number} [nodes] how many independent nodes the lock service has (service nodes); absent for one
 * @property {string} [takeover] "observed" when candidates time a takeover on their own stopwatch
 * @property {number} [lock_delay] the service's lock-delay (ms): how long it keeps a job after a lease of it ran out
 * @property {Statement[]} setup
 * @property {Row[]} start
 * @property {Step[]} steps
 * @property {Expiry[]} later
 * @property {Row[]} final
 * @property {Stored[]} [storage]
 * @property {Summary} summary
 * @property {string[]} [warnings] what parses but is likely not what the author meant (NAME:LINE:COL: message)
 */

/**
 * @typedef {object} Difference where a worksheet's two traces first differ
 * @property {number} step 0-based
 * @property {number} line
 * @property {string} source
 * @property {string[]} aspects
 * @property {{job: string, column: string, a: string, b: string}[]} cells
 */

/** Formats an instant or a duration in milliseconds: "1500 ms", "12 s". */
export function ms(t) {
  if (Math.abs(t) >= 10000 && t % 100 === 0) return `${t / 1000} s`;
  return `${t} ms`;
}

/** Formats a clock offset with its sign: "+200 ms", "−50 ms". @param {number} off */
export function signedMs(off) {
  return `${off > 0 ? '+' : '−'}${ms(Math.abs(off))}`;
}

/**
 * The virtual time at a cursor: 0 before the first step, else the time of
 * the step just played.
 * @param {Trace} trace
 * @param {number} cursor
 */
export function cursorTime(trace, cursor) {
  if (cursor <= 0 || trace.steps.length === 0) return 0;
  return trace.steps[Math.min(cursor, trace.steps.length) - 1].time;
}

/**
 * The cursor a click at virtual time t asks for: after the last step that
 * runs at or before t.
 * @param {Trace} trace
 * @param {number} t
 */
export function cursorAtTime(trace, t) {
  let c = 0;
  trace.steps.forEach((st, i) => {
    if (st.time <= t) c = i + 1;
  });
  return c;
}

// Trace format 2 records, per step, only the rows the step changed (and
// the rows it removed); the whole table is given once, before the first
// step. tableAt rebuilds the table at any cursor from checkpoints kept per
// trace every CHECKPOINT steps, so moving the cursor costs at most that
// many steps, whatever the size of the trace.
const CHECKPOINT = 64;
/** @type {WeakMap<Trace, Row[][]>} trace -> [table before step 0, before step 64, ...] */
const checkpoints = new WeakMap();

/**
 * The jobs table after step `cursor` (0: as enqueued), in insertion order.
 * @param {Trace} trace
 * @param {number} cursor
 * @returns {Row[]}
 */
export function tableAt(trace, cursor) {
  const n = Math.max(0, Math.min(cursor, trace.steps.length));
  let marks = checkpoints.get(trace);
  if (!marks) {
    marks = [trace.start];
    checkpoints.set(trace, marks);
  }
  const k = Math.floor(n / CHECKPOINT);
  while (marks.length <= k) {
    const i = marks.length;
    marks.push(applySteps(marks[i - 1], trace.steps, (i - 1) * CHECKPOINT, i * CHECKPOINT));
  }
  return applySteps(marks[k], trace.steps, k * CHECKPOINT, n);
}

/**
 * @param {Row[]} rows
 * @param {Step[]} steps
 * @param {number} from
 * @param {number} to
 */
function applySteps(rows, steps, from, to) {
  let out = rows;
  for (let i = from; i < to; i++) out = applyStep(out, steps[i]);
  return out;
}

/**
 * A table (rows in insertion order) with one step's changes: the rows it
 * removed taken out, the rows it changed put in place, new ones appended.
 * The rows given are not modified; a step that changed nothing returns
 * them as they are.
 * @param {Row[]} rows
 * @param {Pick<Step, 'rows' | 'gone'>} st
 * @returns {Row[]}
 */
export function applyStep(rows, st) {
  if (!st.rows?.length && !st.gone?.length) return rows;
  const gone = new Set(st.gone || []);
  const out = gone.size ? rows.filter((r) => !gone.has(r.id)) : rows.slice();
  const at = new Map(out.map((r, i) => [r.id, i]));
  for (const r of st.rows || []) {
    const i = at.get(r.id);
    if (i !== undefined) out[i] = r;
    else {
      at.set(r.id, out.length);
      out.push(r);
    }
  }
  return out;
}

/**
 * Whether the timeline writes to the fenced storage (a write step), so the
 * storage deserves a table of its own.
 * @param {Trace} trace
 */
export function writesStorage(trace) {
  return trace.steps.some((st) => st.op === 'write');
}

/**
 * The fenced storage after step `cursor`: every key's value, in key order.
 * A write leaves its key's value in `stored` (for a refused write, the
 * value that refused it).
 * @param {Trace} trace
 * @param {number} cursor
 * @returns {Stored[]}
 */
export function storageAt(trace, cursor) {
  /** @type {Map<string, Stored>} */
  const vals = new Map();
  for (const st of trace.steps.slice(0, Math.max(0, cursor))) {
    if (st.op === 'write' && st.stored) vals.set(st.stored.key, st.stored);
  }
  return [...vals.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/**
 * The storage key whose value a step changed: an accepted write's key, or
 * "" for any other step.
 * @param {Step | null} st
 */
export function storageChanged(st) {
  return st && st.op === 'write' && st.outcome.kind === 'ok' && st.stored ? st.stored.key : '';
}

/**
 * How far the clock a worker's leases are judged on reads ahead of true
 * time (ms; negative: behind): the lock service's when the trace has one,
 * else the worker's own from `clocks`; 0 for a clock that is right.
 * @param {Trace} trace
 * @param {string} worker
 */
export function clockOffset(trace, worker) {
  if (trace.service) return trace.service.offset;
  const c = (trace.clocks || []).find((k) => k.worker === worker);
  return c ? c.offset : 0;
}

/**
 * A step's outcome in the timeline's words, as an expectation would say
 * it: "ok token=2 lease_until=2000", "refused held".
 * @param {Step | undefined} st
 */
export function outcomeText(st) {
  if (!st) return '';
  let out = st.outcome.kind + (st.outcome.reason ? ` ${st.outcome.reason}` : '');
  if (st.lease) out += ` token=${st.lease.token} lease_until=${st.lease.lease_until}`;
  if (st.receipt) out += ` delivered=${st.receipt.delivered} total=${st.receipt.total}`;
  if (st.stored && st.op === 'write') out += ` storage.value=${st.stored.value}`;
  return out;
}
