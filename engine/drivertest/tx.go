package drivertest

import (
	"context"
	"database/sql"
	"errors"
	"testing"
	"time"
)

// A read-only transaction reads, refuses a write (SQLITE_READONLY) and,
// ended by Commit or by Rollback, leaves its connection writable again.
func readOnlyTransactions(t *testing.T, d Driver) {
	db := d.open(t, time.Second)
	exec(t, db, `CREATE TABLE t (a INTEGER)`, `INSERT INTO t VALUES (1)`)
	ctx := context.Background()
	for _, end := range []string{"Commit", "Rollback"} {
		tx, err := db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		var n int
		if err := tx.QueryRow(`SELECT count(*) FROM t`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		_, err = tx.Exec(`INSERT INTO t VALUES (?)`, 2)
		if d.Code(err) != codeReadOnly {
			t.Errorf("a write in a read-only transaction: %v (code %d), want SQLITE_READONLY", err, d.Code(err))
		}
		if end == "Commit" {
			err = tx.Commit()
		} else {
			err = tx.Rollback()
		}
		if err != nil {
			t.Fatalf("%s: %v", end, err)
		}
		if _, err := db.Exec(`INSERT INTO t VALUES (?)`, 3); err != nil {
			t.Errorf("a write after the read-only transaction's %s: %v", end, err)
		}
	}
	if n := count(t, db, "t"); n != 3 {
		t.Errorf("%d rows, want 3", n)
	}
}

// The isolation levels SQLite gives (all serializable) begin a transaction;
// the others are refused ("unsupported isolation level"), read-only or not.
func isolationLevels(t *testing.T, d Driver) {
	db := d.open(t, time.Second)
	exec(t, db, `CREATE TABLE t (a INTEGER)`)
	ctx := context.Background()
	for _, c := range []struct {
		level sql.IsolationLevel
		ok    bool
	}{
		{sql.LevelDefault, true},
		{sql.LevelReadUncommitted, false},
		{sql.LevelReadCommitted, false},
		{sql.LevelWriteCommitted, false},
		{sql.LevelRepeatableRead, false},
		{sql.LevelSnapshot, false},
		{sql.LevelSerializable, true},
		{sql.LevelLinearizable, true},
		{sql.LevelLinearizable + 1, false},
	} {
		for _, readOnly := range []bool{false, true} {
			tx, err := db.BeginTx(ctx, &sql.TxOptions{Isolation: c.level, ReadOnly: readOnly})
			if !c.ok {
				if err == nil || err.Error() != "sqlite3: unsupported isolation level" {
					t.Errorf("%v read-only %v: %v, want sqlite3: unsupported isolation level", c.level, readOnly, err)
				}
				if err == nil {
					tx.Rollback()
				}
				continue
			}
			if err != nil {
				t.Fatalf("%v read-only %v: %v", c.level, readOnly, err)
			}
			_, err = tx.Exec(`INSERT INTO t VALUES (1)`)
			if readOnly != (err != nil) {
				t.Errorf("%v read-only %v: a write: %v", c.level, readOnly, err)
			}
			if err := tx.Commit(); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// Two pools on one database: a write meeting the other's write lock waits
// for it (and then succeeds), or fails with SQLITE_BUSY past the busy
// timeout; either way the waiting pool works afterwards.
func busyWaitedOutThenReported(t *testing.T, d Driver) {
	ctx := context.Background()
	holder := d.Open(t, name(t, ""), time.Minute)
	patient := d.Open(t, name(t, ""), time.Minute)
	hasty := d.Open(t, name(t, ""), 20*time.Millisecond)
	exec(t, holder, `CREATE TABLE t (a INTEGER)`)

	tx, err := holder.BeginTx(ctx, nil) // BEGIN IMMEDIATE: the write lock
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(`INSERT INTO t VALUES (?)`, 1); err != nil {
		t.Fatal(err)
	}
	_, err = hasty.Exec(`INSERT INTO t VALUES (?)`, 2)
	if d.Code(err)&0xff != codeBusy {
		t.Fatalf("a write past the busy timeout: %v (code %d), want SQLITE_BUSY", err, d.Code(err))
	}
	started := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		close(started)
		_, err := patient.Exec(`INSERT INTO t VALUES (?)`, 3)
		done <- err
	}()
	<-started // under GOOS=js, the goroutine runs until it waits
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatalf("the write that waited: %v", err)
	}
	if _, err := hasty.Exec(`INSERT INTO t VALUES (?)`, 4); err != nil {
		t.Fatalf("the write after SQLITE_BUSY: %v", err)
	}
	var sum int
	if err := hasty.QueryRow(`SELECT sum(a) FROM t`).Scan(&sum); err != nil || sum != 1+3+4 {
		t.Fatalf("sum %d, %v; want 8", sum, err)
	}
}

// A connection reading inside a transaction whose write meets another's
// write lock is in a deadlock (neither can go on): SQLite answers
// SQLITE_BUSY at once, without waiting for the busy timeout, and the driver
// hands it over as it is rather than waiting for a lock that cannot come.
// Waiting would end in the context's deadline here, not in SQLITE_BUSY.
func busyDeadlock(t *testing.T, d Driver) {
	ctx := context.Background()
	reader := d.Open(t, name(t, ""), time.Hour)
	writer := d.Open(t, name(t, ""), time.Hour)
	exec(t, reader, `CREATE TABLE t (a INTEGER)`, `INSERT INTO t VALUES (1)`)
	c, err := reader.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.ExecContext(ctx, `BEGIN`); err != nil { // deferred: a read lock once it reads
		t.Fatal(err)
	}
	var n int
	if err := c.QueryRowContext(ctx, `SELECT count(*) FROM t`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	tx, err := writer.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	bounded, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	_, err = c.ExecContext(bounded, `INSERT INTO t VALUES (?)`, 2)
	if d.Code(err)&0xff != codeBusy || errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("a write that would deadlock: %v (code %d), want SQLITE_BUSY at once", err, d.Code(err))
	}
	if _, err := c.ExecContext(ctx, `ROLLBACK`); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(`INSERT INTO t VALUES (?)`, 3); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatalf("the writer's commit after the reader gave up: %v", err)
	}
}

// A COMMIT that fails (a deferred foreign key violated; another
// connection's read lock held past the busy timeout) reports its error,
// keeps none of the transaction's writes, and leaves the connection (the
// pool's only one) usable: the next transaction begins, writes and
// commits.
func failedCommit(t *testing.T, d Driver) {
	ctx := context.Background()
	for _, c := range []struct {
		why  string
		code int
	}{
		{"a deferred foreign key", codeForeignKeyOnClose},
		{"a reader's lock", codeBusy},
	} {
		t.Run(c.why, func(t *testing.T) {
			db := d.open(t, 20*time.Millisecond)
			exec(t, db, `PRAGMA foreign_keys = ON`, `CREATE TABLE p (id INTEGER PRIMARY KEY)`,
				`CREATE TABLE c (pid INTEGER REFERENCES p (id) DEFERRABLE INITIALLY DEFERRED)`)
			release := func() {}
			if c.code == codeBusy { // the reader first: a write lock also keeps new readers out of SQLite's own memdb
				reader, err := d.Open(t, name(t, ""), time.Minute).Conn(ctx)
				if err != nil {
					t.Fatal(err)
				}
				defer reader.Close()
				var n int
				if _, err := reader.ExecContext(ctx, `BEGIN`); err != nil {
					t.Fatal(err)
				}
				if err := reader.QueryRowContext(ctx, `SELECT count(*) FROM p`).Scan(&n); err != nil {
					t.Fatal(err)
				}
				release = func() {
					if _, err := reader.ExecContext(ctx, `ROLLBACK`); err != nil {
						t.Fatal(err)
					}
				}
			}
			tx, err := db.BeginTx(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			if c.code == codeBusy {
				if _, err := tx.Exec(`INSERT INTO p VALUES (?)`, 1); err != nil {
					t.Fatal(err)
				}
			} else if _, err := tx.Exec(`INSERT INTO c VALUES (?)`, 1); err != nil {
				t.Fatal(err)
			}
			err = tx.Commit()
			if got := d.Code(err); got != c.code && got&0xff != c.code {
				t.Fatalf("the commit: %v (code %d), want code %d", err, got, c.code)
			}
			release()
			tx, err = db.BeginTx(ctx, nil)
			if err != nil {
				t.Fatalf("the next transaction on the pool's one connection: %v", err)
			}
			var rows int
			if err := tx.QueryRow(`SELECT (SELECT count(*) FROM p) + (SELECT count(*) FROM c)`).Scan(&rows); err != nil || rows != 0 {
				t.Errorf("after the failed commit: %d rows, %v; want none", rows, err)
			}
			if _, err := tx.Exec(`INSERT INTO c VALUES (NULL)`); err != nil {
				t.Fatal(err)
			}
			if err := tx.Commit(); err != nil {
				t.Fatalf("the next commit: %v", err)
			}
			if n := count(t, db, "c"); n != 1 {
				t.Errorf("%d rows after the next commit, want 1", n)
			}
		})
	}
}

// A context cancelled before a statement stops it; one cancelled while a
// transaction is open rolls the transaction back; one cancelled while a
// statement waits for a lock stops the wait. Nothing of theirs is written,
// and the pool works afterwards.
func cancelledContext(t *testing.T, d Driver) {
	ctx := context.Background()
	// The holder's connection keeps the database while db's is discarded
	// (database/sql closes a connection whose transaction's context ends).
	holder := d.Open(t, name(t, ""), time.Minute)
	exec(t, holder, `CREATE TABLE t (a INTEGER)`)
	db := d.open(t, time.Minute)

	gone, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := db.ExecContext(gone, `INSERT INTO t VALUES (?)`, 1); !errors.Is(err, context.Canceled) {
		t.Errorf("an Exec with a cancelled context: %v, want context.Canceled", err)
	}

	txCtx, cancel := context.WithCancel(ctx)
	tx, err := db.BeginTx(txCtx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(`INSERT INTO t VALUES (?)`, 2); err != nil {
		t.Fatal(err)
	}
	cancel()
	if err := tx.Commit(); err == nil {
		t.Error("a transaction whose context was cancelled committed")
	}

	htx, err := holder.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	waitCtx, cancel := context.WithCancel(ctx)
	started := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		close(started)
		_, err := db.ExecContext(waitCtx, `INSERT INTO t VALUES (?)`, 3)
		done <- err
	}()
	<-started
	cancel()
	if err := <-done; err == nil {
		t.Error("a write waiting for a lock went on after its context was cancelled")
	}
	if err := htx.Rollback(); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`INSERT INTO t VALUES (?)`, 4); err != nil {
		t.Fatalf("a write after the cancellations: %v", err)
	}
	var sum int
	if err := db.QueryRow(`SELECT sum(a) FROM t`).Scan(&sum); err != nil || sum != 4 {
		t.Errorf("sum %d, %v; want 4 (only the last write)", sum, err)
	}
}

// A prepared statement runs again and again with other arguments, as an
// Exec and as a Query, also after another statement failed, and inside a
// transaction; closed, it refuses to run, and its text prepares again.
func preparedStatements(t *testing.T, d Driver) {
	db := d.open(t, time.Second)
	exec(t, db, `CREATE TABLE t (a INTEGER PRIMARY KEY)`)
	ins, err := db.Prepare(`INSERT INTO t VALUES (?)`)
	if err != nil {
		t.Fatal(err)
	}
	sel, err := db.Prepare(`SELECT count(*), coalesce(sum(a), 0) FROM t WHERE a >= ?`)
	if err != nil {
		t.Fatal(err)
	}
	for i := int64(1); i <= 3; i++ {
		res, err := ins.Exec(i)
		if err != nil {
			t.Fatal(err)
		}
		if id, _ := res.LastInsertId(); id != i {
			t.Errorf("insert %d: LastInsertId %d", i, id)
		}
	}
	if _, err := ins.Exec(int64(2)); err == nil {
		t.Error("a duplicate key inserted")
	}
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Stmt(ins).Exec(int64(4)); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ from, n, sum int }{{1, 4, 10}, {3, 2, 7}, {5, 0, 0}} {
		var n, sum int
		if err := sel.QueryRow(c.from).Scan(&n, &sum); err != nil || n != c.n || sum != c.sum {
			t.Errorf("from %d: %d rows summing %d, %v; want %d and %d", c.from, n, sum, err, c.n, c.sum)
		}
	}
	if err := ins.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := ins.Exec(int64(5)); err == nil {
		t.Error("a closed statement ran")
	}
	again, err := db.Prepare(`INSERT INTO t VALUES (?)`)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if _, err := again.Exec(int64(5)); err != nil {
		t.Fatal(err)
	}
	sel.Close()
	if n := count(t, db, "t"); n != 5 {
		t.Errorf("%d rows, want 5", n)
	}
}
