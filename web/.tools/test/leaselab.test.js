// leaselab.js, the course site's one script, is a classic script's syntax
// (it also runs as a module), and it preloads exactly the modules the
// player imports, so none is fetched one import after another.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import vm from 'node:vm';
import { staticGraph, web } from './fixtures.js';

test('leaselab.js parses as a classic script: no import or export statement', () => {
  assert.doesNotThrow(() => new vm.Script(web('leaselab.js'), { filename: 'leaselab.js' }));
});

test('leaselab.js preloads the static imports of fences.js and lease-timeline.js, and nothing else', () => {
  const src = web('leaselab.js');
  const listed = [...src.match(/modules: \[([^\]]*)\]/)[1].matchAll(/'([^']+)'/g)].map((m) => m[1]);
  assert.deepEqual([...listed].sort(), [...staticGraph('fences.js', 'lease-timeline.js')].sort());
});
