// @ts-check
// embed.js drives embed.html: it reads the timeline from the hash and puts
// one <lease-timeline> on the page (which runs the player), or says why it
// cannot. embed-frame.js, the page's classic script, tells the framing
// page how tall the frame is.

import { langTag, strings } from './i18n.js';
import { titleOf } from './lease-timeline.js';
import { b64urlDecode, findTimeline } from './share.js';

const params = new URLSearchParams(location.hash.slice(1));
const ATTRS = ['mutant', 'lang', 'step', 'show', 'theme', 'height'];
const t = strings(langTag(params.get('lang')));

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
}

main();
