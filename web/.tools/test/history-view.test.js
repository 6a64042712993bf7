import assert from 'node:assert/strict';
import { test } from 'node:test';
import { deflateRawSync } from 'node:zlib';
import { inflateParam, RunError } from '../../grade-run.js';
import { markOf, msText, ticks } from '../../history-view.js';

test('ticks are round steps from 0 that reach the span, at most six', () => {
  assert.deepEqual(ticks(158.6), [0, 50, 100, 150]);
  assert.deepEqual(ticks(10), [0, 2, 4, 6, 8, 10]);
  assert.deepEqual(ticks(0.0004), [0, 0.0001, 0.0002, 0.0003, 0.0004]);
  assert.deepEqual(ticks(0), [0]);
});

test('msText keeps fewer decimals the longer the axis', () => {
  assert.equal(msText(8.729077, 158), '8.7');
  assert.equal(msText(8.729077, 10), '8.73');
  assert.equal(msText(0.00012, 0.5), '0');
  assert.equal(msText(0.0012, 0.5), '0.001');
});

test('a call no order places is marked !, one overlapping it *, any other not', () => {
  const c = {
    n: 1,
    client: 'A',
    call: '',
    answer: '',
    invoke: 0,
    return: 1,
    stuck: false,
    overlaps: false,
    in_flight: false,
  };
  assert.equal(markOf({ ...c, stuck: true, overlaps: true }), '!');
  assert.equal(markOf({ ...c, overlaps: true }), '*');
  assert.equal(markOf(c), '');
});

test('inflateParam reads a history= back and names the parameter when it cannot', async () => {
  const text = '{"client":"A"}\n한\n';
  assert.equal(await inflateParam(deflateRawSync(Buffer.from(text)).toString('base64url'), 'history'), text);
  await assert.rejects(
    inflateParam('**', 'history'),
    (err) => err instanceof RunError && err.message === 'history= is not base64url',
  );
  await assert.rejects(
    inflateParam('_____w', 'history'),
    (err) => err instanceof RunError && err.message === 'history= is not DEFLATE',
  );
});
