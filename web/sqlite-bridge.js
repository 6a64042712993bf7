// @ts-check
// sqlite-bridge.js puts SQLite's official WebAssembly build (npm
// @sqlite.org/sqlite-wasm, pinned in web/sqlite-wasm) in reach of the Go
// engine: install(sqlite3) defines globalThis.leaselabSQLite, which the Go
// driver engine/sqlitejs calls through syscall/js. The engine's Go module
// then holds no SQLite of its own; both modules run in the same thread
// (the engine's worker, or Node under make wasm-test).
//
// Every function is synchronous and never throws for an SQLite failure: it
// answers an array whose first element is SQLite's result code.
//   version()                      SQLite's version
//   memoryBytes()                  the size of SQLite's linear memory
//   open(filename)                 [rc, db | message]  (a URI filename)
//   close(db)                      [rc, message?]
//   prepare(db, sql)               [rc, stmt | message, parameters]
//   finalize(stmt)                 [rc, message?]
//   run(db, stmt|sql, kinds, ...args)
//       binds args (kinds: one letter each: i integer as a number, I integer
//       as a decimal string, f float, t text, b blob (Uint8Array), n null),
//       steps to the end, resets, and answers
//       [rc, changes | message, lastInsertRowid, cellKinds, names, ...cells]:
//       names is the column names joined by NUL; cellKinds one letter per
//       cell, row-major, as above; an integer beyond 2^53 is a decimal string
//       (kind I). A statement given as SQL text is prepared once per
//       database and kept (at most CACHED of them).
//   trace(db, f | null)            [rc, message?]  f(expandedSQL) as each statement starts
//   exec(db, sql)                  [rc, changes | message, lastInsertRowid]
//                                  any number of statements, no arguments
// A result code is SQLite's extended code: 0 done, 5 SQLITE_BUSY (the
// caller waits and runs the statement again), anything else an error.

const CACHED = 64;
const MIN = BigInt(Number.MIN_SAFE_INTEGER);
const MAX = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * @typedef {object} Conn
 * @property {any} db the oo1.DB
 * @property {Map<string, any>} cache SQL text → oo1.Stmt, oldest first
 */

/**
 * Defines globalThis.leaselabSQLite over sqlite3, the object
 * sqlite3InitModule() resolves, and returns it.
 * @param {any} sqlite3
 */
export function install(sqlite3) {
  const bridge = new Bridge(sqlite3);
  /** @type {any} */ (globalThis).leaselabSQLite = bridge;
  return bridge;
}

/** A number when it is exact as one, else its decimal text. @param {bigint} v */
const exact = (v) => (v >= MIN && v <= MAX ? Number(v) : String(v));

/** The bridge's functions (see the top of this file). */
class Bridge {
  /** @param {any} sqlite3 */
  constructor(sqlite3) {
    this.sqlite3 = sqlite3;
    this.capi = sqlite3.capi;
    /** @type {Map<number, Conn>} */
    this.conns = new Map();
    /** @type {Map<number, {stmt: any, conn: Conn}>} */
    this.stmts = new Map();
    this.next = 1;
  }

  /** SQLite's version. */
  version() {
    return this.sqlite3.version.libVersion;
  }

  /** SQLite's linear memory, in bytes. */
  memoryBytes() {
    return this.sqlite3.wasm.heap8u().byteLength;
  }

  /**
   * [rc, message] with the message as the native driver words it: SQLite's
   * text for the code, then its message for this failure when that differs.
   * @param {number} rc
   * @param {string} msg
   * @returns {[number, string]}
   */
  described(rc, msg) {
    const what = this.capi.sqlite3_errstr(rc);
    return [rc, msg && msg !== what ? `${what}: ${msg}` : what];
  }

  /**
   * The failure err as [rc, message]: SQLite's own message when it is one.
   * @param {any} err
   */
  failure(err) {
    const rc = typeof err?.resultCode === 'number' ? err.resultCode : 1;
    return this.described(rc, String(err?.message || err).replace(/^SQLITE_[A-Z_]+: sqlite3 result code \d+: /, ''));
  }

  /** @param {number} rc @param {string} msg */
  error(rc, msg) {
    return new this.sqlite3.SQLite3Error(rc, msg);
  }

  /** @param {number} id */
  conn(id) {
    const conn = this.conns.get(id);
    if (!conn) throw this.error(this.capi.SQLITE_MISUSE, 'database connection is closed');
    return conn;
  }

  /** @param {string} filename a URI filename */
  open(filename) {
    try {
      const db = new this.sqlite3.oo1.DB({ filename, flags: 'c' });
      const id = this.next++;
      this.conns.set(id, { db, cache: new Map() });
      return [0, id];
    } catch (err) {
      return this.failure(err);
    }
  }

  /** @param {number} id */
  close(id) {
    const conn = this.conns.get(id);
    if (!conn) return [0];
    this.conns.delete(id);
    for (const [sid, s] of this.stmts) if (s.conn === conn) this.stmts.delete(sid);
    try {
      conn.db.close(); // finalizes its statements, the cached ones too
      return [0];
    } catch (err) {
      return this.failure(err);
    }
  }

  /** @param {number} id @param {string} sql */
  prepare(id, sql) {
    try {
      const conn = this.conn(id);
      const stmt = conn.db.prepare(sql);
      const sid = this.next++;
      this.stmts.set(sid, { stmt, conn });
      return [0, sid, stmt.parameterCount];
    } catch (err) {
      return this.failure(err);
    }
  }

  /** @param {number} sid */
  finalize(sid) {
    const s = this.stmts.get(sid);
    if (!s) return [0];
    this.stmts.delete(sid);
    try {
      s.stmt.finalize();
      return [0];
    } catch (err) {
      return this.failure(err);
    }
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
      stmt = conn.db.prepare(sql);
      if (conn.cache.size >= CACHED) {
        const oldest = /** @type {[string, any]} */ (conn.cache.entries().next().value);
        conn.cache.delete(oldest[0]);
        oldest[1].finalize();
      }
    }
    conn.cache.set(sql, stmt);
    return stmt;
  }

  /**
   * @param {number} id
   * @param {number | string} key a prepared statement, or SQL text
   * @param {string} kinds
   * @param {...unknown} args
   */
  run(id, key, kinds, ...args) {
    let stmt;
    try {
      const conn = this.conn(id);
      if (typeof key === 'string') {
        stmt = this.cached(conn, key);
      } else {
        const s = this.stmts.get(key);
        if (!s || s.conn !== conn) throw this.error(this.capi.SQLITE_MISUSE, 'statement is finalized');
        stmt = s.stmt;
      }
      if (kinds.length !== stmt.parameterCount)
        throw this.error(
          this.capi.SQLITE_RANGE,
          `the statement takes ${stmt.parameterCount} arguments, not ${kinds.length}`,
        );
      this.bind(stmt, kinds, args);
      return this.steps(conn.db, stmt);
    } catch (err) {
      return this.failure(err);
    } finally {
      if (stmt) {
        this.capi.sqlite3_reset(stmt.pointer);
        this.capi.sqlite3_clear_bindings(stmt.pointer);
      }
    }
  }

  /**
   * @param {any} stmt
   * @param {string} kinds
   * @param {unknown[]} args
   */
  bind(stmt, kinds, args) {
    const capi = this.capi;
    const p = stmt.pointer;
    for (let i = 0; i < kinds.length; i++) {
      const v = args[i];
      let rc = 0;
      switch (kinds[i]) {
        case 'i':
        case 'I':
          rc = capi.sqlite3_bind_int64(p, i + 1, BigInt(/** @type {number | string} */ (v)));
          break;
        case 'f':
          rc = capi.sqlite3_bind_double(p, i + 1, /** @type {number} */ (v));
          break;
        case 'n':
          rc = capi.sqlite3_bind_null(p, i + 1);
          break;
        default:
          stmt.bind(i + 1, v); // t and b: oo1 copies the text or bytes into SQLite
      }
      if (rc) throw this.error(rc, capi.sqlite3_errmsg(capi.sqlite3_db_handle(p)));
    }
  }

  /**
   * Steps stmt to its end and answers its rows after rc (or [rc, message]).
   * @param {any} db
   * @param {any} stmt
   */
  steps(db, stmt) {
    const capi = this.capi;
    const p = stmt.pointer;
    const n = stmt.columnCount;
    /** @type {unknown[]} */
    const cells = [];
    let kinds = '';
    let rc = capi.sqlite3_step(p);
    for (; rc === capi.SQLITE_ROW; rc = capi.sqlite3_step(p)) {
      for (let c = 0; c < n; c++) {
        const [k, v] = this.cell(p, c);
        kinds += k;
        cells.push(v);
      }
    }
    if (rc !== capi.SQLITE_DONE) return this.described(rc, capi.sqlite3_errmsg(db.pointer));
    let names = '';
    for (let c = 0; c < n; c++) names += (c ? '\0' : '') + capi.sqlite3_column_name(p, c);
    const last = exact(capi.sqlite3_last_insert_rowid(db.pointer));
    return [0, Number(capi.sqlite3_changes64(db.pointer)), last, kinds, names, ...cells];
  }

  /**
   * Column c of the row p stands on, as [kind, value].
   * @param {any} p
   * @param {number} c
   * @returns {[string, unknown]}
   */
  cell(p, c) {
    const capi = this.capi;
    switch (capi.sqlite3_column_type(p, c)) {
      case capi.SQLITE_INTEGER: {
        const v = exact(capi.sqlite3_column_int64(p, c));
        return typeof v === 'number' ? ['i', v] : ['I', v];
      }
      case capi.SQLITE_FLOAT:
        return ['f', capi.sqlite3_column_double(p, c)];
      case capi.SQLITE_TEXT:
        return ['t', capi.sqlite3_column_text(p, c)];
      case capi.SQLITE_BLOB: {
        const at = capi.sqlite3_column_blob(p, c);
        return ['b', this.sqlite3.wasm.heap8u().slice(at, at + capi.sqlite3_column_bytes(p, c))];
      }
      default:
        return ['n', null];
    }
  }

  /**
   * Calls f with the expanded SQL of each statement the connection starts
   * (SQLITE_TRACE_STMT), or stops when f is null.
   * @param {number} id
   * @param {((sql: string) => void) | null} f
   */
  trace(id, f) {
    const capi = this.capi;
    const w = this.sqlite3.wasm;
    try {
      const db = this.conn(id).db;
      /** @param {number} _t @param {any} _c @param {any} p */
      const each = (_t, _c, p) => {
        const text = w.exports.sqlite3_expanded_sql(p);
        f?.(w.cstrToJs(text));
        capi.sqlite3_free(text);
        return 0;
      };
      const rc = f
        ? capi.sqlite3_trace_v2(db.pointer, capi.SQLITE_TRACE_STMT, each, 0)
        : capi.sqlite3_trace_v2(db.pointer, 0, 0, 0);
      return rc ? this.described(rc, capi.sqlite3_errmsg(db.pointer)) : [0];
    } catch (err) {
      return this.failure(err);
    }
  }

  /** @param {number} id @param {string} sql any number of statements, no arguments */
  exec(id, sql) {
    try {
      const db = this.conn(id).db;
      db.exec(sql);
      const rowid = exact(this.capi.sqlite3_last_insert_rowid(db.pointer));
      return [0, Number(this.capi.sqlite3_changes64(db.pointer)), typeof rowid === 'number' ? rowid : 0];
    } catch (err) {
      return this.failure(err);
    }
  }
}
