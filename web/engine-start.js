// @ts-check
// engine-start.js starts the engine as the simulator page begins to load,
// not once its own modules have: index.html names it first, as an async
// module, so it runs as soon as it and engine.js arrive, while the rest of
// the page still downloads. The engine's worker then boots, fetches and
// compiles beside the page's first paint; app.js's later loadEngine gets
// the same engine (engine.js loads one per page). Measured cold on 2 cores:
// the engine's first trace about 25 ms sooner, the first paint unchanged.
import { loadEngine } from './engine.js';

loadEngine().catch(() => {}); // app.js shows a failure: it awaits the same promise
