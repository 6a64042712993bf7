package engine_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/sqlitedb"
)

// hotJobs are reclaimed over and over by every crash child, so their tokens
// climb across crashes.
var hotJobs = []string{"hot-0", "hot-1", "hot-2"}

// crashChild runs until it is killed: each turn it enqueues a fresh job,
// claims it, completes every other one, and reclaims a hot job, reporting
// each committed step on stdout ("enq ID", "claim ID TOKEN", "done ID"),
// and each write as it starts ("sql VERB").
// Its clock starts at the time the parent passes and moves 1ms a turn;
// leases last 1ms, so a hot job's lease has ended when its turn comes again.
func crashChild(t *testing.T) {
	db, err := sqlitedb.Open(os.Getenv(helperDBEnv))
	if err != nil {
		t.Fatal(err)
	}
	// Writes are reported as they start, so the parent's kill often lands
	// inside a write transaction.
	s := newStore(t, db, engine.WithObserver(func(st engine.Statement) {
		if verb, _, _ := strings.Cut(st.SQL, " "); verb == "INSERT" || verb == "UPDATE" || verb == "COMMIT" {
			fmt.Println("sql", verb)
		}
	}))
	prefix, start, _ := strings.Cut(os.Getenv(helperArgEnv), "@")
	now, err := strconv.ParseInt(start, 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for turn := 0; ; turn++ {
		id := fmt.Sprintf("%s-%d", prefix, turn)
		if ok, err := s.Enqueue(ctx, engine.NewJob{ID: id}); err != nil || !ok {
			t.Fatalf("Enqueue(%s) = %v, %v", id, ok, err)
		}
		fmt.Println("enq", id)
		l, err := s.Claim(ctx, id, "C", now, 1)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Println("claim", id, l.Token)
		if turn%2 == 0 {
			if err := s.Complete(ctx, l, now, "ok"); err != nil {
				t.Fatal(err)
			}
			fmt.Println("done", id)
		}
		hot := hotJobs[turn%len(hotJobs)]
		if l, err = s.Claim(ctx, hot, "C", now, 1); err != nil {
			t.Fatal(err)
		}
		fmt.Println("claim", hot, l.Token)
		now++
	}
}

// A child killed with SIGKILL in the middle of its enqueue/claim/complete
// loop leaves the file intact (integrity_check ok), loses no job it
// reported, never lets a token go backwards, and the next claim of a job
// gets a token above every one handed out before the crash. 20 crashes on
// one file, each after a different amount of progress.
func TestCrash_SIGKILLMidLoopLosesNothing(t *testing.T) {
	const crashes = 20
	db, path := fileDB(t)
	s := newStore(t, db)
	for _, id := range hotJobs {
		enqueueOK(t, s, engine.NewJob{ID: id})
	}
	db.Close()

	enqueued := map[string]bool{}
	done := map[string]bool{}
	maxToken := map[string]int64{} // the highest token a child reported per job
	lines, journals := 0, 0
	for crash := range crashes {
		cmd := helperCmd(t, "crash", path, fmt.Sprintf("c%d@%d", crash, int64(crash)*1_000_000))
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		out := childLines{bufio.NewReader(stdout)}
		record := func(line string) {
			f := strings.Fields(line)
			switch {
			case len(f) == 2 && f[0] == "enq":
				enqueued[f[1]] = true
			case len(f) == 2 && f[0] == "done":
				done[f[1]] = true
			case len(f) == 2 && f[0] == "sql": // a write starting, not a fact
			case len(f) == 3 && f[0] == "claim":
				tok, err := strconv.ParseInt(f[2], 10, 64)
				if err != nil {
					t.Fatalf("crash %d: bad report %q", crash, line)
				}
				if tok <= maxToken[f[1]] {
					t.Fatalf("crash %d: %s claimed with token %d after token %d was handed out", crash, f[1], tok, maxToken[f[1]])
				}
				maxToken[f[1]] = tok
			default:
				t.Fatalf("crash %d: unexpected report %q", crash, line)
			}
		}
		// Kill after 4..34 reports; on even crashes wait further for a write
		// to start, so the kill lands inside it.
		killAfter := 4 + (crash*7)%31
		for read := 0; ; read++ {
			line, ok := out.next()
			if !ok {
				cmd.Wait()
				t.Fatalf("crash %d: child ended before it was killed", crash)
			}
			record(line)
			if read+1 >= killAfter && (crash%2 == 1 || strings.HasPrefix(line, "sql ")) {
				lines += read + 1
				break
			}
		}
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		for { // what the child reported before it died happened too
			line, ok := out.next()
			if !ok {
				break
			}
			lines++
			record(line)
		}
		err = cmd.Wait()
		if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
			t.Fatalf("crash %d: child ended with %v; want killed by SIGKILL", crash, err)
		}
		if _, err := os.Stat(path + "-journal"); err == nil {
			journals++ // killed inside a write: reopening rolls the journal back
		}
		checkAfterCrash(t, crash, path, enqueued, done, maxToken)
	}
	t.Logf("%d crashes (%d inside a write), %d reports, %d jobs enqueued, hot tokens %d/%d/%d",
		crashes, journals, lines, len(enqueued), maxToken["hot-0"], maxToken["hot-1"], maxToken["hot-2"])
}

// checkAfterCrash reopens the file and checks it against what the children
// reported.
func checkAfterCrash(t *testing.T, crash int, path string, enqueued, done map[string]bool, maxToken map[string]int64) {
	t.Helper()
	db, err := sqlitedb.Open(path)
	if err != nil {
		t.Fatalf("crash %d: reopen: %v", crash, err)
	}
	defer db.Close()
	var integrity string
	if err := db.QueryRowContext(t.Context(), `PRAGMA integrity_check`).Scan(&integrity); err != nil || integrity != "ok" {
		t.Fatalf("crash %d: integrity_check = %q, %v; want ok", crash, integrity, err)
	}
	s := newStore(t, db)
	for id := range enqueued {
		j, err := s.Get(t.Context(), id)
		if err != nil || j == nil {
			t.Fatalf("crash %d: enqueued job %s is gone (%v)", crash, id, err)
		}
		if j.Token < maxToken[id] {
			t.Fatalf("crash %d: %s has token %d; the child was handed %d", crash, id, j.Token, maxToken[id])
		}
		if done[id] && j.Status != engine.StatusDone {
			t.Fatalf("crash %d: %s was completed, now %+v", crash, id, j)
		}
	}
	for _, id := range hotJobs {
		if j := rowOf(t, s, id); j.Token < maxToken[id] {
			t.Fatalf("crash %d: %s has token %d; the child was handed %d", crash, id, j.Token, maxToken[id])
		}
	}
}
