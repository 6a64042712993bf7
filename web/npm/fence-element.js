// @ts-check
// fence-element.js: what the npm package's build-time plugins (remark.js,
// markdown-it.js) make of a Markdown fence — the <lease-timeline> element
// the page's fences.js would make of it in the browser, made when the site
// is built instead, so that no page is changed before a framework
// hydrates it. The fence is read as fences.js reads it (the same
// parseFence); a fence that cannot be read is an error naming where.

import { MARKER, parseFence, unreadable } from '../fences.js';

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
 * The element a timeline fence becomes: its attributes (the directive's
 * options; a bare key is "") and its text (without the directive,
 * dedented). Throws, naming where, for a fence that cannot be read.
 * @param {string} text the fence's text
 * @param {string} where the page and line, for the error
 * @returns {{attributes: Record<string, string>, text: string}}
 */
export function timelineElement(text, where) {
  const fence = parseFence(text);
  const why = unreadable(fence);
  if (why) throw new Error(`${where}: a lease-timeline fence cannot be read: ${why}`);
  return { attributes: fence.options, text: fence.text };
}
