// fences.js reads a fence as engine/internal/coursesite does (the shared vectors in
// prerender-vectors.json), and keys a prerendered trace with the same
// SHA-256 of the same canonical form.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { canonicalForm, directiveTokens, parseFence, traceKey, unreadable } from '../../fences.js';

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
