// @ts-check
// early-worker.js: the simulator page's first script (index.html), a
// classic one that runs before any module of the page arrives. It starts
// the engine's worker, which engine.js takes over (its EARLY), so that the
// engine downloads while the page's modules do. A file, not an inline
// script: the page then runs under a policy that allows scripts from
// 'self' only, the guide's.
(() => {
  try {
    const module = new URL('leaselab.wasm', document.baseURI).href;
    const url = new URL('engine-worker.bundle.js', document.baseURI);
    url.searchParams.set('module', module);
    const worker = new Worker(url, { type: 'module', name: 'leaselab engine' });
    /** @type {any[]} */
    const messages = [];
    worker.onmessage = (e) => messages.push(e.data);
    worker.onerror = (e) => messages.push({ type: 'failed', message: e.message || url.href });
    /** @type {any} */ (globalThis).leaselabEarlyEngine = { module, worker, messages };
  } catch {
    // No worker here: engine.js starts one when the page's modules run.
  }
})();
