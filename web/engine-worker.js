// @ts-check
// engine-worker.js is the dedicated Web Worker the leaselab engine runs in
// (see engine.js, which starts it): the Go runtime and the engine
// (leaselab.wasm, wasm/sim), and SQLite (sqlite-wasm/sqlite3.wasm, through
// sqlite-bridge.js), live here, so a run, however long, holds this thread
// and never the page's.
//
// The first worker of a page starts itself: its own URL names the module
// (engine-worker.js?module=URL), which it fetches, compiles (compileStreaming,
// so compiling overlaps the download) and starts as soon as its script runs.
// Chromium keeps no code cache for a module compiled in a dedicated worker:
// a second visit compiles again, lazily, which measured no slower than the
// page compiling the module with its cache and handing it over (see
// engine/DECISIONS.md, "The code cache and the engine's worker"). From a host
// that sends a module as it is on disk, the worker compiles the module's
// gzip file beside it instead, inflated here (fetchModule). A message
// the page posts before then waits for the page's main thread, which is
// drawing the page: measured on 2 cores, waiting for a start message put
// the engine's cold first trace 60-70 ms later (medians of 10 cold loads
// each, alternating).
//
// The protocol; every message is an object with a type:
//   page → worker  {type: 'start', module}     start a module compiled before (a
//                                              later worker, whose URL names none),
//                                              first and once
//                  {type: 'call', id, method, args}  method is one of CALLS
//   worker → page  {type: 'ready', facts, module, fetched, phases}  the engine is up.
//                                              facts: what never changes in a build
//                                              (builtFacts, facts); module: the compiled
//                                              module, for the next worker; fetched:
//                                              the Resource Timing entry here of the
//                                              bytes compiled, the module's or its
//                                              .gz's (null when none, or not fetched);
//                                              phases: when this worker's start reached
//                                              each step (Phases)
//                  {type: 'progress', id, value}  how far a call has come (explore:
//                                              {states, depth, rate}; lab: {done, total};
//                                              grade: {test, call} before each of the
//                                              reader's calls), any number of times
//                  {type: 'answer', id, value}   a call's result, or
//                  {type: 'answer', id, text}    a result that is a string (a trace,
//                                              a worksheet, a Go test) as its UTF-8
//                                              bytes (a Uint8Array), transferred, or
//                  {type: 'answer', id, error}   its failure as {name, message,
//                                              errors, line, col}
//                  {type: 'failed', message}   the engine could not start
//                  {type: 'stopped'}           the Go program exited (a panic): no
//                                              call will be answered
// Calls are answered by id, in the order the engine finishes them.

// The worker's other scripts are fetched while the modules are: as static
// imports they held back the module fetches until they had arrived, one
// more round trip on the engine's cold start.
const sqliteBridge = import('./sqlite-bridge.js');

// Go's wasm_exec.js (a classic script that defines globalThis.Go) is loaded
// by its URL: it is Go's, copied by make wasm, and not ours to type-check.
// The worker pages start, engine-worker.bundle.js (engine/internal/build/bundle),
// begins with it and the bridge: that worker fetches neither.
const goRuntime = 'Go' in globalThis ? Promise.resolve() : import(new URL('wasm_exec.js', import.meta.url).href);

// SQLite is the engine's own WebAssembly build (web/sqlite-wasm/sqlite3.wasm,
// which make wasm builds from wasm/sqlite), which sqlite-bridge.js
// instantiates and bridges for the engine's Go driver (wasm/sqlitejs)
// before the Go program starts.

/**
 * When this worker's start reached each of its steps, in milliseconds since
 * the epoch (performance.timeOrigin + performance.now()), so that the page
 * places them on its own timeline: where a cold start goes (make bench).
 * @typedef {object} Phases
 * @property {number} script this script began to run
 * @property {number} compiled the engine's module was compiled (or handed over)
 * @property {number} sqlite SQLite was compiled, instantiated and bridged
 * @property {number} started the Go program was up, its API in place
 */

/** @type {Partial<Phases>} */
const phases = {};

/** Records that the start reached step now. @param {keyof Phases} step */
const reached = (step) => {
  phases[step] = performance.timeOrigin + performance.now();
};
reached('script');

/** The engine's methods a page may call through this worker. */
const CALLS = [
  'run',
  'worksheet',
  'goTest',
  'explore',
  'grade',
  'gradePython',
  'loadPython',
  'lab',
  'labSVG',
  'labStory',
  'history',
  'benchCycles',
  'wasmBytes',
];

/**
 * @typedef {object} Engine
 * @property {Record<string, Function> & {version: string}} api globalThis.leaselab
 * @property {WebAssembly.Memory} memory the engine's linear memory (SQLite's is its own)
 */

/** @type {Promise<Engine> | null} */
let engine = null;

/**
 * Starts the engine from source, once.
 * @param {WebAssembly.Module | string} source
 */
function begin(source) {
  if (engine) return;
  engine = start(source);
  engine.catch((err) => postMessage({ type: 'failed', message: String(err?.message || err) }));
}

const named = new URL(self.location.href).searchParams.get('module');
if (named) begin(new URL(named, self.location.href).href);

self.onmessage = (/** @type {MessageEvent} */ e) => {
  const msg = e.data;
  if (msg.type === 'start') {
    begin(msg.module);
  } else if (msg.type === 'call') {
    answer(msg.id, msg.method, msg.args);
  }
};

/**
 * Instantiates the module (compiled before, or fetched from its URL), starts
 * its Go program once SQLite is in place and tells the page the engine is
 * ready.
 * @param {WebAssembly.Module | string} source
 * @returns {Promise<Engine>}
 */
async function start(source) {
  // The engine's module first: it downloads and compiles off this thread
  // while SQLite's does too.
  /** @type {Promise<{module: WebAssembly.Module, from: string | null}>} */
  const compiled = (
    source instanceof WebAssembly.Module
      ? Promise.resolve({ module: source, from: null })
      : fetchModule(new URL(source, self.location.href).href, source.split('?')[0].split('/').pop() || source)
  ).then((c) => {
    reached('compiled');
    return c;
  });
  const sqliteURL = new URL('sqlite-wasm/sqlite3.wasm', import.meta.url).href;
  const sqliteModule = fetchModule(sqliteURL, 'sqlite3.wasm').then((c) => c.module);
  sqliteModule.catch(() => {}); // load hears it, unless the bridge failed first
  const sqliteReady = sqliteBridge.then(({ load }) => load(sqliteModule)).then(() => reached('sqlite'));
  const [{ module, from }] = await Promise.all([compiled, goRuntime]);
  const go = new /** @type {any} */ (globalThis).Go();
  const instance = await WebAssembly.instantiate(module, go.importObject);
  await sqliteReady;
  // run returns once main blocks (its API is then in place); its Promise
  // settles when the program exits.
  go.run(instance).finally(() => postMessage({ type: 'stopped' }));
  const api = /** @type {any} */ (globalThis).leaselab;
  if (!api) throw new Error('the engine started without its API (globalThis.leaselab)');
  reached('started');
  // The last entry: before the module's download, its HEAD request has one.
  const fetched = from ? performance.getEntriesByName(from, 'resource').at(-1) : undefined;
  const built = builtFacts(module);
  postMessage({
    type: 'ready',
    facts: built ? { version: api.version, ...built } : facts(api),
    module,
    fetched: fetched ? fetched.toJSON() : null,
    phases,
  });
  return { api, memory: /** @type {WebAssembly.Memory} */ (instance.exports.mem) };
}

/**
 * Fetches the module at url and compiles it as it streams in; from its gzip
 * sibling when the host sends the module as it is on disk (a plain static
 * host: python3 -m http.server, a web space), since make wasm and the
 * course bundle write NAME.gz beside every file. Whichever it compiles, it
 * downloads one body: a host is told plain by a HEAD request for url first,
 * a round trip of headers only, never by a download of url abandoned.
 *
 * The HEAD request is made only for an http(s) url of the worker's own
 * origin (a data: or blob: URL has nothing beside it, another origin's
 * answer could not be read as a plain host's) when the worker has
 * DecompressionStream. The host is plain when its answer is same-origin
 * (type basic), OK and not encoded (no Content-Encoding, or identity);
 * then the sibling is asked for, at the URL of the file the answer was for
 * (url, or where a redirect led) with .gz on its path, the query kept. If
 * it answers OK, the module is compiled from the sibling inflated (or as it
 * is, when its response carries Content-Encoding gzip: the browser inflated
 * it; another encoding the browser undid, br say, leaves the gzip file).
 * Otherwise (no plain host, a HEAD refused or failed, a sibling missing or
 * answered with a page, text/..., a single-page app's fallback for any
 * missing path) url is fetched and compiled. The inflated module must be as
 * long as the HEAD's Content-Length says, when it says (a .gz left by
 * another build is not); on any failure of the sibling's path (inflating,
 * its length, compiling) url is fetched and compiled, the one case of two
 * bodies. The length is the only check that the sibling is url's: a .gz of
 * another build as long as this one, or any .gz when the host gives no
 * length, would be compiled. A module compiled from the sibling comes from
 * a Response made here, with no URL to key a code cache.
 * @param {string} url the module's, absolute
 * @param {string} name the module's, for errors
 * @param {(url: string, init?: RequestInit) => Promise<Response>} [get] fetch, or a stand-in
 * @returns {Promise<{module: WebAssembly.Module, from: string}>} the module
 *   and the URL its bytes came from (url or the sibling's): its Resource
 *   Timing entry's name
 */
export async function fetchModule(url, name, get = fetch) {
  const whole = async () => ({ module: await compile(await get(url), name), from: url });
  const head = await plainHead(url, get);
  if (!head) return whole();
  // Beside the file the host answered for: after a redirect, head.url is where it is.
  const sibling = new URL(head.url || url);
  sibling.pathname += '.gz';
  const gz = await get(sibling.href).catch(() => null);
  if (!gz?.ok || isPage(gz)) {
    gz?.body?.cancel().catch(() => {});
    return whole();
  }
  const length = head.headers.get('Content-Length');
  try {
    const module = await compileGzip(gz, length && /^\d+$/.test(length) ? Number(length) : null, `${name}.gz`);
    return { module, from: sibling.href };
  } catch {
    return whole();
  }
}

/**
 * The HEAD answer for url when its host sends it as it is on disk (same
 * origin, OK, not encoded), else null; no request for a url that is not
 * http(s) of the worker's origin, nor without DecompressionStream.
 * @param {string} url
 * @param {(url: string, init?: RequestInit) => Promise<Response>} get
 * @returns {Promise<Response | null>}
 */
async function plainHead(url, get) {
  const u = new URL(url);
  const own = new URL(self.location.href).origin;
  if (!/^https?:$/.test(u.protocol) || u.origin !== own || typeof DecompressionStream !== 'function') return null;
  const head = await get(url, { method: 'HEAD' }).catch(() => null);
  return head && head.type === 'basic' && head.ok && !encoded(head) ? head : null;
}

/**
 * Whether r is a page (a type text/...): what a host that answers every
 * missing path with its site's page (a single-page app's fallback) sends
 * for a .gz it does not have, with status 200.
 * @param {Response} r
 */
function isPage(r) {
  return (r.headers.get('Content-Type') || '').trim().toLowerCase().startsWith('text/');
}

/**
 * Whether r's body is encoded for the way (a Content-Encoding other than
 * identity): the browser inflated it.
 * @param {Response} r
 */
function encoded(r) {
  const e = encoding(r);
  return e !== '' && e !== 'identity';
}

/** r's Content-Encoding, trimmed and in lower case ('' when none). @param {Response} r */
function encoding(r) {
  return (r.headers.get('Content-Encoding') || '').trim().toLowerCase();
}

/**
 * Compiles a module from a gzip file's response as it streams in: its body
 * inflated (as it is, if the browser inflated it: Content-Encoding gzip or
 * x-gzip), failing unless the module is length bytes long (any length when
 * null).
 * @param {Response} gz
 * @param {number | null} length
 * @param {string} name the file's, for errors
 * @returns {Promise<WebAssembly.Module>}
 */
function compileGzip(gz, length, name) {
  if (!gz.body) throw new Error(`${name}: no body`);
  const e = encoding(gz);
  const inflated = e === 'gzip' || e === 'x-gzip' ? gz.body : gz.body.pipeThrough(new DecompressionStream('gzip'));
  let n = 0;
  const fail = () => new Error(`${name}: inflated to more than ${length} bytes, the module's (another build's?)`);
  const counted = new TransformStream({
    transform(chunk, c) {
      n += chunk.byteLength;
      if (length !== null && n > length) c.error(fail());
      else c.enqueue(chunk);
    },
    flush(c) {
      if (length !== null && n !== length)
        c.error(new Error(`${name}: inflated to ${n} bytes, not the module's ${length} (another build's?)`));
    },
  });
  const body = inflated.pipeThrough(counted);
  return WebAssembly.compileStreaming(new Response(body, { headers: { 'Content-Type': 'application/wasm' } }));
}

/**
 * Compiles a module from its response as it streams in. Streaming needs the
 * type application/wasm; from a host that sends another (an old static
 * server, a misconfigured one) the bytes are read whole and compiled then
 * (no streaming).
 * @param {Response} r
 * @param {string} name the module's, for errors
 * @returns {Promise<WebAssembly.Module>}
 */
async function compile(r, name) {
  if (!r.ok) throw new Error(`${name}: HTTP ${r.status} (build it with make wasm)`);
  const type = (r.headers.get('Content-Type') || '').split(';')[0].trim().toLowerCase();
  if (type === 'application/wasm') return WebAssembly.compileStreaming(r);
  return WebAssembly.compile(await r.arrayBuffer());
}

/**
 * The facts make wasm wrote into the module (its custom section
 * leaselab.facts: engine/simrun.Facts as JSON, computed natively by the code
 * the module runs), or null for a module built without them. Reading them
 * runs no Go: computing them in WebAssembly as the engine started put the
 * cold first trace at 586 ms against 522 on 2 cores (medians of 10 loads).
 * @param {WebAssembly.Module} module
 * @returns {object | null}
 */
function builtFacts(module) {
  const sections = WebAssembly.Module.customSections(module, 'leaselab.facts');
  if (sections.length === 0) return null;
  return JSON.parse(new TextDecoder().decode(sections[sections.length - 1]));
}

/**
 * What never changes in a build, so the page answers it without a message:
 * the version, the library, the languages, each language's mutants, the
 * limits, the invariants. The engine computes them here only for a module
 * without them built in (builtFacts).
 * @param {any} api
 */
function facts(api) {
  const langs = api.langs();
  const mutants = Object.fromEntries(langs.map((/** @type {string} */ l) => [l, api.mutants(l)]));
  return {
    version: api.version,
    library: api.library(),
    langs,
    mutants,
    limits: api.limits(),
    invariants: api.invariants(),
  };
}

/** @type {Promise<unknown> | null} */
let pyodide = null;

/**
 * Loads Python (Pyodide, from the pyodide/ folder beside this script, as
 * make wasm and the course bundle place it) into this worker, once, for
 * gradePython (wasm/pylab), which finds it at globalThis.leaselabPyodide.
 * A load that failed is tried again by the next call. What the student's
 * code prints goes to this worker's console.
 */
function python() {
  if (!pyodide) {
    const base = new URL('pyodide/', import.meta.url).href;
    pyodide = import(`${base}pyodide.mjs`)
      .then(({ loadPyodide }) => loadPyodide({ indexURL: base }))
      .then((py) => {
        /** @type {any} */ (globalThis).leaselabPyodide = py;
        return py;
      });
    pyodide.catch(() => {
      pyodide = null;
    });
  }
  return pyodide.catch((err) => {
    throw new Error(
      `Python could not be loaded from ${new URL('pyodide/', import.meta.url).href} (make wasm puts it there; the course bundle holds it): ${err?.message || err}`,
    );
  });
}

const ENCODER = new TextEncoder();

/**
 * Runs one call and posts its answer.
 * @param {number} id
 * @param {string} method
 * @param {unknown[]} args
 */
async function answer(id, method, args) {
  try {
    if (!CALLS.includes(method)) throw new Error(`leaselab: no method ${method}`);
    // Python loads beside the engine, not after it: both download and
    // compile at once.
    const py = method === 'gradePython' || method === 'loadPython' ? python() : null;
    py?.catch(() => {}); // awaited below, once the engine is up
    const { api, memory } = await /** @type {Promise<Engine>} */ (engine);
    if (py) await py;
    if (method === 'loadPython') {
      postMessage({ type: 'answer', id, value: true });
      return;
    }
    if (method !== 'wasmBytes' && typeof api[method] !== 'function')
      throw new Error(`leaselab: this build of the engine has no ${method} (leaselab-tools.wasm has)`);
    if (method === 'explore' || method === 'lab' || method === 'grade' || method === 'gradePython')
      args = [args[0], args[1], (/** @type {unknown} */ p) => postMessage({ type: 'progress', id, value: p })];
    const value =
      method === 'wasmBytes'
        ? memory.buffer.byteLength + /** @type {any} */ (globalThis).leaselabSQLite.memoryBytes()
        : await api[method](...args);
    if (typeof value === 'string') {
      // A string posted as itself is copied into the page's JavaScript
      // heap, where V8 grows the heap to keep up with a run of answers
      // (measured: the page's heap at 63 MB over 12 s of library runs,
      // against 17-29 MB for the same answers as bytes the page decodes,
      // and the page's renderer 335-363 MB against 266-285 MB).
      const text = ENCODER.encode(value);
      postMessage({ type: 'answer', id, text }, { transfer: [text.buffer] });
    } else postMessage({ type: 'answer', id, value });
  } catch (err) {
    postMessage({ type: 'answer', id, error: plainError(err) });
  }
}

/**
 * An error as plain data (a structured clone of an Error drops the
 * engine's errors, line and col).
 * @param {any} err
 */
function plainError(err) {
  const e = err instanceof Error ? /** @type {any} */ (err) : { message: String(err) };
  return { name: e.name || 'Error', message: e.message, errors: e.errors, line: e.line, col: e.col };
}
