// sqlite.c is the engine's SQLite for the browser: SQLite 3.54.1's
// amalgamation compiled with the options below and one VFS of its own, by
// build.sh. It holds what the engine asks of SQLite (wasm/sqlitejs, through
// web/sqlite-bridge.js): databases in memory (SQLite's memdb VFS), prepared
// statements, RETURNING, upsert, recursive CTEs, strftime, trace_v2 with
// expanded SQL, columns' declared types (the Go driver reads BOOLEAN, TEXT
// and time columns as the native driver does), a busy handler that tells a
// lock worth waiting for from a deadlock. What it leaves out the engine
// never reaches: files, threads, extensions, JSON, UTF-16, progress and
// authorizer callbacks, incremental blobs, WAL, the introspection pragmas. None of these options changes
// SQLite's grammar (those that do need SQLite's canonical sources, not the
// amalgamation, and would regenerate its parser). The engine's suites and
// the traces' byte-for-byte parity run on this build (make wasm-test, make
// e2e).

// No threads, no files: every database is memdb's, every temporary table in
// memory.
#define SQLITE_OS_OTHER 1
#define SQLITE_THREADSAFE 0
#define SQLITE_TEMP_STORE 3
#define SQLITE_OMIT_WAL 1
#define SQLITE_OMIT_SHARED_CACHE 1
#define SQLITE_OMIT_LOAD_EXTENSION 1
#define SQLITE_OMIT_SEH 1

// SQLite's recommended options.
#define SQLITE_DQS 0
#define SQLITE_DEFAULT_MEMSTATUS 0
#define SQLITE_LIKE_DOESNT_MATCH_BLOBS 1
#define SQLITE_OMIT_DEPRECATED 1
#define SQLITE_OMIT_PROGRESS_CALLBACK 1

// What the engine never calls.
#define SQLITE_OMIT_JSON 1
#define SQLITE_OMIT_UTF16 1
#define SQLITE_OMIT_AUTHORIZATION 1
#define SQLITE_OMIT_INCRBLOB 1
#define SQLITE_OMIT_COMPLETE 1
#define SQLITE_OMIT_GET_TABLE 1
#define SQLITE_OMIT_TCL_VARIABLE 1
#define SQLITE_OMIT_COMPILEOPTION_DIAGS 1
#define SQLITE_OMIT_INTROSPECTION_PRAGMAS 1
#define SQLITE_UNTESTABLE 1

#include "sqlite3.c"

#include <stdlib.h>
#include <time.h>

// The one VFS, "host": it opens no file (memdb asks the default VFS only for
// randomness, the clock and sleep), and takes randomness and the clock from
// the host (WASI's random_get and clock_time_get, which the bridge answers).

static int hostOpen(sqlite3_vfs *vfs, sqlite3_filename name, sqlite3_file *file, int flags, int *outFlags) {
  (void)vfs, (void)name, (void)flags, (void)outFlags;
  file->pMethods = 0;
  return SQLITE_CANTOPEN;
}

static int hostDelete(sqlite3_vfs *vfs, const char *name, int syncDir) {
  (void)vfs, (void)name, (void)syncDir;
  return SQLITE_OK;
}

static int hostAccess(sqlite3_vfs *vfs, const char *name, int flags, int *out) {
  (void)vfs, (void)name, (void)flags;
  *out = 0;
  return SQLITE_OK;
}

static int hostFullPathname(sqlite3_vfs *vfs, const char *name, int size, char *out) {
  (void)vfs;
  sqlite3_snprintf(size, out, "%s", name);
  return SQLITE_OK;
}

static int hostRandomness(sqlite3_vfs *vfs, int n, char *out) {
  (void)vfs;
  arc4random_buf(out, (size_t)n);
  return n;
}

static int hostSleep(sqlite3_vfs *vfs, int microseconds) {
  (void)vfs;
  return microseconds; // nothing to wait for: no file is ever locked
}

// The time as a Julian day number in milliseconds, as xCurrentTimeInt64
// wants it.
static int hostCurrentTimeInt64(sqlite3_vfs *vfs, sqlite3_int64 *out) {
  (void)vfs;
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  *out = (sqlite3_int64)210866760000000 + (sqlite3_int64)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
  return SQLITE_OK;
}

static int hostCurrentTime(sqlite3_vfs *vfs, double *out) {
  sqlite3_int64 ms;
  hostCurrentTimeInt64(vfs, &ms);
  *out = ms / 86400000.0;
  return SQLITE_OK;
}

static int hostGetLastError(sqlite3_vfs *vfs, int n, char *out) {
  (void)vfs, (void)n, (void)out;
  return 0;
}

static sqlite3_vfs hostVFS = {
    .iVersion = 2,
    .szOsFile = sizeof(sqlite3_file),
    .mxPathname = 1024,
    .zName = "host",
    .xOpen = hostOpen,
    .xDelete = hostDelete,
    .xAccess = hostAccess,
    .xFullPathname = hostFullPathname,
    .xRandomness = hostRandomness,
    .xSleep = hostSleep,
    .xCurrentTime = hostCurrentTime,
    .xGetLastError = hostGetLastError,
    .xCurrentTimeInt64 = hostCurrentTimeInt64,
};

// SQLITE_OS_OTHER leaves these two to the build.
int sqlite3_os_init(void) { return sqlite3_vfs_register(&hostVFS, 1); }
int sqlite3_os_end(void) { return SQLITE_OK; }

// Every connection's busy handler (leaselab_busy_install): it never waits
// (the Go driver waits, so that the goroutine holding the lock can run), but
// records that SQLite asked it. SQLite asks only about a lock worth waiting
// for; a SQLITE_BUSY it returns without asking breaks a deadlock (this
// connection reads and another one holds the write lock), and waiting could
// not end it. leaselab_busy_asked answers whether SQLite asked since it was
// last called, and forgets.
static int leaselabBusyAsked;

static int leaselabBusy(void *arg, int count) {
  (void)arg, (void)count;
  leaselabBusyAsked = 1;
  return 0;
}

int leaselab_busy_install(sqlite3 *db) { return sqlite3_busy_handler(db, leaselabBusy, 0); }

int leaselab_busy_asked(void) {
  int asked = leaselabBusyAsked;
  leaselabBusyAsked = 0;
  return asked;
}
