package sqlitedb_test

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/leaselab/leaselab/engine/internal/testkit/nativeonly"
	"github.com/leaselab/leaselab/engine/sqlitedb"
)

// Open creates the file where the path says, whatever characters the path
// holds (spaces, '#', '?', '%' are file name characters, not URI syntax),
// with a rollback journal and the busy timeout on every connection.
func TestOpen_FileWithRollbackJournalAndBusyTimeout(t *testing.T) {
	nativeonly.Test(t, "a file database")
	dir := filepath.Join(t.TempDir(), "odd dir #1?x")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"jobs.db", "jobs 1%20x.db"} {
		path := filepath.Join(dir, name)
		db, err := sqlitedb.Open(path)
		if err != nil {
			t.Fatalf("Open(%q): %v", path, err)
		}
		db.SetMaxOpenConns(3)
		if _, err := db.Exec("CREATE TABLE t (x)"); err != nil {
			t.Fatal(err)
		}
		for range 3 { // three connections held at once, each with the DSN's pragmas
			conn, err := db.Conn(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			var mode string
			var timeout int
			if err := conn.QueryRowContext(context.Background(), "PRAGMA journal_mode").Scan(&mode); err != nil {
				t.Fatal(err)
			}
			if err := conn.QueryRowContext(context.Background(), "PRAGMA busy_timeout").Scan(&timeout); err != nil {
				t.Fatal(err)
			}
			if mode != "delete" || timeout != sqlitedb.BusyTimeoutMillis {
				t.Fatalf("%s: journal_mode=%q busy_timeout=%d, want delete and %d", name, mode, timeout, sqlitedb.BusyTimeoutMillis)
			}
		}
		db.Close()
		if _, err := os.Stat(path); err != nil {
			t.Fatalf("the database is not at %q: %v", path, err)
		}
	}
}

// Two pools opened with the same Memory name share one database; another
// name is another database.
func TestMemory_SameNameSharesOneDatabase(t *testing.T) {
	a, err := sqlitedb.Memory("shared-" + t.Name())
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := sqlitedb.Memory("shared-" + t.Name())
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	other, err := sqlitedb.Memory("other-" + t.Name())
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if _, err := a.Exec("CREATE TABLE t (x); INSERT INTO t VALUES (42)"); err != nil {
		t.Fatal(err)
	}
	var x int
	if err := b.QueryRow("SELECT x FROM t").Scan(&x); err != nil || x != 42 {
		t.Fatalf("the second pool reads x=%d, %v; want 42", x, err)
	}
	if err := other.QueryRow("SELECT x FROM t").Scan(&x); err == nil {
		t.Fatal("a database of another name sees the table")
	}
}

// A name is taken as it is, never decoded: names that a URI would decode to
// the same text ("a b", "a%20b"), or that differ only in a character a URI
// escapes, are different databases; each one is shared by its own name.
func TestMemory_NamesAreTakenAsTheyAre(t *testing.T) {
	names := []string{"a b", "a%20b", "a+b", "a&b=c", "ü-" + t.Name(), "a%2"}
	for i, name := range names {
		db, err := sqlitedb.Memory(name)
		if err != nil {
			t.Fatalf("%q: %v", name, err)
		}
		defer db.Close()
		if _, err := db.Exec(`CREATE TABLE t (i INTEGER)`); err != nil {
			t.Fatalf("%q: %v (another name's database?)", name, err)
		}
		if _, err := db.Exec(`INSERT INTO t VALUES (?)`, i); err != nil {
			t.Fatal(err)
		}
		again, err := sqlitedb.Memory(name)
		if err != nil {
			t.Fatal(err)
		}
		defer again.Close()
		var got int
		if err := again.QueryRow(`SELECT i FROM t`).Scan(&got); err != nil || got != i {
			t.Fatalf("%q opened again reads %d, %v; want %d", name, got, err, i)
		}
	}
}

// Every connection of a Memory database, the first and those opened after
// it has tables, finds MemoryPageSize.
func TestMemory_PagesAreMemoryPageSizeForEveryConnection(t *testing.T) {
	db, err := sqlitedb.Memory("pages-" + t.Name())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec("CREATE TABLE t (x)"); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var conns []*sql.Conn
	for range 3 { // each held, so each is another connection
		c, err := db.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
		var n int
		if err := c.QueryRowContext(ctx, "PRAGMA page_size").Scan(&n); err != nil || n != sqlitedb.MemoryPageSize {
			t.Errorf("connection %d: page_size = %d, %v; want %d", len(conns), n, err, sqlitedb.MemoryPageSize)
		}
	}
	for _, c := range conns {
		c.Close()
	}
}

func TestOpeners_RefuseInvalidNames(t *testing.T) {
	if _, err := sqlitedb.Open(""); !errors.Is(err, sqlitedb.ErrName) {
		t.Errorf("Open(\"\"): %v, want ErrName", err)
	}
	for _, name := range []string{"", "a/b", "a?b", "a#b"} {
		if _, err := sqlitedb.Memory(name); !errors.Is(err, sqlitedb.ErrName) {
			t.Errorf("Memory(%q): %v, want ErrName", name, err)
		}
	}
}
