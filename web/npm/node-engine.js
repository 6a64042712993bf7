// @ts-check
// node-engine.js: the engine under Node for the build-time plugins
// (remark.js, markdown-it.js): each fence's trace, computed when the site
// is built and embedded in its element (the attribute data-prerendered),
// so that the page draws it without fetching the engine and the site needs
// no `leaselab prerender` step. The bytes are the engine's, the same as
// prerender writes (the parity rule), under the same key (fences.js
// traceKey); prerendered.js reads them.
//
// The engine runs in a worker thread (node-engine-worker.js), started on
// the first fence and shared by every page of the build; a call waits for
// its answer synchronously, since a markdown-it rule cannot await.

import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads';
import { gzipSync } from 'node:zlib';
import { EMBED_FORMAT } from '../fences.js';

/** @typedef {import('../fences.js').Embedded} Embedded */

/** How long one fence may take, the engine's start included, before the build gives up on it. */
const ANSWER_MS = 300_000;

/** @type {{port: import('node:worker_threads').MessagePort, flag: Int32Array} | null} */
let running = null;

function start() {
  if (running) return running;
  const { port1, port2 } = new MessageChannel();
  const flag = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(new URL('./node-engine-worker.js', import.meta.url), {
    workerData: { port: port2, flag },
    transferList: [port2],
  });
  worker.unref(); // the build ends when its own work does
  port1.unref();
  running = { port: port1, flag };
  return running;
}

/**
 * Runs a timeline on the engine in each of langs (every language the
 * engine knows when empty) and returns what its element embeds, and
 * whether the correct engine held every expectation. Throws an Error
 * carrying the engine's line and col for a timeline it refuses.
 * @param {{text: string, name: string, mutant: string, langs: string[]}} req
 * @returns {{embedded: Embedded, passed: boolean}}
 */
export function runSync(req) {
  const { port, flag } = start();
  Atomics.store(flag, 0, 0);
  port.postMessage(req);
  if (Atomics.wait(flag, 0, 0, ANSWER_MS) === 'timed-out') {
    throw new Error(`the engine did not answer within ${ANSWER_MS / 1000} s`);
  }
  const reply = receiveMessageOnPort(port)?.message;
  if (!reply) throw new Error('the engine stopped without an answer');
  if (reply.error) {
    const { message, line, col, errors } = reply.error;
    throw Object.assign(new Error(message), { line, col, errors });
  }
  return { embedded: { format: EMBED_FORMAT, traces: reply.traces, mutants: reply.mutants }, passed: reply.passed };
}

/**
 * The value of data-prerendered: the embedded data as JSON, gzipped, in
 * base64 (a trace of JSON text is a tenth of its size so).
 * @param {Embedded} embedded
 */
export function encodeEmbedded(embedded) {
  return gzipSync(JSON.stringify(embedded), { level: 9 }).toString('base64');
}
