// run.mjs runs a GOOS=js program (a go test binary under make wasm-test)
// in Node the way the page's engine worker runs the engine: the engine's
// SQLite (web/sqlite-wasm/sqlite3.wasm, which make builds from wasm/sqlite) is
// loaded first and bridged for the Go driver wasm/sqlitejs
// (web/sqlite-bridge.js), then the Go program starts.
// It is Go's wasm_exec_node.js with that one step added.
//
//   node --stack-size=8192 run.mjs GOROOT/lib/wasm/wasm_exec.js prog.wasm [args...]
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import process from 'node:process';
import { load } from '../../web/sqlite-bridge.js';

const SQLITE_WASM = new URL('../../web/sqlite-wasm/sqlite3.wasm', import.meta.url);

if (process.argv.length < 4) {
  console.error('usage: node run.mjs GOROOT/lib/wasm/wasm_exec.js prog.wasm [args...]');
  process.exit(1);
}
const require = createRequire(import.meta.url);
globalThis.require = require;
globalThis.fs = require('node:fs');
globalThis.path = require('node:path');
require(process.argv[2]); // defines globalThis.Go

await load(readFileSync(SQLITE_WASM));

const go = new globalThis.Go();
go.argv = process.argv.slice(3);
go.env = Object.assign({ TMPDIR: tmpdir() }, process.env);
go.exit = process.exit;
try {
  const { instance } = await WebAssembly.instantiate(readFileSync(process.argv[3]), go.importObject);
  process.on('exit', (code) => {
    // Node exits when no event is pending: a deadlock; make Go say where.
    if (code === 0 && !go.exited) {
      go._pendingEvent = { id: 0 };
      go._resume();
    }
  });
  await go.run(instance);
} catch (err) {
  console.error(err);
  process.exit(1);
}
