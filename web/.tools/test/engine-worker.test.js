// engine-worker.js's fetchModule: from a host that sends a module as it is
// on disk, the worker compiles the .gz beside it, and falls back to the
// module itself whenever that path fails, so the module compiled is always
// the one at the URL given; the host is told plain by a HEAD request, so
// only one body is downloaded, unless the .gz is broken.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';

// The worker's script runs when imported: it reads its own URL (no
// ?module=, so it starts nothing) and finds Go's runtime defined.
globalThis.self = /** @type {any} */ ({ location: { href: 'http://course.test/engine-worker.js' } });
globalThis.Go = class {};
const { fetchModule } = await import('../../engine-worker.js');

const ENC = new TextEncoder();

/** A valid WebAssembly module with one custom section, which, holding tag. */
function wasm(tag) {
  const name = ENC.encode('which');
  const content = [name.length, ...name, ...ENC.encode(tag)];
  return Uint8Array.from([0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 0, content.length, ...content]);
}

/** The tag of a module wasm made. */
const which = (m) => new TextDecoder().decode(WebAssembly.Module.customSections(m, 'which')[0]);

const MODULE = wasm('the build at the URL');
const URL_ = 'http://course.test/leaselab.wasm';

/**
 * A response as a host sends it: same-origin (type basic) unless type says.
 * @param {Uint8Array | null} body
 * @param {{status?: number, type?: string, headers?: Record<string, string>}} [o]
 */
function reply(body, { status = 200, type = 'basic', headers = {} } = {}) {
  const r = new Response(body, { status, headers });
  Object.defineProperty(r, 'type', { value: type });
  return r;
}

/** A plain host's answer for the module: its bytes, their length, the type. */
const plain = (bytes = MODULE) =>
  reply(bytes, { headers: { 'Content-Type': 'application/wasm', 'Content-Length': String(bytes.length) } });

/**
 * A fetch that answers each URL from routes (a function of the how-many'th
 * request for it with that method, and the method; or a missing file), HEAD with the route's status and
 * headers and no body, and records every request and the bytes of every
 * body it sends.
 * @param {Record<string, (n: number, method: string) => Response | Promise<Response>>} routes
 */
function host(routes) {
  /** @type {{url: string, method: string}[]} */
  const calls = [];
  let sent = 0;
  const get = async (url, init) => {
    const method = init?.method || 'GET';
    calls.push({ url, method });
    const route = routes[url];
    if (!route) return reply(null, { status: 404 });
    const r = await route(calls.filter((c) => c.url === url && c.method === method).length, method);
    if (method !== 'HEAD') {
      sent += (await r.clone().arrayBuffer()).byteLength;
      return r;
    }
    const head = new Response(null, { status: r.status, headers: r.headers });
    for (const k of ['type', 'url']) Object.defineProperty(head, k, { value: r[k] });
    return head;
  };
  return {
    get,
    calls,
    /** The requests, a HEAD's as "HEAD url". */
    urls: () => calls.map((c) => (c.method === 'GET' ? c.url : `${c.method} ${c.url}`)),
    /** The bytes of the bodies sent. */
    sent: () => sent,
  };
}

const HEAD = `HEAD ${URL_}`;

test('from a plain host only the .gz is downloaded, the module asked for by a HEAD request', async () => {
  const gzip = gzipSync(MODULE);
  const h = host({ [URL_]: () => plain(), [`${URL_}.gz`]: () => reply(gzip) });
  const { module, from } = await fetchModule(URL_, 'leaselab.wasm', h.get);
  assert.deepEqual(h.urls(), [HEAD, `${URL_}.gz`]);
  assert.equal(h.sent(), gzip.length, "the host sends the .gz's bytes and none of the module's");
  assert.equal(from, `${URL_}.gz`, "the Resource Timing entry named is the .gz's");
  assert.equal(which(module), 'the build at the URL');
});

test('a host that encodes the module, or labels it identity, is or is not asked for the .gz', async () => {
  for (const [encoding, gz] of [
    ['br', false],
    ['gzip', false],
    [' GZIP ', false],
    ['identity', true],
    ['', true],
  ]) {
    const gzip = gzipSync(MODULE);
    const h = host({
      [URL_]: () => reply(MODULE, { headers: { 'Content-Type': 'application/wasm', 'Content-Encoding': encoding } }),
      [`${URL_}.gz`]: () => reply(gzip),
    });
    const { from } = await fetchModule(URL_, 'leaselab.wasm', h.get);
    const what = `Content-Encoding: ${JSON.stringify(encoding)}`;
    assert.deepEqual(h.urls(), [HEAD, gz ? `${URL_}.gz` : URL_], what);
    assert.equal(h.sent(), gz ? gzip.length : MODULE.length, `${what}: one body`);
    assert.equal(from, gz ? `${URL_}.gz` : URL_);
  }
});

test('a module of another origin is fetched with no HEAD nor .gz request', async () => {
  const other = 'http://cdn.test/leaselab.wasm';
  const h = host({ [other]: () => plain(), [`${other}.gz`]: () => reply(gzipSync(MODULE)) });
  assert.equal(which((await fetchModule(other, 'leaselab.wasm', h.get)).module), 'the build at the URL');
  assert.deepEqual(h.urls(), [other]);
});

test('a HEAD answered cross-origin, refused, failed or missing leads to the module alone', async () => {
  for (const [what, module] of [
    [
      'cross-origin after a redirect',
      () => reply(MODULE, { type: 'cors', headers: { 'Content-Type': 'application/wasm' } }),
    ],
    [
      'refused (405)',
      (/** @type {number} */ _, /** @type {string} */ m) => (m === 'HEAD' ? reply(null, { status: 405 }) : plain()),
    ],
  ]) {
    const h = host({ [URL_]: module, [`${URL_}.gz`]: () => reply(gzipSync(MODULE)) });
    const { module: m, from } = await fetchModule(URL_, 'leaselab.wasm', h.get);
    assert.deepEqual(h.urls(), [HEAD, URL_], what);
    assert.equal(h.sent(), MODULE.length, what);
    assert.equal(from, URL_, what);
    assert.equal(which(m), 'the build at the URL', what);
  }
  const failing = host({ [`${URL_}.gz`]: () => reply(gzipSync(MODULE)) });
  const get = (/** @type {string} */ url, /** @type {RequestInit} */ init) =>
    init?.method === 'HEAD' ? Promise.reject(new TypeError('Failed to fetch')) : failing.get(url, init);
  await assert.rejects(fetchModule(URL_, 'leaselab.wasm', get), /leaselab\.wasm: HTTP 404/);
  assert.deepEqual(failing.urls(), [URL_], 'a failed HEAD: the module is asked for, not its .gz');
  const missing = host({ [`${URL_}.gz`]: () => reply(gzipSync(MODULE)) });
  await assert.rejects(fetchModule(URL_, 'leaselab.wasm', missing.get), /leaselab\.wasm: HTTP 404/);
  assert.deepEqual(missing.urls(), [HEAD, URL_]);
});

test('without a .gz, or when its request fails, the module is downloaded once', async () => {
  for (const [what, gz] of [
    ['missing', undefined],
    ['a server error', () => reply(null, { status: 500 })],
    ['a network error', () => Promise.reject(new TypeError('Failed to fetch'))],
  ]) {
    const routes = { [URL_]: () => plain() };
    if (gz) routes[`${URL_}.gz`] = gz;
    const h = host(routes);
    const { module, from } = await fetchModule(URL_, 'leaselab.wasm', h.get);
    assert.deepEqual(h.urls(), [HEAD, `${URL_}.gz`, URL_], what);
    assert.equal(h.sent(), MODULE.length, what);
    assert.equal(from, URL_, what);
    assert.equal(which(module), 'the build at the URL', what);
  }
});

test("a page sent for a missing .gz (a single-page app's fallback) counts as no .gz", async () => {
  const page = () =>
    reply(ENC.encode('<!doctype html><title>Course</title>'), {
      headers: { 'Content-Type': 'text/html; charset=utf-8' },
    });
  const h = host({ [URL_]: () => plain(), [`${URL_}.gz`]: page });
  const { module, from } = await fetchModule(URL_, 'leaselab.wasm', h.get);
  assert.deepEqual(h.urls(), [HEAD, `${URL_}.gz`, URL_]);
  assert.equal(from, URL_);
  assert.equal(which(module), 'the build at the URL');
});

test('a .gz that is not this module, or not gzip, is dropped and the module fetched', async () => {
  const longer = wasm('the build at the URL, and more');
  const shorter = wasm('another');
  const notWasm = new Uint8Array(MODULE.length).fill(7);
  for (const [what, gz] of [
    ['another build, longer', gzipSync(longer)],
    ['another build, shorter', gzipSync(shorter)],
    ['one byte short', gzipSync(MODULE.subarray(0, MODULE.length - 1))],
    ['one byte more', gzipSync(Uint8Array.from([...MODULE, 0]))],
    ['not gzip', MODULE],
    ['cut short', gzipSync(MODULE).subarray(0, 20)],
    ['as long, not WebAssembly', gzipSync(notWasm)],
  ]) {
    const h = host({ [URL_]: () => plain(), [`${URL_}.gz`]: () => reply(gz) });
    const { module, from } = await fetchModule(URL_, 'leaselab.wasm', h.get);
    assert.deepEqual(h.urls(), [HEAD, `${URL_}.gz`, URL_], what);
    assert.equal(from, URL_, what);
    assert.equal(which(module), 'the build at the URL', what);
  }
});

test('a module whose length the host does not give is compiled from any .gz that inflates to WebAssembly', async () => {
  const other = wasm('another build');
  const h = host({
    [URL_]: () => reply(MODULE, { headers: { 'Content-Type': 'application/wasm' } }),
    [`${URL_}.gz`]: () => reply(gzipSync(other)),
  });
  const { module, from } = await fetchModule(URL_, 'leaselab.wasm', h.get);
  assert.equal(from, `${URL_}.gz`);
  assert.equal(which(module), 'another build');
});

test('a .gz the host labels Content-Encoding: gzip (the browser inflated it) is compiled as it is', async () => {
  const h = host({
    [URL_]: () => plain(),
    [`${URL_}.gz`]: () =>
      reply(MODULE, { headers: { 'Content-Type': 'application/gzip', 'Content-Encoding': 'gzip' } }),
  });
  const { module, from } = await fetchModule(URL_, 'leaselab.wasm', h.get);
  assert.deepEqual(h.urls(), [HEAD, `${URL_}.gz`]);
  assert.equal(from, `${URL_}.gz`);
  assert.equal(which(module), 'the build at the URL');
});

test("the .gz's URL keeps the module URL's query, after the path", async () => {
  const url = `${URL_}?v=1.2.3&x=.wasm`;
  const gz = `${URL_}.gz?v=1.2.3&x=.wasm`;
  const h = host({ [url]: () => plain(), [gz]: () => reply(gzipSync(MODULE)) });
  const { from } = await fetchModule(url, 'leaselab.wasm', h.get);
  assert.deepEqual(h.urls(), [`HEAD ${url}`, gz]);
  assert.equal(from, gz);
});

test('a redirected module has its .gz asked for beside the file the host answered for', async () => {
  const moved = 'http://course.test/v2/leaselab.wasm?v=2';
  const redirected = () => {
    const r = plain();
    Object.defineProperty(r, 'url', { value: moved });
    Object.defineProperty(r, 'redirected', { value: true });
    return r;
  };
  const h = host({ [URL_]: redirected, 'http://course.test/v2/leaselab.wasm.gz?v=2': () => reply(gzipSync(MODULE)) });
  const { module, from } = await fetchModule(URL_, 'leaselab.wasm', h.get);
  assert.deepEqual(h.urls(), [HEAD, 'http://course.test/v2/leaselab.wasm.gz?v=2']);
  assert.equal(from, 'http://course.test/v2/leaselab.wasm.gz?v=2');
  assert.equal(which(module), 'the build at the URL');
});

test('a .gz the host encodes once more for the way (br, deflate) is still inflated, once', async () => {
  // The browser undoes the host's encoding: the body is the gzip file,
  // unless that encoding was gzip itself (the file's own, as a host that
  // labels .gz files Content-Encoding: gzip sends it).
  for (const [encoding, body] of [
    ['br', gzipSync(MODULE)],
    ['deflate', gzipSync(MODULE)],
    ['zstd', gzipSync(MODULE)],
    ['gzip', MODULE],
    ['x-gzip', MODULE],
  ]) {
    const h = host({
      [URL_]: () => plain(),
      [`${URL_}.gz`]: () =>
        reply(body, { headers: { 'Content-Type': 'application/gzip', 'Content-Encoding': encoding } }),
    });
    const { module, from } = await fetchModule(URL_, 'leaselab.wasm', h.get);
    assert.deepEqual(h.urls(), [HEAD, `${URL_}.gz`], `Content-Encoding: ${encoding}`);
    assert.equal(from, `${URL_}.gz`, encoding);
    assert.equal(which(module), 'the build at the URL', encoding);
  }
});

test('a host that types the module and its .gz application/octet-stream gets the .gz inflated', async () => {
  const octets = { 'Content-Type': 'application/octet-stream' };
  const h = host({
    [URL_]: () => reply(MODULE, { headers: { ...octets, 'Content-Length': String(MODULE.length) } }),
    [`${URL_}.gz`]: () => reply(gzipSync(MODULE), { headers: octets }),
  });
  const { module, from } = await fetchModule(URL_, 'leaselab.wasm', h.get);
  assert.deepEqual(h.urls(), [HEAD, `${URL_}.gz`]);
  assert.equal(from, `${URL_}.gz`);
  assert.equal(which(module), 'the build at the URL');
  const bare = host({ [URL_]: () => reply(MODULE, { headers: octets }) });
  assert.equal(which((await fetchModule(URL_, 'leaselab.wasm', bare.get)).module), 'the build at the URL');
  assert.deepEqual(bare.urls(), [HEAD, `${URL_}.gz`, URL_]);
});

test('a module at a data: or blob: URL, which has no file beside it, is compiled with no other request', async () => {
  for (const url of [
    `data:application/wasm;base64,${Buffer.from(MODULE).toString('base64')}`,
    'blob:http://course.test/0b7c5a6e-6d0e-4a43-9d55-1e2f4a1c2b3d',
  ]) {
    const h = host({ [url]: () => plain() });
    const { module, from } = await fetchModule(url, 'leaselab.wasm', h.get);
    assert.deepEqual(h.urls(), [url], url.slice(0, 5));
    assert.equal(from, url);
    assert.equal(which(module), 'the build at the URL');
  }
});
