// @ts-check
// node-engine-worker.js: the engine under Node, in a worker thread that
// node-engine.js starts. It runs the engine the page's worker runs
// (engine-worker.js), from the package's own files: Go's wasm_exec.js,
// leaselab.wasm, and SQLite (sqlite-wasm/sqlite3.wasm through
// sqlite-bridge.js).
//
// The protocol, over workerData.port (a MessagePort):
//   in   {text, name, mutant, langs}   one timeline, to run in each of langs
//        ([] for every language the engine knows)
//   out  {traces: {KEY: ANSWER}, mutants: {LANG: [{name, breaks}]}, passed}
//        each answer's key (fences.js traceKey), the mutants' rules in each
//        language (a worksheet only), and whether the correct engine held
//        every expectation; or {error: {message, line, col, errors}} for a timeline
//        the engine refuses, or an engine that could not start
// After each answer it sets workerData.flag[0] to 1 and wakes a waiter: the
// caller waits for it synchronously (Atomics.wait), as a markdown-it rule,
// which cannot await, must.

import { readFileSync } from 'node:fs';
import { workerData } from 'node:worker_threads';
import { traceKey } from '../fences.js';
import { load } from '../sqlite-bridge.js';

/** @type {{port: import('node:worker_threads').MessagePort, flag: Int32Array}} */
const { port, flag } = workerData;

const file = (/** @type {string} */ name) => readFileSync(new URL(`../${name}`, import.meta.url));

/** The engine's API (wasm/sim), once its Go program is up. */
const engine = (async () => {
  await import(new URL('../wasm_exec.js', import.meta.url).href); // Go's: defines globalThis.Go
  await load(file('sqlite-wasm/sqlite3.wasm'));
  const go = new /** @type {any} */ (globalThis).Go();
  const { instance } = await WebAssembly.instantiate(file('leaselab.wasm'), go.importObject);
  go.run(instance); // returns once main blocks, its API in place
  const api = /** @type {any} */ (globalThis).leaselab;
  if (!api) throw new Error('the engine started without its API (globalThis.leaselab)');
  return api;
})();
engine.catch(() => {}); // each request hears it

/**
 * Whether a run's correct engine held every expectation.
 * @param {string} answer
 * @param {boolean} worksheet
 */
function passed(answer, worksheet) {
  const v = JSON.parse(answer);
  return Boolean((worksheet ? v.correct : v)?.summary?.passed);
}

/** @param {{text: string, name: string, mutant: string, langs: string[]}} req */
async function answer({ text, name, mutant, langs }) {
  const api = await engine;
  /** @type {Record<string, string>} */
  const traces = {};
  /** @type {Record<string, {name: string, breaks: string}[]>} */
  const mutants = {};
  let ok = true;
  for (const lang of langs.length ? langs : api.langs()) {
    const out = mutant
      ? await api.worksheet(text, { name, mutant, lang })
      : await api.run(text, { name, mutant: '', lang });
    const key = await traceKey({ text, name, lang, mutant });
    if (!key) throw new Error('no SHA-256 (globalThis.crypto.subtle) in this Node');
    traces[key] = out;
    if (mutant) mutants[lang] = api.mutants(lang);
    ok &&= passed(out, mutant !== '');
  }
  return { traces, mutants, passed: ok };
}

port.on('message', async (req) => {
  let reply;
  try {
    reply = await answer(req);
  } catch (err) {
    const e = /** @type {any} */ (err);
    reply = {
      error: { message: String(e?.message || e), line: e?.line || 0, col: e?.col || 0, errors: e?.errors || [] },
    };
  }
  port.postMessage(reply);
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
});
