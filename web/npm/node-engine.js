// @ts-check
// node-engine.js: the engine under Node for the build-time plugins
// (remark.js, markdown-it.js): each fence's answers — a timeline's trace,
// a lab's result and plot — computed when the site is built and embedded
// in its element (the attribute data-prerendered), so that the page draws
// it without fetching the engine and the site needs no `leaselab prerender`
// step. The bytes are the engine's, the same as prerender writes (the
// parity rule), under the same keys (fences.js traceKey); prerendered.js
// reads them.
//
// The engine runs in worker threads (node-engine-worker.js): the player's
// module (leaselab.wasm) for timelines, started on the first timeline, and
// the tools' (leaselab-tools.wasm) for labs, started on the first lab;
// each is shared by every page of the build. A call waits for its answer
// synchronously, since a markdown-it rule cannot await.
//
// The build's budget (the limits prerender_fence_bytes and
// prerender_page_bytes) holds every answer as the engine makes it: a call
// gives the bytes its answers may take, and a run stops at the step that
// passes them.

import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads';
import { gzipSync } from 'node:zlib';
import { EMBED_FORMAT } from '../fences.js';

/** @typedef {import('../fences.js').Embedded} Embedded */

/**
 * How long one fence may take, the engine's start included, before the
 * build gives up on it: a backstop, far beyond what the byte budget and a
 * lab's lab_calls let a fence take.
 */
const ANSWER_MS = 300_000;

/**
 * The bytes of one answer (a trace in one language, a worksheet's two, a
 * lab's result and plot) and of all of one page's answers (engine/limits
 * PrerenderFenceBytes, PrerenderPageBytes).
 */
export const BUDGET = {
  fence: { name: 'prerender_fence_bytes', bytes: 4194304 },
  page: { name: 'prerender_page_bytes', bytes: 16777216 },
};

/**
 * How long an engine stays up with nothing to answer: a site's fences come
 * in a burst as its pages are read, and a framework's bundling after them
 * wants the memory back (the engine holds about 65 MB).
 */
const IDLE_MS = 2000;

/**
 * @typedef {object} Running an engine's worker thread
 * @property {import('node:worker_threads').MessagePort} port
 * @property {Int32Array} flag
 * @property {Worker} worker
 * @property {ReturnType<typeof setTimeout> | undefined} idle the timer that ends it
 */

/** @type {Map<string, Running>} */
const running = new Map();

/** @param {string} module the engine's module: leaselab.wasm or leaselab-tools.wasm */
function start(module) {
  const known = running.get(module);
  if (known) return known;
  const { port1, port2 } = new MessageChannel();
  const flag = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(new URL('./node-engine-worker.js', import.meta.url), {
    workerData: { port: port2, flag, module },
    transferList: [port2],
  });
  worker.unref(); // the build ends when its own work does
  port1.unref();
  /** @type {Running} */
  const w = { port: port1, flag, worker, idle: undefined };
  running.set(module, w);
  return w;
}

/**
 * Ends the engine of module once it has had nothing to answer for IDLE_MS;
 * the next call starts it again.
 * @param {string} module
 * @param {Running} w
 */
function idleAfter(module, w) {
  clearTimeout(w.idle);
  w.idle = setTimeout(() => {
    if (running.get(module) !== w) return;
    running.delete(module);
    /** @type {any} */ (w.port).close();
    /** @type {any} */ (w.worker).terminate();
  }, IDLE_MS);
  /** @type {any} */ (w.idle).unref();
}

/**
 * Sends req to the engine of module and waits for its answer. Throws an
 * Error carrying the engine's line, col and limit for what it refuses.
 * @param {string} module
 * @param {object} req
 */
function ask(module, req) {
  const w = start(module);
  const { port, flag } = w;
  clearTimeout(w.idle);
  Atomics.store(flag, 0, 0);
  port.postMessage(req);
  if (Atomics.wait(flag, 0, 0, ANSWER_MS) === 'timed-out') {
    throw new Error(`the engine did not answer within ${ANSWER_MS / 1000} s`);
  }
  idleAfter(module, w);
  const reply = receiveMessageOnPort(port)?.message;
  if (!reply) throw new Error('the engine stopped without an answer');
  if (reply.error) {
    const { message, line, col, errors, limit } = reply.error;
    throw Object.assign(new Error(message), { line, col, errors, limit });
  }
  return reply;
}

/**
 * Runs a timeline on the engine in each of langs (every language the
 * engine knows when empty) and returns what its element embeds, whether
 * the correct engine held every expectation, and the bytes of its answers.
 * Each answer is held to budget bytes (at most prerender_fence_bytes), all
 * of them together to total: one that passes either throws an Error whose
 * limit is "budget" (the caller names the limit). Throws an Error carrying
 * the engine's line and col for a timeline it refuses.
 * @param {{text: string, name: string, mutant: string, langs: string[], budget?: number, total?: number}} req
 * @returns {{embedded: Embedded, passed: boolean, bytes: number}}
 */
export function runSync(req) {
  const reply = ask('leaselab.wasm', {
    kind: 'timeline',
    budget: BUDGET.fence.bytes,
    total: BUDGET.page.bytes,
    ...req,
  });
  return {
    embedded: { format: EMBED_FORMAT, traces: reply.traces, mutants: reply.mutants },
    passed: reply.passed,
    bytes: reply.bytes,
  };
}

/**
 * Runs a lab on the engine's tools and returns what its element embeds:
 * its result, and its plot in each of langs (every language the engine
 * knows when empty), and their bytes. The result and a plot together are
 * held to budget bytes, all of them to total, as runSync's; the lab's time
 * is held to its own limit lab_calls. Throws an Error carrying the lab's
 * line and col for a lab it refuses.
 * @param {{text: string, name: string, langs: string[], budget?: number, total?: number}} req
 * @returns {{embedded: Embedded, bytes: number}}
 */
export function labSync(req) {
  const reply = ask('leaselab-tools.wasm', {
    kind: 'lab',
    budget: BUDGET.fence.bytes,
    total: BUDGET.page.bytes,
    ...req,
  });
  return { embedded: { format: EMBED_FORMAT, traces: reply.traces, mutants: {} }, bytes: reply.bytes };
}

/**
 * A string as Go's encoding/json writes it (what prerender writes a lab's
 * plot as): JSON.stringify's, with <, >, & and the line separators
 * escaped.
 * @param {string} s
 */
export function goJSONString(s) {
  return JSON.stringify(s).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * The value of data-prerendered: the embedded data as JSON, gzipped, in
 * base64 (a trace of JSON text is a tenth of its size so).
 * @param {Embedded} embedded
 */
export function encodeEmbedded(embedded) {
  return gzipSync(JSON.stringify(embedded), { level: 9 }).toString('base64');
}
