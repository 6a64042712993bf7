import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CHOICES, outcomeWords, questionsOf } from '../../predict.js';

/** A step of a trace, with what questionsOf reads. */
const step = (/** @type {any} */ s) => ({ op: 'claim', outcome: { kind: 'ok', reason: '' }, expect: null, ...s });

test('questionsOf: the marked steps alone when the timeline marks any', () => {
  const q = { choices: ['ok', 'refused superseded'], answer: 'refused superseded' };
  const trace = /** @type {any} */ ({
    steps: [step({ expect: { ok: true } }), step({ op: 'complete', predict: q }), step({ expect: { ok: true } })],
  });
  assert.deepEqual([...questionsOf(trace)], [[1, q]]);
});

test("questionsOf: with no mark, every step with an expectation, offering its operation's choices and its answer", () => {
  const trace = /** @type {any} */ ({
    steps: [
      step({ expect: { ok: true } }),
      step({ op: 'pause' }),
      step({ op: 'complete', outcome: { kind: 'refused', reason: 'superseded' }, expect: { ok: true } }),
      step({ op: 'claim', outcome: { kind: 'refused', reason: 'quarantined' }, expect: { ok: true } }),
      step({ op: 'pause', expect: { ok: true } }),
    ],
  });
  const got = questionsOf(trace);
  assert.deepEqual([...got.keys()], [0, 2, 3]);
  assert.deepEqual(got.get(0), { choices: CHOICES.claim, answer: 'ok' });
  assert.deepEqual(got.get(2), { choices: CHOICES.complete, answer: 'refused superseded' });
  // An answer the operation's choices leave out (not taught) is offered too.
  assert.deepEqual(got.get(3), { choices: [...CHOICES.claim, 'refused quarantined'], answer: 'refused quarantined' });
});

test('outcomeWords: an outcome as an expectation writes it', () => {
  assert.equal(outcomeWords({ kind: 'ok', reason: '' }), 'ok');
  assert.equal(outcomeWords({ kind: 'refused', reason: 'held' }), 'refused held');
});
