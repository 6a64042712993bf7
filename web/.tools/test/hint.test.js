import assert from 'node:assert/strict';
import { test } from 'node:test';
import { timelineChunks } from '../../hint.js';

test('timelineChunks: the head, then each step with the notes right above it', () => {
  const text = [
    '# Found by leaselab explore: 2 steps tell claim-boundary from the correct engine (44 states searched)',
    'lease 1000ms',
    'job a deadline=1500 max_attempts=2',
    '',
    '0ms A claim a  -> ok token=1 lease_until=1000',
    '# Here the engines part: the correct engine answers ok A#2 until 1500;',
    '# claim-boundary answers refused held.',
    '1000ms A claim a  -> ok token=2',
    '+5ms B state a',
    '',
  ].join('\n');
  const { head, steps } = timelineChunks(text);
  assert.deepEqual(head, [
    '# Found by leaselab explore: 2 steps tell claim-boundary from the correct engine (44 states searched)',
    'lease 1000ms',
    'job a deadline=1500 max_attempts=2',
    '',
  ]);
  assert.deepEqual(steps, [
    ['0ms A claim a  -> ok token=1 lease_until=1000'],
    [
      '# Here the engines part: the correct engine answers ok A#2 until 1500;',
      '# claim-boundary answers refused held.',
      '1000ms A claim a  -> ok token=2',
    ],
    ['+5ms B state a'],
  ]);
  assert.equal([...head, ...steps.flat()].join('\n'), text.replace(/\n$/, ''), 'nothing is lost or reordered');
});

test('timelineChunks: a trailing note stays with the last step; no step leaves everything in the head', () => {
  assert.deepEqual(timelineChunks('lease 1s\njob a\n0 A claim a\n# the end\n'), {
    head: ['lease 1s', 'job a'],
    steps: [['0 A claim a', '# the end']],
  });
  assert.deepEqual(timelineChunks('# title\nlease 1s\njob a\n'), { head: ['# title', 'lease 1s', 'job a'], steps: [] });
});
