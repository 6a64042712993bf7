// embed.js drives embed.html: it reads the timeline from the hash, puts one
// <lease-timeline> on the page and tells the framing page how tall it is.
//
// The height protocol: whenever the page's height changes, it posts
//   {type: "leaselab:height", height: <CSS px>, id: <the hash's id= or "">}
// to window.parent, with the parent's origin as the target origin, so no
// other page can read it; with no known parent origin it posts nothing. It
// answers {type: "leaselab:ping"} with its height, but only from its parent
// window and that origin.

import './lease-timeline.js';
import { b64urlDecode } from './share.js';

const params = new URLSearchParams(location.hash.slice(1));
const ATTRS = ['mutant', 'lang', 'step', 'show', 'theme', 'height'];

/** The origin of the page that frames this one, or null when it is unknown or not to be trusted. */
export function parentOrigin() {
  if (window.parent === window) return null;
  const ancestors = location.ancestorOrigins;
  const actual = ancestors && ancestors.length ? ancestors[0] : null;
  const wanted = params.get('origin');
  if (wanted) return !actual || actual === wanted ? wanted : null;
  if (actual && actual !== 'null') return actual;
  try {
    return document.referrer ? new URL(document.referrer).origin : null;
  } catch {
    return null;
  }
}

async function timeline() {
  if (params.has('src')) {
    return { text: b64urlDecode(params.get('src')), name: params.get('name') || 'shared.tl' };
  }
  if (params.has('t')) {
    const r = await fetch('traces/index.json');
    if (!r.ok) throw new Error(`traces/index.json: HTTP ${r.status}`);
    const entry = (await r.json()).timelines.find((e) => e.name === params.get('t'));
    if (entry) return { text: entry.text, name: entry.name };
  }
  throw new Error('the link names no timeline (t= or src= in the hash)');
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
  const main = document.getElementById('embed');
  try {
    const { text, name } = await timeline();
    const el = document.createElement('lease-timeline');
    el.setAttribute('name', name);
    for (const a of ATTRS) if (params.has(a)) el.setAttribute(a, params.get(a));
    if (params.get('autoplay') === '1') el.setAttribute('autoplay', '');
    if (params.get('lang') === 'ko') document.documentElement.lang = 'ko';
    el.textContent = text;
    main.append(el);
    const title = (text.match(/^\s*#\s*(.+)$/m) || [])[1] || name;
    document.title = `leaselab: ${title}`;
  } catch (err) {
    const p = document.createElement('p');
    p.className = 'leaselab-noscript';
    p.textContent = `leaselab: ${err.message}`;
    main.append(p);
  }
  new ResizeObserver(() => postHeight()).observe(document.documentElement);
}

main();
