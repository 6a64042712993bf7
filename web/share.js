// @ts-check
// share.js writes the ways a timeline travels: the URL hash the simulator
// page and the embed frame (embed.html) read, and the snippets a course
// author pastes into a page — the <lease-timeline> element for pages that
// allow a script, the frame for hosts that strip scripts.

import { en } from './i18n.js';

/**
 * Encodes text (UTF-8) as unpadded base64url.
 * @param {string} text
 */
export function b64urlEncode(text) {
  const bytes = new TextEncoder().encode(text);
  const parts = [];
  for (let i = 0; i < bytes.length; i += 0x8000) parts.push(String.fromCharCode(...bytes.subarray(i, i + 0x8000)));
  return btoa(parts.join('')).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

/**
 * Decodes b64urlEncode's output; throws on text that is not base64url.
 * @param {string} s
 */
export function b64urlDecode(s) {
  return new TextDecoder().decode(b64urlBytes(s));
}

/**
 * The bytes unpadded base64url text s holds; throws on text that is not
 * base64url.
 * @param {string} s
 */
export function b64urlBytes(s) {
  const bin = atob(s.replaceAll('-', '+').replaceAll('_', '/'));
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  return bytes;
}

/**
 * The hash parameters of a timeline: t=NAME when it is a library timeline
 * as written (library is its text, or null), else src= (the text,
 * base64url) and, unless the text is a library timeline's edited, name=;
 * then mutant, lang (unless English), step (the cursor) and impl (a
 * grading report's run of the student's code, as the link carried it).
 * @param {{text: string, name: string, library?: string | null, mutant?: string, lang?: string, step?: number | null,
 *   impl?: string}} o
 */
export function timelineParams({ text, name, library = null, mutant = '', lang = 'en', step = null, impl = '' }) {
  const p = new URLSearchParams();
  if (library !== null && library === text) {
    p.set('t', name);
  } else {
    // An edited library timeline is another story: it keeps no library name.
    if (library === null) p.set('name', name);
    p.set('src', b64urlEncode(text));
  }
  if (mutant) p.set('mutant', mutant);
  if (lang && lang !== 'en') p.set('lang', lang);
  if (step !== null) p.set('step', String(step));
  if (impl) p.set('impl', impl);
  return p;
}

/**
 * escapeText makes s safe as an element's text: only & and < need it, so a
 * timeline's "->" stays readable.
 * @param {string} s
 */
function escapeText(s) {
  return s.replaceAll('&', '&amp;').replaceAll('<', '&lt;');
}

/**
 * escapeAttr makes s safe inside a double-quoted attribute.
 * @param {string} s
 */
function escapeAttr(s) {
  return s.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;');
}

/**
 * The <lease-timeline> snippet: the script and stylesheet from base (the
 * URL of the directory holding lease-timeline.js) and the element with the
 * timeline as its text.
 * @param {{base: URL, text: string, name: string, mutant?: string, lang?: string, step?: number}} o
 */
export function elementSnippet({ base, text, name, mutant = '', lang = 'en', step = 0 }) {
  const attrs = [`name="${escapeAttr(name)}"`];
  if (lang && lang !== 'en') attrs.push(`lang="${lang}"`);
  if (mutant) attrs.push(`mutant="${escapeAttr(mutant)}"`);
  if (step) attrs.push(`step="${step}"`);
  return (
    `<script type="module" src="${new URL('lease-timeline.js', base)}"></script>\n` +
    `<link rel="stylesheet" href="${new URL('lease-timeline.css', base)}">\n\n` +
    `<lease-timeline ${attrs.join(' ')}>\n${escapeText(text.replace(/\n+$/, ''))}\n</lease-timeline>\n`
  );
}

/**
 * The frame snippet: embed.html with the timeline in its hash and a title,
 * then the optional script that lets the frame set its own height (a host
 * that strips scripts keeps the fixed height), under a comment that says
 * so (comment: in the page's language).
 * @param {{base: URL, text: string, name: string, library?: string | null, mutant?: string, lang?: string,
 *   step?: number, title?: string, height?: number, comment?: string}} o
 */
export function iframeSnippet({
  base,
  text,
  name,
  library = null,
  mutant = '',
  lang = 'en',
  step = 0,
  title = '',
  height = 560,
  comment = en.frameComment,
}) {
  const p = timelineParams({ text, name, library, mutant, lang, step: step || null });
  const src = `${new URL('embed.html', base)}#${p}`;
  return (
    `<iframe src="${escapeAttr(src)}" title="${escapeAttr(`leaselab: ${title || name}`)}" width="100%" height="${height}" loading="lazy" style="border:0" data-leaselab></iframe>\n` +
    `<!-- ${comment.replaceAll('--', '-')} -->\n` +
    `<script src="${new URL('embed-host.js', base)}"></script>\n`
  );
}

/**
 * The entry of list named name, written with or without ".tl".
 * @template {{name: string}} E
 * @param {E[]} list
 * @param {string} name
 * @returns {E | undefined}
 */
export function findTimeline(list, name) {
  return list.find((e) => e.name === name || e.name === `${name}.tl`);
}
