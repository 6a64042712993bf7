// leaselab.js: the bare job cycle on leaselab's engine, the simulator's own
// WebAssembly (../leaselab.wasm, wasm/sim) through leaselab.benchCycles.
// The module is fetched under its own URL (?page=bench) so that this page
// and the simulator keep separate HTTP and code caches, and each one's cold
// start is measured cold.
import { start } from './measure.js';

start(async () => {
  await import('../wasm_exec.js');
  const go = new globalThis.Go();
  const root = document.documentElement;
  const ready = new Promise((resolve) => {
    // The engine marks <html data-engine="ready"> once globalThis.leaselab is set.
    const seen = new MutationObserver(() => {
      if (globalThis.leaselab && root.dataset.engine !== 'loading') {
        seen.disconnect();
        resolve();
      }
    });
    seen.observe(root, { attributes: true, attributeFilter: ['data-engine'] });
  });
  const { instance } = await WebAssembly.instantiateStreaming(fetch('../leaselab.wasm?page=bench'), go.importObject);
  go.run(instance);
  await ready;
  const api = globalThis.leaselab;
  return {
    version: api.version,
    cycles: (n) => api.benchCycles(n),
    wasmBytes: () => instance.exports.mem.buffer.byteLength,
  };
});
