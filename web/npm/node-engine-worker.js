// @ts-check
// node-engine-worker.js: the engine under Node, in a worker thread that
// node-engine.js starts. It runs the engine the page's worker runs
// (engine-worker.js), from the package's own files: Go's wasm_exec.js,
// workerData.module (leaselab.wasm, the player's, or leaselab-tools.wasm,
// which runs labs too), and SQLite (sqlite-wasm/sqlite3.wasm through
// sqlite-bridge.js).
//
// The protocol, over workerData.port (a MessagePort):
//   in   {kind: "timeline", text, name, mutant, langs, budget, total}
//        one timeline, to run in each of langs ([] for every language the
//        engine knows)
//   out  {traces: {KEY: ANSWER}, mutants: {LANG: [{name, breaks}]}, passed, bytes}
//        each answer's key (fences.js traceKey), the mutants' rules in each
//        language (a worksheet only), whether the correct engine held
//        every expectation, and the answers' bytes
//   in   {kind: "lab", text, name, langs, budget, total}
//   out  {traces: {KEY: ANSWER}, bytes}: the lab's result (kind "lab",
//        lang "") and its plot in each of langs (kind "lab-svg", a JSON
//        string as Go writes one: prerender's bytes)
//   or   {error: {message, line, col, errors, limit}} for what the engine
//        refuses, or an engine that could not start; limit is "fence" or
//        "page" for an answer over the budget
// Each answer takes at most budget bytes, all of them together at most
// total: a run is held to what is left (its traceBytes) and stops there.
// After each answer it sets workerData.flag[0] to 1 and wakes a waiter: the
// caller waits for it synchronously (Atomics.wait), as a markdown-it rule,
// which cannot await, must.

import { readFileSync } from 'node:fs';
import { workerData } from 'node:worker_threads';
import { traceKey } from '../fences.js';
import { load } from '../sqlite-bridge.js';
import { goJSONString } from './node-engine.js';

/** @type {{port: import('node:worker_threads').MessagePort, flag: Int32Array, module: string}} */
const { port, flag, module } = workerData;

const file = (/** @type {string} */ name) => readFileSync(new URL(`../${name}`, import.meta.url));

/** The engine's API (wasm/sim), once its Go program is up. */
const engine = (async () => {
  await import(new URL('../wasm_exec.js', import.meta.url).href); // Go's: defines globalThis.Go
  await load(file('sqlite-wasm/sqlite3.wasm'));
  const go = new /** @type {any} */ (globalThis).Go();
  const { instance } = await WebAssembly.instantiate(file(module || 'leaselab.wasm'), go.importObject);
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

const encoder = new TextEncoder();
/** The bytes of s in UTF-8, as the engine counts an answer. @param {string} s */
const utf8Bytes = (s) => encoder.encode(s).length;

/**
 * Counts answers against the budget: each at most budget bytes, all at
 * most total.
 */
class Budget {
  /** @param {number} budget @param {number} total */
  constructor(budget, total) {
    this.budget = budget;
    this.total = total;
    this.used = 0;
  }
  /** The bytes the next answer may take. */
  room() {
    return Math.max(0, Math.min(this.budget, this.total - this.used));
  }
  /** The error for an answer over room(). */
  exceeded() {
    const page = this.total - this.used < this.budget;
    return Object.assign(new Error(`an answer passes the build's budget (${this.room()} bytes left)`), {
      limit: page ? 'page' : 'fence',
    });
  }
  /**
   * Adds an answer of bytes, or throws exceeded() when it does not fit.
   * @param {number} bytes
   */
  add(bytes) {
    if (bytes > this.room()) throw this.exceeded();
    this.used += bytes;
  }
  /**
   * A call's answer, or exceeded() for an engine that stopped at the
   * budget it was given (its limit trace_bytes).
   * @param {Promise<string>} call
   */
  async held(call) {
    try {
      return await call;
    } catch (err) {
      if (/** @type {any} */ (err)?.limit === 'trace_bytes') throw this.exceeded();
      throw err;
    }
  }
}

/** @param {{text: string, name: string, mutant: string, langs: string[], budget: number, total: number}} req */
async function timeline({ text, name, mutant, langs, budget, total }) {
  const api = await engine;
  const b = new Budget(budget, total);
  /** @type {Record<string, string>} */
  const traces = {};
  /** @type {Record<string, {name: string, breaks: string}[]>} */
  const mutants = {};
  let ok = true;
  for (const lang of langs.length ? langs : api.langs()) {
    const opts = { name, mutant, lang, traceBytes: b.room() };
    if (opts.traceBytes < 1) throw b.exceeded();
    const out = await b.held(mutant ? api.worksheet(text, opts) : api.run(text, { ...opts, mutant: '' }));
    b.add(utf8Bytes(out));
    const key = await traceKey({ text, name, lang, mutant });
    if (!key) throw new Error('no SHA-256 (globalThis.crypto.subtle) in this Node');
    traces[key] = out;
    if (mutant) mutants[lang] = api.mutants(lang);
    ok &&= passed(out, mutant !== '');
  }
  return { traces, mutants, passed: ok, bytes: b.used };
}

/** @param {{text: string, name: string, langs: string[], budget: number, total: number}} req */
async function lab({ text, name, langs, budget, total }) {
  const api = await engine;
  if (typeof api.lab !== 'function') throw new Error(`${module} has no lab: the tools' module runs labs`);
  const b = new Budget(budget, total);
  const result = await api.lab(text, { name });
  const resultBytes = utf8Bytes(result);
  /** @type {Record<string, string>} */
  const traces = {};
  const key = async (/** @type {string} */ kind, /** @type {string} */ lang) => {
    const k = await traceKey({ text, name, lang, mutant: '', kind });
    if (!k) throw new Error('no SHA-256 (globalThis.crypto.subtle) in this Node');
    return k;
  };
  traces[await key('lab', '')] = result;
  let bytes = resultBytes;
  for (const lang of langs.length ? langs : api.langs()) {
    const plot = goJSONString(await api.labSVG(result, lang));
    const plotBytes = utf8Bytes(plot);
    if (resultBytes + plotBytes > b.budget) throw b.exceeded();
    traces[await key('lab-svg', lang)] = plot;
    bytes += plotBytes;
  }
  if (bytes > b.total - b.used) throw Object.assign(b.exceeded(), { limit: 'page' });
  b.used += bytes;
  return { traces, bytes };
}

port.on('message', async (req) => {
  let reply;
  try {
    reply = req.kind === 'lab' ? await lab(req) : await timeline(req);
  } catch (err) {
    const e = /** @type {any} */ (err);
    reply = {
      error: {
        message: String(e?.message || e),
        line: e?.line || 0,
        col: e?.col || 0,
        errors: e?.errors || [],
        limit: e?.limit || '',
      },
    };
  }
  port.postMessage(reply);
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
});
