// @ts-check
// remark.js: a remark plugin (Docusaurus, and any unified site) that turns
// each ```lease-timeline fence into the element at build time, as an MDX
// JSX element (no DOM is changed before React hydrates the page), its
// text a string in the pre, kept exactly (stringExpression):
//   <lease-timeline step="3"><pre>{"TEXT"}</pre></lease-timeline>
// The page still includes the bundle's leaselab.js, which defines the
// element. Each element carries its trace, computed by the engine under
// Node as the site is built (fence-element.js): the page draws it without
// fetching the engine, and the site needs no `leaselab prerender`
// ({prerender: false} leaves it out). A fence that cannot be read, or
// whose timeline the engine refuses, throws, naming the file and line.
// With {mdx: false} it makes a raw HTML node instead, for a unified
// pipeline without MDX (remark-rehype with allowDangerousHtml).
//
//   // docusaurus.config.js
//   import leaselab from 'leaselab/remark';
//   presets: [['classic', { docs: { remarkPlugins: [leaselab] } }]]

import { isTimelineFence, timelineElement } from './fence-element.js';

/** @param {string} s */
const escapeHTML = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * MDX's {"TEXT"}: an expression holding the text as a string literal,
 * which MDX keeps as it is, where it would strip each line of a text
 * node's leading and trailing spaces (a timeline's indentation).
 * @param {string} text
 */
function stringExpression(text) {
  const literal = { type: 'Literal', value: text, raw: JSON.stringify(text) };
  return {
    type: 'mdxFlowExpression',
    value: JSON.stringify(text),
    data: {
      estree: {
        type: 'Program',
        sourceType: 'module',
        comments: [],
        body: [{ type: 'ExpressionStatement', expression: literal }],
      },
    },
  };
}

/**
 * The node a fence becomes.
 * @param {{attributes: Record<string, string>, text: string}} el
 * @param {boolean} mdx
 */
function elementNode(el, mdx) {
  if (!mdx) {
    const attrs = Object.entries(el.attributes)
      .map(([k, v]) => (v === '' ? ` ${k}` : ` ${k}="${escapeHTML(v)}"`))
      .join('');
    return { type: 'html', value: `<lease-timeline${attrs}><pre>${escapeHTML(el.text)}</pre></lease-timeline>` };
  }
  // Marked as JSX the author wrote (MDX's _mdxExplicitJsx), so that MDX
  // does not hand the pre to the site's component for code blocks (which
  // Docusaurus' drops, leaving the text without its lines in print and
  // without JavaScript).
  const explicit = { _mdxExplicitJsx: true };
  return {
    type: 'mdxJsxFlowElement',
    name: 'lease-timeline',
    attributes: Object.entries(el.attributes).map(([name, value]) => ({
      type: 'mdxJsxAttribute',
      name,
      value: value === '' ? null : value,
    })),
    children: [
      {
        type: 'mdxJsxFlowElement',
        name: 'pre',
        attributes: [],
        children: [stringExpression(el.text)],
        data: explicit,
      },
    ],
    data: explicit,
  };
}

/**
 * @param {{mdx?: boolean, prerender?: boolean}} [options]
 * @returns {(tree: any, file?: any) => void}
 */
export default function remarkLeaselab(options = {}) {
  const mdx = options.mdx !== false;
  return (tree, file) => {
    const page = file?.path || file?.history?.[0] || 'markdown';
    /** @param {any} node */
    const walk = (node) => {
      if (!Array.isArray(node.children)) return;
      node.children = node.children.map((/** @type {any} */ c) => {
        if (c.type !== 'code' || !isTimelineFence(c.lang, c.value)) {
          walk(c);
          return c;
        }
        // The fence's text starts on the line after its opening fence.
        const line = (c.position?.start?.line ?? 0) + 1;
        return elementNode(timelineElement(c.value, page, line, options), mdx);
      });
    };
    walk(tree);
  };
}
