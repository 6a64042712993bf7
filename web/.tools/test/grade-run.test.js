import assert from 'node:assert/strict';
import { test } from 'node:test';
import { deflateRawSync } from 'node:zlib';
import { decodeRun, RUN_BYTES, runOf } from '../../grade-run.js';

/** The parameter a grading report's link writes for json: raw DEFLATE, unpadded base64url. */
const param = (/** @type {string} */ json) => deflateRawSync(Buffer.from(json)).toString('base64url');

const RUN = {
  v: 1,
  cols: ['id', 'owner', 'until', 'fence', 'result', 'done'],
  diff: 1,
  steps: [
    { calls: ['init_db(path) → None', 'enqueue(path, "j1") → True'], rows: [['j1', null, 0, 0, null, 0]] },
    { calls: ['claim(path, "j1", "B", 999, 1000) → 2'], rows: [['j1', 'B', 1999, 2, null, 0]] },
  ],
};

/** A run whose JSON is n bytes of UTF-8: the first call padded. */
function runOfBytes(/** @type {number} */ n) {
  const r = structuredClone(RUN);
  r.steps[0].calls[0] += 'x'.repeat(n - Buffer.byteLength(JSON.stringify(r)));
  const json = JSON.stringify(r);
  assert.equal(Buffer.byteLength(json), n);
  return json;
}

test('decodeRun reads the run a grading link carries: columns, the step that differs, calls and rows', async () => {
  assert.deepEqual(await decodeRun(param(JSON.stringify(RUN))), { cols: RUN.cols, diff: 1, steps: RUN.steps });
});

test('decodeRun takes a parameter of RUN_BYTES and refuses one a byte over', async () => {
  // Stored (level 0) DEFLATE is the JSON and 5 bytes, and base64url 4
  // characters for 3 bytes: JSON of RUN_BYTES * 3/4 - 5 bytes makes a
  // parameter of exactly RUN_BYTES.
  const stored = (/** @type {number} */ n) =>
    deflateRawSync(Buffer.from(runOfBytes(n)), { level: 0 }).toString('base64url');
  const at = (RUN_BYTES * 3) / 4 - 5;
  assert.equal(stored(at - 1).length, RUN_BYTES - 1);
  assert.equal(stored(at).length, RUN_BYTES);
  assert.ok(stored(at + 1).length > RUN_BYTES);
  assert.equal((await decodeRun(stored(at - 1))).diff, 1);
  assert.equal((await decodeRun(stored(at))).diff, 1);
  await assert.rejects(decodeRun(stored(at + 1)), { kind: 'tooLarge' });
});

test('decodeRun takes a run whose JSON is RUN_BYTES and refuses one a byte over, however small its parameter', async () => {
  assert.equal((await decodeRun(param(runOfBytes(RUN_BYTES - 1)))).diff, 1);
  assert.equal((await decodeRun(param(runOfBytes(RUN_BYTES)))).diff, 1);
  const over = param(runOfBytes(RUN_BYTES + 1));
  assert.ok(over.length < 1000, 'the padding deflates to almost nothing');
  await assert.rejects(decodeRun(over), { kind: 'tooLarge' });
  // A bomb: a megabyte of one letter.
  await assert.rejects(decodeRun(param('x'.repeat(1 << 20))), { kind: 'tooLarge' });
});

test('decodeRun refuses what is not base64url, DEFLATE, JSON or a run as malformed', async () => {
  for (const [name, s] of [
    ['not base64url', '%%%'],
    ['not DEFLATE', Buffer.from('{"v":1}').toString('base64url')],
    ['not JSON', param('{"v":1,')],
    ['not UTF-8', deflateRawSync(Buffer.from([0xff, 0xfe])).toString('base64url')],
    ['another version', param(JSON.stringify({ ...RUN, v: 2 }))],
    ['diff past its steps', param(JSON.stringify({ ...RUN, diff: 2 }))],
    ['diff negative', param(JSON.stringify({ ...RUN, diff: -1 }))],
  ]) {
    await assert.rejects(decodeRun(s), { kind: 'malformed' }, name);
  }
});

test('runOf checks every step: calls are strings, each row has a cell a column', () => {
  const bad = (/** @type {(r: any) => void} */ change) => {
    const r = structuredClone(RUN);
    change(r);
    return () => runOf(r);
  };
  assert.doesNotThrow(bad(() => {}));
  assert.throws(
    bad((r) => r.steps[1].rows[0].pop()),
    { kind: 'malformed' },
  );
  assert.throws(
    bad((r) => r.steps[1].rows[0].push(1)),
    { kind: 'malformed' },
  );
  assert.throws(
    bad((r) => (r.steps[0].rows[0][1] = { x: 1 })),
    { kind: 'malformed' },
  );
  assert.throws(
    bad((r) => (r.steps[0].calls = [1])),
    { kind: 'malformed' },
  );
  assert.throws(
    bad((r) => (r.steps = [])),
    { kind: 'malformed' },
  );
  assert.throws(
    bad((r) => (r.cols = [])),
    { kind: 'malformed' },
  );
});
