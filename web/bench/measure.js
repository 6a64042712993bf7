// measure.js is what the two benchmark pages share: they run the same bare
// job cycle (enqueue -> claim by id -> complete, on an in-memory SQLite) on
// two engines, and make bench (engine/internal/bench/browser) times them
// side by side in headless Chromium. A person can open them too.
//
// The contract a page keeps with the harness:
//   <html data-bench="loading|ready|error">, data-error: the failure's message;
//   data-first-result: ms from navigation until the first cycle was done
//     (the engine loaded, its database opened, one cycle run);
//   window.bench.rate(ms): runs cycles in batches for at least ms and
//     resolves {cycles, ms}; window.bench.wasmBytes(): the engine's
//     WebAssembly linear memory in bytes (or a Promise of it);
//     window.bench.version.

const BATCH = 100; // cycles per call into the engine

/**
 * Starts a benchmark page. open() loads the engine and resolves
 * {version, cycles(n), wasmBytes()}: cycles(n) runs n cycles (it may return
 * a Promise) and returns n, or throws on a cycle that did not go as it must;
 * wasmBytes() may return a Promise too.
 */
export async function start(open) {
  const root = document.documentElement;
  const show = (id, text) => {
    document.getElementById(id).textContent = text;
  };
  try {
    const engine = await open();
    await engine.cycles(1);
    const first = performance.now();
    root.dataset.firstResult = first.toFixed(1);
    show('version', engine.version);
    show('first', `first cycle done ${Math.round(first)} ms after navigation`);
    const rate = async (ms) => {
      let cycles = 0;
      const t0 = performance.now();
      let spent = 0;
      do {
        cycles += await engine.cycles(BATCH);
        spent = performance.now() - t0;
      } while (spent < ms);
      return { cycles, ms: spent };
    };
    window.bench = { version: engine.version, rate, wasmBytes: engine.wasmBytes };
    const button = document.getElementById('measure');
    button.disabled = false;
    button.addEventListener('click', async () => {
      button.disabled = true;
      show('rate', 'measuring for 5 s…');
      await new Promise((resolve) => setTimeout(resolve, 50)); // let it paint
      const r = await rate(5000);
      show('rate', `${Math.round(r.cycles / (r.ms / 1000))} cycles/s (${r.cycles} cycles in ${Math.round(r.ms)} ms)`);
      button.disabled = false;
    });
    root.dataset.bench = 'ready';
  } catch (err) {
    root.dataset.error = String(err?.message || err);
    root.dataset.bench = 'error';
    show('first', `failed: ${root.dataset.error}`);
  }
}
