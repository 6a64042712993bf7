import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CHOICES, maskAnswers, outcomeWords, questionsOf } from '../../predict.js';

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

test('maskAnswers: what follows each `-> ?` mark is cut; unmarked steps, notes and quoted arrows are kept', () => {
  /** Each line, and what the learner reads of it (null: the line as it is). */
  const lines = [
    ['# A lease: one worker holds the job', null],
    ['lease 1000ms', null],
    ['job order-7', null],
    ['', null],
    ['0ms     A claim order-7     -> ok token=1', null],
    ['# Half a second later B claims the same job.', null],
    ['500ms   B claim order-7     -> ? refused held owner=A', '500ms   B claim order-7     -> ?'],
    [
      '600ms   A write order-7 value="a -> b"   -> ?   ok storage.token=1 # A still holds it',
      '600ms   A write order-7 value="a -> b"   -> ?',
    ],
    ['700ms   A write order-7 value="say \\"-> x\\""   -> ?', null],
    ['800ms   A complete order-7  # done -> ok', null],
    ['900ms   B claim order-7     ->?refused held', '900ms   B claim order-7     -> ?'],
  ];
  const text = lines.map(([line]) => line).join('\n');
  assert.equal(maskAnswers(text), lines.map(([line, shown]) => shown ?? line).join('\n'));
});

test('maskAnswers: with no mark, every expectation is cut, as the player then asks at each', () => {
  const text =
    'lease 1000ms\njob a\n0ms A claim a -> ok token=1\r\n100ms A pause 2s\n1000ms A complete a -> refused superseded\n';
  assert.equal(
    maskAnswers(text),
    'lease 1000ms\njob a\n0ms A claim a -> ?\r\n100ms A pause 2s\n1000ms A complete a -> ?\n',
  );
});

test('maskAnswers: a text with no expectation is kept as it is', () => {
  for (const text of ['', 'lease 1s\n0ms A claim a\n', '# a -> b\n0ms A claim a # -> ok\n']) {
    assert.equal(maskAnswers(text), text);
  }
});

test('Quiz: each answer is reported once its step is shown, with how many of the questions are answered', async () => {
  // The little of an element the quiz's panel touches, with no browser.
  const element = () => ({ append() {}, setAttribute() {}, addEventListener() {}, focus() {}, dataset: {} });
  Object.assign(globalThis, { document: { createElement: element } });
  const { Quiz } = await import('../../predict.js');
  /** @type {string[]} */
  const events = [];
  /** @type {any[]} */
  const reports = [];
  const quiz = new Quiz(
    (i) => events.push(`reveal ${i}`),
    (a) => {
      events.push(`answered ${a.step}`);
      reports.push(a);
    },
  );
  quiz.on = true;
  const held = { choices: ['ok', 'refused held'], answer: 'refused held' };
  const ok = { choices: ['ok', 'refused held'], answer: 'ok' };
  quiz.setTrace(/** @type {any} */ ({ steps: [step({}), step({ predict: held }), step({ predict: ok })] }));
  quiz.answer('refused expired'); // not a choice: nothing is answered, nothing reported
  quiz.answer('ok');
  quiz.answer('ok');
  assert.deepEqual(events, ['reveal 1', 'answered 2', 'reveal 2', 'answered 3']);
  assert.deepEqual(reports, [
    { step: 2, choice: 'ok', answer: 'refused held', right: false, answered: 1, questions: 2 },
    { step: 3, choice: 'ok', answer: 'ok', right: true, answered: 2, questions: 2 },
  ]);
});
