// @ts-check
// embed.js drives embed.html: it reads the timeline from the hash and puts
// one <lease-timeline> on the page (which runs the player), or says why it
// cannot. embed-frame.js, the page's classic script, tells the framing
// page how tall the frame is.

import { EMBED_FORMAT, traceKey } from './fences.js';
import { langTag, strings } from './i18n.js';
import { titleOf } from './lease-timeline.js';
import { h } from './render.js';
import { b64urlDecode, findTimeline } from './share.js';

const params = new URLSearchParams(location.hash.slice(1));
const ATTRS = ['mutant', 'lang', 'step', 'show', 'theme', 'height'];
const t = strings(langTag(params.get('lang')));
/**
 * Whether the frame is sandboxed without allow-same-origin: its origin is
 * opaque, and no Worker can be constructed from the bundle's host, so the
 * engine cannot start here.
 */
const sandboxed = self.origin === 'null';

/**
 * The timeline the hash carries: its text (src=) or a library timeline's
 * (t=), with the page-relative URLs of that timeline's traces: in
 * English, and in each other language by its tag (langs).
 * @returns {Promise<Timeline>}
 */
async function timeline() {
  if (params.has('src')) {
    let text;
    try {
      text = b64urlDecode(params.get('src') || '');
    } catch {
      throw new Error(t.unreadableTimeline);
    }
    return { text, name: params.get('name') || 'shared.tl' };
  }
  if (params.has('t')) {
    const r = await fetch('traces/index.json');
    if (!r.ok) throw new Error(`traces/index.json: HTTP ${r.status}`);
    /** @type {{timelines: Timeline[]}} */
    const index = await r.json();
    const name = params.get('t') || '';
    const entry = findTimeline(index.timelines, name);
    if (entry) return { text: entry.text, name: entry.name, trace: entry.trace, langs: entry.langs };
    if (name) throw new Error(t.unknownTimeline(name));
  }
  throw new Error(t.noTimelineInLink);
}

/**
 * A timeline to play: its text and name, and for a library timeline the
 * URLs of its shipped traces.
 * @typedef {{text: string, name: string, trace?: string, langs?: Record<string, string>}} Timeline
 */

/**
 * A data-prerendered value (fences.js Embedded) that holds a library
 * timeline's trace as make wasm computed it — the correct engine's run,
 * explained in lang — or null when it cannot be had.
 * @param {string} text
 * @param {string} name
 * @param {string} lang
 * @param {string} trace its URL, relative to the page
 */
async function shippedTrace(text, name, lang, trace) {
  const key = await traceKey({ text, name, lang, mutant: '' });
  const r = await fetch(trace);
  if (!key || !r.ok || typeof CompressionStream === 'undefined') return null;
  const json = JSON.stringify({ format: EMBED_FORMAT, traces: { [key]: await r.text() }, mutants: {} });
  const gz = new Response(new Blob([json]).stream().pipeThrough(new CompressionStream('gzip')));
  const bytes = new Uint8Array(await gz.arrayBuffer());
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin);
}

/**
 * In a sandboxed frame, what the engine would answer must be there
 * already: the data-prerendered value for a library timeline on the
 * correct engine, its trace shipped in the frame's language, else null.
 * @param {Timeline} tl
 */
async function sandboxAnswers(tl) {
  const trace = t.lang === 'en' ? tl.trace : tl.langs?.[t.lang];
  if (!trace || params.get('mutant')) return null;
  return shippedTrace(tl.text, tl.name, t.lang, trace).catch(() => null);
}

async function main() {
  const box = /** @type {HTMLElement} */ (document.getElementById('embed'));
  document.documentElement.lang = t.lang;
  try {
    const tl = await timeline();
    const { text, name } = tl;
    const el = document.createElement('lease-timeline');
    el.setAttribute('name', name);
    for (const a of ATTRS) if (params.has(a)) el.setAttribute(a, params.get(a) || '');
    if (params.get('autoplay') === '1') el.setAttribute('autoplay', '');
    el.textContent = text;
    const answers = sandboxed ? await sandboxAnswers(tl) : null;
    if (answers) el.setAttribute('data-prerendered', answers);
    box.append(el);
    // What else needs the engine, which this frame cannot start.
    if (sandboxed)
      box.append(h('p', { class: 'leaselab-noscript leaselab-sandbox-note', role: 'note' }, t.sandboxedFrame));
    document.title = `leaselab: ${titleOf(text) || name}`;
  } catch (err) {
    const p = document.createElement('p');
    p.className = 'leaselab-noscript';
    p.textContent = `leaselab: ${err instanceof Error ? err.message : String(err)}`;
    box.append(p);
  }
}

main();
