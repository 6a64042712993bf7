// A stand-in for the engine's Web Worker, for engine.js's tests under node:
// it records what the page posts and answers as engine-worker.js does, when
// the test says.

/** Every worker started, in order. */
export const workers = /** @type {FakeWorker[]} */ ([]);

export class FakeWorker {
  /** @param {URL} url */
  constructor(url) {
    this.module = new URL(url).searchParams.get('module') || '';
    this.script = new URL(url).pathname;
    /** @type {any[]} */
    this.posted = [];
    this.terminated = false;
    /** @type {((e: {data: any}) => void) | null} */
    this.onmessage = null;
    workers.push(this);
  }
  /** @param {any} msg */
  postMessage(msg) {
    this.posted.push(msg);
  }
  terminate() {
    this.terminated = true;
  }
  /** The build's file name: from the URL, or the module a later worker is handed (ready's stand-in). */
  get build() {
    return this.module.split('/').pop() || this.posted.find((m) => m.type === 'start')?.module?.build;
  }
  /** Answers as the engine's worker does once it is up; the module it hands over names its build. */
  ready() {
    const facts = { version: 'test', library: [], mutants: { en: [] }, langs: ['en'], limits: {}, invariants: [] };
    this.onmessage?.({ data: { type: 'ready', facts, module: { build: this.build }, fetched: null } });
  }
  /** @param {any} data */
  send(data) {
    this.onmessage?.({ data });
  }
}

/** Puts the stand-in in place of Worker, and a bare document, before engine.js is imported. */
export function install() {
  globalThis.Worker = /** @type {any} */ (FakeWorker);
  globalThis.document = /** @type {any} */ ({ documentElement: { dataset: {} } });
}
