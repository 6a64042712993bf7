import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  applyStep,
  clockOffset,
  cursorAtTime,
  cursorTime,
  ms,
  outcomeText,
  signedMs,
  storageAt,
  storageChanged,
  tableAt,
  writesStorage,
} from '../../trace.js';
import { goldenTraces, row, step, story, trace } from './fixtures.js';

test('applyStep replaces the rows a step changed, appends new ones and drops the gone', () => {
  const rows = [row({ id: 'a' }), row({ id: 'b' }), row({ id: 'c' })];
  const out = applyStep(rows, { rows: [row({ id: 'b', token: 2 }), row({ id: 'd' })], gone: ['a'] });
  assert.deepEqual(
    out.map((r) => [r.id, r.token]),
    [
      ['b', 2],
      ['c', 0],
      ['d', 0],
    ],
  );
  assert.equal(rows.length, 3, 'the rows given are not modified');
  assert.equal(rows[1].token, 0);
  assert.equal(
    applyStep(rows, { rows: [], gone: [] }),
    rows,
    'a step that changed nothing returns the rows as they are',
  );
});

test('tableAt rebuilds the table after every step of a long trace, past its checkpoints', () => {
  const steps = Array.from({ length: 150 }, (_, i) => step({ time: i, rows: [row({ id: `j${i % 7}`, token: i })] }));
  const tr = trace(steps, { start: [] });
  let naive = [];
  for (let c = 0; c <= steps.length; c++) {
    assert.deepEqual(tableAt(tr, c), naive, `after step ${c}`);
    if (c < steps.length) naive = applyStep(naive, steps[c]);
  }
  assert.deepEqual(tableAt(tr, 1000), tableAt(tr, steps.length), 'a cursor past the end is the end');
  assert.deepEqual(tableAt(tr, -1), [], 'a cursor before the start is the start');
});

test('tableAt after the last step is the final table of every golden trace', () => {
  for (const [file, tr] of goldenTraces()) {
    assert.deepEqual(tableAt(tr, tr.steps.length), tr.final, file);
    assert.deepEqual(storageAt(tr, tr.steps.length), tr.storage, file);
  }
});

test('storageAt keeps each key at its last written value; storageChanged names an accepted write only', () => {
  const w = (key, value, token, kind = 'ok') =>
    step({ op: 'write', outcome: { kind, reason: '', error: '' }, stored: { key, value, owner: 'A', token } });
  const tr = trace([w('k', 'a', 1), w('j', 'x', 1), w('k', 'a', 1, 'refused'), w('k', 'b', 2)]);
  assert.deepEqual(
    storageAt(tr, 3).map((s) => [s.key, s.value]),
    [
      ['j', 'x'],
      ['k', 'a'],
    ],
  );
  assert.equal(storageAt(tr, 4).find((s) => s.key === 'k')?.value, 'b');
  assert.deepEqual(storageAt(tr, 0), []);
  assert.equal(storageChanged(tr.steps[0]), 'k');
  assert.equal(storageChanged(tr.steps[2]), '', 'a refused write changes nothing');
  assert.equal(storageChanged(null), '');
  assert.ok(writesStorage(tr));
  assert.ok(!writesStorage(trace([step({})])));
});

test('cursorTime and cursorAtTime move between steps and instants', () => {
  const tr = trace([step({ time: 0 }), step({ time: 1000 }), step({ time: 1000 }), step({ time: 1500 })]);
  assert.equal(cursorTime(tr, 0), 0);
  assert.equal(cursorTime(tr, 2), 1000);
  assert.equal(cursorTime(tr, 99), 1500);
  assert.equal(cursorAtTime(tr, 999), 1);
  assert.equal(cursorAtTime(tr, 1000), 3, 'a click at an instant goes after every step at it');
  assert.equal(cursorAtTime(tr, -5), 0);
});

test('clock offsets, durations and outcomes read as the timeline writes them', () => {
  assert.equal(clockOffset(story(), 'B'), 200);
  assert.equal(clockOffset(story(), 'A'), 0);
  assert.equal(ms(999), '999 ms');
  assert.equal(ms(12000), '12 s');
  assert.equal(ms(12345), '12345 ms');
  assert.equal(signedMs(200), '+200 ms');
  assert.equal(signedMs(-50), '−50 ms');
  const st = story().steps[0];
  assert.equal(outcomeText(st), 'ok token=1 lease_until=1000');
  assert.equal(outcomeText(story().steps[3]), 'refused fenced');
  assert.equal(outcomeText(undefined), '');
});
