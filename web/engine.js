// @ts-check
// engine.js loads the leaselab engine (leaselab.wasm, built from wasm/sim)
// once per page and runs it in a dedicated Web Worker (engine-worker.js),
// off the page's main thread: a run, however long, never freezes the tab.
// Every caller of loadEngine — the simulator page, any number of
// <lease-timeline> elements — shares one download, one compiled module and
// one worker. The worker fetches and compiles the module itself
// (compileStreaming from the module's URL, off the main thread; Chromium
// keeps no code cache for it there, see engine-worker.js). Each run still
// gets an in-memory database of its own, so the callers never see one
// another's jobs.
//
// The API loadEngine resolves to (every method answers with a Promise):
//   version                       string, known before loadEngine resolves
//   run(text, {name, mutant, lang, signal})  the trace as a JSON string, byte
//                                 for byte the native engine's (the parity rule)
//   worksheet(text, {name, mutant, lang, signal})  the worksheet as JSON
//   goTest(text, {name, func, signal})  a Go test file replaying the timeline
//   library()                     [{name, title, text}]
//   mutants(lang)                 [{name, breaks}], breaks worded in lang
//                                 ("en" when lang is not one of langs())
//   langs()                       ["en", "ko"]
//   limits()                      {text_bytes, steps, jobs, workers, contenders,
//                                 max_time}: engine/limits, for checking a text
//                                 before sending it
//   explore(goal, {scope, signal, onProgress})  the explorer's report as JSON:
//                                 {found, timeline, steps, why, states, depth, bound,
//                                 elapsed_ms}; goal is {mutant} or {engine, property},
//                                 scope {workers, steps, ttl, max_attempts, deadline,
//                                 states}; onProgress hears {states, depth, rate}
//   lab(text, {name, seed, signal, onProgress})  a lease lab's result as JSON
//                                 (format leaselab-lab/1), byte for byte the native
//                                 leaselab lab -json's; seed (digits) overrides the
//                                 lab's; onProgress hears {done, total} runs
//   labSVG(result, lang)          the result's plot as SVG, the native -svg's
//   labStory(text, {name, seed, point, run, signal})  one run of the lab as a
//                                 timeline (point and run from 0)
//   history(text)                 a concurrent history (JSON lines, engine/history)
//                                 checked: what the history view draws, as JSON
//   invariants()                  the checker's invariants by name, in its order
//   grade(source, {lang, signal, onProgress})  the fencing lab written in
//                                 JavaScript in source, graded step by step beside
//                                 the contract: the report as JSON (wasm/jslab; see
//                                 loadGrader); onProgress hears {test, call} before
//                                 each of the reader's calls runs, and {test,
//                                 status, why} as each test ends
//   gradePython(source, {lab, lang, simulator, signal, onProgress})  the lab (fencing or
//                                 courier) written in Python in source, graded as
//                                 grade grades JavaScript, by the same tests as
//                                 leaselab grade, in Pyodide (wasm/pylab), the first
//                                 difference linked to the simulator page at simulator
//                                 (a URL), when given: Python
//                                 is loaded into the grader's worker on the first
//                                 call (or loadPython), never before
//   loadPython()                  loads Python into the grader's worker, ahead of
//                                 a gradePython (a reader about to write Python)
//   benchCycles(n)                n bare job cycles, for make bench
//   wasmBytes()                   the engine's WebAssembly memory, in bytes
// A failure rejects with an Error whose errors property lists the
// timeline's mistakes as {line, col, msg} (1-based; 0 when the mistake has
// no place), with line and col of the first also on the Error.
//
// Several calls may be in flight; each is answered by its own id. The
// engine works one call at a time (Go on WebAssembly has one thread).
//
// The engine comes in two builds of wasm/sim (make wasm): leaselab.wasm,
// the player's, answers what playing a timeline needs (run, worksheet, the
// facts, benchCycles); leaselab-tools.wasm answers everything, the tools too
// (goTest, explore, grade, gradePython, lab, labSVG, labStory, history). The shared engine is the
// player's, so a page that only plays timelines downloads and compiles the
// smaller module; a tool called on the shared engine's API goes to the
// explorer's engine (loadExplorer), and grade, which runs the reader's code,
// to the grader's (loadGrader), each started on its first call. The
// explorer and the grader run the tools build.
//
// Cancelling: run, worksheet, goTest, explore, lab and labStory take an AbortSignal. Aborting
// rejects that call at once with the signal's reason (an AbortError
// DOMException by default). Go cannot be interrupted mid-run, so the worker
// is ended with the call; the other calls in flight go on in a fresh worker,
// started at once, or else at the next call. A restart fetches and compiles
// nothing: the first worker hands its compiled module here, and it goes to
// every later one.
//
// The page's state is on <html data-engine>: loading until the first worker
// is ready, then running while any call is in flight and ready when none
// is; stopped when the engine could not start or its Go program exited (the
// next call starts a fresh worker).
//
// library(), mutants(), langs() and limits() are known before loadEngine
// resolves, so they answer with a copy that is a thenable (await, then,
// catch, finally) and, for callers written when these methods answered
// synchronously (engine.mutants(lang).find(…)), also the value itself.

// The worker is engine-worker.js bundled with the scripts it needs (make
// wasm, engine/internal/build/bundle): one request, not three.
const WORKER_URL = new URL('engine-worker.bundle.js', import.meta.url);

// A coding exercise's grader runs the reader's own code, which needs
// 'unsafe-eval': its worker starts from grader-worker.js, the one script a
// server sends with a policy that allows it (engine/internal/webserve's
// WorkerCSP), so every other engine worker keeps the page's policy.
const GRADER_URL = new URL('grader-worker.js', import.meta.url);

/** The player's build of the engine: what the shared engine runs. */
const PLAYER_MODULE = new URL('leaselab.wasm', import.meta.url);

/** The tools' build: the explorer's and the grader's engine. */
const TOOLS_MODULE = new URL('leaselab-tools.wasm', import.meta.url);

/** The calls only the tools build answers (see the note above). */
const TOOL_CALLS = /** @type {const} */ ([
  'goTest',
  'explore',
  'grade',
  'gradePython',
  'loadPython',
  'lab',
  'labSVG',
  'labStory',
  'history',
]);

// A string answer crosses from the worker as its UTF-8 bytes, transferred
// (see engine-worker.js), and is decoded here: the page's JavaScript heap
// then stays small over a run of answers.
const DECODER = new TextDecoder();

/**
 * The name of the mark each start of the engine's worker leaves on the
 * page's timeline (see Link's #compiled): make bench reads where a cold
 * start goes from it.
 */
export const STARTED = 'leaselab engine started';

/** @typedef {{line: number, col: number, msg: string}} Mistake */
/** @typedef {{name: string, title: string, text: string}} LibraryEntry */
/** @typedef {{name: string, breaks: string}} MutantInfo */
/**
 * What never changes in a build; the worker tells it once it is ready.
 * @typedef {object} Facts
 * @property {string} version
 * @property {LibraryEntry[]} library
 * @property {string[]} langs
 * @property {Record<string, MutantInfo[]>} mutants each language's mutants
 * @property {Record<string, number>} limits
 * @property {string[]} invariants the checker's, in its order
 */

/** @typedef {ReturnType<typeof engineAPI>} EngineAPI */

/** @type {Promise<EngineAPI> | null} */
let shared = null;

/** @type {Link | null} the link of the shared engine, once loadEngine has made it */
let sharedLink = null;

/**
 * The name of the global a page's first script may set to start the
 * engine's worker before any module of the page has arrived (index.html's
 * early-worker.js does): {module, worker, messages}, module the engine's URL as loadEngine
 * names it, worker started on engine-worker.bundle.js?module=module, messages
 * what it posted before engine.js took it over (its onmessage pushes
 * them; a worker error is pushed as {type: 'failed', message}). The first
 * worker of the shared engine for that module is that one; measured on 2
 * cores, a worker started by engine.js began its script about 60 ms
 * later, once the page's modules had arrived and run.
 */
const EARLY = 'leaselabEarlyEngine';

/**
 * @typedef {object} EarlyWorker
 * @property {string} module
 * @property {Worker} worker
 * @property {any[]} messages
 */

/**
 * Takes the early worker for module, if a page started one (EARLY).
 * @param {string} module
 * @returns {EarlyWorker | null}
 */
function takeEarly(module) {
  const g = /** @type {any} */ (globalThis);
  const early = g[EARLY];
  if (!early || early.module !== module || !(early.worker instanceof Worker)) return null;
  delete g[EARLY];
  return early;
}

/** @type {Promise<EngineAPI> | null} */
let explorer = null;

/**
 * Loads a second engine, in a worker of its own, for the explorer: a search
 * holds its worker until it ends or is cancelled (which ends the worker),
 * and the page's runs go on meanwhile in the first. Later calls return the
 * same promise, unless it failed (the tools build could not be fetched or
 * started): the next call then tries again.
 */
export function loadExplorer() {
  if (!explorer) explorer = retried(openEngine(TOOLS_MODULE), () => (explorer = null));
  return explorer;
}

/**
 * Returns loading, which calls forget once it rejects, so that a tools
 * engine that could not start (a network error on a course page, say) is
 * tried again at the next call rather than kept failed until a reload.
 * @param {Promise<EngineAPI>} loading
 * @param {() => void} forget
 */
function retried(loading, forget) {
  loading.catch(forget);
  return loading;
}

/** @type {Promise<EngineAPI> | null} */
let grader = null;

/**
 * Loads an engine in a worker of its own for grade (<lease-exercise>): the
 * reader's code runs in that worker, so a Check whose signal ends it (a
 * loop that never returns) ends only that worker, and the next Check gets
 * a fresh one. Later calls return the same promise, unless it failed: the
 * next call then tries again.
 */
export function loadGrader() {
  if (!grader) grader = retried(openEngine(TOOLS_MODULE, undefined, GRADER_URL), () => (grader = null));
  return grader;
}

/** Whether loadEngine has been called on this page. */
export function engineRequested() {
  return shared !== null;
}

/**
 * Loads the engine the first time it is called and resolves to its API
 * (see above); later calls return the same promise. The files are found
 * next to this module, wherever the page itself lives. The API is also
 * globalThis.leaselab once loaded, for consoles and benchmarks.
 */
export function loadEngine() {
  if (!shared) {
    const root = document.documentElement;
    if (!root.dataset.engine) root.dataset.engine = 'loading';
    /** @param {string} s */
    const onState = (s) => {
      if (root.dataset.engine !== s) root.dataset.engine = s;
    };
    sharedLink = new Link(PLAYER_MODULE.href, onState);
    shared = openLink(sharedLink, onState, (m) => (m === 'grade' ? loadGrader() : loadExplorer()));
    shared.then(
      (api) => {
        /** @type {any} */ (globalThis).leaselab = api;
      },
      () => {},
    );
  }
  return shared;
}

/**
 * Opens an engine of its own, not shared, on the module at wasmURL (a
 * benchmark page fetches it under a URL of its own, to keep a cache of its
 * own); onState hears its state (loading, ready, running, stopped).
 * @param {URL} wasmURL
 * @param {(state: string) => void} [onState]
 * @param {URL} [workerURL] the worker's script (default engine-worker.bundle.js)
 */
export function openEngine(wasmURL, onState = () => {}, workerURL = WORKER_URL) {
  return openLink(new Link(wasmURL.href, onState, workerURL), onState);
}

/**
 * Starts link's first worker and resolves to the API over it once it is
 * ready; onState is link's. With tools, each of the API's tool calls goes
 * to the engine tools resolves to for its method (link's module is the
 * player's build).
 * @param {Link} link
 * @param {(state: string) => void} onState
 * @param {(method: string) => Promise<EngineAPI>} [tools]
 * @returns {Promise<EngineAPI>}
 */
async function openLink(link, onState, tools) {
  try {
    return engineAPI(link, await link.start(), tools);
  } catch (err) {
    onState('stopped');
    throw err;
  }
}

/**
 * Runs text on the page's shared engine, starting it (see loadEngine), and
 * resolves to the trace as JSON, as the API's run does. Unlike run, it may
 * be called before loadEngine resolves: the call goes to the engine's
 * worker at once, which runs it as soon as the engine is up, without a
 * round trip through the page's main thread (which, while a page loads, is
 * busy drawing).
 * @param {string} text
 * @param {{name?: string, mutant?: string, lang?: string, signal?: AbortSignal}} [opts]
 * @returns {Promise<string>}
 */
export function runSoon(text, opts) {
  loadEngine();
  return /** @type {Link} */ (sharedLink).call('run', [text, engineOptions(opts)], signalOf(opts));
}

/** The options a call passes on to the engine: only strings, by name. */
const OPTIONS = ['name', 'mutant', 'lang', 'func', 'seed'];

/**
 * @param {unknown} opts
 * @returns {Record<string, string>}
 */
function engineOptions(opts) {
  /** @type {Record<string, string>} */
  const out = {};
  if (opts && typeof opts === 'object') {
    for (const k of OPTIONS) {
      const v = /** @type {Record<string, unknown>} */ (opts)[k];
      if (typeof v === 'string') out[k] = v;
    }
  }
  return out;
}

/** @param {any} opts */
const signalOf = (opts) => (opts && opts.signal instanceof AbortSignal ? opts.signal : undefined);

/**
 * The API over a started link; with tools, its tool calls (TOOL_CALLS) go
 * to the engine tools resolves to for the method instead.
 * @param {Link} link
 * @param {Facts} facts
 * @param {(method: string) => Promise<any>} [tools]
 */
function engineAPI(link, facts, tools) {
  /** @param {string} method */
  const timelineCall = (method) => (/** @type {unknown} */ text, /** @type {any} */ opts) =>
    link.call(method, [text, engineOptions(opts)], signalOf(opts));
  const api = {
    version: facts.version,
    run: timelineCall('run'),
    worksheet: timelineCall('worksheet'),
    goTest: timelineCall('goTest'),
    explore: (/** @type {unknown} */ goal, /** @type {any} */ opts = {}) =>
      link.call('explore', [goal, opts?.scope || {}], signalOf(opts), opts?.onProgress),
    grade: (/** @type {string} */ source, /** @type {any} */ opts = {}) =>
      link.call(
        'grade',
        [source, { lang: typeof opts?.lang === 'string' ? opts.lang : 'en' }],
        signalOf(opts),
        opts?.onProgress,
      ),
    gradePython: (/** @type {string} */ source, /** @type {any} */ opts = {}) =>
      link.call(
        'gradePython',
        [
          source,
          {
            lang: typeof opts?.lang === 'string' ? opts.lang : 'en',
            lab: opts?.lab === 'courier' ? 'courier' : 'fencing',
            simulator: typeof opts?.simulator === 'string' ? opts.simulator : '',
          },
        ],
        signalOf(opts),
        opts?.onProgress,
      ),
    loadPython: () => link.call('loadPython', []),
    lab: (/** @type {unknown} */ text, /** @type {any} */ opts = {}) =>
      link.call('lab', [text, engineOptions(opts)], signalOf(opts), opts?.onProgress),
    labSVG: (/** @type {unknown} */ result, /** @type {string} */ lang = 'en') => link.call('labSVG', [result, lang]),
    labStory: (/** @type {unknown} */ text, /** @type {any} */ opts = {}) =>
      link.call(
        'labStory',
        [text, { ...engineOptions(opts), point: Number(opts?.point) || 0, run: Number(opts?.run) || 0 }],
        signalOf(opts),
      ),
    history: (/** @type {string} */ text) => link.call('history', [text]),
    benchCycles: (/** @type {number} */ n) => link.call('benchCycles', [n]),
    wasmBytes: () => link.call('wasmBytes', []),
    library: () => known(facts.library),
    mutants: (/** @type {string} */ lang) => known(facts.mutants[facts.langs.includes(lang) ? lang : 'en'] || []),
    langs: () => known(facts.langs),
    limits: () => known(facts.limits),
    invariants: () => known(facts.invariants),
  };
  if (tools) {
    for (const m of TOOL_CALLS) {
      /** @type {any} */ (api)[m] = (/** @type {unknown[]} */ ...args) =>
        untilAborted(
          tools(m).then((t) => t[m](...args)),
          signalOf(args[1]),
        );
    }
  }
  return Object.freeze(api);
}

/**
 * A fresh copy of value that is also a thenable resolving to another copy
 * (see the note on library() and the others above).
 * @template T
 * @param {T} value
 * @returns {T & Promise<T>}
 */
function known(value) {
  const copy = structuredClone(value);
  const settled = Promise.resolve(structuredClone(value));
  for (const k of /** @type {const} */ (['then', 'catch', 'finally'])) {
    Object.defineProperty(copy, k, { value: settled[k].bind(settled) });
  }
  return /** @type {any} */ (copy);
}

/**
 * A call in flight.
 * @typedef {object} Call
 * @property {string} method
 * @property {unknown[]} args
 * @property {(v: any) => void} resolve
 * @property {(e: any) => void} reject
 * @property {AbortSignal} [signal]
 * @property {() => void} [onAbort]
 * @property {(p: unknown) => void} [onProgress]
 */

/**
 * Link is the page's end of the engine: at most one worker at a time, the
 * calls in flight by id, the state.
 */
class Link {
  /** @type {Worker | null} */
  #worker = null;
  /** @type {Map<number, Call>} */
  #calls = new Map();
  #next = 1;
  #ready = false; // a worker has been ready
  #broken = false; // the last worker stopped or failed
  /** @type {{resolve: (f: Facts) => void, reject: (e: any) => void} | null} */
  #starting = null;
  /** @type {string | WebAssembly.Module} the module's URL, then the module once compiled */
  #source;
  #workerURL;
  #onState;

  /**
   * @param {string} url the module's
   * @param {(state: string) => void} onState
   * @param {URL} [workerURL] the worker's script
   */
  constructor(url, onState, workerURL = WORKER_URL) {
    this.#source = url;
    this.#onState = onState;
    this.#workerURL = workerURL;
  }

  /**
   * Starts a worker and sends it the calls in flight; resolves to its
   * facts once it is ready.
   * @returns {Promise<Facts>}
   */
  start() {
    const source = this.#source;
    // The first worker starts itself from the module's URL (see
    // engine-worker.js); a later one is handed the compiled module.
    const url = new URL(this.#workerURL);
    if (typeof source === 'string') url.searchParams.set('module', source);
    // The page's early worker runs engine-worker's script: only a link on that script may take it.
    const early =
      typeof source === 'string' && !this.#ready && this.#workerURL === WORKER_URL ? takeEarly(source) : null;
    const worker = early ? early.worker : new Worker(url, { type: 'module', name: 'leaselab engine' });
    this.#worker = worker;
    const facts = new Promise((resolve, reject) => {
      this.#starting = { resolve, reject };
    });
    worker.onmessage = (e) => this.#receive(worker, e.data);
    worker.onerror = (e) =>
      this.#lost(worker, new Error(`the engine's worker failed: ${e.message || this.#workerURL}`));
    worker.onmessageerror = () => this.#lost(worker, new Error("the engine's worker sent what cannot be read"));
    if (typeof source !== 'string') worker.postMessage({ type: 'start', module: source });
    for (const [id, c] of this.#calls) worker.postMessage({ type: 'call', id, method: c.method, args: c.args });
    // What an early worker posted before it was taken over, in order.
    if (early) for (const msg of early.messages) this.#receive(worker, msg);
    return /** @type {Promise<Facts>} */ (facts);
  }

  /** Starts a fresh worker for the calls in flight; a failure rejects them. */
  #restart() {
    this.start().catch(() => {});
  }

  /**
   * Sends a call to the worker (started if there is none) and resolves to
   * its answer; aborting signal rejects it at once (see above).
   * @param {string} method
   * @param {unknown[]} args
   * @param {AbortSignal} [signal]
   * @param {(p: unknown) => void} [onProgress] hears the call's progress messages
   */
  call(method, args, signal, onProgress) {
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    return new Promise((resolve, reject) => {
      const id = this.#next++;
      /** @type {Call} */
      const c = { method, args, resolve, reject, signal, onProgress };
      if (signal) {
        c.onAbort = () => this.#abort(id, abortReason(signal));
        signal.addEventListener('abort', c.onAbort, { once: true });
      }
      this.#calls.set(id, c);
      try {
        if (this.#worker) this.#worker.postMessage({ type: 'call', id, method, args });
        else this.#restart();
      } catch (err) {
        // args that cannot be cloned
        this.#take(id);
        reject(err);
      }
      this.#report();
    });
  }

  /**
   * Removes a call from those in flight and returns it.
   * @param {number} id
   */
  #take(id) {
    const c = this.#calls.get(id);
    this.#calls.delete(id);
    if (c?.signal && c.onAbort) c.signal.removeEventListener('abort', c.onAbort);
    return c;
  }

  /**
   * Rejects a call and ends the worker running it; the other calls in
   * flight start again in a fresh worker.
   * @param {number} id
   * @param {unknown} reason
   */
  #abort(id, reason) {
    const c = this.#take(id);
    if (!c) return;
    c.reject(reason);
    if (this.#worker) this.#worker.terminate();
    this.#worker = null;
    if (this.#calls.size > 0) this.#restart();
    this.#report();
  }

  /**
   * Handles one message of worker; a message of a worker since ended is
   * dropped.
   * @param {Worker} worker
   * @param {any} msg
   */
  #receive(worker, msg) {
    if (worker !== this.#worker) return;
    if (msg.type === 'ready') {
      this.#compiled(msg.module, msg.fetched, msg.phases);
      this.#ready = true;
      this.#broken = false;
      if (this.#starting) this.#starting.resolve(msg.facts);
      this.#starting = null;
    } else if (msg.type === 'progress') {
      const c = this.#calls.get(msg.id);
      if (c && typeof c.onProgress === 'function') c.onProgress(msg.value);
    } else if (msg.type === 'answer') {
      const c = this.#take(msg.id);
      if (c && msg.error) c.reject(engineError(msg.error));
      else if (c) c.resolve(msg.text ? DECODER.decode(msg.text) : msg.value);
    } else if (msg.type === 'failed') {
      this.#lost(worker, new Error(`the engine could not start: ${msg.message}`));
    } else if (msg.type === 'stopped') {
      this.#lost(worker, new Error('the engine stopped'));
    }
    this.#report();
  }

  /**
   * Keeps the module a worker compiled, for the next worker, and marks the
   * worker's fetch of it on the page's timeline: a mark named by the
   * module's URL, its detail the worker's Resource Timing entry (a worker's
   * fetches are in its own timeline only, where the page's tools and tests
   * do not look). Each start is marked too (STARTED): its detail is when
   * the worker reached each step of it (engine-worker.js's Phases), in
   * milliseconds on the page's timeline.
   * @param {WebAssembly.Module} module
   * @param {PerformanceResourceTiming | null} fetched
   * @param {Record<string, number> | undefined} phases
   */
  #compiled(module, fetched, phases) {
    if (typeof this.#source === 'string') performance.mark(this.#source, { detail: fetched });
    if (phases) {
      const here = Object.entries(phases).map(([step, t]) => [step, t - performance.timeOrigin]);
      performance.mark(STARTED, { detail: Object.fromEntries(here) });
    }
    this.#source = module;
  }

  /**
   * Ends worker after it failed or stopped, and rejects every call in
   * flight with err; the next call starts a fresh worker.
   * @param {Worker} worker
   * @param {Error} err
   */
  #lost(worker, err) {
    if (worker !== this.#worker) return;
    worker.terminate();
    this.#worker = null;
    this.#broken = true;
    if (this.#starting) this.#starting.reject(err);
    this.#starting = null;
    for (const id of [...this.#calls.keys()]) this.#take(id)?.reject(err);
    this.#report();
  }

  /** Tells onState the state now. */
  #report() {
    if (this.#calls.size > 0 && this.#ready) this.#onState('running');
    else if (this.#broken) this.#onState('stopped');
    else this.#onState(this.#ready ? 'ready' : 'loading');
  }
}

/**
 * call, rejected at once when signal aborts first: a tool call on the
 * shared engine waits for the tools' build to start before the call (and
 * its own handling of signal) reaches a worker.
 * @template T
 * @param {Promise<T>} call
 * @param {AbortSignal} [signal]
 * @returns {Promise<T>}
 */
function untilAborted(call, signal) {
  if (!signal) return call;
  if (signal.aborted) {
    call.catch(() => {});
    return Promise.reject(abortReason(signal));
  }
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(abortReason(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    call.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** @param {AbortSignal} signal */
function abortReason(signal) {
  return signal.reason !== undefined ? signal.reason : new DOMException('The call was cancelled.', 'AbortError');
}

/**
 * The Error a failed call rejects with, from the worker's plain form.
 * @param {{name?: string, message: string, errors?: Mistake[], line?: number, col?: number}} e
 */
function engineError(e) {
  const err = /** @type {Error & {errors: Mistake[], line: number, col: number}} */ (new Error(e.message));
  if (e.name && e.name !== 'Error') err.name = e.name;
  err.errors = e.errors || [{ line: 0, col: 0, msg: e.message }];
  err.line = e.line ?? err.errors[0].line;
  err.col = e.col ?? err.errors[0].col;
  return err;
}
