// @ts-check
// outline.js: where an element's own headings sit in the page's outline.
// <lease-timeline>, <lease-lab> and <lease-exercise> compute their
// headings' levels here, so that under an <h1> or an <h3> of the page they
// continue its outline instead of breaking it.

/**
 * The level of the first heading inside el: one below the nearest h1–h6 of
 * el's document before el (its own descendants are not before it), at most
 * 6; 2 when there is none. The headings the elements draw in their shadow
 * roots, or as role=heading in the page, are no such heading: two elements
 * in a row take the same level.
 * @param {Element} el
 * @returns {number} 2 to 6, or 6 under an h6
 */
export function headingLevel(el) {
  const heads = [...el.ownerDocument.querySelectorAll('h1, h2, h3, h4, h5, h6')].filter(
    (x) => x.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING,
  );
  const last = heads[heads.length - 1];
  return last ? Math.min(Number(last.tagName[1]) + 1, 6) : 2;
}

/**
 * The tag of a heading depth levels below level, at most h6.
 * @param {number} level 1 to 6
 * @param {number} [depth]
 * @returns {'h1' | 'h2' | 'h3' | 'h4' | 'h5' | 'h6'}
 */
export function headingTag(level, depth = 0) {
  return /** @type {'h2'} */ (`h${Math.max(1, Math.min(level + depth, 6))}`);
}
