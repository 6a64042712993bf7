// A tools engine (the explorer's, the grader's) that could not start is
// tried again at the next call: a course page whose reader met a network
// error opening the lab gets the lab at the next try, without a reload.
// Its own file, so that no earlier test has started the tools build.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { install, workers } from './fake-worker.js';

install();
const { loadEngine, loadExplorer, loadGrader } = await import('../../engine.js');

const turns = async (/** @type {number} */ n) => {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
};
const toolsWorkers = (/** @type {string} */ script) =>
  workers.filter((w) => w.module.endsWith('/leaselab-tools.wasm') && w.script.endsWith(script));

const shared = loadEngine();
workers[0].ready();
const api = await shared;

test('a tool call after the tools build failed to start starts it again and is answered', async () => {
  const first = api.labSVG({ points: [] }, 'en');
  await turns(5);
  const [failed] = toolsWorkers('/engine-worker.bundle.js');
  assert.ok(failed, 'the tool call started no tools build');
  failed.send({ type: 'failed', message: 'NetworkError when fetching leaselab-tools.wasm' });
  await assert.rejects(first, /could not start.*NetworkError/);

  const second = api.labSVG({ points: [] }, 'en');
  await turns(5);
  const started = toolsWorkers('/engine-worker.bundle.js');
  assert.equal(started.length, 2, 'the second call did not start the tools build again');
  started[1].ready();
  await turns(5);
  const call = started[1].posted.find((m) => m.type === 'call');
  assert.equal(call?.method, 'labSVG');
  started[1].send({ type: 'answer', id: call.id, value: '<svg/>' });
  assert.equal(await second, '<svg/>');
  assert.equal(await loadExplorer(), await loadExplorer(), 'a started explorer is kept');
});

test('the grader that failed to start is started again at the next load', async () => {
  const first = loadGrader();
  await turns(5);
  const [failed] = toolsWorkers('/grader-worker.js');
  assert.ok(failed, 'loadGrader started no grader worker');
  failed.send({ type: 'failed', message: 'offline' });
  await assert.rejects(first, /offline/);
  const second = loadGrader();
  await turns(5);
  const started = toolsWorkers('/grader-worker.js');
  assert.equal(started.length, 2, 'loadGrader kept the failure');
  started[1].ready();
  await second;
});
