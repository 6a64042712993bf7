import assert from 'node:assert/strict';
import { test } from 'node:test';
import { en, ko } from '../../i18n.js';
import { callOf, outcomeOf } from '../../view.js';

test('a step is announced by its call and outcome, in about ten words', () => {
  assert.equal(callOf('1001ms  A complete order-7   -> refused superseded  # late'), 'A complete order-7');
  assert.equal(callOf('0ms A claim order-7'), 'A claim order-7');
  assert.equal(callOf('+200ms B write file-f value="x"'), 'B write file-f value="x"');
  const st = (op, kind, reason = '') => /** @type {any} */ ({ op, outcome: { kind, reason } });
  assert.equal(outcomeOf(st('complete', 'refused', 'superseded')), 'refused superseded');
  assert.equal(outcomeOf(st('claim', 'ok')), 'ok');
  assert.equal(outcomeOf(st('pause', 'ok')), '', 'a pause has no outcome to say');
  const said = en.stepAnnounce(5, 5, '1001 ms', 'A complete order-7', 'refused superseded');
  assert.equal(said, 'Step 5 of 5, 1001 ms: A complete order-7: refused superseded.');
  assert.ok(said.split(/\s+/).length <= 12);
  assert.equal(
    ko.stepAnnounce(2, 5, '1000 ms', 'B claim order-7', 'ok'),
    '5단계 중 2단계, 1000 ms: B claim order-7: ok.',
  );
  assert.equal(en.stepAnnounce(3, 5, '100 ms', 'A pause 2s', ''), 'Step 3 of 5, 100 ms: A pause 2s.');
});
