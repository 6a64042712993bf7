// The npm package's build-time plugins turn a lease-timeline fence into
// the element fences.js would make of it, and refuse, naming the page and
// line, a fence that cannot be read; a lease-exercise fence into a
// <lease-exercise> whose script gives its code back through HTML's parser,
// without the engine. With the engine built (make wasm),
// they embed each fence's trace, run by the engine under Node, under the
// key the player looks it up by, and refuse a timeline the engine refuses.

import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { decodeEmbedded, traceKey, unescapeScriptText } from '../../fences.js';
import leaselab from '../../npm/markdown-it.js';
import { BUDGET, runSync } from '../../npm/node-engine.js';
import remarkLeaselab from '../../npm/remark.js';
import { embeddedAnswer, prerenderedLab } from '../../prerendered.js';

/** Whether make wasm built the engine the plugins run under Node. */
const built = existsSync(new URL('../../leaselab.wasm', import.meta.url));
const needsEngine = built ? {} : { skip: 'the engine is not built: make wasm' };

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
  leaselab(md, { vue: true, prerender: false });
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
  leaselab(md, { prerender: false });
  assert.throws(
    () =>
      md.renderer.rules.fence(
        fence('lease-timeline', "#! step=2 # Kleppmann's lease 1s", 9),
        0,
        {},
        { relativePath: 'guide/a.md' },
        {},
      ),
    /^Error: guide\/a\.md:11: a lease-timeline fence cannot be read: the directive's keys #, Kleppmann's, lease, 1s/,
  );
});

test('markdown-it: under a front matter the host strips before parsing (VitePress), an unreadable fence names its line in the file', () => {
  const md = /** @type {any} */ (fakeMarkdownIt());
  // As VitePress's front matter plugin: the body, without the front matter, is what markdown-it parses (its lines counted from it) and is env.content.
  md.render = (/** @type {string} */ src, /** @type {any} */ env) => {
    const body = src.replace(/^---\n[\s\S]*?\n---\n/, '');
    env.content = body;
    const lines = body.split('\n');
    const open = lines.findIndex((l) => l.startsWith('```'));
    const close = lines.findIndex((l, i) => i > open && l.startsWith('```'));
    const info = lines[open].slice(3);
    const content = `${lines.slice(open + 1, close).join('\n')}\n`;
    return md.renderer.rules.fence([{ info, content, map: [open, close + 1] }], 0, {}, env, {});
  };
  leaselab(md, { prerender: false });
  const page = "---\ntitle: A\noutline: deep\n---\n# A\n\n```lease-timeline\n#! step=2 # Kleppmann's lease 1s\n```\n";
  // The directive is the file's line 8.
  assert.throws(
    () => md.render(page, { relativePath: 'guide/a.md' }),
    /^Error: guide\/a\.md:8: a lease-timeline fence cannot be read/,
  );
  assert.throws(
    () => md.render(page.replace(/^---[\s\S]*?\n---\n/, ''), { relativePath: 'guide/a.md' }),
    /^Error: guide\/a\.md:4: /,
  );
});

/**
 * The tree with each MDX expression that is one string literal read as
 * {string: VALUE}: the text MDX hands React as it is (a text node would
 * lose each line's leading spaces: mdast-util-to-hast trims them).
 * @param {any} node
 * @returns {any}
 */
function readStrings(node) {
  if (node?.type === 'mdxFlowExpression') {
    const body = node.data?.estree?.body ?? [];
    assert.equal(body.length, 1);
    const e = body[0].expression;
    assert.equal(e?.type, 'Literal');
    assert.equal(typeof e.value, 'string');
    assert.equal(JSON.parse(e.raw), e.value, 'the literal as printed');
    assert.equal(JSON.parse(node.value), e.value, 'the expression as MDX writes it');
    return { string: e.value };
  }
  if (Array.isArray(node?.children)) return { ...node, children: node.children.map(readStrings) };
  return node;
}

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
  remarkLeaselab({ prerender: false })(t, { path: 'docs/a.md' });
  const explicit = { _mdxExplicitJsx: true };
  assert.deepEqual(readStrings(t.children[1]), {
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
        children: [{ string: 'lease 1s\n  job a\n' }],
        data: explicit,
      },
    ],
    data: explicit,
  });
  assert.equal(t.children[2].type, 'code');
  const h = tree();
  remarkLeaselab({ mdx: false, prerender: false })(h);
  assert.deepEqual(h.children[1], {
    type: 'html',
    value: '<lease-timeline step="3" autoplay><pre>lease 1s\n  job a\n</pre></lease-timeline>',
  });
  const bad = {
    type: 'root',
    children: [{ type: 'code', lang: 'lease-timeline', value: '# only a comment', position: { start: { line: 7 } } }],
  };
  assert.throws(
    () => remarkLeaselab({ prerender: false })(bad, { path: 'docs/b.md' }),
    /^Error: docs\/b\.md:8: a lease-timeline fence cannot be read: the fence holds no step/,
  );
});

const python = 'def page():\n    return "<!-- <script> --></script>"  # {{ not Vue }}\n';

/**
 * The text of the first text/plain script in html as HTML's tokenizer
 * reads it: up to the first `</script` followed by a space, / or >, which
 * ends it when no `<script` came before (escapeScriptText leaves none).
 * @param {string} html
 */
function scriptTextAsParsed(html) {
  const open = '<script type="text/plain">';
  const start = html.indexOf(open);
  assert.ok(start >= 0, `no script in ${html}`);
  const body = html.slice(start + open.length);
  const end = body.search(/<\/script[\t\n\f\r />]/i);
  assert.ok(end >= 0, `the script never ends: ${html}`);
  assert.doesNotMatch(body.slice(0, end), /<script/i);
  return body.slice(0, end);
}

test('markdown-it: an exercise fence becomes the element, its code in a script HTML ends where the plugin does, without the engine', () => {
  const md = fakeMarkdownIt();
  leaselab(md);
  const render = (/** @type {string} */ info, /** @type {string} */ text) =>
    md.renderer.rules.fence(fence(info, text), 0, {}, { relativePath: 'a.md' }, {});
  const out = render('lease-exercise', `#! language=python lab=courier\n${python}`);
  assert.equal(
    out,
    '<lease-exercise language="python" lab="courier"><script type="text/plain">def page():\n' +
      '    return "<!-- <\\script> --><\\/script>"  # {{ not Vue }}\n</script></lease-exercise>\n',
  );
  assert.equal(unescapeScriptText(scriptTextAsParsed(out)), python);
  assert.equal(
    render('lease-exercise', '#! language=python\n\n'),
    '<lease-exercise language="python"></lease-exercise>\n',
  );
  assert.equal(render('lease-exercise', ''), '<lease-exercise></lease-exercise>\n');
  assert.equal(
    render('python', '#! lease-exercise language=python\nprint(1)\n'),
    '<lease-exercise language="python"><script type="text/plain">print(1)\n</script></lease-exercise>\n',
  );
  assert.equal(render('python', 'print(1)\n'), '<pre>other python</pre>');
});

test('markdown-it with vue: an exercise’s code is a <pre>’s, escaped, under v-pre (Vue drops a script from a template)', () => {
  const md = fakeMarkdownIt();
  leaselab(md, { vue: true });
  const out = md.renderer.rules.fence(fence('lease-exercise', `#! language=python\n${python}`), 0, {}, {}, {});
  assert.equal(
    out,
    '<lease-exercise language="python" v-pre><pre>def page():\n' +
      '    return &quot;&lt;!-- &lt;script&gt; --&gt;&lt;/script&gt;&quot;  # {{ not Vue }}\n</pre></lease-exercise>\n',
  );
});

test('markdown-it and remark: an exercise fence that cannot be read throws, naming the page, the line and why', () => {
  const md = fakeMarkdownIt();
  leaselab(md);
  for (const [text, why] of [
    ['#! langauge=python\n', "the directive's keys langauge are no option"],
    ['#! language=pyton\n', "language=pyton is none of language's values (javascript python)"],
    ['#! lab=courier\nx\n', 'lab=courier is a lab in Python only'],
  ]) {
    const want = (/** @type {string} */ where) =>
      new RegExp(
        `^Error: ${where.replace(/[/.]/g, '\\$&')}: a lease-exercise fence cannot be read: ${why.replace(/[()]/g, '\\$&')}`,
      );
    assert.throws(
      () => md.renderer.rules.fence(fence('lease-exercise', text, 9), 0, {}, { relativePath: 'guide/a.md' }, {}),
      want('guide/a.md:11'),
    );
    const tree = {
      type: 'root',
      children: [{ type: 'code', lang: 'lease-exercise', value: text, position: { start: { line: 7 } } }],
    };
    assert.throws(() => remarkLeaselab()(tree, { path: 'docs/b.md' }), want('docs/b.md:8'));
  }
});

test('remark: an exercise fence becomes an MDX element whose pre holds the code exactly; without MDX, the script of markdown-it', () => {
  const tree = () => ({
    type: 'root',
    children: [
      {
        type: 'blockquote',
        children: [
          {
            type: 'code',
            lang: 'lease-exercise',
            value: `#! language=python id=ex\n${python}`,
            position: { start: { line: 2 } },
          },
        ],
      },
      { type: 'code', lang: 'js', value: '#! lease-exercise\n', position: { start: { line: 9 } } },
      { type: 'code', lang: 'js', value: 'x' },
    ],
  });
  const t = tree();
  remarkLeaselab()(t, { path: 'docs/a.mdx' });
  const explicit = { _mdxExplicitJsx: true };
  assert.deepEqual(readStrings(t.children[0].children[0]), {
    type: 'mdxJsxFlowElement',
    name: 'lease-exercise',
    attributes: [
      { type: 'mdxJsxAttribute', name: 'language', value: 'python' },
      { type: 'mdxJsxAttribute', name: 'id', value: 'ex' },
    ],
    children: [
      {
        type: 'mdxJsxFlowElement',
        name: 'pre',
        attributes: [],
        children: [{ string: python }],
        data: explicit,
      },
    ],
    data: explicit,
  });
  assert.deepEqual(t.children[1], {
    type: 'mdxJsxFlowElement',
    name: 'lease-exercise',
    attributes: [],
    children: [],
    data: explicit,
  });
  assert.equal(t.children[2].type, 'code');
  const h = tree();
  remarkLeaselab({ mdx: false })(h);
  const html = h.children[0].children[0];
  assert.equal(html.type, 'html');
  assert.match(html.value, /^<lease-exercise language="python" id="ex"><script type="text\/plain">def page/);
  assert.equal(unescapeScriptText(scriptTextAsParsed(html.value)), python);
  assert.deepEqual(h.children[1], { type: 'html', value: '<lease-exercise></lease-exercise>' });
});

/**
 * The embedded data of the element html holds.
 * @param {string} html
 */
async function embeddedIn(html) {
  const m = html.match(/ data-prerendered="([A-Za-z0-9+/=]+)"/);
  assert.ok(m, `no data-prerendered in ${html.slice(0, 200)}`);
  return decodeEmbedded(m[1]);
}

const timeline = 'lease 1000ms\njob a\n0ms A claim a -> ok token=1 lease_until=1000\n1000ms B claim a -> ok token=2\n';

test(
  'markdown-it: each element carries its trace in every language, under the key the player asks by',
  needsEngine,
  async () => {
    const md = fakeMarkdownIt();
    leaselab(md, { vue: true });
    const out = md.renderer.rules.fence(fence('lease-timeline', `#! name=a.tl step=1\n${timeline}`), 0, {}, {}, {});
    assert.match(out, /^<lease-timeline name="a\.tl" step="1" data-prerendered="[^"]+" v-pre><pre>lease 1000ms\n/);
    const data = await embeddedIn(out);
    assert.equal(Object.keys(data?.traces || {}).length, 2);
    for (const lang of ['en', 'ko']) {
      const raw = await embeddedAnswer(data, { text: timeline, name: 'a.tl', lang, mutant: '' });
      assert.equal(JSON.parse(raw || '{}').steps?.length, 2, lang);
    }
    // Another name, text or mutant is another run: not answered.
    assert.equal(await embeddedAnswer(data, { text: timeline, name: 'b.tl', lang: 'en', mutant: '' }), null);
    assert.equal(await embeddedAnswer(data, { text: `${timeline}\n`, name: 'a.tl', lang: 'en', mutant: '' }), null);
    assert.deepEqual(data?.mutants, {});
  },
);

test("remark: a worksheet in Korean carries its answer in Korean and its mutants' rules", needsEngine, async () => {
  const tree = {
    type: 'root',
    children: [
      {
        type: 'code',
        lang: 'lease-timeline',
        value: `#! mutant=claim-boundary lang=ko\n${timeline}`,
        position: { start: { line: 3 } },
      },
    ],
  };
  remarkLeaselab({ mdx: false })(tree, { path: 'docs/w.md' });
  const data = await embeddedIn(tree.children[0].value);
  const key = await traceKey({ text: timeline, name: 'timeline.tl', lang: 'ko', mutant: 'claim-boundary' });
  assert.deepEqual(Object.keys(data?.traces || {}), [key]);
  const w = JSON.parse(data?.traces[key || ''] || '{}');
  assert.ok(w.correct && w.mutant, "a worksheet holds both engines' traces");
  assert.deepEqual(Object.keys(data?.mutants || {}), ['ko']);
  assert.ok(data?.mutants.ko.some((m) => m.name === 'claim-boundary' && /[가-힣]/.test(m.breaks)));
});

test(
  "a timeline the engine refuses fails the build, naming the page's line and column of the mistake",
  needsEngine,
  () => {
    const md = fakeMarkdownIt();
    leaselab(md);
    // The fence opens on the page's line 5 (map 4); its text's line 4 is the bad step.
    const bad = '#! step=1\n\nlease 1000ms\njob a\n0ms A claim a -> ok\nsoon A complete a -> ok\n';
    assert.throws(
      () => md.renderer.rules.fence(fence('lease-timeline', bad), 0, {}, { relativePath: 'lessons/b.md' }, {}),
      /^Error: lessons\/b\.md:11:1: a lease-timeline fence does not run: .*soon/,
    );
    const tree = {
      type: 'root',
      children: [{ type: 'code', lang: 'lease-timeline', value: bad, position: { start: { line: 5 } } }],
    };
    assert.throws(
      () => remarkLeaselab()(tree, { path: 'docs/b.md' }),
      /^Error: docs\/b\.md:11:1: a lease-timeline fence does not run/,
    );
  },
);

const lab = `jobs 2
workers 2
work uniform 100ms 200ms
horizon 5s
lease 1s
sweep heartbeat 200ms 400ms
runs 2
seed 1
plot dup_ms
`;

/** Whether make wasm built the tools' engine, which runs labs. */
const toolsBuilt = existsSync(new URL('../../leaselab-tools.wasm', import.meta.url));
const needsTools = toolsBuilt ? {} : { skip: "the tools' engine is not built: make wasm" };

test(
  'markdown-it and remark: a lab fence becomes the element, its text in a pre, carrying its result and its plot in every language',
  needsTools,
  async () => {
    const md = fakeMarkdownIt();
    leaselab(md, { vue: true });
    const out = md.renderer.rules.fence(fence('lease-lab', `#! name=hb.lab\n${lab}`), 0, {}, {}, {});
    assert.match(out, /^<lease-lab name="hb\.lab" data-prerendered="[^"]+" v-pre><pre>jobs 2\n/);
    const attr = out.match(/ data-prerendered="([^"]+)"/)?.[1] || '';
    for (const lang of ['en', 'ko']) {
      const pre = await prerenderedLab(lab, 'hb.lab', lang, attr);
      assert.ok(pre, `no prerendered lab in ${lang}`);
      assert.equal(JSON.parse(pre.result).format, 'leaselab-lab/1');
      assert.match(pre.svg, /^<svg/);
    }
    // Another text is another lab: not answered.
    assert.equal(await prerenderedLab(`${lab}\n`, 'hb.lab', 'en', attr), null);
    // remark makes the same element, in MDX, with the same data.
    const tree = {
      type: 'root',
      children: [
        { type: 'code', lang: 'lease-lab', value: `#! name=hb.lab lang=ko\n${lab}`, position: { start: { line: 1 } } },
      ],
    };
    remarkLeaselab()(tree, { path: 'docs/lab.mdx' });
    const el = tree.children[0];
    assert.equal(el.type, 'mdxJsxFlowElement');
    assert.equal(el.name, 'lease-lab');
    const own = el.attributes.find((a) => a.name === 'data-prerendered')?.value;
    assert.ok(await prerenderedLab(lab, 'hb.lab', 'ko', own));
    assert.equal(await prerenderedLab(lab, 'hb.lab', 'en', own), null, 'lang=ko embeds the Korean plot alone');
  },
);

test('a lab the engine refuses fails the build at its line and column', needsTools, () => {
  const md = fakeMarkdownIt();
  leaselab(md);
  // The fence opens on the page's line 5 (map 4); the lab's line 2 is bad.
  assert.throws(
    () => md.renderer.rules.fence(fence('lease-lab', 'jobs 2\nworkers two\n'), 0, {}, { relativePath: 'l.md' }, {}),
    /^Error: l\.md:7:\d+: a lease-lab fence does not run: /,
  );
});

/**
 * Runs f with the build's budget at fence and page bytes.
 * @param {number} fenceBytes
 * @param {number} pageBytes
 * @param {() => void} f
 */
function withBudget(fenceBytes, pageBytes, f) {
  const was = [BUDGET.fence.bytes, BUDGET.page.bytes];
  BUDGET.fence.bytes = fenceBytes;
  BUDGET.page.bytes = pageBytes;
  try {
    f();
  } finally {
    [BUDGET.fence.bytes, BUDGET.page.bytes] = was;
  }
}

test(
  "an answer over the build's budget fails the build at the fence's line, naming the limit: before, at and after it",
  needsEngine,
  () => {
    const one = `#! lang=en\n${timeline}`;
    const size = runSync({ text: timeline, name: 'timeline.tl', mutant: '', langs: ['en'] }).bytes;
    const md = fakeMarkdownIt();
    leaselab(md);
    const render = (/** @type {any} */ env, line = 4) =>
      md.renderer.rules.fence(fence('lease-timeline', one, line), 0, {}, env, {});
    withBudget(size - 1, 1 << 30, () =>
      assert.throws(
        () => render({ relativePath: 'p.md' }),
        /^Error: p\.md:7:1: a lease-timeline fence passes the build's budget: the limit prerender_fence_bytes \(\d+ bytes of one answer\)/,
      ),
    );
    withBudget(size, 1 << 30, () => assert.match(render({}), /data-prerendered/));
    withBudget(size + 1, 1 << 30, () => assert.match(render({}), /data-prerendered/));
    // A page's answers together: two fit in twice the size, the third is refused; another page starts afresh.
    withBudget(1 << 30, 2 * size, () => {
      const env = { relativePath: 'q.md' };
      render(env, 4);
      render(env, 10);
      assert.throws(
        () => render(env, 16),
        /^Error: q\.md:19:1: a lease-timeline fence passes the build's budget: the limit prerender_page_bytes/,
      );
      assert.match(render({ relativePath: 'r.md' }), /data-prerendered/);
    });
  },
);

test(
  "a run the engine stops at the budget it was given is told as the build's budget, not the trace's limit",
  needsEngine,
  () => {
    const long = `lease 1000ms\njob j\n${Array.from({ length: 300 }, (_, i) => `${i}ms W${i % 50} claim j`).join('\n')}\n`;
    withBudget(20_000, 1 << 30, () =>
      assert.throws(
        () => runSync({ text: long, name: 'long.tl', mutant: '', langs: ['en'], budget: 20_000 }),
        (/** @type {any} */ e) => e.limit === 'fence',
      ),
    );
  },
);

test('remark: under a front matter the host strips before parsing (Astro), an unreadable fence names its line in the file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'leaselab-remark-'));
  const path = join(dir, 'bad.md');
  const body = 'Text.\n\n```lease-timeline\n#! stpe=2\nlease 1000ms\n```';
  writeFileSync(path, `---\ntitle: Bad\n---\n\n${body}\n`);
  const tree = {
    type: 'root',
    children: [
      { type: 'code', lang: 'lease-timeline', value: '#! stpe=2\nlease 1000ms', position: { start: { line: 3 } } },
    ],
  };
  assert.throws(
    () => remarkLeaselab()(tree, { path, value: body }),
    new RegExp(`^Error: ${path}:8: a lease-timeline fence cannot be read`),
  );
  // Without the file to read, the lines are the body's.
  assert.throws(() => remarkLeaselab()(tree, { path: join(dir, 'gone.md'), value: body }), /gone\.md:4: /);
});
