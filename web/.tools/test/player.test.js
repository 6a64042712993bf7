// Tests of player.js's pace: how long a step stays when playing.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readingMs, STEP_MS } from '../../player.js';

test('readingMs gives a step the time its words take to read, never less than a step at 1x', () => {
  const words = (n) => Array.from({ length: n }, (_, i) => `w${i}`).join(' ');
  // 400 ms a word: 3 words fit a step at 1x (1400 ms), 4 do not.
  assert.equal(readingMs(''), STEP_MS);
  assert.equal(readingMs(words(3)), STEP_MS);
  assert.equal(readingMs(words(4)), 1600);
  assert.equal(readingMs(words(25)), 10_000);
  assert.equal(readingMs(`  ${words(4)}\n\n `), 1600, 'runs of spaces and lines are one gap');
  assert.equal(readingMs('1단계 중 1단계, 0 ms: A가 작업을 선점합니다'), 3200, 'Korean words are what spaces part');
});
