// @ts-check
// grade-run.js reads the run of a student's code that a leaselab grade
// report's simulator link carries (impl=): the lab table's columns, the
// step where the code parts from the contract, and for each step of the
// linked timeline up to it (step 0: init_db and the header's jobs) the
// calls of the student's functions with their answers ("call → answer",
// as Python writes both) and the student's table after the step. The
// parameter is the run's JSON, deflated (raw DEFLATE) and written as
// unpadded base64url.

import { b64urlBytes } from './share.js';

/** grade_link_run_bytes: the most bytes of the parameter, and of its JSON once inflated. */
export const RUN_BYTES = 65536;

/**
 * @typedef {string | number | null} Cell
 * @typedef {{calls: string[], rows: Cell[][]}} RunStep
 * @typedef {{cols: string[], diff: number, steps: RunStep[]}} StudentRun
 */

/** Why a parameter was refused: too large, or not a run. */
export class RunError extends Error {
  /** @param {'tooLarge' | 'malformed'} kind @param {string} why */
  constructor(kind, why) {
    super(why);
    this.kind = kind;
  }
}

/**
 * Reads an impl= parameter. Rejects with a RunError: tooLarge for a
 * parameter, or its JSON, over RUN_BYTES (inflating stops there),
 * malformed for one that is not base64url, DEFLATE, JSON or a run.
 * @param {string} param
 * @returns {Promise<StudentRun>}
 */
export async function decodeRun(param) {
  const text = await inflateParam(param, 'impl');
  /** @type {unknown} */
  let v;
  try {
    v = JSON.parse(text);
  } catch {
    throw new RunError('malformed', 'impl= is not JSON');
  }
  return runOf(v);
}

/**
 * The text a link's parameter named key holds: unpadded base64url of raw
 * DEFLATE of UTF-8 (a report's impl=, a history's history=). Rejects with a
 * RunError: tooLarge for a parameter, or its text, over RUN_BYTES
 * (inflating stops there), malformed for one that is not base64url,
 * DEFLATE or UTF-8.
 * @param {string} param
 * @param {string} key
 * @returns {Promise<string>}
 */
export async function inflateParam(param, key) {
  if (param.length > RUN_BYTES) throw new RunError('tooLarge', `${key}= is ${param.length} bytes`);
  /** @type {Uint8Array} */
  let bytes;
  try {
    bytes = b64urlBytes(param);
  } catch {
    throw new RunError('malformed', `${key}= is not base64url`);
  }
  return inflate(bytes, RUN_BYTES, key);
}

/**
 * The text raw DEFLATE bytes inflate to, read no further than most bytes.
 * @param {Uint8Array} bytes
 * @param {number} most
 * @param {string} key the parameter's name, for the errors
 */
async function inflate(bytes, most, key) {
  const reader = new Blob([/** @type {BlobPart} */ (bytes)])
    .stream()
    .pipeThrough(new DecompressionStream('deflate-raw'))
    .getReader();
  /** @type {Uint8Array[]} */
  const chunks = [];
  let total = 0;
  for (;;) {
    /** @type {ReadableStreamReadResult<Uint8Array>} */
    let r;
    try {
      r = await reader.read();
    } catch {
      throw new RunError('malformed', `${key}= is not DEFLATE`);
    }
    if (r.done) break;
    total += r.value.length;
    if (total > most) {
      reader.cancel().catch(() => {});
      throw new RunError('tooLarge', `${key}= inflates past ${most} bytes`);
    }
    chunks.push(r.value);
  }
  const all = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.length;
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(all);
  } catch {
    throw new RunError('malformed', `${key}= is not UTF-8`);
  }
}

/**
 * The run v holds, checked field by field; throws a malformed RunError.
 * @param {any} v
 * @returns {StudentRun}
 */
export function runOf(v) {
  const bad = (/** @type {string} */ why) => new RunError('malformed', `impl=: ${why}`);
  if (!v || typeof v !== 'object' || v.v !== 1) throw bad('not a run of version 1');
  const { cols, diff, steps } = v;
  if (!Array.isArray(cols) || cols.length === 0 || !cols.every((c) => typeof c === 'string')) throw bad('cols');
  if (!Array.isArray(steps) || steps.length === 0) throw bad('steps');
  if (!Number.isInteger(diff) || diff < 0 || diff >= steps.length) throw bad('diff is not one of its steps');
  const cell = (/** @type {unknown} */ c) => c === null || typeof c === 'string' || typeof c === 'number';
  const out = steps.map((/** @type {any} */ s, /** @type {number} */ i) => {
    if (!s || !Array.isArray(s.calls) || !s.calls.every((/** @type {unknown} */ c) => typeof c === 'string')) {
      throw bad(`step ${i}: calls`);
    }
    const rowOk = (/** @type {unknown} */ r) => Array.isArray(r) && r.length === cols.length && r.every(cell);
    if (!Array.isArray(s.rows) || !s.rows.every(rowOk)) throw bad(`step ${i}: rows`);
    return { calls: /** @type {string[]} */ (s.calls), rows: /** @type {Cell[][]} */ (s.rows) };
  });
  return { cols, diff, steps: out };
}
