// The pages of web/ that load a module graph name every module of it in a
// <link rel="modulepreload">, so that the browser fetches them side by side
// instead of finding one only once the module importing it has arrived
// (hint.js, imported by player.js, was such a module on the simulator's
// page: one more round trip before any of the page's script could run).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { staticGraph, web } from './fixtures.js';

/** The page's module scripts and its modulepreload links, in order. */
function pageModules(html) {
  const scripts = [...html.matchAll(/<script type="module" src="([^"]+)"><\/script>/g)].map((m) => m[1]);
  const preloaded = [...html.matchAll(/<link rel="modulepreload" href="([^"]+)">/g)].map((m) => m[1]);
  return { scripts, preloaded };
}

for (const [page, entry] of [
  ['index.html', 'app.js'],
  ['embed.html', 'embed.js'],
]) {
  test(`${page} preloads every module ${entry} imports, statically and transitively`, () => {
    const { scripts, preloaded } = pageModules(web(page));
    assert.ok(scripts.includes(entry), `${page} loads ${entry}`);
    const missing = [...staticGraph(entry)].filter((m) => m !== entry && !preloaded.includes(m));
    assert.deepEqual(missing, [], `${page}: modules imported but not preloaded`);
  });
}
