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
// carries its trace, and a lab's its result and plot, computed by the
// engine under Node (node-engine.js) in the fence's language (every
// language when the fence names none): the page draws it without fetching
// the engine, as after `leaselab prerender`. Each is held to the build's
// budget (node-engine.js BUDGET): a fence whose answer passes it fails the
// build at its page, line and column, naming the limit. An exercise needs
// nothing of the engine: its element holds its starting code
// (exerciseHTML).

import { EXERCISE, escapeScriptText, exerciseFence, LAB, MARKER, parseFence, unreadable } from '../fences.js';
import { langTag } from '../i18n.js';
import { BUDGET, encodeEmbedded, labSync, runSync } from './node-engine.js';

/**
 * What one page's answers have taken of its budget (prerender_page_bytes);
 * a plugin keeps one per page it renders.
 * @typedef {{bytes: number}} Spent
 */

/** A Spent for a page. */
export const pageBudget = () => /** @type {Spent} */ ({ bytes: 0 });

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
 * Whether a fence is a lab: its language is lease-lab, or its first line
 * is the directive with the marker lease-lab.
 * @param {string | null | undefined} lang
 * @param {string} text
 */
export function isLabFence(lang, text) {
  return lang === LAB.tag || parseFence(text, LAB).marked;
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
 * @param {Spent} [spent] what the page's answers have taken so far
 * @returns {{attributes: Record<string, string>, text: string}}
 */
export function timelineElement(text, page, line, options = {}, spent = pageBudget()) {
  const fence = parseFence(text);
  const why = unreadable(fence);
  if (why) throw new Error(`${page}:${line}: a lease-timeline fence cannot be read: ${why}`);
  const attributes = { ...fence.options };
  if (options.prerender !== false) {
    const at = line + timelineOffset(text);
    attributes['data-prerendered'] = prerender(fence.text, fence.options, page, at, spent);
  }
  return { attributes, text: fence.text };
}

/**
 * The element a lab fence becomes: its attributes (the directive's
 * options; data-prerendered, its result and its plot in the fence's
 * language, or every language, unless prerender is false) and its text
 * (without the directive, dedented). Throws, naming the page and line,
 * for a fence that cannot be read and for a lab the engine refuses.
 * @param {string} text the fence's text
 * @param {string} page the page, for errors
 * @param {number} line the page's line of the fence's text's first line
 * @param {{prerender?: boolean}} [options]
 * @param {Spent} [spent] what the page's answers have taken so far
 * @returns {{attributes: Record<string, string>, text: string}}
 */
export function labElement(text, page, line, options = {}, spent = pageBudget()) {
  const fence = parseFence(text, LAB);
  const why = unreadable(fence, LAB.keys);
  if (why) throw new Error(`${page}:${line}: a lease-lab fence cannot be read: ${why}`);
  const attributes = { ...fence.options };
  if (options.prerender !== false) {
    const at = line + timelineOffset(text);
    const req = {
      text: fence.text,
      name: fence.options.name || 'lab.lab',
      langs: fence.options.lang ? [langTag(fence.options.lang)] : [],
    };
    attributes['data-prerendered'] = held('lease-lab', page, at, spent, (budget) =>
      labSync({ ...req, ...budget }),
    ).value;
  }
  return { attributes, text: fence.text };
}

/**
 * Runs call with what is left of the page's budget and adds its bytes to
 * spent; returns its embedded data, encoded. Throws, naming the page and
 * place: for an answer over the budget (the limit by name), and for a
 * text the engine refuses (its line and column).
 * @template {{embedded: import('../fences.js').Embedded, bytes: number}} R
 * @param {string} tag the fence's language, for errors
 * @param {string} page
 * @param {number} line the page's line of the text's first line
 * @param {Spent} spent
 * @param {(budget: {budget: number, total: number}) => R} call
 * @returns {R & {value: string}}
 */
function held(tag, page, line, spent, call) {
  try {
    const r = call({ budget: BUDGET.fence.bytes, total: BUDGET.page.bytes - spent.bytes });
    spent.bytes += r.bytes;
    return { ...r, value: encodeEmbedded(r.embedded) };
  } catch (err) {
    const e = /** @type {Error & {limit?: string, errors?: {line: number, col: number, msg: string}[]}} */ (err);
    if (e.limit === 'fence' || e.limit === 'page') {
      const limit = BUDGET[e.limit];
      throw new Error(
        `${page}:${line}:1: a ${tag} fence passes the build's budget: the limit ${limit.name} (${limit.bytes} bytes${e.limit === 'page' ? " of all the page's answers" : ' of one answer'}): shorten it, or build it with prerender: false`,
      );
    }
    const first = e.errors?.[0];
    if (!first) throw new Error(`${page}:${line}: a ${tag} fence: ${e.message}`);
    const more = e.errors && e.errors.length > 1 ? ` (and ${e.errors.length - 1} more)` : '';
    const place = first.line > 0 ? `${page}:${line + first.line - 1}:${first.col}` : `${page}:${line}`;
    throw new Error(`${place}: a ${tag} fence does not run: ${first.msg}${more}`);
  }
}

/**
 * The data-prerendered attribute of a timeline: the run the element asks
 * for (its name, mutant and language, as lease-timeline.js reads them).
 * @param {string} text the timeline
 * @param {Record<string, string>} opts the fence's options
 * @param {string} page
 * @param {number} line the page's line of the timeline's first line
 * @param {Spent} spent
 */
function prerender(text, opts, page, line, spent) {
  const req = {
    text,
    name: opts.name || 'timeline.tl',
    mutant: opts.mutant || '',
    langs: opts.lang ? [langTag(opts.lang)] : [],
  };
  const r = held('lease-timeline', page, line, spent, (budget) => runSync({ ...req, ...budget }));
  if (!r.passed) {
    console.warn(
      `${page}:${line}: the timeline's expectations fail on the correct engine, or an invariant breaks unannounced (leaselab check tells which)`,
    );
  }
  return r.value;
}
