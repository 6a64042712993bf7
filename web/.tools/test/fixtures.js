// fixtures.js builds traces for the unit tests: the library's golden traces
// (engine/timeline/testdata/golden, the native engine's own output, kept
// in the repository) and small hand-made ones with only the fields a test
// needs.

import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The text of a file of web/. */
export const web = (file) => readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');

/**
 * The modules of web/ that loading entries fetches through static imports,
 * the entries among them: what a page must preload so that none is found
 * only once the module importing it has arrived.
 * @param {...string} entries
 */
export function staticGraph(...entries) {
  const seen = new Set();
  const visit = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const m of web(file).matchAll(/^import [^;]*? from '\.\/([^']+)';/gms)) visit(m[1]);
  };
  for (const e of entries) visit(e);
  return seen;
}

const golden = fileURLToPath(new URL('../../../engine/timeline/testdata/golden/', import.meta.url));

/** Every golden trace of the library: [file name, trace]. */
export function goldenTraces() {
  return readdirSync(golden)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => [f, JSON.parse(readFileSync(golden + f, 'utf8'))]);
}

/** A row of the jobs table, with defaults. */
export function row(fields) {
  return {
    id: 'j',
    qty: 1,
    owner: '',
    lease_until: 0,
    token: 0,
    attempts: 0,
    max_attempts: 0,
    deadline: 0,
    status: 'pending',
    reason: '',
    result: '',
    ...fields,
  };
}

/** A step, with defaults: an ok step by A at time 0 that changed nothing. */
export function step(fields) {
  const time = fields.time ?? 0;
  return {
    index: 0,
    line: 1,
    source: '',
    note: '',
    time,
    now: time,
    end: time,
    actors: ['A'],
    op: 'claim',
    job: 'j',
    args: {},
    outcome: { kind: 'ok', reason: '', error: '' },
    lease: null,
    presented: null,
    rejection: null,
    contenders: null,
    receipt: null,
    stored: null,
    forgot: null,
    explain: '',
    sql: [],
    expired: [],
    rows: [],
    gone: [],
    changed: [],
    verdicts: [],
    expect: null,
    ...fields,
  };
}

/** A lease as a step grants or presents it. */
export function lease(owner, token, until, job = 'j') {
  return { job, owner, qty: 1, token, attempt: token, lease_until: until };
}

/** A trace of steps, with defaults. */
export function trace(steps, fields = {}) {
  return {
    format: 2,
    name: 't.tl',
    title: '',
    lang: 'en',
    mutant: '',
    actors: [...new Set(steps.flatMap((s) => s.actors))],
    clocks: [],
    setup: [],
    start: [row({})],
    steps: steps.map((s, i) => ({ ...s, index: i })),
    later: [],
    final: [],
    storage: [],
    summary: { steps: steps.length, expectations: 0, failed: 0, violations: 0, announced: 0, passed: true },
    ...fields,
  };
}

/**
 * The story the page tests too (engine/internal/browsertest/e2e/stories_test.go), as
 * the engine traces it, with the fields the lanes read: A pauses, B's
 * clock runs 200 ms ahead and B crashes holding token 2.
 */
export function story() {
  const ok = { kind: 'ok', reason: '', error: '' };
  return trace(
    [
      step({ time: 0, lease: lease('A', 1, 1000) }),
      step({ time: 100, op: 'pause', job: '', args: { for: 1200 }, note: 'A stalls.' }),
      step({
        time: 900,
        now: 1100,
        actors: ['B'],
        lease: lease('B', 2, 2100),
        verdicts: [{ invariant: 'single-lease', ok: false, detail: 'x', expected: true }],
      }),
      step({ time: 1300, op: 'write', outcome: { kind: 'refused', reason: 'fenced', error: '' } }),
      step({ time: 1400, now: 1600, actors: ['B'], op: 'crash', job: '', outcome: ok, forgot: [lease('B', 2, 2100)] }),
      step({
        time: 2100,
        actors: ['C'],
        lease: lease('C', 3, 3100),
        expired: [{ at: 1900, job: 'j', owner: 'B', token: 2 }],
      }),
    ],
    { clocks: [{ line: 4, worker: 'B', offset: 200 }], later: [{ at: 3100, job: 'j', owner: 'C', token: 3 }] },
  );
}
