// @ts-check
// embed.js drives embed.html: it reads the timeline from the hash, puts one
// <lease-timeline> on the page (which runs the player) and tells the
// framing page how tall it is.
//
// The height protocol: whenever the page's height changes, it posts
//   {type: "leaselab:height", height: <CSS px>, id: <the hash's id= or "">}
// to window.parent, with the parent's origin as the target origin, so no
// other page can read it; with no known parent origin it posts nothing. It
// answers {type: "leaselab:ping"} with its height, but only from its parent
// window and that origin.

import { langTag, strings } from './i18n.js';
import { titleOf } from './lease-timeline.js';
import { b64urlDecode, findTimeline } from './share.js';

const params = new URLSearchParams(location.hash.slice(1));
const ATTRS = ['mutant', 'lang', 'step', 'show', 'theme', 'height'];
const t = strings(langTag(params.get('lang')));

/** The origin of the page that frames this one, or null when it is unknown or not to be trusted. */
export function parentOrigin() {
  if (window.parent === window) return null;
  const ancestors = location.ancestorOrigins;
  const actual = ancestors?.length ? ancestors[0] : null;
  const wanted = params.get('origin');
  if (wanted) return !actual || actual === wanted ? wanted : null;
  if (actual && actual !== 'null') return actual;
  try {
    return document.referrer ? new URL(document.referrer).origin : null;
  } catch {
    return null;
  }
}

/** The timeline the hash carries: its text (src=) or a library timeline's (t=). */
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
    /** @type {{timelines: {name: string, text: string}[]}} */
    const index = await r.json();
    const name = params.get('t') || '';
    const entry = findTimeline(index.timelines, name);
    if (entry) return { text: entry.text, name: entry.name };
    if (name) throw new Error(t.unknownTimeline(name));
  }
  throw new Error(t.noTimelineInLink);
}

const target = parentOrigin();
let sent = 0;

function postHeight(force = false) {
  if (!target) return;
  const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
  if (height === sent && !force) return;
  sent = height;
  window.parent.postMessage({ type: 'leaselab:height', height, id: params.get('id') || '' }, target);
}

window.addEventListener('message', (e) => {
  if (e.source !== window.parent || e.origin !== target) return;
  if (e.data && e.data.type === 'leaselab:ping') postHeight(true);
});

async function main() {
  const box = /** @type {HTMLElement} */ (document.getElementById('embed'));
  document.documentElement.lang = t.lang;
  try {
    const { text, name } = await timeline();
    const el = document.createElement('lease-timeline');
    el.setAttribute('name', name);
    for (const a of ATTRS) if (params.has(a)) el.setAttribute(a, params.get(a) || '');
    if (params.get('autoplay') === '1') el.setAttribute('autoplay', '');
    el.textContent = text;
    box.append(el);
    document.title = `leaselab: ${titleOf(text) || name}`;
  } catch (err) {
    const p = document.createElement('p');
    p.className = 'leaselab-noscript';
    p.textContent = `leaselab: ${err instanceof Error ? err.message : String(err)}`;
    box.append(p);
  }
  new ResizeObserver(() => postHeight()).observe(document.documentElement);
}

main();
