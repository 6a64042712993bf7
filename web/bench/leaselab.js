// leaselab.js: the bare job cycle on leaselab's engine, the simulator's own
// WebAssembly (../leaselab.wasm, wasm/sim) through benchCycles, in the
// engine's Web Worker as the simulator runs it (../engine.js). The module
// is fetched under its own URL (?page=bench) so that this page and the
// simulator keep separate HTTP and code caches, and each one's cold start
// is measured cold.
import { openEngine } from '../engine.js';
import { start } from './measure.js';

start(async () => {
  const root = document.documentElement;
  const api = await openEngine(new URL('../leaselab.wasm?page=bench', import.meta.url), (s) => {
    root.dataset.engine = s;
  });
  globalThis.leaselab = api; // the harness reads the worker's memory through it
  return {
    version: api.version,
    cycles: (n) => api.benchCycles(n),
    wasmBytes: () => api.wasmBytes(),
  };
});
