import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Heard } from '../../exercise-run.js';

test('Heard: a Check ended mid-way keeps the verdicts before, and fails the test it was stuck in', () => {
  const h = new Heard();
  h.hear({ test: 'step 1: initDb', call: 'initDb(db)' });
  h.hear({ test: 'step 1: initDb', status: 'pass', why: '' });
  h.hear({ test: 'step 2: enqueue', call: 'enqueue(db, "j1")' });
  h.hear({ test: 'step 2: enqueue', status: 'pass', why: '' });
  h.hear({ test: 'stories', status: 'skip', why: 'none can be told' });
  h.hear({ test: 'step 3: state', call: 'initDb(db)' });
  h.hear({ test: 'step 3: state', call: 'state(db, "j1")' });
  assert.deepEqual(h.last, { test: 'step 3: state', call: 'state(db, "j1")' });
  assert.deepEqual(h.stopped('never came back'), [
    { name: 'step 1: initDb', status: 'pass' },
    { name: 'step 2: enqueue', status: 'pass' },
    { name: 'stories', status: 'skip', why: 'none can be told' },
    { name: 'step 3: state', status: 'fail', why: 'never came back' },
  ]);
  assert.equal(h.tests.length, 3, 'stopped adds to a copy');
});

test('Heard: stopped before any call is nothing; after the last verdict, no test is added', () => {
  const h = new Heard();
  assert.deepEqual(h.stopped('x'), []);
  h.hear({ test: 'step 1: initDb', call: 'initDb(db)' });
  h.hear({ test: 'step 1: initDb', status: 'fail', why: '' });
  assert.deepEqual(h.stopped('x'), [{ name: 'step 1: initDb', status: 'fail' }]);
});

test('Heard: a message that is neither a call nor a verdict is ignored', () => {
  const h = new Heard();
  for (const p of [null, 'step 1', { call: 'x' }, { test: 1, status: 'pass' }, { test: 't', status: 'won' }, {}])
    h.hear(p);
  assert.deepEqual(h.tests, []);
  assert.equal(h.last, null);
});
