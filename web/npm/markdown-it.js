// @ts-check
// markdown-it.js: a markdown-it plugin (VitePress, and any site built with
// markdown-it) that turns each ```lease-timeline fence into the element
// at build time:
//   <lease-timeline step="3"><pre>TEXT</pre></lease-timeline>
// The text is in a <pre>, whose whitespace a Vue template keeps and which
// reads as the timeline without JavaScript. The page still includes the
// bundle's leaselab.js, which defines the element. Each element carries
// its trace, computed by the engine under Node as the site is built
// (fence-element.js): the page draws it without fetching the engine, and
// the site needs no `leaselab prerender` (option prerender: false leaves
// it out). A fence that cannot be read, or whose timeline the engine
// refuses, throws, naming the page and line.
//
//   import leaselab from 'leaselab/markdown-it';
//   export default { markdown: { config: (md) => md.use(leaselab, { vue: true }) } };
//
// Option vue: the element carries v-pre, so that Vue reads {{ }} in a
// timeline as text.
//
// A ```lease-lab fence becomes a <lease-lab> the same way, carrying its
// result and plot, run by the engine's tools under Node.
//
// A ```lease-exercise fence becomes a <lease-exercise> the same way, with
// nothing of the engine, its starting code in a text/plain script
//   <lease-exercise language="python"><script type="text/plain">CODE</script></lease-exercise>
// or, with vue, in a <pre> (Vue drops a script from a template):
// fence-element.js exerciseHTML.

import {
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
 * @typedef {object} Token the part of a markdown-it token the plugin reads
 * @property {string} info
 * @property {string} content
 * @property {[number, number] | null} map
 */

/**
 * @param {any} md a markdown-it instance
 * @param {{vue?: boolean, prerender?: boolean}} [options]
 */
export default function leaselab(md, options = {}) {
  const fallback = md.renderer.rules.fence;
  // A host that strips the page's front matter before markdown-it parses
  // it (VitePress) counts the fences' lines from the body, which it keeps
  // as env.content: the lines above the body are added back from the
  // source render was given.
  /** @type {WeakMap<object, string>} */
  const sources = new WeakMap();
  if (typeof md.render === 'function') {
    const render = md.render.bind(md);
    md.render = (/** @type {string} */ src, /** @type {any} */ env = {}) => {
      if (env && typeof env === 'object' && typeof src === 'string') sources.set(env, src);
      return render(src, env);
    };
  }
  /**
   * What the page's answers have taken of its budget: one per render's env
   * (a page), a fresh one for a fence rendered without.
   * @type {WeakMap<object, import('./fence-element.js').Spent>}
   */
  const spent = new WeakMap();
  /** @param {any} env */
  const spentOn = (env) => {
    if (!env || typeof env !== 'object') return pageBudget();
    if (!spent.has(env)) spent.set(env, pageBudget());
    return /** @type {import('./fence-element.js').Spent} */ (spent.get(env));
  };
  /** @param {any} env */
  const linesAbove = (env) => {
    const src = env && typeof env === 'object' ? sources.get(env) : undefined;
    const body = env?.content;
    if (typeof src !== 'string' || typeof body !== 'string' || !src.endsWith(body)) return 0;
    return src.slice(0, src.length - body.length).split('\n').length - 1;
  };
  /**
   * @param {Token[]} tokens
   * @param {number} idx
   * @param {any} opts
   * @param {any} env
   * @param {any} self
   */
  md.renderer.rules.fence = (tokens, idx, opts, env, self) => {
    const t = tokens[idx];
    const lang = t.info.trim().split(/\s+/)[0];
    const kind = isTimelineFence(lang, t.content)
      ? 'lease-timeline'
      : isLabFence(lang, t.content)
        ? 'lease-lab'
        : isExerciseFence(lang, t.content)
          ? 'lease-exercise'
          : '';
    if (!kind) return fallback ? fallback(tokens, idx, opts, env, self) : self.renderToken(tokens, idx, opts);
    const page = env?.relativePath || env?.path || 'markdown';
    // The fence's text starts on the line after its opening fence.
    const line = linesAbove(env) + (t.map?.[0] ?? 0) + 2;
    if (kind === 'lease-exercise') return `${exerciseHTML(exerciseElement(t.content, page, line), options.vue)}\n`;
    const make = kind === 'lease-lab' ? labElement : timelineElement;
    const el = make(t.content, page, line, options, spentOn(env));
    const attrs = htmlAttributes(el.attributes);
    const esc = md.utils.escapeHtml;
    return `<${kind}${attrs}${options.vue ? ' v-pre' : ''}><pre>${esc(el.text)}</pre></${kind}>\n`;
  };
}
