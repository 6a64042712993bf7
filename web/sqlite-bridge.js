// @ts-check
// sqlite-bridge.js runs the engine's SQLite (sqlite3.wasm: SQLite 3.54.1
// built for the engine from wasm/sqlite, beside the page in sqlite-wasm/) for
// the Go engine: load(source) instantiates the module and defines
// globalThis.leaselabSQLite, which the Go driver wasm/sqlitejs calls
// through syscall/js. Both modules run in one thread (the engine's worker,
// or Node under make wasm-test).
//
// The engine needs a dozen of SQLite's C functions, and a database in memory
// (SQLite's memdb VFS), never a file: the module opens none. Its imports are
// its memory and a few of WASI's calls; time is the JavaScript clock, local
// time is UTC.
//
// Every function is synchronous and never throws for an SQLite failure: it
// answers an array whose first element is SQLite's extended result code.
//   memoryBytes()                  the size of SQLite's linear memory
//   open(filename)                 [rc, db | message]  (a URI filename)
//   close(db)                      [rc, message?]
//   prepare(db, sql)               [rc, stmt | message, parameters]
//       one statement: text after it but blanks and comments is refused
//       with the result code TAIL (-1), as the native driver refuses it
//   finalize(stmt)                 [rc, message?]
//       a prepared statement names its SQL text on db: it shares the
//       statement SQLite compiled for that text with run's text cache
//       below, so that a text is parsed once per database however it is
//       run (measured: the engine's first trace parsed each statement of a
//       transaction twice, and SQLite's parser reached V8's optimizing
//       compiler in the browser's cold start)
//   run(db, stmt|sql, exec)
//       binds the arguments written in io (their count first), steps to the
//       end, resets, and writes its answer to io from 0 (exec true: the last
//       insert rowid is set to 0 first, so that a statement that inserts
//       nothing answers 0, as natively); answers the
//       answer's length in bytes, never an array, negated when io was
//       replaced by a larger buffer during the call (an answer that did not
//       fit, even one that then failed): the caller reads io afresh. A
//       statement given as SQL text is prepared once per database and kept
//       (at most CACHED of them), one statement only, as prepare's.
//   io, grow(n)                    the buffer run reads and writes (a Uint8Array);
//                                  grow makes it n bytes at least
// run's bytes, little-endian (wasm/sqlitejs/wire.go reads and writes them):
//   the arguments              uint32 count, then each as a cell is
//   an argument, and a cell    a kind byte, then: i int64 (8 bytes), f float64
//                              (8 bytes), t text and b blob: uint32 length and
//                              the bytes (text UTF-8), n null: nothing
//   the answer                 int32 result code; when not 0, the message
//                              (uint32 length, UTF-8); else int64 changes,
//                              int64 last insert rowid, uint32 columns, each
//                              column's name (uint32 length, UTF-8) and the
//                              kind of its declared type (a byte: t TEXT, b
//                              BOOLEAN, d DATE, TIME, DATETIME or TIMESTAMP,
//                              n any other), then the cells, row-major
// No JavaScript string or array crosses for a run: each would cost Go a
// finalizer and an encoding, and both sides an allocation.
//   trace(db, f | null)            [rc, message?]  f(expandedSQL) as each statement starts
//   exec(db, sql)                  [rc, changes | message, lastInsertRowid | done]
//                                  any number of statements (the text ends at
//                                  its first NUL), no arguments, in
//                                  turn; changes and the rowid (0 first, as in
//                                  run) as decimal text, exact over int64; on a
//                                  failure, done is how many bytes of the text
//                                  (UTF-8) ran before the failing one
//   autocommit(db)                 whether db is outside a transaction (a bool)
//   busyAsked()                    whether the last SQLITE_BUSY answered came
//                                  after SQLite asked the connection's busy
//                                  handler (a lock worth waiting for: the
//                                  caller waits and runs the statement again),
//                                  not one that breaks a deadlock (it does not)
// A result code of 0 is success, 5 SQLITE_BUSY, TAIL (-1) SQL text of more
// than one statement where one is taken, anything else an error.

const CACHED = 64;
const TAIL = -1; // the result code of SQL text of more than one statement
const IO_BYTES = 64 << 10; // io's first size; it grows as answers need
// The kinds of run's arguments and cells (see above): the letters' codes.
const KIND_INT = 0x69; // 'i'
const KIND_FLOAT = 0x66; // 'f'
const KIND_TEXT = 0x74; // 't'
const KIND_BLOB = 0x62; // 'b'
const KIND_NULL = 0x6e; // 'n'
// The kinds of a column's declared type (see run).
const DECL_TEXT = 0x74; // 't'
const DECL_BOOL = 0x62; // 'b'
const DECL_TIME = 0x64; // 'd'
const DECL_OTHER = 0x6e; // 'n'

// SQLite's constants the bridge uses (sqlite3.h).
const OK = 0;
const ERROR = 1;
const MISUSE = 21;
const RANGE = 25;
const ROW = 100;
const DONE = 101;
const INTEGER = 1;
const FLOAT = 2;
const TEXT = 3;
const BLOB = 4;
const TRACE_STMT = 1;
const TRANSIENT = -1; // SQLITE_TRANSIENT: SQLite copies what is bound
// SQLITE_OPEN_READWRITE | CREATE | URI | EXRESCODE (extended result codes)
const OPEN_FLAGS = 0x2 | 0x4 | 0x40 | 0x02000000;

const EBADF = 8; // what a WASI call on a file descriptor answers
const PAGE = 65536;
const INITIAL_MEMORY = 8388608; // 8 MiB, growing to 2 GiB
const MAX_PAGES = 32768;

/**
 * A WebAssembly module whose one export is the JavaScript function it
 * imports, typed (i32, i32, i32, i32) -> i32: the way to put a JavaScript
 * callback into SQLite's function table (sqlite3_trace_v2's callback).
 */
// biome-ignore format: one line per section of the module
const CALLBACK_MODULE = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // \0asm, version 1
  0x01, 0x09, 0x01, 0x60, 0x04, 0x7f, 0x7f, 0x7f, 0x7f, 0x01, 0x7f, // type: (i32 x4) -> i32
  0x02, 0x07, 0x01, 0x01, 0x65, 0x01, 0x66, 0x00, 0x00, // import "e" "f": func type 0
  0x07, 0x05, 0x01, 0x01, 0x66, 0x00, 0x00, // export "f": func 0
]);

/**
 * @typedef {object} Conn
 * @property {number} db the sqlite3* pointer
 * @property {Map<string, Stmt>} cache SQL text → statement, least recently used first
 * @property {number} [traceSlot] the function table's slot of its trace callback
 *
 * @typedef {object} Stmt
 * @property {number} p the sqlite3_stmt* pointer
 * @property {number} params
 * @property {number} columns
 * @property {Uint32Array} names each column's name (a pointer into SQLite's memory)
 * @property {Uint8Array} decl each column's declared type's kind (see run)
 */

/**
 * Instantiates SQLite's module (compiled, or its bytes), initializes SQLite,
 * defines globalThis.leaselabSQLite and returns it.
 * @param {WebAssembly.Module | BufferSource | Promise<WebAssembly.Module>} source
 */
export async function load(source) {
  const memory = new WebAssembly.Memory({ initial: INITIAL_MEMORY / PAGE, maximum: MAX_PAGES });
  const imports = moduleImports(memory);
  const got = await source;
  const instance =
    got instanceof WebAssembly.Module
      ? await WebAssembly.instantiate(got, imports)
      : (await WebAssembly.instantiate(got, imports)).instance;
  const x = /** @type {any} */ (instance.exports);
  x._initialize(); // wasi-libc's start for a module without main
  const rc = x.sqlite3_initialize();
  if (rc) throw new Error(`sqlite3_initialize: result code ${rc}`);
  const bridge = new Bridge(x, memory);
  /** @type {any} */ (globalThis).leaselabSQLite = bridge;
  return bridge;
}

/**
 * The imports SQLite's module asks for: its memory, and WASI's calls of
 * wasi-libc (wasm/sqlite): no file descriptor but stdout and stderr (to the
 * console), the clock, randomness.
 * @param {WebAssembly.Memory} memory
 */
function moduleImports(memory) {
  const view = () => new DataView(memory.buffer);
  const badf = () => EBADF;
  const wasi = {
    fd_close: badf,
    fd_seek: badf,
    /** @param {number} fd @param {number} iov @param {number} n @param {number} written */
    fd_write(fd, iov, n, written) {
      const v = view();
      let text = '';
      let total = 0;
      for (let i = 0; i < n; i++) {
        const at = v.getUint32(iov + 8 * i, true);
        const len = v.getUint32(iov + 8 * i + 4, true);
        text += new TextDecoder().decode(new Uint8Array(memory.buffer, at, len));
        total += len;
      }
      if (fd === 1 || fd === 2) console.warn(`SQLite: ${text.trimEnd()}`);
      v.setUint32(written, total, true);
      return 0;
    },
    /** @param {number} _clock @param {bigint} _precision @param {number} out */
    clock_time_get(_clock, _precision, out) {
      view().setBigUint64(out, BigInt(Math.round(Date.now() * 1e6)), true);
      return 0;
    },
    /** @param {number} buf @param {number} len */
    random_get(buf, len) {
      crypto.getRandomValues(new Uint8Array(memory.buffer, buf, len));
      return 0;
    },
  };
  return { env: { memory }, wasi_snapshot_preview1: wasi };
}

/**
 * The kind of a column's declared type (see run), as the native driver
 * reads it: the whole type, in any case.
 * @param {string} decl
 */
function declKind(decl) {
  switch (decl.toUpperCase()) {
    case 'TEXT':
      return DECL_TEXT;
    case 'BOOLEAN':
      return DECL_BOOL;
    case 'DATE':
    case 'TIME':
    case 'DATETIME':
    case 'TIMESTAMP':
      return DECL_TIME;
  }
  return DECL_OTHER;
}

/**
 * Whether b (SQL text after a statement, UTF-8) holds more than blanks,
 * semicolons and comments: the native driver's test for a second statement.
 * @param {Uint8Array} b
 */
function statementIn(b) {
  let state = 'code';
  for (const c of b) {
    if (c === 0) break;
    const ch = String.fromCharCode(c);
    switch (state) {
      case 'code':
        if (ch === '/') state = 'slash';
        else if (ch === '-') state = 'minus';
        else if (!' ;\t\n\v\f\r'.includes(ch)) return true;
        break;
      case 'slash':
        if (ch !== '*') return true;
        state = 'ccomment';
        break;
      case 'minus':
        if (ch !== '-') return true;
        state = 'sqlcomment';
        break;
      case 'ccomment':
        if (ch === '*') state = 'endcomment';
        break;
      case 'sqlcomment':
        if (ch === '\n') state = 'code';
        break;
      case 'endcomment':
        state = ch === '/' ? 'code' : ch === '*' ? 'endcomment' : 'ccomment';
        break;
    }
  }
  return state === 'slash' || state === 'minus';
}

/** A failure to answer with: SQLite's result code and message. */
class Failure extends Error {
  /** @param {number} rc @param {string} message */
  constructor(rc, message) {
    super(message);
    this.rc = rc;
  }
}

/** The bridge's functions (see the top of this file). */
class Bridge {
  /**
   * @param {any} x the module's exports
   * @param {WebAssembly.Memory} memory
   */
  constructor(x, memory) {
    this.x = x;
    this.memory = memory;
    this.encoder = new TextEncoder();
    this.decoder = new TextDecoder();
    /** @type {Map<number, Conn>} */
    this.conns = new Map();
    /** @type {Map<number, {sql: string, conn: Conn}>} prepared statements: their text on their connection */
    this.stmts = new Map();
    this.next = 1;
    this.scratch = x.malloc(8); // out-parameters: up to two pointers
    this.io = new Uint8Array(IO_BYTES);
    this.view = new DataView(this.io.buffer); // io's, replaced with it
    this.at = 0; // where the answer being written ends
  }

  /** Makes io n bytes at least (its content is not kept). @param {number} n */
  grow(n) {
    if (n > this.io.length) this.replace(new Uint8Array(Math.max(n, 2 * this.io.length)));
  }

  /** Makes io the buffer run reads and writes. @param {Uint8Array<ArrayBuffer>} io */
  replace(io) {
    this.io = io;
    this.view = new DataView(io.buffer);
  }

  /** Makes room in io for n more bytes of the answer, keeping what is written. @param {number} n */
  room(n) {
    if (this.at + n <= this.io.length) return;
    const io = new Uint8Array(Math.max(this.at + n, 2 * this.io.length));
    io.set(this.io.subarray(0, this.at));
    this.replace(io);
  }

  /** Appends a byte to the answer. @param {number} v */
  putByte(v) {
    this.room(1);
    this.io[this.at++] = v;
  }

  /** Appends a uint32 (or int32) to the answer. @param {number} v */
  put32(v) {
    this.room(4);
    this.view.setUint32(this.at, v >>> 0, true);
    this.at += 4;
  }

  /** Appends an int64 to the answer. @param {bigint} v */
  put64(v) {
    this.room(8);
    this.view.setBigInt64(this.at, v, true);
    this.at += 8;
  }

  /** Appends a float64 to the answer. @param {number} v */
  putFloat(v) {
    this.room(8);
    this.view.setFloat64(this.at, v, true);
    this.at += 8;
  }

  /** Appends n bytes of SQLite's memory at p, after their length. @param {number} p @param {number} n */
  putBytes(p, n) {
    this.put32(n);
    this.room(n);
    this.io.set(new Uint8Array(this.memory.buffer, p, n), this.at);
    this.at += n;
  }

  /** Appends a string as UTF-8, after its length. @param {string} s */
  putText(s) {
    this.room(4 + s.length * 3);
    const { written } = this.encoder.encodeInto(s, this.io.subarray(this.at + 4));
    this.put32(written);
    this.at += written;
  }

  /** SQLite's linear memory, in bytes. */
  memoryBytes() {
    return this.memory.buffer.byteLength;
  }

  /** The NUL-terminated UTF-8 text at p. @param {number} p */
  cstring(p) {
    if (!p) return '';
    const heap = new Uint8Array(this.memory.buffer);
    let end = p;
    while (heap[end]) end++;
    return this.decoder.decode(heap.subarray(p, end));
  }

  /**
   * Runs f with s in SQLite's memory as UTF-8 (NUL-terminated), at a pointer
   * and a length in bytes, then frees it.
   * @template T
   * @param {string} s
   * @param {(p: number, n: number) => T} f
   */
  withText(s, f) {
    const max = s.length * 3 + 1;
    const p = this.x.malloc(max);
    if (!p) throw new Failure(7, 'out of memory'); // SQLITE_NOMEM
    try {
      const { written } = this.encoder.encodeInto(s, new Uint8Array(this.memory.buffer, p, max - 1));
      new Uint8Array(this.memory.buffer)[p + written] = 0;
      return f(p, written);
    } finally {
      this.x.free(p);
    }
  }

  /**
   * Calls f with a copy of b in SQLite's memory, freed when f returns.
   * @template T
   * @param {Uint8Array} b
   * @param {(p: number) => T} f
   */
  withBytes(b, f) {
    const p = this.x.malloc(Math.max(b.length, 1));
    if (!p) throw new Failure(7, 'out of memory'); // SQLITE_NOMEM
    try {
      new Uint8Array(this.memory.buffer).set(b, p);
      return f(p);
    } finally {
      this.x.free(p);
    }
  }

  /**
   * [rc, message] with the message as the native driver words it: SQLite's
   * text for the code, then its message for this failure when that differs.
   * @param {number} rc
   * @param {string} msg
   * @returns {[number, string]}
   */
  described(rc, msg) {
    const what = this.cstring(this.x.sqlite3_errstr(rc));
    return [rc, msg && msg !== what ? `${what}: ${msg}` : what];
  }

  /**
   * The answer for err: its result code and message.
   * @param {unknown} err
   * @returns {[number, string]}
   */
  failure(err) {
    if (err instanceof Failure) return this.described(err.rc, err.message);
    return [ERROR, `leaselab's SQLite bridge: ${err instanceof Error ? err.message : String(err)}`];
  }

  /** A Failure from db's last error. @param {number} rc @param {number} db */
  failed(rc, db) {
    return new Failure(rc, this.cstring(this.x.sqlite3_errmsg(db)));
  }

  /** @param {number} id */
  conn(id) {
    const conn = this.conns.get(id);
    if (!conn) throw new Failure(MISUSE, 'database connection is closed');
    return conn;
  }

  /** @param {string} filename a URI filename */
  open(filename) {
    try {
      const x = this.x;
      const rc = this.withText(filename, (p) => x.sqlite3_open_v2(p, this.scratch, OPEN_FLAGS, 0));
      const db = new DataView(this.memory.buffer).getUint32(this.scratch, true);
      if (rc) {
        const err = db ? this.failed(rc, db) : new Failure(rc, '');
        x.sqlite3_close_v2(db);
        throw err;
      }
      const busy = x.leaselab_busy_install(db);
      if (busy) {
        x.sqlite3_close_v2(db);
        throw new Failure(busy, '');
      }
      const id = this.next++;
      this.conns.set(id, { db, cache: new Map() });
      return [OK, id];
    } catch (err) {
      return this.failure(err);
    }
  }

  /** @param {number} id */
  close(id) {
    const conn = this.conns.get(id);
    if (!conn) return [OK];
    this.conns.delete(id);
    for (const [sid, s] of this.stmts) if (s.conn === conn) this.stmts.delete(sid);
    for (const stmt of conn.cache.values()) this.x.sqlite3_finalize(stmt.p);
    conn.cache.clear();
    const rc = this.x.sqlite3_close_v2(conn.db);
    if (conn.traceSlot !== undefined) this.x.__indirect_function_table.set(conn.traceSlot, null);
    return rc ? this.described(rc, '') : [OK];
  }

  /**
   * The one statement of sql on conn; text after it but blanks and
   * comments is refused (TAIL).
   * @param {Conn} conn @param {string} sql @returns {Stmt}
   */
  compile(conn, sql) {
    const x = this.x;
    let tail = false;
    const rc = this.withText(sql, (at, n) => {
      const rc = x.sqlite3_prepare_v2(conn.db, at, n + 1, this.scratch, this.scratch + 4);
      const rest = new DataView(this.memory.buffer).getUint32(this.scratch + 4, true);
      tail = rc === OK && rest !== 0 && statementIn(new Uint8Array(this.memory.buffer, rest, at + n - rest));
      return rc;
    });
    const p = new DataView(this.memory.buffer).getUint32(this.scratch, true);
    if (rc) throw this.failed(rc, conn.db);
    if (tail) {
      x.sqlite3_finalize(p);
      throw new Failure(TAIL, 'multiple statements');
    }
    if (!p) throw new Failure(MISUSE, 'no statement in the SQL text');
    return { p, params: x.sqlite3_bind_parameter_count(p), ...this.describe(p) };
  }

  /**
   * The columns of the statement p: their count, names and declared types' kinds.
   * @param {number} p
   */
  describe(p) {
    const x = this.x;
    const columns = x.sqlite3_column_count(p);
    const names = new Uint32Array(columns);
    const decl = new Uint8Array(columns);
    for (let c = 0; c < columns; c++) {
      names[c] = x.sqlite3_column_name(p, c);
      decl[c] = declKind(this.cstring(x.sqlite3_column_decltype(p, c)));
    }
    return { columns, names, decl };
  }

  /**
   * Reads stmt's columns again when SQLite prepared it again since they were
   * read: sqlite3_step does, keeping the handle, when the schema changed
   * (a column added, a table made anew), and the columns may have changed
   * with it. A statement prepared again holds its columns' names in new
   * memory, allocated while the old still was: a name at another address,
   * or another count, tells.
   * @param {Stmt} stmt
   */
  columnsNow(stmt) {
    const x = this.x;
    const p = stmt.p;
    let same = x.sqlite3_column_count(p) === stmt.columns;
    for (let c = 0; same && c < stmt.columns; c++) same = x.sqlite3_column_name(p, c) === stmt.names[c];
    if (!same) Object.assign(stmt, this.describe(p));
  }

  /** Whether connection id is outside a transaction. @param {number} id */
  autocommit(id) {
    const conn = this.conns.get(id);
    return conn !== undefined && this.x.sqlite3_get_autocommit(conn.db) !== 0;
  }

  /** Whether SQLite asked a busy handler since the last run or exec began. */
  busyAsked() {
    return this.x.leaselab_busy_asked() !== 0;
  }

  /** @param {number} id @param {string} sql */
  prepare(id, sql) {
    this.x.leaselab_busy_asked();
    try {
      const conn = this.conn(id);
      const stmt = this.cached(conn, sql);
      const sid = this.next++;
      this.stmts.set(sid, { sql, conn });
      return [OK, sid, stmt.params];
    } catch (err) {
      return this.failure(err);
    }
  }

  /** @param {number} sid */
  finalize(sid) {
    this.stmts.delete(sid); // its compiled statement stays in the text cache
    return [OK];
  }

  /**
   * The cached statement for sql on conn, prepared on first use; the least
   * recently used one is finalized when more than CACHED are kept.
   * @param {Conn} conn
   * @param {string} sql
   */
  cached(conn, sql) {
    let stmt = conn.cache.get(sql);
    if (stmt) {
      conn.cache.delete(sql); // most recently used goes last
    } else {
      stmt = this.compile(conn, sql);
      if (conn.cache.size >= CACHED) {
        const oldest = /** @type {[string, Stmt]} */ (conn.cache.entries().next().value);
        conn.cache.delete(oldest[0]);
        this.x.sqlite3_finalize(oldest[1].p);
      }
    }
    conn.cache.set(sql, stmt);
    return stmt;
  }

  /**
   * @param {number} id
   * @param {number | string} key a prepared statement, or SQL text
   * @param {boolean} exec whether the last insert rowid starts at 0
   * @returns {number} the answer's length in io, negated when io was replaced
   */
  run(id, key, exec) {
    const io = this.io;
    /** @type {Stmt | undefined} */
    let stmt;
    this.x.leaselab_busy_asked();
    try {
      const conn = this.conn(id);
      if (typeof key === 'string') {
        stmt = this.cached(conn, key);
      } else {
        const s = this.stmts.get(key);
        if (!s || s.conn !== conn) throw new Failure(MISUSE, 'statement is finalized');
        stmt = this.cached(conn, s.sql);
      }
      const count = this.view.getUint32(0, true);
      if (count !== stmt.params) throw new Failure(RANGE, `the statement takes ${stmt.params} arguments, not ${count}`);
      this.bind(conn, stmt, count);
      if (exec) this.x.sqlite3_set_last_insert_rowid(conn.db, 0n);
      this.steps(conn, stmt);
    } catch (err) {
      const [rc, msg] = this.failure(err);
      this.at = 0;
      this.put32(rc);
      this.putText(msg);
    } finally {
      if (stmt) {
        this.x.sqlite3_reset(stmt.p);
        this.x.sqlite3_clear_bindings(stmt.p);
      }
    }
    return this.io === io ? this.at : -this.at;
  }

  /**
   * Binds the count arguments written in io after their count to stmt.
   * @param {Conn} conn
   * @param {Stmt} stmt
   * @param {number} count
   */
  bind(conn, stmt, count) {
    const x = this.x;
    const p = stmt.p;
    const io = this.io;
    const view = this.view;
    let at = 4;
    for (let i = 0; i < count; i++) {
      const kind = io[at++];
      let rc = OK;
      if (kind === KIND_INT) {
        rc = x.sqlite3_bind_int64(p, i + 1, view.getBigInt64(at, true));
        at += 8;
      } else if (kind === KIND_FLOAT) {
        rc = x.sqlite3_bind_double(p, i + 1, view.getFloat64(at, true));
        at += 8;
      } else if (kind === KIND_TEXT || kind === KIND_BLOB) {
        const n = view.getUint32(at, true);
        at += 4;
        rc = this.withBytes(io.subarray(at, at + n), (mem) =>
          kind === KIND_TEXT
            ? x.sqlite3_bind_text(p, i + 1, mem, n, TRANSIENT)
            : x.sqlite3_bind_blob(p, i + 1, mem, n, TRANSIENT),
        );
        at += n;
      } else {
        rc = x.sqlite3_bind_null(p, i + 1);
      }
      if (rc) throw this.failed(rc, conn.db);
    }
  }

  /**
   * Steps stmt to its end and writes its answer to io, this.at long.
   * @param {Conn} conn
   * @param {Stmt} stmt
   */
  steps(conn, stmt) {
    const x = this.x;
    const p = stmt.p;
    let rc = x.sqlite3_step(p); // first: it may prepare the statement again
    this.columnsNow(stmt);
    const n = stmt.columns;
    this.at = 0;
    this.put32(OK);
    this.put64(0n); // changes and the last rowid, once known
    this.put64(0n);
    this.put32(n);
    for (let c = 0; c < n; c++) {
      const name = stmt.names[c];
      this.putBytes(name, name ? new Uint8Array(this.memory.buffer).indexOf(0, name) - name : 0);
      this.putByte(stmt.decl[c]);
    }
    for (; rc === ROW; rc = x.sqlite3_step(p)) {
      for (let c = 0; c < n; c++) this.cell(p, c);
    }
    if (rc !== DONE) throw this.failed(rc, conn.db);
    this.view.setBigInt64(4, x.sqlite3_changes64(conn.db), true);
    this.view.setBigInt64(12, x.sqlite3_last_insert_rowid(conn.db), true);
  }

  /**
   * Appends column c of the row p stands on to the answer.
   * @param {number} p
   * @param {number} c
   */
  cell(p, c) {
    const x = this.x;
    switch (x.sqlite3_column_type(p, c)) {
      case INTEGER:
        this.putByte(KIND_INT);
        this.put64(x.sqlite3_column_int64(p, c));
        return;
      case FLOAT:
        this.putByte(KIND_FLOAT);
        this.putFloat(x.sqlite3_column_double(p, c));
        return;
      case TEXT: {
        this.putByte(KIND_TEXT);
        const at = x.sqlite3_column_text(p, c);
        this.putBytes(at, x.sqlite3_column_bytes(p, c));
        return;
      }
      case BLOB: {
        this.putByte(KIND_BLOB);
        const at = x.sqlite3_column_blob(p, c);
        this.putBytes(at, x.sqlite3_column_bytes(p, c));
        return;
      }
      default:
        this.putByte(KIND_NULL);
    }
  }

  /**
   * Calls f with the expanded SQL of each statement the connection starts
   * (SQLITE_TRACE_STMT), or stops when f is null.
   * @param {number} id
   * @param {((sql: string) => void) | null} f
   */
  trace(id, f) {
    try {
      const conn = this.conn(id);
      const x = this.x;
      /** @type {WebAssembly.Table} */
      const table = x.__indirect_function_table;
      if (!f) {
        const rc = x.sqlite3_trace_v2(conn.db, 0, 0, 0);
        return rc ? this.described(rc, '') : [OK];
      }
      /** @param {number} _t @param {number} _c @param {number} p */
      const each = (_t, _c, p) => {
        const text = x.sqlite3_expanded_sql(p);
        f(this.cstring(text));
        x.sqlite3_free(text);
        return 0;
      };
      const wrapped = new WebAssembly.Instance(new WebAssembly.Module(CALLBACK_MODULE), { e: { f: each } }).exports.f;
      if (conn.traceSlot === undefined) conn.traceSlot = table.grow(1, wrapped);
      else table.set(conn.traceSlot, wrapped);
      const rc = x.sqlite3_trace_v2(conn.db, TRACE_STMT, conn.traceSlot, 0);
      return rc ? this.described(rc, '') : [OK];
    } catch (err) {
      return this.failure(err);
    }
  }

  /** @param {number} id @param {string} sql any number of statements (up to a NUL), no arguments */
  exec(id, sql) {
    try {
      const conn = this.conn(id);
      const x = this.x;
      x.leaselab_busy_asked();
      x.sqlite3_set_last_insert_rowid(conn.db, 0n);
      return this.withText(sql, (base, n) => {
        // The text ends at its first NUL, as sqlite3_exec reads it natively:
        // prepared past it, a statement would end there and the next begin
        // there, over and over.
        const end = new Uint8Array(this.memory.buffer, base, n + 1).indexOf(0) + base;
        for (let at = base; at < end; ) {
          const rc = x.sqlite3_prepare_v2(conn.db, at, end - at, this.scratch, this.scratch + 4);
          const out = new DataView(this.memory.buffer);
          const stmt = out.getUint32(this.scratch, true);
          const next = out.getUint32(this.scratch + 4, true);
          if (rc) return [...this.described(rc, this.cstring(x.sqlite3_errmsg(conn.db))), at - base];
          let step = DONE;
          if (stmt) {
            do step = x.sqlite3_step(stmt);
            while (step === ROW);
          }
          const msg = step === DONE ? '' : this.cstring(x.sqlite3_errmsg(conn.db));
          x.sqlite3_finalize(stmt);
          // The statements before this one ran: a caller that waits out
          // SQLITE_BUSY runs the text again from here (bytes into it).
          if (step !== DONE) return [...this.described(step, msg), at - base];
          at = next;
        }
        return [OK, String(x.sqlite3_changes64(conn.db)), String(x.sqlite3_last_insert_rowid(conn.db))];
      });
    } catch (err) {
      return this.failure(err);
    }
  }
}
