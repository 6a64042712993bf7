// fences.js reads a fence as engine/internal/coursesite does (the shared vectors in
// prerender-vectors.json), and keys a prerendered trace with the same
// SHA-256 of the same canonical form. An exercise's fence becomes a
// <lease-exercise> whose script child gives its code back exactly.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import {
  canonicalForm,
  convert,
  convertAll,
  dataLanguageKind,
  directiveTokens,
  EXERCISE,
  escapeScriptText,
  exerciseFence,
  fenceSource,
  LAB,
  languageLineKind,
  markedKind,
  parseFence,
  TIMELINE,
  traceKey,
  unescapeScriptText,
  unreadable,
} from '../../fences.js';
import { FakeElement, installDOM } from './fake-dom.js';

const vectors = JSON.parse(readFileSync(new URL('prerender-vectors.json', import.meta.url), 'utf8'));

test('a trace key is the SHA-256 of the canonical form, as the Go side computes it', async () => {
  assert.ok(vectors.keys.length >= 5);
  for (const v of vectors.keys) assert.equal(await traceKey(v.run), v.key, JSON.stringify(v.run));
});

test('the canonical form is each field as its UTF-8 length, a colon, itself and a newline', () => {
  const form = canonicalForm({ text: '민수\n', name: 'a.tl', lang: 'ko', mutant: '' });
  assert.equal(form, '20:leaselab-prerender-1\n4:a.tl\n2:ko\n0:\n7:민수\n\n');
});

test('a fence is read as the Go side reads it: directive, options, marker, text', () => {
  assert.ok(vectors.fences.length >= 5);
  for (const v of vectors.fences) {
    const got = parseFence(v.raw);
    const want = { options: v.options, marked: v.marked, directive: v.directive, unknown: v.unknown, text: v.text };
    assert.deepEqual(got, want, v.about);
  }
});

test('directive tokens: bare keys, quoted values, an empty value, a stray =', () => {
  assert.deepEqual(directiveTokens(' a b=1 c="x y" d=\'z\' e= '), [
    ['a', null],
    ['b', '1'],
    ['c', 'x y'],
    ['d', 'z'],
    ['e', ''],
  ]);
  assert.deepEqual(directiveTokens('a =b c'), [['a', null]], 'parsing stops at a token that starts with =');
});

test('a fence that cannot be read: unknown directive keys, or nothing but blanks and comments', () => {
  assert.equal(unreadable(parseFence('#! step=2\nlease 1s\n')), '');
  assert.equal(unreadable(parseFence('# a title\nlease 1s\n')), '');
  assert.match(
    unreadable(parseFence("#! step=2 # Kleppmann's lease 1s")),
    /^the directive's keys #, Kleppmann's, lease, 1s are no option/,
  );
  assert.match(unreadable(parseFence('# a title lease 1s job a')), /^the fence holds no step/);
  assert.match(unreadable(parseFence('#! lease-timeline\n\n# only\n')), /^the fence holds no step/);
});

/**
 * A page holding one fence: a pre, its code (attributes, the fence's
 * text), and the body around it.
 * @param {string} text
 * @param {Record<string, string>} [codeAttrs]
 * @param {Record<string, string>} [preAttrs]
 */
function pageWithFence(text, codeAttrs = { class: 'language-lease-exercise' }, preAttrs = {}) {
  const body = installDOM();
  const code = new FakeElement('code', codeAttrs, text);
  const pre = new FakeElement('pre', preAttrs, code);
  body.append(new FakeElement('p', {}, 'before'), pre);
  return { body, pre, code };
}

/** @param {FakeElement} el */
const attributesOf = (el) => Object.fromEntries([...el.attrs].filter(([k]) => !k.startsWith('data-')));

const pythonWithScriptTags = 'def page():\n    return "<!-- <script> --></script>"\n';

test('an exercise fence becomes a <lease-exercise> before it: its options as attributes, its code in a text/plain script', () => {
  for (const c of [
    {
      about: 'options and Python that holds </script>',
      text: `#! language=python lab=courier\n${pythonWithScriptTags}`,
      attrs: { language: 'python', lab: 'courier' },
      code: pythonWithScriptTags,
    },
    {
      about: 'no directive: the text is the code, dedented; an escape of its own is kept',
      text: '  function initDb(db) {\n    return "<\\/script>";\n  }\n',
      attrs: {},
      code: 'function initDb(db) {\n  return "<\\/script>";\n}\n',
    },
    {
      about: 'a blank body: no script, the language’s own code',
      text: '#! language=python\n\n  \n',
      attrs: { language: 'python' },
      code: '',
    },
    { about: 'an empty fence', text: '', attrs: {}, code: '' },
  ]) {
    const { body, pre, code } = pageWithFence(c.text);
    const el = convert(/** @type {any} */ (code), EXERCISE);
    assert.ok(el, c.about);
    assert.equal(el.tagName, 'LEASE-EXERCISE', c.about);
    assert.deepEqual(attributesOf(el), c.attrs, c.about);
    assert.equal(body.childNodes.indexOf(el), body.childNodes.indexOf(pre) - 1, `${c.about}: put before the fence`);
    assert.ok(pre.hasAttribute('hidden') && pre.hasAttribute('data-leaselab-fence'), `${c.about}: the fence hidden`);
    assert.equal(el.getAttribute('data-fence-error'), null, c.about);
    if (!c.code) {
      assert.deepEqual(el.childNodes, [], c.about);
      continue;
    }
    assert.equal(el.children.length, 1, c.about);
    const script = el.children[0];
    assert.equal(script.tagName, 'SCRIPT', c.about);
    assert.equal(script.getAttribute('type'), 'text/plain', c.about);
    assert.equal(unescapeScriptText(script.textContent), c.code, c.about);
    assert.doesNotMatch(script.textContent, /<\/?script/i, c.about);
  }
});

test('a code block of any language whose first line is #! lease-exercise is an exercise; Starlight’s data-language is no option', () => {
  const { code } = pageWithFence(
    '#! lease-exercise language=python\nprint(1)\n',
    { class: 'language-python' },
    { 'data-language': 'python' },
  );
  assert.equal(markedKind(/** @type {any} */ (code)), EXERCISE);
  const el = convert(/** @type {any} */ (code), EXERCISE);
  assert.deepEqual(attributesOf(el), { language: 'python' });
  assert.equal(unescapeScriptText(el.children[0].textContent), 'print(1)\n');
  // Expressive Code names a fence's language in data-language: a
  // ```lease-exercise fence's would otherwise be a value language takes not.
  const starlight = pageWithFence('x = 1\n', {}, { 'data-language': 'lease-exercise' });
  const ex = convert(/** @type {any} */ (starlight.code), EXERCISE);
  assert.deepEqual(attributesOf(ex), {});
  assert.equal(ex.getAttribute('data-fence-error'), null);
  assert.equal(markedKind(/** @type {any} */ (pageWithFence('#! lease-lab\nx\n').code)), LAB);
});

test('an exercise fence that cannot be read says why: an option that is none, a value it does not take, courier outside Python', () => {
  for (const [text, want] of /** @type {[string, RegExp | ''][]} */ ([
    ['#! language=python lab=courier\nx\n', ''],
    ['#! language=javascript lab=fencing lang=ko id=ex\n', ''],
    ['#! lab=fencing\n', ''],
    ['#! langauge=python\nx\n', /^the directive's keys langauge are no option \(language lab lang id\)$/],
    ['#!/usr/bin/env python3\nprint(1)\n', /^the directive's keys \/usr\/bin\/env, python3 are no option/],
    ['#! language=pyton\n', /^language=pyton is none of language's values \(javascript python\)$/],
    ['#! language=Python\n', /^language=Python is none of language's values/],
    ['#! language\n', /^language= is none of language's values/],
    ['#! language=python lab=postman\n', /^lab=postman is none of lab's values \(fencing courier\)$/],
    ['#! lab=courier\n', /^lab=courier is a lab in Python only: give language=python too$/],
    ['#! language=javascript lab=courier\n', /^lab=courier is a lab in Python only/],
  ])) {
    const { why } = exerciseFence(text);
    if (want === '') assert.equal(why, '', text);
    else assert.match(why, want, text);
  }
});

test('at the fence, an exercise it cannot read carries why and is named in the console by page and code block', (t) => {
  const errors = t.mock.method(console, 'error', () => {});
  // An attribute list's option is checked as the directive's is.
  const { code } = pageWithFence('#! lab=courier\n', { class: 'language-lease-exercise', language: 'pyton' });
  const el = convert(/** @type {any} */ (code), EXERCISE);
  const why = "language=pyton is none of language's values (javascript python)";
  assert.equal(el.getAttribute('data-fence-error'), why);
  assert.deepEqual(
    errors.mock.calls.map((c) => c.arguments),
    [[`lease-exercise: /lesson/: code block 1: ${why}`]],
  );
});

/** A deterministic stream of numbers in [0, 1) (mulberry32). @param {number} seed */
function random(seed) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// HTML ends a script's text at the first `</script` (followed by a space,
// / or >) unless a `<!--` and a `<script` came before it; a text with no
// `<script` and no `</script` in any case ends only where the plugin closes it.
test('escaped, code holds no <script nor </script in any case, and unescaping gives it back exactly', () => {
  for (const code of [
    '',
    'print(1)\n',
    '</script>',
    '</SCRIPT >',
    '<script>',
    '<ScRiPt/',
    '<!-- <script> --></script>',
    '<\\/script>',
    '<\\\\/script>',
    '<\\script',
    '<</script',
    'x = "</scripts>"',
    '</style></script',
  ]) {
    const text = escapeScriptText(code);
    assert.doesNotMatch(text, /<\/?script/i, JSON.stringify(code));
    assert.equal(unescapeScriptText(text), code, JSON.stringify(code));
  }
  assert.equal(escapeScriptText('"</script>" <\\/script'), '"<\\/script>" <\\\\/script');
  const next = random(7);
  const parts = ['<', '\\', '/', 'script', 'SCRIPT', 'cript', '<!--', '-->', 'x', '\n', '"'];
  for (let i = 0; i < 3000; i++) {
    let code = '';
    for (let n = Math.floor(next() * 12); n > 0; n--) code += parts[Math.floor(next() * parts.length)];
    const text = escapeScriptText(code);
    assert.doesNotMatch(text, /<\/?script/i, JSON.stringify(code));
    assert.equal(unescapeScriptText(text), code, JSON.stringify(code));
  }
});

const story = 'lease 1000ms\njob order-7\n0ms  A claim order-7  -> ok token=1\n';

/**
 * A page holding Sphinx's markup of a fence: Pygments writes
 * `<div class="highlight-LANG notranslate"><div class="highlight"><pre><span></span>TEXT</pre></div></div>`,
 * no code; a known language's text in spans of its tokens (lines).
 * @param {string} lang
 * @param {...(FakeElement | string)} text
 */
function sphinxPage(lang, ...text) {
  const body = installDOM();
  const pre = new FakeElement('pre', {}, new FakeElement('span'), ...text);
  const outer = new FakeElement(
    'div',
    { class: `highlight-${lang} notranslate` },
    new FakeElement('div', { class: 'highlight' }, pre),
  );
  body.append(new FakeElement('p', {}, 'before'), outer);
  return { body, pre, outer };
}

test('Sphinx: a pre with no code in a highlight-LANG wrapper becomes the element, text exact, the wrapper hidden, for each kind', () => {
  for (const c of [
    { kind: TIMELINE, text: `#! step=2 id=courier\n${story}`, attrs: { step: '2', id: 'courier' }, content: story },
    { kind: LAB, text: '#! name=a.lab\nlab 1\n', attrs: { name: 'a.lab' }, content: 'lab 1\n' },
    { kind: EXERCISE, text: '#! language=python\nprint(1)\n', attrs: { language: 'python' }, content: 'print(1)\n' },
  ]) {
    const { body, pre, outer } = sphinxPage(c.kind.tag, c.text);
    const el = convert(/** @type {any} */ (pre), c.kind);
    assert.ok(el, c.kind.tag);
    assert.equal(el.tagName, c.kind.tag.toUpperCase());
    assert.deepEqual(attributesOf(el), c.attrs, c.kind.tag);
    const text = c.kind === EXERCISE ? unescapeScriptText(el.children[0].textContent) : el.textContent;
    assert.equal(text, c.content, `${c.kind.tag}: the text exact, Pygments' empty span no line`);
    assert.equal(body.childNodes.indexOf(el), body.childNodes.indexOf(outer) - 1, `${c.kind.tag}: before the wrapper`);
    assert.ok(
      outer.hasAttribute('hidden') && outer.hasAttribute('data-leaselab-fence'),
      `${c.kind.tag}: wrapper hidden`,
    );
    assert.equal(el.getAttribute('data-fence-error'), null, c.kind.tag);
  }
});

test('Sphinx: the marker in a code-less pre Pygments highlighted (spans) marks the kind; the text keeps every line', () => {
  const line = (/** @type {string} */ t) => new FakeElement('span', { class: 'n' }, t);
  for (const kind of [TIMELINE, LAB, EXERCISE]) {
    const { pre, outer } = sphinxPage(
      'default',
      new FakeElement('span', { class: 'ch' }, `#! ${kind.tag}`),
      '\n',
      line('lease'),
      ' ',
      line('1000ms'),
      '\n',
      line('0ms'),
      '\n',
    );
    assert.equal(markedKind(/** @type {any} */ (pre)), kind, kind.tag);
    const el = convert(/** @type {any} */ (pre), kind);
    const text = kind === EXERCISE ? unescapeScriptText(el.children[0].textContent) : el.textContent;
    assert.equal(text, 'lease 1000ms\n0ms\n', kind.tag);
    assert.ok(outer.hasAttribute('data-leaselab-fence'), kind.tag);
  }
});

test('nbconvert: a code block whose first line is a fence language alone is of that kind; only that line is dropped', () => {
  for (const kind of [TIMELINE, LAB, EXERCISE]) {
    const { code } = pageWithFence(`${kind.tag}\n${story}`, {});
    assert.equal(languageLineKind(/** @type {any} */ (code)), kind, kind.tag);
    assert.equal(fenceSource(/** @type {any} */ (code), kind), story, `${kind.tag}: the story's first line kept`);
  }
  const { code, pre } = pageWithFence(`lease-timeline\n#! step=1 id=c\n${story}`, {});
  const el = convert(/** @type {any} */ (code), TIMELINE);
  assert.deepEqual(attributesOf(el), { step: '1', id: 'c' });
  assert.equal(el.textContent, story);
  assert.ok(pre.hasAttribute('data-leaselab-fence'));
  for (const [text, attrs, about] of /** @type {[string, Record<string, string>, string][]} */ ([
    [`lease-timelines\n${story}`, {}, 'another word'],
    [`lease-timeline step=2\n${story}`, {}, 'more than the word on the line'],
    [` lease-timeline\n${story}`, {}, 'the word indented: the text, not nbconvert'],
    [`lease-timeline\n${story}`, { class: 'language-text' }, 'a block with a language of its own'],
    [story, {}, 'no language line'],
  ])) {
    const c = pageWithFence(text, attrs).code;
    assert.equal(languageLineKind(/** @type {any} */ (c)), null, about);
    assert.equal(fenceSource(/** @type {any} */ (c), TIMELINE), text, `${about}: the text untouched`);
  }
});

/**
 * A fence as Expressive Code (Astro Starlight) writes it:
 * `<div class="expressive-code"><figure class="frame not-content"><figcaption class="header"></figcaption>
 * <pre data-language="LANG"><code><div class="ec-line"><div class="code"><span>LINE</span></div></div>…</code></pre>
 * <div class="copy"><button data-code="…"><div></div></button></div></figure></div>`:
 * a blank line is a code div holding a newline, an indented line's
 * indentation a span of its own, and the copy button's text in an attribute.
 * @param {string} lang
 * @param {string} text
 */
function expressiveCode(lang, text) {
  const lines = text.replace(/\n$/, '').split('\n');
  const line = (/** @type {string} */ l) => {
    const indent = /** @type {string} */ (l.match(/^ */)?.[0]);
    const parts = l.trim() === '' ? ['\n'] : [];
    if (indent && l.trim())
      parts.push(new FakeElement('span', { class: 'indent' }, new FakeElement('span', {}, indent)));
    if (l.trim()) parts.push(new FakeElement('span', { style: '--0:#d6deeb' }, l.slice(indent.length)));
    return new FakeElement('div', { class: 'ec-line' }, new FakeElement('div', { class: 'code' }, ...parts));
  };
  const code = new FakeElement('code', {}, ...lines.map(line));
  const pre = new FakeElement('pre', { 'data-language': lang }, code);
  const copy = new FakeElement(
    'div',
    { class: 'copy' },
    new FakeElement(
      'button',
      { title: 'Copy to clipboard', 'data-code': text.replace(/\n/g, '\u007f') },
      new FakeElement('div'),
    ),
  );
  const figure = new FakeElement(
    'figure',
    { class: 'frame not-content' },
    new FakeElement('figcaption', { class: 'header' }),
    pre,
    copy,
  );
  return { outer: new FakeElement('div', { class: 'expressive-code' }, figure), code };
}

test('Expressive Code: data-language names the kind of a pre’s code; another language, a code-less pre or a data-lang is none', () => {
  for (const [lang, want] of /** @type {[string, import('../../fences.js').FenceKind | null][]} */ ([
    ['lease-timeline', TIMELINE],
    ['lease-lab', LAB],
    ['lease-exercise', EXERCISE],
    ['lease-timelines', null],
    ['lease', null],
    ['js', null],
    ['', null],
  ])) {
    installDOM();
    assert.equal(dataLanguageKind(/** @type {any} */ (expressiveCode(lang, story).code)), want, lang);
  }
  const pre = new FakeElement('pre', { 'data-language': 'lease-timeline' }, story);
  assert.equal(dataLanguageKind(/** @type {any} */ (pre)), null, 'a pre without a code');
  const dataLang = pageWithFence(story, {}, { 'data-lang': 'lease-timeline' });
  assert.equal(dataLanguageKind(/** @type {any} */ (dataLang.code)), null, 'data-lang is Hugo’s, on the code');
});

test('Expressive Code: each kind’s fence becomes its element with the text as written, the whole frame hidden; another language is left', () => {
  const sheet = '#! mutant=claim-boundary id=sheet\n# Worksheet\nlease 1000ms\n\n0ms  A claim job-1  -> ok token=1\n';
  const exercise =
    '#! language=javascript id=ex\nfunction write(s, token, value) {\n  if (token < s.token) return "<b>";\n    return value;\n}\n';
  const body = installDOM();
  const blocks = [
    expressiveCode('lease-timeline', sheet),
    expressiveCode('js', '#! step=1\nlease 1s\n'),
    expressiveCode('lease-lab', '#! name=a.lab\njobs 2\n\nseed 1\n'),
    expressiveCode('lease-exercise', exercise),
    expressiveCode('lease-timelines', story),
  ];
  body.append(...blocks.map((b) => b.outer));
  const made = convertAll(/** @type {any} */ (body));
  assert.deepEqual(
    made.map((el) => el.tagName),
    ['LEASE-TIMELINE', 'LEASE-LAB', 'LEASE-EXERCISE'],
  );
  const [timeline, lab, ex] = made;
  assert.deepEqual(attributesOf(timeline), { mutant: 'claim-boundary', id: 'sheet' });
  assert.equal(
    timeline.textContent,
    '# Worksheet\nlease 1000ms\n\n0ms  A claim job-1  -> ok token=1\n',
    'no blank line added, none lost',
  );
  assert.deepEqual(attributesOf(lab), { name: 'a.lab' });
  assert.equal(lab.textContent, 'jobs 2\n\nseed 1\n');
  assert.deepEqual(attributesOf(ex), { language: 'javascript', id: 'ex' });
  assert.equal(
    unescapeScriptText(ex.children[0].textContent),
    'function write(s, token, value) {\n  if (token < s.token) return "<b>";\n    return value;\n}\n',
    'the indentation kept',
  );
  for (const [i, el] of /** @type {[number, FakeElement][]} */ ([
    [0, timeline],
    [2, lab],
    [3, ex],
  ])) {
    const { outer } = blocks[i];
    assert.equal(body.childNodes.indexOf(el), body.childNodes.indexOf(outer) - 1, `${el.tagName}: before the frame`);
    assert.ok(outer.hasAttribute('hidden') && outer.hasAttribute('data-leaselab-fence'), `${el.tagName}: frame hidden`);
    assert.equal(el.getAttribute('data-fence-error'), null, el.tagName);
  }
  for (const i of [1, 4]) assert.ok(!blocks[i].outer.hasAttribute('data-leaselab-fence'), `block ${i + 1} left alone`);
});
