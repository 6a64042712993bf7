import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  breakPoint,
  changedSteps,
  delayLine,
  duration,
  insertStep,
  lineTimes,
  nextMessage,
  UndoStack,
} from '../../break.js';

const COURIER = `# Late courier: the stale token is refused
lease 1000ms
job order-7 qty=2

# A claims the order.
0ms     A claim order-7            -> ok token=1 lease_until=1000
# A stalls.
100ms   A pause 900ms
1000ms  B claim order-7            -> ok token=2
# A wakes unaware.
1001ms  A complete order-7         -> refused superseded
+199ms  B complete order-7         -> ok
`;

/** A step of a trace with what break.js reads. */
const step = (/** @type {any} */ s) => ({
  actors: [s.source.split(/\s+/)[1]],
  op: s.source.split(/\s+/)[2],
  job: 'order-7',
  outcome: { kind: 'ok', reason: '' },
  ...s,
});

/** The courier's trace, as the engine reads COURIER (lines and times). */
const courier = /** @type {any} */ ({
  steps: [
    step({ line: 6, time: 0, source: '0ms     A claim order-7            -> ok token=1 lease_until=1000' }),
    step({ line: 8, time: 100, source: '100ms   A pause 900ms' }),
    step({ line: 9, time: 1000, source: '1000ms  B claim order-7            -> ok token=2' }),
    step({
      line: 11,
      time: 1001,
      source: '1001ms  A complete order-7         -> refused superseded',
      outcome: { kind: 'refused', reason: 'superseded' },
    }),
    step({ line: 12, time: 1200, source: '+199ms  B complete order-7         -> ok' }),
  ],
});

const lines = (/** @type {string} */ text) => text.split('\n');

test('breakPoint: before the first step, after the cursor step, at its instant', () => {
  assert.deepEqual(breakPoint(courier, 0), { after: 0, at: 0 });
  assert.deepEqual(breakPoint(courier, 1), { after: 6, at: 0 });
  assert.deepEqual(breakPoint(courier, 3), { after: 9, at: 1000 });
  assert.deepEqual(breakPoint(courier, 5), { after: 12, at: 1200 });
  assert.deepEqual(breakPoint(courier, 9), { after: 12, at: 1200 }, 'a cursor past the end is at the end');
});

test('breakPoint: a message in flight that arrives later counts the lines written before its arrival', () => {
  const tr = /** @type {any} */ ({
    steps: [
      step({ line: 2, time: 0, source: '0ms A claim j' }),
      step({ line: 4, time: 200, source: '200ms B claim j' }),
      step({ line: 3, time: 5000, sent: 100, source: '100ms A complete j arrives=5000ms' }),
    ],
  });
  assert.deepEqual(breakPoint(tr, 2), { after: 4, at: 200 });
  assert.deepEqual(breakPoint(tr, 3), { after: 4, at: 5000 });
  assert.deepEqual(
    [...lineTimes(tr)],
    [
      [2, 0],
      [4, 200],
      [3, 100],
    ],
  );
});

test('insertStep: the line goes right after the cursor step, before the next step and its note', () => {
  const out = insertStep(COURIER, lineTimes(courier), breakPoint(courier, 3), 'A crash');
  const l = lines(out);
  assert.equal(l[8], '1000ms  B claim order-7            -> ok token=2');
  assert.equal(l[9], '1000ms  A crash');
  assert.equal(l[10], '# A wakes unaware.');
  assert.equal(lines(out).length, lines(COURIER).length + 1);
  // Nothing else moved.
  assert.equal(out.replace('1000ms  A crash\n', ''), COURIER);
});

test('insertStep: before the first step, above its note', () => {
  const out = insertStep(COURIER, lineTimes(courier), breakPoint(courier, 0), 'B pause 2s');
  const l = lines(out);
  assert.deepEqual(l.slice(3, 7), ['', '0ms  B pause 2s', '# A claims the order.', lines(COURIER)[5]]);
});

test('insertStep: a next step written relative to the one before it keeps its instant', () => {
  const out = insertStep(COURIER, lineTimes(courier), breakPoint(courier, 4), 'A pause 2s');
  const l = lines(out);
  assert.equal(l[11], '1001ms  A pause 2s');
  assert.equal(l[12], '1200ms  B complete order-7         -> ok', 'the +199ms step is written at its instant');
});

test('insertStep: a service jump adds the service clock header once, after the headers', () => {
  const out = insertStep(COURIER, lineTimes(courier), breakPoint(courier, 3), 'service jump +2s', {
    serviceClock: true,
  });
  const l = lines(out);
  assert.deepEqual(l.slice(1, 5), ['lease 1000ms', 'job order-7 qty=2', 'service clock +0ms', '']);
  assert.equal(l[10], '1000ms  service jump +2s');
  const again = insertStep(
    COURIER.replace('lease 1000ms', 'lease 1000ms\nservice clock -50ms'),
    new Map(),
    { after: 0, at: 0 },
    'service jump +1s',
    { serviceClock: true },
  );
  assert.equal(again.match(/service clock/g)?.length, 1, 'a text with a service clock gets no second one');
});

test('insertStep: a CRLF text keeps its line ends', () => {
  const crlf = COURIER.replaceAll('\n', '\r\n');
  const out = insertStep(crlf, lineTimes(courier), breakPoint(courier, 3), 'A crash');
  assert.equal(out.replace('1000ms  A crash\r\n', ''), crlf);
});

test('delayLine: arrives=+D goes after the step, before its expectation and comment', () => {
  const out = delayLine(COURIER, 12, 2000);
  assert.equal(lines(out ?? '')[11], '+199ms  B complete order-7 arrives=+2s         -> ok');
  assert.equal(
    lines(delayLine('0ms A complete j # late\n', 1, 1500) ?? '')[0],
    '0ms A complete j arrives=+1500ms # late',
  );
  assert.equal(lines(delayLine('0ms A complete j\n', 1, 500) ?? '')[0], '0ms A complete j arrives=+500ms');
  assert.equal(delayLine('0ms A complete j arrives=+1s -> ok\n', 1, 500), null, 'a message already in flight');
});

test('nextMessage: the worker’s next step after the cursor, delayable or why not', () => {
  assert.deepEqual(nextMessage(courier, 3, 'B'), { ok: true, step: 4, line: 12, op: 'complete', job: 'order-7' });
  assert.deepEqual(nextMessage(courier, 3, 'A'), { ok: true, step: 3, line: 11, op: 'complete', job: 'order-7' });
  assert.deepEqual(nextMessage(courier, 1, 'A'), { ok: false, why: 'op', step: 1, op: 'pause' });
  assert.deepEqual(nextMessage(courier, 5, 'B'), { ok: false, why: 'none' });
  const sent = /** @type {any} */ ({
    steps: [step({ line: 3, time: 900, sent: 100, source: '100ms A complete j arrives=900ms' })],
  });
  assert.deepEqual(nextMessage(sent, 0, 'A'), { ok: false, why: 'inflight', step: 0, op: 'complete' });
  const send = /** @type {any} */ ({
    steps: [step({ line: 3, time: 0, op: 'complete', source: '0ms A send took=5' })],
  });
  assert.deepEqual(nextMessage(send, 0, 'A'), { ok: false, why: 'op', step: 0, op: 'send' });
});

test('duration: whole seconds in s, the rest in ms', () => {
  assert.deepEqual([duration(2000), duration(1500), duration(500)], ['2s', '1500ms', '500ms']);
});

test('changedSteps: the steps whose outcome changed, matched by their line whatever their time; the new line is not one', () => {
  const after = /** @type {any} */ ({
    steps: [
      ...courier.steps.slice(0, 3),
      step({ line: 10, time: 1000, source: '1000ms  A pause 2s' }),
      courier.steps[3],
      step({
        line: 13,
        time: 3200,
        sent: 1200,
        source: '1200ms  B complete order-7 arrives=+2s         -> ok',
        outcome: { kind: 'refused', reason: 'expired' },
      }),
    ],
  });
  assert.deepEqual(changedSteps(courier, after, 10), [{ step: 5, was: 'ok', now: 'refused expired' }]);
  assert.deepEqual(changedSteps(courier, courier, 0), []);
});

test('UndoStack: undo gives the text before the break while the text is the one the break left', () => {
  const u = new UndoStack(2);
  assert.equal(u.undo('a'), null);
  u.push('a', 'b');
  u.push('b', 'c');
  assert.equal(u.canUndo('c'), true);
  assert.equal(u.canUndo('edited'), false, 'an edit by hand after the break is not undone by it');
  assert.equal(u.undo('edited'), null);
  assert.equal(u.undo('c'), 'b');
  assert.equal(u.undo('b'), 'a');
  assert.equal(u.undo('a'), null);
  u.push('a', 'b');
  u.push('b', 'c');
  u.push('c', 'd');
  assert.equal(u.size, 2, 'at most limit breaks are kept');
  u.clear();
  assert.equal(u.canUndo('d'), false);
});
