// Compile-time options of the browser build's SQLite (leaselab): upstream's
// (go-sqlite3-wasm v6.5.35401, build/sqlite_opt.h) less everything the
// engine and the driver never use. ../README.md says what each group costs
// and what a caller sees instead.

// Upstream's recommended options, unchanged.
#define SQLITE_DQS 0
#define SQLITE_THREADSAFE 0
#define SQLITE_DEFAULT_WAL_SYNCHRONOUS 1
#define SQLITE_LIKE_DOESNT_MATCH_BLOBS
#define SQLITE_STRICT_SUBTYPE 1
#define SQLITE_OMIT_DEPRECATED
#define SQLITE_OMIT_SHARED_CACHE
#define SQLITE_OMIT_AUTOINIT

// Upstream's other options, kept.
#define SQLITE_USE_URI 1
#define SQLITE_ALLOW_URI_AUTHORITY
#define SQLITE_DEFAULT_FOREIGN_KEYS 1
#define SQLITE_TRUSTED_SCHEMA 0
#define SQLITE_ENABLE_API_ARMOR
#define SQLITE_OMIT_COMPLETE
#define SQLITE_OMIT_GET_TABLE
#define SQLITE_OMIT_DESERIALIZE
#define SQLITE_OMIT_LOAD_EXTENSION
#define SQLITE_MAX_MMAP_SIZE (1024 * 1024 * 1024)

// Upstream's, dropped: SQLITE_ENABLE_ATOMIC_WRITE,
// SQLITE_ENABLE_BATCH_ATOMIC_WRITE, SQLITE_ENABLE_COLUMN_METADATA,
// SQLITE_ENABLE_MATH_FUNCTIONS, SQLITE_ENABLE_PREUPDATE_HOOK,
// SQLITE_ENABLE_SETLK_TIMEOUT, SQLITE_ENABLE_STAT4, SQLITE_SOUNDEX,
// SQLITE_EXPERIMENTAL_PRAGMA_20251114; and the five ext/misc extensions.

// Functions, pragmas and interfaces: their SQL fails with "no such function"
// (a pragma it does not know, SQLite ignores); the driver's calls into the
// removed interfaces are answered by stubs.c.
#define SQLITE_DEFAULT_MEMSTATUS 0
#define SQLITE_OMIT_JSON
#define SQLITE_OMIT_DATETIME_FUNCS
#define SQLITE_OMIT_LOCALTIME
#define SQLITE_OMIT_AUTHORIZATION
#define SQLITE_OMIT_INCRBLOB
#define SQLITE_OMIT_INTEGRITY_CHECK
#define SQLITE_OMIT_AUTOVACUUM
#define SQLITE_OMIT_COMPILEOPTION_DIAGS
#define SQLITE_OMIT_UTF16
#define SQLITE_OMIT_WAL
#define SQLITE_OMIT_TRUNCATE_OPTIMIZATION
#define SQLITE_OMIT_SCHEMA_PRAGMAS
#define SQLITE_OMIT_SCHEMA_VERSION_PRAGMAS
#define SQLITE_OMIT_INTROSPECTION_PRAGMAS
#define SQLITE_OMIT_FLAG_PRAGMAS
#define SQLITE_OMIT_CASE_SENSITIVE_LIKE_PRAGMA
#define SQLITE_UNTESTABLE
#define SQLITE_MAX_EXPR_DEPTH 0

// Without the date and time functions SQLite still implements CURRENT_TIME,
// CURRENT_DATE and CURRENT_TIMESTAMP with gmtime_r and strftime, which the
// freestanding libc lacks: here they are NULL (the engine never asks).
#include <time.h>
#define gmtime_r(pTime, pTm) ((struct tm*)0)
#define strftime(zBuf, n, zFmt, pTm) 0

// Tokens and optimizations the engine's statements never need: x'..' blob
// literals, $tcl variables, 0x integers; the query planner's automatic
// indexes, its BETWEEN, LIKE and OR rewrites, the INSERT ... SELECT
// transfer, the B-tree's quick balance.
#define SQLITE_OMIT_BLOB_LITERAL
#define SQLITE_OMIT_TCL_VARIABLE
#define SQLITE_OMIT_HEX_INTEGER
#define SQLITE_OMIT_GENERATED_COLUMNS
#define SQLITE_OMIT_AUTOMATIC_INDEX
#define SQLITE_OMIT_BETWEEN_OPTIMIZATION
#define SQLITE_OMIT_LIKE_OPTIMIZATION
#define SQLITE_OMIT_OR_OPTIMIZATION
#define SQLITE_OMIT_XFER_OPT
#define SQLITE_OMIT_QUICKBALANCE

// Statements. The amalgamation's parser was generated with every feature, so
// their grammar stays: the parser's actions call stubs (stubs.c) that fail
// the statement ("... is not supported by this build"), and omit.patch
// declares what the options would otherwise leave undeclared and makes the
// ones SQLite would silently ignore (EXPLAIN, TEMP, AUTOINCREMENT, compound
// SELECTs, FOREIGN KEY clauses) fail too.
#define SQLITE_OMIT_VIEW
#define SQLITE_OMIT_ANALYZE
#define SQLITE_OMIT_REINDEX
#define SQLITE_OMIT_VACUUM
#define SQLITE_OMIT_ATTACH
#define SQLITE_OMIT_ALTERTABLE
#define SQLITE_OMIT_VIRTUALTABLE
#define SQLITE_OMIT_WINDOWFUNC
#define SQLITE_OMIT_CTE
#define SQLITE_OMIT_EXPLAIN
#define SQLITE_OMIT_TEMPDB
#define SQLITE_OMIT_AUTOINCREMENT
#define SQLITE_OMIT_COMPOUND_SELECT
#define SQLITE_OMIT_FOREIGN_KEY
