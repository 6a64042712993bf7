// sqlite.c is the engine's SQLite for the browser: SQLite 3.54.1's
// amalgamation compiled with the options below and one VFS of its own, by
// build.sh. It holds what the engine asks of SQLite (wasm/sqlitejs, through
// web/sqlite-bridge.js): databases in memory (a memdb VFS of its own, below), prepared
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

// No threads, no files: every database is in memory (the memdb VFS below),
// every temporary table in memory. SQLite's own memdb is left out
// (SQLITE_OMIT_DESERIALIZE, with sqlite3_deserialize, which the engine never
// calls): it keeps a file in one buffer that doubles as it grows, which
// leaves the old buffer behind in a linear memory that never shrinks.
#define SQLITE_OS_OTHER 1
#define SQLITE_OMIT_DESERIALIZE 1
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

// The default VFS, "host": it opens no file (every database is the memdb
// VFS's, below, which takes its randomness, clock and sleep from here), and
// takes randomness and the clock from the host (WASI's random_get and
// clock_time_get, which the bridge answers).

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

// The VFS "memdb": databases in memory, as SQLite's own memdb keeps them
// (same name, same URIs: "file:/NAME?vfs=memdb" is one database shared by
// every connection to NAME while one is open; any other name is private to
// its connection), with the same locks and the same size limit, but each
// file held in chunks of memChunk bytes: a growing database allocates one
// more chunk and copies nothing. The bytes past a file's end are always
// zero (a fresh chunk is zeroed, a truncation zeroes what it cuts), so a
// write past the end leaves zeros between, as a file does.

enum { memChunk = 64 * 1024 };

// memMax is the largest a file may grow, SQLite's own memdb's default
// (SQLITE_MEMDB_DEFAULT_MAXSIZE): a write past it is SQLITE_FULL.
static const sqlite3_int64 memMax = 1073741824;

typedef struct MemStore MemStore;
struct MemStore {
  sqlite3_int64 size;     // the file's size in bytes
  unsigned char **chunks; // nChunk chunks of memChunk bytes
  int nChunk;
  int nRdLock, nWrLock;   // readers; writers (0 or 1)
  int nRef;               // open files on this store
  char *name;             // a shared store's name, or 0
  MemStore *next;         // the next shared store
};

typedef struct {
  sqlite3_file base;
  MemStore *store;
  int eLock; // this file's lock
} MemFile;

static MemStore *memShared; // every shared store that has an open file

static MemStore *memStoreOf(sqlite3_file *f) { return ((MemFile *)f)->store; }

// memGrow gives s the chunks to hold end bytes.
static int memGrow(MemStore *s, sqlite3_int64 end) {
  if (end > memMax) return SQLITE_FULL;
  int need = (int)((end + memChunk - 1) / memChunk);
  if (need <= s->nChunk) return SQLITE_OK;
  unsigned char **chunks = sqlite3_realloc64(s->chunks, (sqlite3_uint64)need * sizeof *chunks);
  if (!chunks) return SQLITE_IOERR_NOMEM;
  s->chunks = chunks;
  while (s->nChunk < need) {
    unsigned char *c = sqlite3_malloc(memChunk);
    if (!c) return SQLITE_IOERR_NOMEM;
    memset(c, 0, memChunk);
    s->chunks[s->nChunk++] = c;
  }
  return SQLITE_OK;
}

// memCopy copies n bytes between buf and s at off: into s when in, out of s
// otherwise. s holds every byte of the range.
static void memCopy(MemStore *s, unsigned char *buf, sqlite3_int64 off, sqlite3_int64 n, int in) {
  while (n > 0) {
    int c = (int)(off / memChunk), at = (int)(off % memChunk);
    sqlite3_int64 k = memChunk - at;
    if (k > n) k = n;
    if (in)
      memcpy(s->chunks[c] + at, buf, (size_t)k);
    else
      memcpy(buf, s->chunks[c] + at, (size_t)k);
    buf += k, off += k, n -= k;
  }
}

static void memFree(MemStore *s) {
  for (int i = 0; i < s->nChunk; i++) sqlite3_free(s->chunks[i]);
  sqlite3_free(s->chunks);
  sqlite3_free(s);
}

static int memClose(sqlite3_file *f) {
  MemStore *s = memStoreOf(f);
  if (--s->nRef > 0) return SQLITE_OK;
  if (s->name) {
    for (MemStore **p = &memShared; *p; p = &(*p)->next) {
      if (*p == s) {
        *p = s->next;
        break;
      }
    }
  }
  memFree(s);
  return SQLITE_OK;
}

static int memRead(sqlite3_file *f, void *buf, int n, sqlite3_int64 off) {
  MemStore *s = memStoreOf(f);
  if (off + n > s->size) {
    memset(buf, 0, (size_t)n);
    if (off < s->size) memCopy(s, buf, off, s->size - off, 0);
    return SQLITE_IOERR_SHORT_READ;
  }
  memCopy(s, buf, off, n, 0);
  return SQLITE_OK;
}

static int memWrite(sqlite3_file *f, const void *buf, int n, sqlite3_int64 off) {
  MemStore *s = memStoreOf(f);
  if (off + n > s->size) {
    int rc = memGrow(s, off + n);
    if (rc != SQLITE_OK) return rc;
    s->size = off + n;
  }
  memCopy(s, (unsigned char *)buf, off, n, 1);
  return SQLITE_OK;
}

static int memTruncate(sqlite3_file *f, sqlite3_int64 size) {
  MemStore *s = memStoreOf(f);
  if (size > s->size) return SQLITE_CORRUPT; // as memdb: only a corrupt WAL database asks
  int keep = (int)((size + memChunk - 1) / memChunk);
  while (s->nChunk > keep) sqlite3_free(s->chunks[--s->nChunk]);
  if (size % memChunk) memset(s->chunks[keep - 1] + size % memChunk, 0, (size_t)(memChunk - size % memChunk));
  s->size = size;
  return SQLITE_OK;
}

static int memSync(sqlite3_file *f, int flags) {
  (void)f, (void)flags;
  return SQLITE_OK;
}

static int memFileSize(sqlite3_file *f, sqlite3_int64 *size) {
  *size = memStoreOf(f)->size;
  return SQLITE_OK;
}

// memLock and memUnlock are memdb's: any number of readers, or one writer
// (from RESERVED on) beside them until it takes EXCLUSIVE, which it gets
// once it is the only reader.
static int memLock(sqlite3_file *f, int eLock) {
  MemFile *m = (MemFile *)f;
  MemStore *s = m->store;
  if (eLock <= m->eLock) return SQLITE_OK;
  switch (eLock) {
  case SQLITE_LOCK_SHARED:
    if (s->nWrLock > 0) return SQLITE_BUSY;
    s->nRdLock++;
    break;
  case SQLITE_LOCK_RESERVED:
  case SQLITE_LOCK_PENDING:
    if (m->eLock == SQLITE_LOCK_SHARED) {
      if (s->nWrLock > 0) return SQLITE_BUSY;
      s->nWrLock = 1;
    }
    break;
  default: // SQLITE_LOCK_EXCLUSIVE
    if (s->nRdLock > 1) return SQLITE_BUSY;
    if (m->eLock == SQLITE_LOCK_SHARED) s->nWrLock = 1;
    break;
  }
  m->eLock = eLock;
  return SQLITE_OK;
}

static int memUnlock(sqlite3_file *f, int eLock) {
  MemFile *m = (MemFile *)f;
  MemStore *s = m->store;
  if (eLock >= m->eLock) return SQLITE_OK;
  if (m->eLock > SQLITE_LOCK_SHARED) s->nWrLock--;
  if (eLock == SQLITE_LOCK_NONE) s->nRdLock--;
  m->eLock = eLock;
  return SQLITE_OK;
}

static int memCheckReservedLock(sqlite3_file *f, int *out) {
  (void)f;
  *out = 0;
  return SQLITE_OK;
}

static int memFileControl(sqlite3_file *f, int op, void *arg) {
  (void)f, (void)op, (void)arg;
  return SQLITE_NOTFOUND;
}

static int memDeviceCharacteristics(sqlite3_file *f) {
  (void)f;
  return SQLITE_IOCAP_ATOMIC | SQLITE_IOCAP_POWERSAFE_OVERWRITE | SQLITE_IOCAP_SAFE_APPEND | SQLITE_IOCAP_SEQUENTIAL;
}

static const sqlite3_io_methods memMethods = {
    .iVersion = 1,
    .xClose = memClose,
    .xRead = memRead,
    .xWrite = memWrite,
    .xTruncate = memTruncate,
    .xSync = memSync,
    .xFileSize = memFileSize,
    .xLock = memLock,
    .xUnlock = memUnlock,
    .xCheckReservedLock = memCheckReservedLock,
    .xFileControl = memFileControl,
    .xDeviceCharacteristics = memDeviceCharacteristics,
};

static int memOpen(sqlite3_vfs *vfs, sqlite3_filename name, sqlite3_file *file, int flags, int *outFlags) {
  (void)vfs;
  MemFile *m = (MemFile *)file;
  memset(m, 0, sizeof *m);
  MemStore *s = 0;
  size_t n = name ? strlen(name) : 0;
  int shared = n > 1 && (name[0] == '/' || name[0] == '\\');
  if (shared) {
    for (s = memShared; s && strcmp(s->name, name) != 0; s = s->next) {}
  }
  if (s) {
    s->nRef++;
  } else {
    s = sqlite3_malloc64(sizeof *s + (shared ? n + 1 : 0));
    if (!s) return SQLITE_NOMEM;
    memset(s, 0, sizeof *s);
    s->nRef = 1;
    if (shared) {
      s->name = (char *)&s[1];
      memcpy(s->name, name, n + 1);
      s->next = memShared;
      memShared = s;
    }
  }
  m->store = s;
  if (outFlags) *outFlags = flags | SQLITE_OPEN_MEMORY;
  file->pMethods = &memMethods;
  return SQLITE_OK;
}

static sqlite3_vfs memVFS = {
    .iVersion = 2,
    .szOsFile = sizeof(MemFile),
    .mxPathname = 1024,
    .zName = "memdb",
    .xOpen = memOpen,
    .xAccess = hostAccess,
    .xFullPathname = hostFullPathname,
    .xRandomness = hostRandomness,
    .xSleep = hostSleep,
    .xCurrentTime = hostCurrentTime,
    .xGetLastError = hostGetLastError,
    .xCurrentTimeInt64 = hostCurrentTimeInt64,
};

// SQLITE_OS_OTHER leaves these two to the build.
int sqlite3_os_init(void) {
  int rc = sqlite3_vfs_register(&hostVFS, 1);
  return rc == SQLITE_OK ? sqlite3_vfs_register(&memVFS, 0) : rc;
}
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
