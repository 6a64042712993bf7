// @ts-check
// grader-worker.js is the worker of a coding exercise (<lease-exercise>,
// engine.js loadGrader): the engine's worker (engine-worker.js, which
// loads the SQLite bridge and Go's runtime beside it), started from a
// script of its own so that a server can send this one
// script, and no other, with a policy allowing 'unsafe-eval', which running
// the reader's own JavaScript needs. Every other engine worker keeps the
// page's policy.
import './engine-worker.js';
