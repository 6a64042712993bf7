// @ts-check
// prerendered.js gives a <lease-timeline> its engine on a course site:
// the traces `leaselab prerender SITE` computed ahead of time, natively (the
// parity rule: the same bytes the engine would give), and the real engine
// (engine.js) only for what they do not hold — an edit, another mutant, a
// Go test. A page whose timelines were all prerendered draws each at once
// and fetches no WebAssembly until the reader asks for something new.
//
// The files, beside this module (the bundle's folder):
//   prerendered/index.json   {format: 1, version, mutants: {LANG: [{name,
//                            breaks}]}, traces: {KEY: FILE}}; make dist writes
//                            one with no traces, prerender fills it
//   prerendered/FILE         the engine's answer, byte for byte: a trace
//                            (run) or a worksheet (worksheet)
// KEY is fences.js's traceKey of the run: the SHA-256 of the text, the
// name, the language and the mutant in a canonical form.
//
// An element the npm package's build-time plugins made carries its own
// answers, under the same keys (its data-prerendered: fences.js
// Embedded); they come before the index.

import { decodeEmbedded, traceKey } from './fences.js';
import { loadEngine } from './player.js';

/** @typedef {import('./player.js').Engine} Engine */
/** @typedef {{name: string, breaks: string}} MutantInfo */
/**
 * @typedef {object} Index prerendered/index.json
 * @property {number} format INDEX_FORMAT
 * @property {string} version the bundle's version that prerender wrote for
 * @property {Record<string, MutantInfo[]>} mutants each language's mutants
 * @property {Record<string, string>} traces the file of each key
 */

/** The index's format this player reads. */
export const INDEX_FORMAT = 1;

const folder = new URL('prerendered/', import.meta.url);

/** @type {Promise<Index | null> | null} */
let index = null;

/**
 * The prerendered index (null when there is none), fetched once per page.
 * The index is the one file prerender rewrites in place (the traces are
 * named by their content), so it is always revalidated with the server: a
 * copy cached from before a prerender would send every player to the
 * engine.
 */
export function prerenderedIndex() {
  if (!index) {
    index = fetch(new URL('index.json', folder), { cache: 'no-cache' })
      .then((r) => (r.ok ? r.json() : null))
      .then((v) => (v && v.format === INDEX_FORMAT && v.traces ? /** @type {Index} */ (v) : null))
      .catch(() => null);
  }
  return index;
}

/**
 * The prerendered answer for a run, or null.
 * @param {import('./fences.js').TraceRequest} req
 * @returns {Promise<string | null>}
 */
export async function prerenderedAnswer(req) {
  const idx = await prerenderedIndex();
  if (!idx || Object.keys(idx.traces).length === 0) return null;
  const key = await traceKey(req);
  const file = key ? idx.traces[key] : undefined;
  if (!file || !/^[0-9a-f]{64}\.json$/.test(file)) return null;
  try {
    const r = await fetch(new URL(file, folder));
    return r.ok ? await r.text() : null;
  } catch {
    return null;
  }
}

/**
 * The answer for a run that embedded holds, or null.
 * @param {import('./fences.js').Embedded | null} embedded
 * @param {import('./fences.js').TraceRequest} req
 */
export async function embeddedAnswer(embedded, req) {
  if (!embedded) return null;
  const key = await traceKey(req);
  const raw = key ? embedded.traces[key] : undefined;
  return typeof raw === 'string' ? raw : null;
}

/**
 * An Engine (player.js) that answers from the prerendered traces and loads
 * the real engine, shared by the page, for anything else. source says
 * where its last answer came from: "prerendered" or "engine" ("" before
 * any). An engine that cannot load rejects with an Error whose unavailable
 * is true.
 * @param {string | null} [embedded] the element's data-prerendered
 */
export function courseEngine(embedded = null) {
  const own = decodeEmbedded(embedded);
  /** @type {Promise<Engine> | null} */
  let real = null;
  const engine = () => {
    if (!real) {
      real = loadEngine().catch((err) => {
        real = null;
        const e = /** @type {Error & {unavailable: boolean}} */ (
          new Error(err instanceof Error ? err.message : String(err))
        );
        e.unavailable = true;
        throw e;
      });
    }
    return real;
  };
  const self = {
    source: '',
    /** Whether the real engine was asked for. */
    loaded: () => real !== null,
    /** @param {string} text @param {{name: string, mutant?: string, lang?: string}} opts */
    run: async (text, opts) => answer('run', text, { ...opts, mutant: opts.mutant || '' }),
    /** @param {string} text @param {{name: string, mutant: string, lang?: string}} opts */
    worksheet: async (text, opts) => answer('worksheet', text, opts),
    /** @param {string} text @param {{name: string}} opts */
    goTest: async (text, opts) => (await engine()).goTest(text, opts),
    /** @param {string} [lang] */
    mutants: async (lang = 'en') => {
      const known = (await own)?.mutants?.[lang] || (await prerenderedIndex())?.mutants?.[lang];
      return known?.length ? known : (await engine()).mutants(lang);
    },
    library: async () => (await engine()).library(),
    get version() {
      return engine().then((e) => e.version);
    },
  };
  /**
   * @param {'run' | 'worksheet'} method
   * @param {string} text
   * @param {{name: string, mutant: string, lang?: string}} opts
   */
  async function answer(method, text, opts) {
    const req = { text, name: opts.name, lang: opts.lang || 'en', mutant: opts.mutant };
    // A run on a mutant alone is no worksheet: only the correct engine's runs are prerendered.
    const prerendered = method === 'worksheet' || !opts.mutant;
    const raw = prerendered ? ((await embeddedAnswer(await own, req)) ?? (await prerenderedAnswer(req))) : null;
    if (raw !== null) {
      self.source = 'prerendered';
      return raw;
    }
    const e = await engine();
    const out = await e[method](text, opts);
    self.source = 'engine';
    return out;
  }
  return self;
}

/**
 * A lab's prerendered result and its plot in lang (prerender writes both
 * for every <lease-lab> and ```lease-lab fence: the result, as the
 * engine's lab call gives it, under kind "lab" with lang ""; the plot as a
 * JSON string under kind "lab-svg"; the npm plugins embed the same in the
 * element's data-prerendered, which comes first), or null when either is
 * missing.
 * @param {string} text the lab's text
 * @param {string} name its name
 * @param {string} lang
 * @param {string | null} [embedded] the element's data-prerendered
 * @returns {Promise<{result: string, svg: string} | null>}
 */
export async function prerenderedLab(text, name, lang, embedded = /** @type {string | null} */ (null)) {
  const own = await decodeEmbedded(embedded);
  /** @param {import('./fences.js').TraceRequest} req */
  const find = async (req) => (await embeddedAnswer(own, req)) ?? (await prerenderedAnswer(req));
  const [result, svg] = await Promise.all([
    find({ text, name, lang: '', mutant: '', kind: 'lab' }),
    find({ text, name, lang, mutant: '', kind: 'lab-svg' }),
  ]);
  if (result === null || svg === null) return null;
  try {
    const plot = JSON.parse(svg);
    return typeof plot === 'string' ? { result, svg: plot } : null;
  } catch {
    return null;
  }
}
