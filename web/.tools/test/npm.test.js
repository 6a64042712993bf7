// The npm package's build-time plugins turn a lease-timeline fence into
// the element fences.js would make of it, and refuse, naming the page and
// line, a fence that cannot be read.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import leaselab from '../../npm/markdown-it.js';
import remarkLeaselab from '../../npm/remark.js';

/** A stand-in for markdown-it: its fence rule and escapeHtml. */
function fakeMarkdownIt() {
  const md = {
    utils: {
      escapeHtml: (/** @type {string} */ s) =>
        s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;'),
    },
    renderer: {
      rules: {
        fence: (/** @type {any[]} */ tokens, /** @type {number} */ idx) => `<pre>other ${tokens[idx].info}</pre>`,
      },
    },
  };
  return md;
}

const fence = (/** @type {string} */ info, /** @type {string} */ content, line = 4) => [
  { info, content, map: [line, line + 3] },
];

test('markdown-it: a lease-timeline fence becomes the element, its text in a pre; another fence is left to the rule before', () => {
  const md = fakeMarkdownIt();
  leaselab(md, { vue: true });
  const out = md.renderer.rules.fence(
    fence('lease-timeline', '#! step=2 show="lanes table" autoplay\nlease 1s\njob a <b>\n'),
    0,
    {},
    { relativePath: 'a.md' },
    {},
  );
  assert.equal(
    out,
    '<lease-timeline step="2" show="lanes table" autoplay v-pre><pre>lease 1s\njob a &lt;b&gt;\n</pre></lease-timeline>\n',
  );
  assert.equal(md.renderer.rules.fence(fence('go', 'x := 1\n'), 0, {}, {}, {}), '<pre>other go</pre>');
  const marked = md.renderer.rules.fence(fence('text', '#! lease-timeline id=x\nlease 1s\n'), 0, {}, {}, {});
  assert.match(marked, /^<lease-timeline id="x" v-pre><pre>lease 1s\n<\/pre>/);
});

test('markdown-it: a fence that cannot be read throws, naming the page and line', () => {
  const md = fakeMarkdownIt();
  leaselab(md);
  assert.throws(
    () =>
      md.renderer.rules.fence(
        fence('lease-timeline', "#! step=2 # Kleppmann's lease 1s", 9),
        0,
        {},
        { relativePath: 'guide/a.md' },
        {},
      ),
    /^Error: guide\/a\.md:10: a lease-timeline fence cannot be read: the directive's keys #, Kleppmann's, lease, 1s/,
  );
});

test('remark: a fence becomes an MDX element whose pre holds the text exactly; raw HTML without MDX; an unreadable one throws', () => {
  const tree = () => ({
    type: 'root',
    children: [
      { type: 'paragraph', children: [{ type: 'text', value: 'x' }] },
      {
        type: 'code',
        lang: 'lease-timeline',
        value: '#! step=3 autoplay\nlease 1s\n  job a\n',
        position: { start: { line: 5 } },
      },
      { type: 'code', lang: 'js', value: 'x' },
    ],
  });
  const t = tree();
  remarkLeaselab()(t, { path: 'docs/a.md' });
  const explicit = { _mdxExplicitJsx: true };
  assert.deepEqual(t.children[1], {
    type: 'mdxJsxFlowElement',
    name: 'lease-timeline',
    attributes: [
      { type: 'mdxJsxAttribute', name: 'step', value: '3' },
      { type: 'mdxJsxAttribute', name: 'autoplay', value: null },
    ],
    children: [
      {
        type: 'mdxJsxFlowElement',
        name: 'pre',
        attributes: [],
        children: [{ type: 'text', value: 'lease 1s\n  job a\n' }],
        data: explicit,
      },
    ],
    data: explicit,
  });
  assert.equal(t.children[2].type, 'code');
  const h = tree();
  remarkLeaselab({ mdx: false })(h);
  assert.deepEqual(h.children[1], {
    type: 'html',
    value: '<lease-timeline step="3" autoplay><pre>lease 1s\n  job a\n</pre></lease-timeline>',
  });
  const bad = {
    type: 'root',
    children: [{ type: 'code', lang: 'lease-timeline', value: '# only a comment', position: { start: { line: 7 } } }],
  };
  assert.throws(
    () => remarkLeaselab()(bad, { path: 'docs/b.md' }),
    /^Error: docs\/b\.md:8: a lease-timeline fence cannot be read: the fence holds no step/,
  );
});
