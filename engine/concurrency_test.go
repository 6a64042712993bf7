package engine_test

import (
	"bufio"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/sqlitedb"
)

// Environment of a helper process: the test binary re-executed as a child.
const (
	helperRoleEnv = "LEASELAB_HELPER_ROLE" // "claim" or "crash"; unset in a normal run
	helperDBEnv   = "LEASELAB_HELPER_DB"   // the file database
	helperArgEnv  = "LEASELAB_HELPER_ARG"  // the role's argument
)

// TestHelperProcess is not a test: it is the body of the child processes the
// multi-process tests start, selected by LEASELAB_HELPER_ROLE.
func TestHelperProcess(t *testing.T) {
	switch role := os.Getenv(helperRoleEnv); role {
	case "":
		t.Skip("the body of child processes; runs only when a test starts one")
	case "claim":
		claimChild(t)
	case "crash":
		crashChild(t)
	default:
		t.Fatalf("unknown helper role %q", role)
	}
}

// helperCmd is the test binary re-executed to run role on the database at
// path; the child is killed if it outlives the test's deadline.
func helperCmd(t *testing.T, role, path, arg string) *exec.Cmd {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	t.Cleanup(cancel)
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestHelperProcess$", "-test.count=1", "-test.timeout=1m")
	cmd.Env = append(os.Environ(), helperRoleEnv+"="+role, helperDBEnv+"="+path, helperArgEnv+"="+arg,
		// A race-detector build otherwise lingers a second at every exit.
		"GORACE="+strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0"))
	cmd.Stderr = os.Stderr
	return cmd
}

// childLines reads a child's complete output lines; a line cut short by
// the child's death is dropped.
type childLines struct{ r *bufio.Reader }

func (c childLines) next() (string, bool) {
	line, err := c.r.ReadString('\n')
	if err != nil {
		return "", false
	}
	return strings.TrimSuffix(line, "\n"), true
}

// ClaimMany with eight owners on eight connections gives exactly one of
// them the lease of a fresh job (token 1), reported in input order, on a
// shared in-memory database and on a file, over 100 fresh jobs.
func TestClaimMany_EightConnectionsExactlyOneWinner(t *testing.T) {
	const jobs = 100
	owners := []string{"A", "B", "C", "D", "E", "F", "G", "H"}
	for _, backend := range []struct {
		name string
		open func(testing.TB) *sql.DB
	}{
		{"memdb", memDB},
		{"file", func(t testing.TB) *sql.DB { db, _ := fileDB(t); return db }},
	} {
		t.Run(backend.name, func(t *testing.T) {
			db := backend.open(t)
			// Keep the eight connections between calls: opening one costs
			// far more than a claim (database/sql keeps 2 idle by default).
			db.SetMaxIdleConns(len(owners))
			s := newStore(t, db)
			wins := map[string]int{}
			for i := range jobs {
				id := fmt.Sprintf("job-%03d", i)
				enqueueOK(t, s, engine.NewJob{ID: id})
				in := append(append([]string(nil), owners[i%len(owners):]...), owners[:i%len(owners)]...)
				tokens, err := s.ClaimMany(t.Context(), id, in, int64(i), 1000)
				if err != nil {
					t.Fatalf("ClaimMany(%s): %v", id, err)
				}
				if len(tokens) != len(in) {
					t.Fatalf("ClaimMany(%s) = %v; want one token per owner (%d)", id, tokens, len(in))
				}
				winner := -1
				for k, tok := range tokens {
					switch {
					case tok == 0:
					case tok != 1 || winner >= 0:
						t.Fatalf("ClaimMany(%s, %v) = %v; want exactly one token, 1", id, in, tokens)
					default:
						winner = k
					}
				}
				if winner < 0 {
					t.Fatalf("ClaimMany(%s, %v) = %v; nobody won a fresh job", id, in, tokens)
				}
				wantRow(t, s, engine.Job{ID: id, Qty: 1, Owner: in[winner], LeaseUntil: int64(i) + 1000,
					Token: 1, Attempts: 1, Status: engine.StatusLeased})
				wins[in[winner]]++
			}
			t.Logf("wins per owner over %d jobs: %v", jobs, wins)
		})
	}
}

// On a job whose lease has just ended, ClaimManyOutcomes gives one owner
// the next token and, in input order, every other owner the Rejection a
// claim at that moment gets: held by the winner. On a held, done or missing
// job nobody wins (ClaimMany: all zeros), each owner is refused held, done
// or not found, and nothing changes.
func TestClaimMany_ReclaimNextTokenOrNobodyEachLoserWithItsRefusal(t *testing.T) {
	s := memStore(t)
	owners := []string{"A", "B", "C", "D", "E", "F", "G", "H"}
	enqueueOK(t, s, engine.NewJob{ID: "j"})
	for round := int64(0); round < 10; round++ {
		now := round * 100 // the previous round's lease ends now
		outs, err := s.ClaimManyOutcomes(t.Context(), "j", owners, now, 100)
		if err != nil || len(outs) != len(owners) {
			t.Fatalf("round %d: ClaimManyOutcomes = %v, %v; want one outcome per owner", round, outs, err)
		}
		winner := -1
		for k, o := range outs {
			if o.Refusal == nil {
				if winner >= 0 {
					t.Fatalf("round %d: %s and %s both won", round, owners[winner], owners[k])
				}
				winner = k
			}
		}
		if winner < 0 {
			t.Fatalf("round %d: nobody won", round)
		}
		want := engine.Lease{JobID: "j", Owner: owners[winner], Qty: 1, Token: round + 1, Attempt: round + 1, LeaseUntil: now + 100}
		if got := outs[winner].Lease; got != want {
			t.Errorf("round %d: the winner's lease %+v, want %+v", round, got, want)
		}
		for k, o := range outs {
			if k == winner {
				continue
			}
			r := o.Refusal
			if !errors.Is(r.Reason, engine.ErrHeld) || r.Op != "claim" || r.Presented.Owner != owners[k] ||
				r.Current.Owner != owners[winner] || r.Current.Token != round+1 || r.Now != now || o.Lease != (engine.Lease{}) {
				t.Errorf("round %d: %s's outcome %+v / %v; want refused held by %s#%d", round, owners[k], o.Lease, r, owners[winner], round+1)
			}
		}
	}
	if err := s.Complete(t.Context(), claimOK(t, s, "j", "A", 1000, 100), 1000, "r"); err != nil {
		t.Fatal(err)
	}
	enqueueOK(t, s, engine.NewJob{ID: "h"})
	claimOK(t, s, "h", "A", 1000, 100)
	before := rowsOf(t, s)
	for _, c := range []struct {
		id     string
		now    int64
		reason error
	}{{"h", 1099, engine.ErrHeld}, {"j", 1100, engine.ErrDone}, {"missing", 1100, engine.ErrNotFound}} {
		outs, err := s.ClaimManyOutcomes(t.Context(), c.id, owners, c.now, 100)
		if err != nil || len(outs) != len(owners) {
			t.Fatalf("ClaimManyOutcomes(%s) = %v, %v; want one outcome per owner", c.id, outs, err)
		}
		for k, o := range outs {
			if o.Refusal == nil || !errors.Is(o.Refusal.Reason, c.reason) {
				t.Errorf("ClaimManyOutcomes(%s): %s's refusal %v, want %v", c.id, owners[k], o.Refusal, c.reason)
			}
		}
		tokens, err := s.ClaimMany(t.Context(), c.id, owners, c.now, 100)
		if err != nil || len(tokens) != len(owners) || slices.ContainsFunc(tokens, func(tok int64) bool { return tok != 0 }) {
			t.Errorf("ClaimMany(%s) = %v, %v; want %d zeros", c.id, tokens, err, len(owners))
		}
	}
	if after := rowsOf(t, s); !reflect.DeepEqual(after, before) {
		t.Fatalf("a concurrent claim nobody won changed the rows:\n got %+v\nwant %+v", after, before)
	}
	if _, err := s.ClaimManyOutcomes(t.Context(), "j", []string{"A", ""}, 0, 100); !errors.Is(err, engine.ErrInvalid) {
		t.Errorf("an empty owner: %v, want ErrInvalid", err)
	}
}

// claimChild: open the file database, say "ready", then for each round k
// wait for the parent to close the write end of pipe 3+k (all children wake
// at that one event), claim job round-k and report the outcome.
func claimChild(t *testing.T) {
	db, err := sqlitedb.Open(os.Getenv(helperDBEnv))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	s := newStore(t, db)
	owner, rounds, err := parseOwnerRounds(os.Getenv(helperArgEnv))
	if err != nil {
		t.Fatal(err)
	}
	fmt.Println("ready")
	for k := range rounds {
		signal := os.NewFile(uintptr(3+k), "go")
		if _, err := io.Copy(io.Discard, signal); err != nil { // returns at EOF: the signal
			t.Fatal(err)
		}
		signal.Close()
		l, err := s.Claim(context.Background(), fmt.Sprintf("round-%d", k), owner, 0, 60000)
		var rej *engine.Rejection
		switch {
		case err == nil:
			fmt.Printf("round %d token %d\n", k, l.Token)
		case errors.As(err, &rej):
			fmt.Printf("round %d refused %v\n", k, rej.Reason)
		default:
			t.Fatalf("round %d: %v", k, err)
		}
	}
}

func parseOwnerRounds(arg string) (string, int, error) {
	owner, n, _ := strings.Cut(arg, ":")
	rounds, err := strconv.Atoi(n)
	return owner, rounds, err
}

// Two OS processes, released by one event, claim the same job of one file
// database at the same instant: exactly one claim is granted, in each of 12
// rounds with a fresh job each.
func TestClaim_TwoProcessesExactlyOneWinner(t *testing.T) {
	const rounds = 12
	db, path := fileDB(t)
	s := newStore(t, db)
	for k := range rounds {
		enqueueOK(t, s, engine.NewJob{ID: fmt.Sprintf("round-%d", k)})
	}
	readEnds := make([]*os.File, rounds)
	writeEnds := make([]*os.File, rounds)
	for k := range rounds {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		readEnds[k], writeEnds[k] = r, w
		t.Cleanup(func() { w.Close() })
	}
	owners := []string{"A", "B"}
	outs := make([]childLines, len(owners))
	cmds := make([]*exec.Cmd, len(owners))
	for i, owner := range owners {
		cmd := helperCmd(t, "claim", path, fmt.Sprintf("%s:%d", owner, rounds))
		cmd.ExtraFiles = readEnds
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds[i], outs[i] = cmd, childLines{bufio.NewReader(stdout)}
	}
	for _, r := range readEnds {
		r.Close() // the children hold their own copies
	}
	for i, out := range outs {
		if line, ok := out.next(); !ok || line != "ready" {
			t.Fatalf("child %s said %q before the race; want ready", owners[i], line)
		}
	}
	for k := range rounds {
		writeEnds[k].Close() // go: both children read EOF at once
		winners := 0
		for i, out := range outs {
			line, ok := out.next()
			if !ok {
				t.Fatalf("round %d: child %s ended without a report", k, owners[i])
			}
			switch line {
			case fmt.Sprintf("round %d token 1", k):
				winners++
				if got := rowOf(t, s, fmt.Sprintf("round-%d", k)); got.Owner != owners[i] || got.Token != 1 {
					t.Fatalf("round %d: %s reported the win, the row says %+v", k, owners[i], got)
				}
			case fmt.Sprintf("round %d refused %v", k, engine.ErrHeld):
			default:
				t.Fatalf("round %d: child %s reported %q", k, owners[i], line)
			}
		}
		if winners != 1 {
			t.Fatalf("round %d: %d claims granted; want exactly 1", k, winners)
		}
	}
	for i, cmd := range cmds {
		io.Copy(io.Discard, outs[i].r) // the test framework's last words
		if err := cmd.Wait(); err != nil {
			t.Fatalf("child %s: %v", owners[i], err)
		}
	}
}

// Every operation holds at most one connection at a time, so a store runs
// on a pool limited to a single connection (a common SQLite setting); a
// second connection wanted inside a transaction would wait forever.
func TestStore_RunsOnOneConnection(t *testing.T) {
	db := memDB(t)
	db.SetMaxOpenConns(1)
	s := newStore(t, db)
	r := newReceiver(t, db)
	// A deadlock fails here instead of hanging until the test binary's timeout.
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	for round := range int64(3) { // the first round prepares, the later ones reuse
		id := fmt.Sprintf("j%d", round)
		if ok, err := s.Enqueue(ctx, engine.NewJob{ID: id, Qty: 2}); err != nil || !ok {
			t.Fatalf("Enqueue = %v, %v", ok, err)
		}
		now := round * 1000
		l, err := s.Claim(ctx, id, "A", now, 10)
		if err != nil {
			t.Fatalf("Claim: %v", err)
		}
		if l, err = s.Renew(ctx, l, now+5, 10); err != nil {
			t.Fatalf("Renew: %v", err)
		}
		if err := s.Release(ctx, l); err != nil {
			t.Fatalf("Release: %v", err)
		}
		if _, err := s.Dispatch(ctx, "B", &engine.VirtualClock{}, 10, func(ctx context.Context, l engine.Lease) error {
			_, err := r.Deliver(ctx, l)
			return err
		}); err != nil {
			t.Fatalf("Dispatch: %v", err)
		}
		if _, err := s.ClaimNext(ctx, "C", now+20, 10); !errors.Is(err, engine.ErrEmpty) {
			t.Fatalf("ClaimNext = %v; want ErrEmpty", err)
		}
		if j, err := s.Get(ctx, id); err != nil || j == nil || j.Status != engine.StatusDone {
			t.Fatalf("Get = %+v, %v; want done", j, err)
		}
	}
	wantTotal(t, r, 6)
}

// A pool allowing fewer connections than owners must not deadlock ClaimMany:
// the claims run as many at once as the pool allows, and still exactly one
// owner wins.
func TestClaimMany_PoolSmallerThanOwnersExactlyOneWinner(t *testing.T) {
	ctx := context.Background()
	db := memDB(t)
	db.SetMaxOpenConns(2)
	s := newStore(t, db)
	if _, err := s.Enqueue(ctx, engine.NewJob{ID: "small-pool"}); err != nil {
		t.Fatal(err)
	}
	tctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	tokens, err := s.ClaimMany(tctx, "small-pool", []string{"A", "B", "C", "D", "E", "F", "G", "H"}, 0, 1000)
	if err != nil {
		t.Fatal(err)
	}
	winners := 0
	for _, tok := range tokens {
		if tok != 0 {
			winners++
			if tok != 1 {
				t.Errorf("winning token = %d, want 1", tok)
			}
		}
	}
	if len(tokens) != 8 || winners != 1 {
		t.Fatalf("tokens = %v: want 8 tokens with exactly one winner", tokens)
	}
}
