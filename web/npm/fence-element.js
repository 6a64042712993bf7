// @ts-check
// fence-element.js: what the npm package's build-time plugins (remark.js,
// markdown-it.js) make of a Markdown fence — the <lease-timeline> or
// <lease-exercise> element the page's fences.js would make of it in the
// browser, made when the site is built instead, so that no page is changed
// before a framework hydrates it. The fence is read as fences.js reads it
// (the same parseFence, exerciseFence); a fence that cannot be read is an
// error naming where.
//
// Unless the plugin's option prerender is false, a timeline's element also
// carries its trace, computed by the engine under Node (node-engine.js) in
// the fence's language (every language when the fence names none): the
// page draws it without fetching the engine, as after `leaselab prerender`.
// An exercise needs nothing of the engine: its element holds its starting
// code (exerciseHTML).

import { EXERCISE, escapeScriptText, exerciseFence, MARKER, parseFence, unreadable } from '../fences.js';
import { langTag } from '../i18n.js';
import { encodeEmbedded, runSync } from './node-engine.js';

/**
 * Whether a fence is a timeline: its language (the info string's first
 * word) is lease-timeline, or its first line is the directive with the
 * marker.
 * @param {string | null | undefined} lang
 * @param {string} text
 */
export function isTimelineFence(lang, text) {
  return lang === MARKER || parseFence(text).marked;
}

/**
 * Whether a fence is an exercise: its language is lease-exercise, or its
 * first line is the directive with the marker lease-exercise.
 * @param {string | null | undefined} lang
 * @param {string} text
 */
export function isExerciseFence(lang, text) {
  return lang === EXERCISE.tag || parseFence(text, EXERCISE).marked;
}

/**
 * The element an exercise fence becomes: its attributes (the directive's
 * options) and its starting code (the text after the directive, dedented;
 * "" when blank, for the language's own). Throws, naming the page and
 * line, for a fence that cannot be read: an option that is none, a value
 * the option does not take.
 * @param {string} text the fence's text
 * @param {string} page the page, for errors
 * @param {number} line the page's line of the fence's text's first line
 * @returns {{attributes: Record<string, string>, code: string}}
 */
export function exerciseElement(text, page, line) {
  const { attributes, code, why } = exerciseFence(text);
  if (why) throw new Error(`${page}:${line}: a lease-exercise fence cannot be read: ${why}`);
  return { attributes, code };
}

/** @param {string} s */
export const escapeHTML = (s) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * An element's attributes in HTML: a bare ` KEY` for "", else ` KEY="VALUE"`.
 * @param {Record<string, string>} attributes
 */
export const htmlAttributes = (attributes) =>
  Object.entries(attributes)
    .map(([k, v]) => (v === '' ? ` ${k}` : ` ${k}="${escapeHTML(v)}"`))
    .join('');

/**
 * An exercise's element in HTML. Its starting code is the text of a
 * <script type="text/plain"> child, escaped (fences.js escapeScriptText:
 * no `</script` in it ends the script early); with vue, a Vue template's,
 * it is a <pre> child's, HTML-escaped, and the element carries v-pre, since
 * Vue drops a script from a template (and escapes its text on the server)
 * and would read {{ }} in the code. No child for the language's own code.
 * @param {{attributes: Record<string, string>, code: string}} el
 * @param {boolean} [vue]
 */
export function exerciseHTML(el, vue = false) {
  const open = `<lease-exercise${htmlAttributes(el.attributes)}${vue ? ' v-pre' : ''}>`;
  if (!el.code) return `${open}</lease-exercise>`;
  if (vue) return `${open}<pre>${escapeHTML(el.code)}</pre></lease-exercise>`;
  return `${open}<script type="text/plain">${escapeScriptText(el.code)}</script></lease-exercise>`;
}

/**
 * How many lines of a fence's text come before the timeline's first line
 * (the directive, blank lines).
 * @param {string} raw
 */
function timelineOffset(raw) {
  const lines = raw.replace(/\r\n?/g, '\n').split('\n');
  const first = lines.findIndex((l) => l.trim() !== '');
  if (first < 0) return 0;
  if (!lines[first].trim().startsWith('#!')) return first;
  const next = lines.findIndex((l, i) => i > first && l.trim() !== '');
  return next < 0 ? first + 1 : next;
}

/**
 * The element a timeline fence becomes: its attributes (the directive's
 * options; a bare key is ""; data-prerendered, its trace, unless
 * prerender is false) and its text (without the directive, dedented).
 * Throws, naming the page and line, for a fence that cannot be read and
 * for a timeline the engine refuses; warns, naming them, for a timeline
 * whose expectations fail on the correct engine.
 * @param {string} text the fence's text
 * @param {string} page the page, for errors
 * @param {number} line the page's line of the fence's text's first line
 * @param {{prerender?: boolean}} [options]
 * @returns {{attributes: Record<string, string>, text: string}}
 */
export function timelineElement(text, page, line, options = {}) {
  const fence = parseFence(text);
  const why = unreadable(fence);
  if (why) throw new Error(`${page}:${line}: a lease-timeline fence cannot be read: ${why}`);
  const attributes = { ...fence.options };
  if (options.prerender !== false) {
    const at = line + timelineOffset(text);
    attributes['data-prerendered'] = prerender(fence.text, fence.options, page, at);
  }
  return { attributes, text: fence.text };
}

/**
 * The data-prerendered attribute of a timeline: the run the element asks
 * for (its name, mutant and language, as lease-timeline.js reads them).
 * @param {string} text the timeline
 * @param {Record<string, string>} opts the fence's options
 * @param {string} page
 * @param {number} line the page's line of the timeline's first line
 */
function prerender(text, opts, page, line) {
  const req = {
    text,
    name: opts.name || 'timeline.tl',
    mutant: opts.mutant || '',
    langs: opts.lang ? [langTag(opts.lang)] : [],
  };
  try {
    const { embedded, passed } = runSync(req);
    if (!passed) {
      console.warn(
        `${page}:${line}: the timeline's expectations fail on the correct engine, or an invariant breaks unannounced (leaselab check tells which)`,
      );
    }
    return encodeEmbedded(embedded);
  } catch (err) {
    const e =
      /** @type {Error & {line?: number, col?: number, errors?: {line: number, col: number, msg: string}[]}} */ (err);
    const first = e.errors?.[0];
    if (!first) throw new Error(`${page}:${line}: a lease-timeline fence: ${e.message}`);
    const more = e.errors && e.errors.length > 1 ? ` (and ${e.errors.length - 1} more)` : '';
    const place = first.line > 0 ? `${page}:${line + first.line - 1}:${first.col}` : `${page}:${line}`;
    throw new Error(`${place}: a lease-timeline fence does not run: ${first.msg}${more}`);
  }
}
