// engine.js loads the leaselab engine (leaselab.wasm, built from wasm/sim)
// once per page: every caller of loadEngine — the simulator page, any
// number of <lease-timeline> elements — shares one download, one compiled
// module and one Go runtime. Each run still gets an in-memory database of
// its own, so the callers never see one another's jobs.

let loading = null;

/** Whether loadEngine has been called on this page. */
export function engineRequested() {
  return loading !== null;
}

/**
 * Loads the engine the first time it is called and resolves to its API
 * (globalThis.leaselab: run, worksheet, goTest, library, mutants, langs,
 * version); later calls return the same promise. The files are found next
 * to this module, wherever the page itself lives.
 */
export function loadEngine() {
  if (!loading) loading = start();
  return loading;
}

async function start() {
  await import('./wasm_exec.js');
  const go = new globalThis.Go();
  const root = document.documentElement;
  // The engine marks <html data-engine="ready"> through the DOM once its
  // API is in place (wasm/sim).
  const ready = new Promise((resolve) => {
    const check = () => globalThis.leaselab && root.dataset.engine && root.dataset.engine !== 'loading';
    if (check()) { resolve(); return; }
    const seen = new MutationObserver(() => { if (check()) { seen.disconnect(); resolve(); } });
    seen.observe(root, { attributes: true, attributeFilter: ['data-engine'] });
  });
  if (!root.dataset.engine) root.dataset.engine = 'loading';
  const resp = fetch(new URL('leaselab.wasm', import.meta.url));
  let instance;
  try {
    ({ instance } = await WebAssembly.instantiateStreaming(resp, go.importObject));
  } catch (err) {
    const r = await resp;
    if (!r.ok) throw new Error(`leaselab.wasm: HTTP ${r.status} (build it with make wasm)`);
    throw err;
  }
  const stopped = go.run(instance).then(() => Promise.reject(new Error('the engine stopped')));
  stopped.catch(() => { root.dataset.engine = 'stopped'; });
  await Promise.race([ready, stopped]);
  return globalThis.leaselab;
}
