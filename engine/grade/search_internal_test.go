package grade

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/leaselab/leaselab/engine/internal/testkit/nativeonly"
	"github.com/leaselab/leaselab/engine/timeline"
)

// The search, by itself, finds a mistake and shrinks it to its fewest
// calls, the last one the call that differs, with both answers and both
// tables: a claim_next that takes the job first by id, not the one
// enqueued first, is two jobs enqueued out of the order of their ids and
// a claim_next.
func TestSearch_ShrinksAClaimOrderMistakeToItsThreeCalls(t *testing.T) {
	nativeonly.Python(t)
	src, err := os.ReadFile("testdata/courier.py")
	if err != nil {
		t.Fatal(err)
	}
	const old, wrong = "ORDER BY rowid\").fetchall()", "ORDER BY id\").fetchall()"
	if strings.Count(string(src), old) != 1 {
		t.Fatalf("%q is not in courier.py exactly once", old)
	}
	f, err := courierGrader(t, strings.Replace(string(src), old, wrong, 1)).search(t.Context())
	if err != nil || f == nil {
		t.Fatalf("the search found %v, %v; want the mistake", f, err)
	}
	if !strings.HasPrefix(f.Call, "claim_next(path, ") {
		t.Errorf("the failure is at %s, call %s; want a claim_next of the sequence\n%s", f.Where, f.Call, FailureText(f))
	}
	// Two jobs enqueued out of the order of their ids, and a claim_next:
	// the markers name different jobs, or the tables differ (the job
	// first by id quarantined on the way, or not).
	if n := strings.Count(f.Timeline, "\n") - 2; n != 3 || f.Where != "call 3" {
		t.Errorf("shrunk to %s, a timeline of %d calls; want call 3 of 3:\n%s", f.Where, n, f.Timeline)
	}
	if len(f.WantRows) != 2 || (f.Want == f.Got && slices.Equal(f.WantRows, f.GotRows)) {
		t.Errorf("neither the answers nor the tables tell the contract from the student:\n%s", FailureText(f))
	}
	text := FailureText(f)
	for _, part := range []string{f.Call, "contract:", "yours:"} {
		if !strings.Contains(text, part) {
			t.Errorf("the report does not say %q:\n%s", part, text)
		}
	}
	if _, err := timeline.Parse("search.tl", f.Timeline); err != nil {
		t.Errorf("the search's timeline does not parse: %v\n%s", err, f.Timeline)
	}
}

// courierGrader is a grader of the courier module code, written to a
// temporary directory.
func courierGrader(t *testing.T, code string) *grader {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "student.py")
	if err := os.WriteFile(path, []byte(code), 0o600); err != nil {
		t.Fatal(err)
	}
	prog, err := PythonLab(Courier, path, dir)
	if err != nil {
		t.Fatal(err)
	}
	o := Options{Program: prog, Dir: dir, LabName: Courier, CallTimeout: 5 * time.Second}
	o.defaults()
	return &grader{o: o}
}
