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
// A ```lease-lab fence becomes a <lease-lab> the same way, carrying its
// result and plot, run by the engine's tools under Node: the page draws
// the lab without fetching the engine until the reader edits it.
//
// A ```lease-exercise fence becomes a <lease-exercise> the same way, with
// nothing of the engine: in MDX its starting code is a <pre> child's text
//   <lease-exercise language="python"><pre>{"CODE"}</pre></lease-exercise>
// (React 18 would escape a script's text on the server), without MDX a
// text/plain script's (fence-element.js exerciseHTML).
//
//   // docusaurus.config.js
//   import leaselab from 'leaselab/remark';
//   presets: [['classic', { docs: { remarkPlugins: [leaselab] } }]]

import { readFileSync } from 'node:fs';
import {
  escapeHTML,
  exerciseElement,
  exerciseHTML,
  htmlAttributes,
  isExerciseFence,
  isLabFence,
  isTimelineFence,
  labElement,
  pageBudget,
  timelineElement,
} from './fence-element.js';

/**
 * MDX's {"TEXT"}: an expression holding the text as a string literal,
 * which MDX keeps as it is, where it would strip each line of a text
 * node's leading and trailing spaces (a timeline's or Python's indentation).
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
 * An MDX element holding text in a <pre> ({"TEXT"}), or nothing when text
 * is "". Each is marked as JSX the author wrote (MDX's _mdxExplicitJsx),
 * so that MDX does not hand the pre to the site's component for code
 * blocks (which Docusaurus' drops, leaving the text without its lines in
 * print and without JavaScript).
 * @param {string} name
 * @param {Record<string, string>} attributes
 * @param {string} text
 */
function jsxElement(name, attributes, text) {
  const explicit = { _mdxExplicitJsx: true };
  const pre = {
    type: 'mdxJsxFlowElement',
    name: 'pre',
    attributes: [],
    children: [stringExpression(text)],
    data: explicit,
  };
  return {
    type: 'mdxJsxFlowElement',
    name,
    attributes: Object.entries(attributes).map(([name, value]) => ({
      type: 'mdxJsxAttribute',
      name,
      value: value === '' ? null : value,
    })),
    children: text === '' ? [] : [pre],
    data: explicit,
  };
}

/**
 * The node a timeline or lab fence becomes: the element tag, its text in a
 * pre.
 * @param {string} tag
 * @param {{attributes: Record<string, string>, text: string}} el
 * @param {boolean} mdx
 */
function textNode(tag, el, mdx) {
  if (mdx) return jsxElement(tag, el.attributes, el.text);
  const html = `<${tag}${htmlAttributes(el.attributes)}><pre>${escapeHTML(el.text)}</pre></${tag}>`;
  return { type: 'html', value: html };
}

/**
 * The node an exercise fence becomes.
 * @param {{attributes: Record<string, string>, code: string}} el
 * @param {boolean} mdx
 */
function exerciseNode(el, mdx) {
  return mdx ? jsxElement('lease-exercise', el.attributes, el.code) : { type: 'html', value: exerciseHTML(el) };
}

/**
 * How many lines of the page's file come before the text the plugin was
 * given: a host that strips the front matter before remark parses the
 * page (Astro) counts the fences' lines from the body; they are added back
 * from the file, when the body is its end. 0 when the file cannot be read
 * or the text is all of it.
 * @param {any} file a vfile
 */
function linesAbove(file) {
  const body = file?.value;
  const path = file?.path || file?.history?.[0];
  if (typeof body !== 'string' || typeof path !== 'string' || body.trim() === '') return 0;
  try {
    // The host may also trim the body's end (Astro does).
    const src = new TextDecoder().decode(readFileSync(path)).trimEnd();
    const end = body.trimEnd();
    return src.endsWith(end) ? src.slice(0, src.length - end.length).split('\n').length - 1 : 0;
  } catch {
    return 0;
  }
}

/**
 * @param {{mdx?: boolean, prerender?: boolean}} [options]
 * @returns {(tree: any, file?: any) => void}
 */
export default function remarkLeaselab(options = {}) {
  const mdx = options.mdx !== false;
  return (tree, file) => {
    const page = file?.path || file?.history?.[0] || 'markdown';
    const spent = pageBudget();
    const above = linesAbove(file);
    /** @param {any} node */
    const walk = (node) => {
      if (!Array.isArray(node.children)) return;
      node.children = node.children.map((/** @type {any} */ c) => {
        // The fence's text starts on the line after its opening fence.
        const line = above + (c.position?.start?.line ?? 0) + 1;
        if (c.type === 'code' && isTimelineFence(c.lang, c.value)) {
          return textNode('lease-timeline', timelineElement(c.value, page, line, options, spent), mdx);
        }
        if (c.type === 'code' && isLabFence(c.lang, c.value)) {
          return textNode('lease-lab', labElement(c.value, page, line, options, spent), mdx);
        }
        if (c.type === 'code' && isExerciseFence(c.lang, c.value)) {
          return exerciseNode(exerciseElement(c.value, page, line), mdx);
        }
        walk(c);
        return c;
      });
    };
    walk(tree);
  };
}
