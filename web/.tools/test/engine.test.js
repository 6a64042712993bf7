// engine.js's shared engine runs the player's build; its tool calls go to
// the explorer's engine (the tools' build), which starts on the first one.
// These tests hold those calls to the API's contract: aborting rejects at
// once, also while the tools' build is still loading, and progress reaches
// the caller. The workers are stand-ins that answer as the engine's worker
// does, when the test says.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { install, workers } from './fake-worker.js';

/** @typedef {import('./fake-worker.js').FakeWorker} FakeWorker */

install();
const { loadEngine } = await import('../../engine.js');

/** The worker of the build whose file is name. */
const workerOf = (/** @type {string} */ name) => workers.find((w) => w.module.endsWith(`/${name}`));

/** Whether p has settled once every task already queued has run. */
const settled = (/** @type {Promise<unknown>} */ p) =>
  Promise.race([
    p.then(
      () => true,
      () => true,
    ),
    new Promise((r) => setImmediate(() => r(false))),
  ]);

const shared = loadEngine();
workerOf('leaselab.wasm')?.ready();
const api = await shared;

test('a tool call on the shared engine aborted while the tools build loads rejects at once', async () => {
  const stop = new AbortController();
  const story = api.labStory('lab', { signal: stop.signal });
  story.catch(() => {});
  assert.equal(await settled(story), false, 'pending while the tools build loads');
  const tools = workerOf('leaselab-tools.wasm');
  assert.ok(tools, 'the tool call started the tools build');
  stop.abort();
  assert.equal(await settled(story), true, 'still pending after its signal aborted');
  await assert.rejects(story, { name: 'AbortError' });
  // The tools build, up later, is not asked to run the aborted call.
  tools.ready();
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(
    tools.posted.filter((m) => m.type === 'call'),
    [],
    'the aborted call reached the tools build',
  );
});

test('a tool call on the shared engine hears its progress and its answer from the tools build', async () => {
  /** @type {unknown[]} */
  const heard = [];
  const lab = api.lab('lab', { onProgress: (/** @type {unknown} */ p) => heard.push(p) });
  const tools = /** @type {FakeWorker} */ (workerOf('leaselab-tools.wasm'));
  tools.ready();
  while (!tools.posted.some((m) => m.type === 'call')) await new Promise((r) => setImmediate(r));
  const call = tools.posted.find((m) => m.type === 'call');
  assert.equal(call.method, 'lab');
  tools.send({ type: 'progress', id: call.id, value: { done: 1, total: 2 } });
  tools.send({ type: 'answer', id: call.id, value: 'result' });
  assert.equal(await lab, 'result');
  assert.deepEqual(heard, [{ done: 1, total: 2 }]);
  assert.equal(
    workerOf('leaselab.wasm')?.posted.some((m) => m.type === 'call'),
    false,
    'a tool call went to the player build',
  );
});

test('a tool call on the shared engine aborted while it runs ends the tools build worker', async () => {
  const stop = new AbortController();
  const run = api.explore({ mutant: 'm' }, { signal: stop.signal });
  run.catch(() => {});
  const tools = /** @type {FakeWorker} */ (workerOf('leaselab-tools.wasm'));
  while (!tools.posted.some((m) => m.type === 'call' && m.method === 'explore'))
    await new Promise((r) => setImmediate(r));
  stop.abort();
  await assert.rejects(run, { name: 'AbortError' });
  assert.equal(tools.terminated, true);
});

test("grade on the shared engine runs in the grader's worker, whose script's policy allows the reader's code, and hears each call", async () => {
  const explorers = workers.filter((w) => !w.script.endsWith('/grader-worker.js'));
  /** @type {unknown[]} */
  const heard = [];
  const report = api.grade('function acquire() {}', {
    lang: 'en',
    onProgress: (/** @type {unknown} */ p) => heard.push(p),
  });
  for (let i = 0; i < 10; i++) await new Promise((r) => setImmediate(r));
  const grader = workers.find((w) => w.script.endsWith('/grader-worker.js'));
  assert.ok(grader, 'grade started no grader worker');
  assert.ok(grader.module.endsWith('/leaselab-tools.wasm'), 'the grader runs the tools build');
  grader.ready();
  while (!grader.posted.some((m) => m.type === 'call')) await new Promise((r) => setImmediate(r));
  const call = grader.posted.find((m) => m.type === 'call');
  assert.equal(call.method, 'grade');
  const step = { test: 'step 1: initDb', call: 'initDb(db)' };
  grader.send({ type: 'progress', id: call.id, value: step });
  grader.send({ type: 'answer', id: call.id, value: '{"ok":true}' });
  assert.equal(await report, '{"ok":true}');
  assert.deepEqual(heard, [step], "the reader's calls did not reach onProgress");
  for (const w of explorers)
    assert.equal(
      w.posted.some((m) => m.method === 'grade'),
      false,
      `grade reached ${w.script}, whose policy forbids eval`,
    );
});

test('a tool call after the shared engine stopped goes to the tools build, not to a fresh player', async () => {
  const player = /** @type {FakeWorker} */ (workerOf('leaselab.wasm'));
  player.send({ type: 'stopped' });
  assert.equal(player.terminated, true);
  const before = workers.length;
  const svg = api.labSVG({ points: [] }, 'en');
  for (let i = 0; i < 10; i++) await new Promise((r) => setImmediate(r));
  const started = workers.slice(before);
  assert.deepEqual(
    started.map((w) => w.build),
    ['leaselab-tools.wasm'],
    'the workers the tool call started',
  );
  const call = started[0].posted.find((m) => m.type === 'call');
  assert.equal(call?.method, 'labSVG');
  started[0].send({ type: 'answer', id: call.id, value: '<svg/>' });
  assert.equal(await svg, '<svg/>');
});
