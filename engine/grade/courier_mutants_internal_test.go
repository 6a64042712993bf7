//go:build mutants

package grade

import (
	"os"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine/internal/mutant"
	"github.com/leaselab/leaselab/engine/internal/testkit/nativeonly"
)

// courierMistakes are, for each mutant the courier's functions can show,
// the one-fragment mistake in courier.py that breaks its rule.
var courierMistakes = map[string][2]string{
	mutant.SchemaReset: {"conn.execute(\n            \"CREATE TABLE IF NOT EXISTS jobs(",
		"conn.execute(\"DROP TABLE IF EXISTS jobs\")\n        conn.execute(\n            \"CREATE TABLE IF NOT EXISTS jobs("},
	mutant.EnqueueReplace:    {"INSERT OR IGNORE INTO jobs", "INSERT OR REPLACE INTO jobs"},
	mutant.StateEmptyRow:     {"        if row is None:\n            return None\n        return dict(", "        if row is None:\n            return {}\n        return dict("},
	mutant.ClaimBoundary:     {"cur_owner is not None and until > now", "cur_owner is not None and until >= now"},
	mutant.CompleteDone:      {"AND token=? AND status='leased'\"", "AND token=? AND status IN ('leased', 'done')\""},
	mutant.NoDeadlineCap:     {"lease_until = now + lease_ms if deadline is None else min(now + lease_ms, deadline)", "lease_until = now + lease_ms"},
	mutant.AttemptsOffByOne:  {"max_attempts > 0 and attempts >= max_attempts", "max_attempts > 0 and attempts > max_attempts"},
	mutant.ValidityInclusive: {"AND lease_until>? AND", "AND lease_until>=? AND"},
	mutant.IDOnly: {"WHERE id=? AND owner=? AND token=? AND status='leased'\"\n            \" AND lease_until>? AND (deadline IS NULL OR deadline>?)\",\n            (result, marker[\"id\"], marker[\"owner\"], marker[\"token\"], now, now)",
		"WHERE id=? AND status='leased'\"\n            \" AND lease_until>? AND (deadline IS NULL OR deadline>?)\",\n            (result, marker[\"id\"], now, now)"},
}

// Every mutant the courier's functions can show has its mistake here, and
// its timeline, played on the courier that makes that mistake, fails it
// naming the rule; on the correct courier it passes.
func TestCourierMutants_EachTimelineFailsItsMistake(t *testing.T) {
	nativeonly.Python(t)
	src, err := os.ReadFile("testdata/courier.py")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range labMutants[Courier] {
		fix, ok := courierMistakes[name]
		if !ok {
			t.Errorf("%s: no mistake of courier.py breaks its rule here", name)
			continue
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel() // each waits on its own Python processes
			if strings.Count(string(src), fix[0]) != 1 {
				t.Fatalf("the fragment %q is not in courier.py exactly once", fix[0])
			}
			for _, wrong := range []bool{false, true} {
				code := string(src)
				if wrong {
					code = strings.Replace(code, fix[0], fix[1], 1)
				}
				f, err := courierMutantTest(t, code, name)
				switch {
				case err != nil:
					t.Fatal(err)
				case !wrong && f != nil:
					t.Fatalf("the correct courier fails:\n%s", FailureText(f))
				case wrong && f == nil:
					t.Fatal("the mistake passes its mutant's timeline")
				case wrong && !strings.Contains(f.Detail, "this timeline tells the contract from a broken engine") || wrong && f.Timeline == "":
					t.Errorf("the failure does not say the rule or give the timeline:\n%s", FailureText(f))
				}
			}
		})
	}
}

// courierMutantTest runs the test of the mutant name on the courier module
// code.
func courierMutantTest(t *testing.T, code, name string) (*Failure, error) {
	g := courierGrader(t, code)
	for _, tc := range g.mutantTests() {
		if tc.name.String() == "mutant: "+name {
			if tc.skip.Format() != "" {
				t.Fatalf("skipped: %s", tc.skip)
			}
			return tc.run(t.Context())
		}
	}
	t.Fatalf("no test of %s", name)
	return nil, nil
}
