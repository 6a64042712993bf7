// The pages of web/ that load a module graph fetch every module of it side
// by side, instead of finding one only once the module importing it has
// arrived (hint.js, imported by player.js, was such a module on the
// simulator's page: one more round trip before any of the page's script
// could run): embed.html names each in a <link rel="modulepreload">; the
// simulator's page loads its graph as one script, app.bundle.js, which make
// wasm bundles from app.js (engine/internal/build/bundle), and preloads the one
// module that script imports by its URL, engine.js.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { staticGraph, web } from './fixtures.js';

/** The page's module scripts and its modulepreload links, in order. */
function pageModules(html) {
  const scripts = [...html.matchAll(/<script type="module" src="([^"]+)"><\/script>/g)].map((m) => m[1]);
  const preloaded = [...html.matchAll(/<link rel="modulepreload" href="([^"]+)">/g)].map((m) => m[1]);
  return { scripts, preloaded };
}

test('embed.html preloads every module embed.js imports, statically and transitively', () => {
  const { scripts, preloaded } = pageModules(web('embed.html'));
  assert.ok(scripts.includes('embed.js'), 'embed.html loads embed.js');
  const missing = [...staticGraph('embed.js')].filter((m) => m !== 'embed.js' && !preloaded.includes(m));
  assert.deepEqual(missing, [], 'embed.html: modules imported but not preloaded');
});

test("index.html loads app.js's graph as its bundle and preloads the engine module, which no module of the graph imports statically", () => {
  const { scripts, preloaded } = pageModules(web('index.html'));
  assert.deepEqual(scripts, ['app.bundle.js']);
  assert.deepEqual(preloaded, ['app.bundle.js', 'engine.js']);
  const graph = staticGraph('app.js');
  assert.ok(graph.has('player.js') && graph.size > 5, `app.js's graph: ${[...graph]}`);
  assert.ok(!graph.has('engine.js'), 'engine.js is imported by its URL (one engine per page), never bundled');
  // The graph imports engine.js by its URL, which the preload names.
  assert.match(web('player.js'), /import\(new URL\('engine\.js', import\.meta\.url\)\.href\)/);
});

test("index.html's icon is favicon.svg, its first script a file, and its style the bundle of the sheets the embeds share", () => {
  const html = web('index.html');
  const icons = [...html.matchAll(/<link rel="icon" href="([^"]+)"[^>]*>/g)].map((m) => m[1]);
  assert.deepEqual(icons, ['favicon.svg'], "its icon is a file: a data: URL is an img-src the guide's policy refuses");
  assert.deepEqual(
    [...html.matchAll(/<script(\s[^>]*)?>/g)].filter((m) => !/\ssrc=/.test(m[1] || '')).map((m) => m[0]),
    [],
    "no inline script: the guide's policy runs scripts from 'self' only",
  );
  assert.match(
    html,
    /^<!doctype html>[\s\S]*?<head>\s*<meta charset="utf-8">\s*<script src="early-worker\.js"><\/script>/,
  );
  const sheets = [...html.matchAll(/<link rel="stylesheet" href="([^"]+)">/g)].map((m) => m[1]);
  assert.deepEqual(sheets, ['app.bundle.css']);
});
