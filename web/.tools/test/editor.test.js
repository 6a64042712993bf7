import assert from 'node:assert/strict';
import { test } from 'node:test';
import { caretOffset, fitRows, lineCount, mistakes } from '../../editor.js';

test('caretOffset finds line:col in the text, clamped to it', () => {
  const text = 'ab\n민수 claim\n\nxyz';
  assert.equal(caretOffset(text, 1, 1), 0);
  assert.equal(caretOffset(text, 2, 4), 6);
  assert.equal(text.slice(caretOffset(text, 2, 4)), 'claim\n\nxyz');
  assert.equal(caretOffset(text, 4, 2), text.indexOf('yz'));
  assert.equal(caretOffset(text, 9, 9), text.length);
  assert.equal(caretOffset(text, 1, 0), 0);
});

test("mistakes lists the engine's errors, or the error itself without a place", () => {
  const err = Object.assign(new Error('x'), { errors: [{ line: 2, col: 5, msg: 'unknown verb' }] });
  assert.deepEqual(mistakes(err), [{ line: 2, col: 5, msg: 'unknown verb' }]);
  assert.deepEqual(mistakes(new Error('boom')), [{ line: 0, col: 0, msg: 'boom' }]);
  assert.deepEqual(mistakes('plain'), [{ line: 0, col: 0, msg: 'plain' }]);
});

test('fitRows sizes an editor to its text within bounds', () => {
  assert.equal(fitRows('a', 8, 26), 8);
  assert.equal(fitRows('a\n'.repeat(12), 8, 26), 14);
  assert.equal(fitRows('a\n'.repeat(100), 8, 26), 26);
});

test('lineCount counts the lines as an editor shows them: a last newline starts none', () => {
  for (const [text, want] of /** @type {[string, number][]} */ ([
    ['', 0],
    ['a', 1],
    ['\n', 1],
    ['a\n', 1],
    ['a\nb', 2],
    ['a\nb\n', 2],
    ['a\n\n', 2],
    ['\n\n', 2],
    ['민수\nclaim', 2],
  ])) {
    assert.equal(lineCount(text), want, JSON.stringify(text));
  }
  assert.equal(lineCount('a\n'.repeat(1000)), 1000);
  assert.equal(lineCount(`${'a\n'.repeat(1000)}b`), 1001);
});
