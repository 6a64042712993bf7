// Exports the driver (github.com/ncruces/go-sqlite3) calls, whose SQLite
// functions our options remove: each answers as SQLite does when the feature
// is absent or unused, so the Go translation keeps the methods the driver's
// code refers to. The engine reaches none of them.

#include "sqlite3.h"

#ifdef SQLITE_OMIT_INCRBLOB
// Conn.OpenBlob: incremental BLOB I/O.
int sqlite3_blob_open(sqlite3* db, const char* zDb, const char* zTable,
                      const char* zColumn, sqlite3_int64 iRow, int flags,
                      sqlite3_blob** ppBlob) {
  *ppBlob = 0;
  return SQLITE_ERROR;
}
int sqlite3_blob_reopen(sqlite3_blob* p, sqlite3_int64 iRow) {
  return SQLITE_MISUSE;
}
int sqlite3_blob_close(sqlite3_blob* p) { return SQLITE_OK; }
int sqlite3_blob_bytes(sqlite3_blob* p) { return 0; }
int sqlite3_blob_read(sqlite3_blob* p, void* z, int n, int iOffset) {
  return SQLITE_MISUSE;
}
int sqlite3_blob_write(sqlite3_blob* p, const void* z, int n, int iOffset) {
  return SQLITE_MISUSE;
}
#endif

#ifndef SQLITE_ENABLE_COLUMN_METADATA
// Stmt.ColumnDatabaseName, ColumnTableName, ColumnOriginName: NULL, as for
// an expression; database/sql's ColumnTypes then falls back to the declared
// type (sqlite3_column_decltype, kept).
const char* sqlite3_column_database_name(sqlite3_stmt* p, int i) { return 0; }
const char* sqlite3_column_table_name(sqlite3_stmt* p, int i) { return 0; }
const char* sqlite3_column_origin_name(sqlite3_stmt* p, int i) { return 0; }
#endif

#ifndef SQLITE_ENABLE_PREUPDATE_HOOK
// Conn.PreUpdateHook: the hook is never installed (hooks.c), so SQLite
// would never call it and these are never reached.
int sqlite3_preupdate_old(sqlite3* db, int i, sqlite3_value** pp) {
  return SQLITE_MISUSE;
}
int sqlite3_preupdate_new(sqlite3* db, int i, sqlite3_value** pp) {
  return SQLITE_MISUSE;
}
int sqlite3_preupdate_count(sqlite3* db) { return 0; }
int sqlite3_preupdate_depth(sqlite3* db) { return 0; }
int sqlite3_preupdate_blobwrite(sqlite3* db) { return -1; }
#endif

// Statements our options remove, whose grammar stays in the amalgamation's
// parser (generated with every feature): the parser's actions still call
// these, and each now fails the statement as a syntax error would, freeing
// what the parser handed over, as the real function does.

#define LEAN_UNSUPPORTED(pParse, what) \
  sqlite3ErrorMsg(pParse, "%s is not supported by this build", what)

#ifdef SQLITE_OMIT_VIEW
void sqlite3CreateView(Parse* pParse, Token* pBegin, Token* pName1,
                       Token* pName2, ExprList* pCNames, Select* pSelect,
                       int isTemp, int noErr) {
  sqlite3ExprListDelete(pParse->db, pCNames);
  sqlite3SelectDelete(pParse->db, pSelect);
  LEAN_UNSUPPORTED(pParse, "CREATE VIEW");
}
#endif

#ifdef SQLITE_OMIT_ANALYZE
void sqlite3Analyze(Parse* pParse, Token* pName1, Token* pName2) {
  LEAN_UNSUPPORTED(pParse, "ANALYZE");
}
#endif

#ifdef SQLITE_OMIT_REINDEX
void sqlite3Reindex(Parse* pParse, Token* pName1, Token* pName2) {
  LEAN_UNSUPPORTED(pParse, "REINDEX");
}
#endif

#ifdef SQLITE_OMIT_VACUUM
void sqlite3Vacuum(Parse* pParse, Token* pNm, Expr* pInto) {
  sqlite3ExprDelete(pParse->db, pInto);
  LEAN_UNSUPPORTED(pParse, "VACUUM");
}
#endif

#if defined(SQLITE_OMIT_VACUUM) && defined(SQLITE_OMIT_ATTACH)
// Still called by the B-tree and backup code; SQLite's own body.
void sqlite3PagerClearCache(Pager* pPager) {
  if (pPager->tempFile == 0) pager_reset(pPager);
}
#endif

#ifdef SQLITE_OMIT_ATTACH
void sqlite3Attach(Parse* pParse, Expr* p, Expr* pDbname, Expr* pKey) {
  sqlite3ExprDelete(pParse->db, p);
  sqlite3ExprDelete(pParse->db, pDbname);
  sqlite3ExprDelete(pParse->db, pKey);
  LEAN_UNSUPPORTED(pParse, "ATTACH");
}
void sqlite3Detach(Parse* pParse, Expr* pDbname) {
  sqlite3ExprDelete(pParse->db, pDbname);
  LEAN_UNSUPPORTED(pParse, "DETACH");
}
// Still called by name lookups; SQLite's own body.
int sqlite3DbIsNamed(sqlite3* db, int iDb, const char* zName) {
  return sqlite3StrICmp(db->aDb[iDb].zDbSName, zName) == 0 ||
         (iDb == 0 && sqlite3StrICmp("main", zName) == 0);
}
#endif

#ifdef SQLITE_OMIT_ALTERTABLE
void sqlite3AlterRenameTable(Parse* pParse, SrcList* pSrc, Token* pName) {
  sqlite3SrcListDelete(pParse->db, pSrc);
  LEAN_UNSUPPORTED(pParse, "ALTER TABLE");
}
void sqlite3AlterRenameColumn(Parse* pParse, SrcList* pSrc, Token* pOld,
                              Token* pNew) {
  sqlite3SrcListDelete(pParse->db, pSrc);
  LEAN_UNSUPPORTED(pParse, "ALTER TABLE");
}
void sqlite3AlterDropColumn(Parse* pParse, SrcList* pSrc, const Token* pName) {
  sqlite3SrcListDelete(pParse->db, pSrc);
  LEAN_UNSUPPORTED(pParse, "ALTER TABLE");
}
void sqlite3AlterBeginAddColumn(Parse* pParse, SrcList* pSrc) {
  sqlite3SrcListDelete(pParse->db, pSrc);
  LEAN_UNSUPPORTED(pParse, "ALTER TABLE");
}
void sqlite3AlterFinishAddColumn(Parse* pParse, Token* pColDef) {}
void sqlite3AlterDropConstraint(Parse* pParse, SrcList* pSrc, Token* pType,
                                Token* pName) {
  sqlite3SrcListDelete(pParse->db, pSrc);
  LEAN_UNSUPPORTED(pParse, "ALTER TABLE");
}
void sqlite3AlterAddConstraint(Parse* pParse, SrcList* pSrc, Token* pFirst,
                               Token* pName, const char* zExpr, int nExpr,
                               Expr* pExpr) {
  sqlite3SrcListDelete(pParse->db, pSrc);
  sqlite3ExprDelete(pParse->db, pExpr);
  LEAN_UNSUPPORTED(pParse, "ALTER TABLE");
}
void sqlite3AlterSetNotNull(Parse* pParse, SrcList* pSrc, Token* pCol,
                            Token* pFirst) {
  sqlite3SrcListDelete(pParse->db, pSrc);
  LEAN_UNSUPPORTED(pParse, "ALTER TABLE");
}
#endif

#ifdef SQLITE_OMIT_VIRTUALTABLE
void sqlite3VtabBeginParse(Parse* pParse, Token* pName1, Token* pName2,
                           Token* pModuleName, int ifNotExists) {
  LEAN_UNSUPPORTED(pParse, "CREATE VIRTUAL TABLE");
}
void sqlite3VtabArgInit(Parse* pParse) {}
void sqlite3VtabArgExtend(Parse* pParse, Token* p) {}
void sqlite3VtabFinishParse(Parse* pParse, Token* pEnd) {}
#endif

#ifdef SQLITE_OMIT_VIRTUALTABLE
// Conn.CreateModule and what a virtual table's methods call: no module can
// be registered, so SQLite never calls a module and the rest are never
// reached from SQL.
int sqlite3_create_module_v2(sqlite3* db, const char* zName,
                             const sqlite3_module* pModule, void* pAux,
                             void (*xDestroy)(void*)) {
  if (xDestroy) xDestroy(pAux);
  return SQLITE_ERROR;
}
int sqlite3_create_module(sqlite3* db, const char* zName,
                          const sqlite3_module* pModule, void* pAux) {
  return SQLITE_ERROR;
}
int sqlite3_declare_vtab(sqlite3* db, const char* zCreateTable) {
  return SQLITE_MISUSE;
}
int sqlite3_vtab_config(sqlite3* db, int op, ...) { return SQLITE_MISUSE; }
int sqlite3_vtab_on_conflict(sqlite3* db) { return SQLITE_ABORT; }
const char* sqlite3_vtab_collation(sqlite3_index_info* p, int i) {
  return "BINARY";
}
int sqlite3_vtab_distinct(sqlite3_index_info* p) { return 0; }
int sqlite3_vtab_in(sqlite3_index_info* p, int i, int b) { return 0; }
int sqlite3_vtab_rhs_value(sqlite3_index_info* p, int i, sqlite3_value** pp) {
  *pp = 0;
  return SQLITE_NOTFOUND;
}
#endif

#ifdef SQLITE_OMIT_WINDOWFUNC
// The parser still accepts window definitions, OVER and FILTER (with
// SQLITE_OMIT_WINDOWFUNC the amalgamation would silently drop an OVER name
// or a FILTER clause): every path now ends in an error here.
static void leanWindowFree(sqlite3* db, Window* p) {
  sqlite3ExprListDelete(db, p->pPartition);
  sqlite3ExprListDelete(db, p->pOrderBy);
  sqlite3ExprDelete(db, p->pStart);
  sqlite3ExprDelete(db, p->pEnd);
  sqlite3ExprDelete(db, p->pFilter);
  sqlite3DbFree(db, p->zName);
  sqlite3DbFree(db, p->zBase);
  sqlite3DbFree(db, p);
}
void sqlite3WindowListDelete(sqlite3* db, Window* p) {
  while (p) {
    Window* pNext = p->pNextWin;
    leanWindowFree(db, p);
    p = pNext;
  }
}
Window* sqlite3WindowAlloc(Parse* pParse, int eType, int eStart, Expr* pStart,
                           int eEnd, Expr* pEnd, u8 eExclude) {
  sqlite3ExprDelete(pParse->db, pStart);
  sqlite3ExprDelete(pParse->db, pEnd);
  LEAN_UNSUPPORTED(pParse, "a window function");
  return 0;
}
void sqlite3WindowChain(Parse* pParse, Window* pWin, Window* pList) {}
void sqlite3WindowAttach(Parse* pParse, Expr* p, Window* pWin) {
  if (pWin) {
    leanWindowFree(pParse->db, pWin);
    LEAN_UNSUPPORTED(pParse, "a window function or FILTER");
  }
}
Window* sqlite3WindowAssemble(Parse* pParse, Window* pWin,
                              ExprList* pPartition, ExprList* pOrderBy,
                              Token* pBase) {
  sqlite3ExprListDelete(pParse->db, pPartition);
  sqlite3ExprListDelete(pParse->db, pOrderBy);
  if (pWin) leanWindowFree(pParse->db, pWin);
  LEAN_UNSUPPORTED(pParse, "a window function");
  return 0;
}
#endif

#ifdef SQLITE_OMIT_CTE
Cte* sqlite3CteNew(Parse* pParse, Token* pName, ExprList* pArglist,
                   Select* pQuery, u8 eM10d) {
  sqlite3ExprListDelete(pParse->db, pArglist);
  sqlite3SelectDelete(pParse->db, pQuery);
  LEAN_UNSUPPORTED(pParse, "WITH");
  return 0;
}
With* sqlite3WithAdd(Parse* pParse, With* pWith, Cte* pCte) { return 0; }
#endif
