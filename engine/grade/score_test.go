package grade_test

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine/grade"
	"github.com/leaselab/leaselab/engine/internal/testkit/nativeonly"
)

// A student with one mistake loses that mistake's rule's points and no
// others, however many tests the mistake fails: every failed test is
// charged to the rule whose contract the mistake breaks.
func TestScore_OneMistakeCostsOnlyItsRulesPoints(t *testing.T) {
	nativeonly.Python(t)
	cases := []struct {
		name, old, new, rule string
	}{
		{"claim refuses at until", "row[2] or row[0] > now", "row[2] or row[0] >= now", "claim"},
		{"renew ignores the fence", "\"UPDATE jobs SET until=? WHERE id=? AND owner=? AND fence=? AND done=0 AND until>?\",\n            (now + ttl, job_id, owner, fence, now)",
			"\"UPDATE jobs SET until=? WHERE id=? AND owner=? AND done=0 AND until>?\",\n            (now + ttl, job_id, owner, now)", "renew"},
		{"complete ignores the time", "AND fence=? AND done=0 AND until>?\",\n            (result, job_id, owner, fence, now)",
			"AND fence=? AND done=0\",\n            (result, job_id, owner, fence)", "complete"},
		{"release clears the fence", "SET owner=NULL, until=0 WHERE", "SET owner=NULL, until=0, fence=0 WHERE", "release"},
		{"claim_many reads once for every owner", "        return list(pool.map(lambda o: claim(path, job_id, o, now, ttl), owners))",
			"        row = state(path, job_id)\n\n        def take(o):\n            if row is None or row[\"done\"] or row[\"until\"] > now:\n                return None\n" +
				"            conn = _connect(path)\n            conn.execute(\"UPDATE jobs SET owner=?, until=?, fence=? WHERE id=?\", (o, now + ttl, row[\"fence\"] + 1, job_id))\n" +
				"            conn.close()\n            return row[\"fence\"] + 1\n\n        return list(pool.map(take, owners))", "claim_many"},
	}
	weights := grade.DefaultWeights(grade.Fencing)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel() // each waits on its own Python processes
			r, err := gradeFile(t, variant(t, tc.old, tc.new), grade.Options{})
			if err != nil {
				t.Fatal(err)
			}
			heldToOneRule(t, r, tc.rule, weights[tc.rule])
		})
	}
}

// A correct lab whose functions print, write to file descriptor 1 and
// run programs that do, and read their standard input, scores full marks:
// the adapter keeps the protocol's descriptors to itself.
func TestRun_ACorrectLabThatPrintsScoresFullMarks(t *testing.T) {
	nativeonly.Python(t)
	t.Parallel() // waits on its own Python processes
	r, err := gradeFile(t, "testdata/chatty.py", grade.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if first := r.First(); first != nil {
		t.Fatalf("%s failed:\n%s", first.Name, grade.FailureText(first.Failure))
	}
	if got, most := r.Score(); got != 100 || most != 100 {
		t.Errorf("score %v/%v; want 100/100", got, most)
	}
}

// heldToOneRule fails t unless r has failed tests, each charged to rule,
// and scores every rule's points but rule's, whose max is max.
func heldToOneRule(t *testing.T, r *grade.Report, rule string, max float64) {
	t.Helper()
	var failed []string
	for _, test := range r.Tests {
		if f := test.Failure; f != nil {
			failed = append(failed, test.Name)
			if f.Rule != rule {
				t.Errorf("%s is charged to %q; want %s\n%s", test.Name, f.Rule, rule, grade.FailureText(f))
			}
		}
	}
	if len(failed) == 0 {
		t.Fatal("every test passed; want the mistake found")
	}
	got, most := r.Score()
	if most != 100 || got != 100-max {
		t.Errorf("score %v/%v; want %v/100, only %s's %v points lost (failed: %s)", got, most, 100-max, rule, max, strings.Join(failed, "; "))
	}
	for _, s := range r.Scores() {
		if lost := s.Points != s.Max; lost != (s.Rule == rule) || lost != (len(s.Failed) > 0) {
			t.Errorf("rule %s: %v/%v, failed %v; want only %s lost, with its failed tests", s.Rule, s.Points, s.Max, s.Failed, rule)
		}
	}
	t.Logf("%d tests failed, all charged to %s: %s", len(failed), rule, strings.Join(failed, "; "))
}

// The courier's rules are its steps: a mistake in the quarantine or the
// deadline cap, both made by claim_next, costs that step's points, not
// claim_next's.
func TestScore_OneCourierMistakeCostsOnlyItsRulesPoints(t *testing.T) {
	nativeonly.Python(t)
	if testing.Short() {
		t.Skip("grades four courier labs in Python (-short)")
	}
	cases := []struct {
		name, old, new, rule string
	}{
		{"quarantine one attempt late", "max_attempts > 0 and attempts >= max_attempts", "max_attempts > 0 and attempts > max_attempts", "quarantine"},
		{"the lease outlasts the deadline", "lease_until = now + lease_ms if deadline is None else min(now + lease_ms, deadline)", "lease_until = now + lease_ms", "deadline"},
		{"finish ignores the token", "WHERE id=? AND owner=? AND token=? AND status='leased'\"\n            \" AND lease_until>? AND (deadline IS NULL OR deadline>?)\",\n            (result, marker[\"id\"], marker[\"owner\"], marker[\"token\"], now, now)",
			"WHERE id=? AND owner=? AND status='leased'\"\n            \" AND lease_until>? AND (deadline IS NULL OR deadline>?)\",\n            (result, marker[\"id\"], marker[\"owner\"], now, now)", "finish"},
		{"receiver applies a resend", "INSERT OR IGNORE INTO received", "INSERT OR REPLACE INTO received", "receive"},
	}
	weights := grade.DefaultWeights(grade.Courier)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel() // each waits on its own Python processes
			r := gradeCourier(t, courierVariant(t, tc.old, tc.new), grade.Options{})
			heldToOneRule(t, r, tc.rule, weights[tc.rule])
		})
	}
}

// The text report labels each failed test with the rule it is charged to
// and ends with the score by rule: each rule's points of its maximum, and
// the tests charged to it; in Korean too.
func TestWriteText_EndsWithTheScoreByRule(t *testing.T) {
	for _, tc := range []struct{ lang, fail, score, claim string }{
		{"en", "FAIL  step 4: claim (charged to claim)\n", "Score by rule: 75/100\n", "  claim       0/25  failed: step 4: claim\n"},
		{"ko", "  step 4: claim (claim 규칙에서 감점)\n", "규칙별 점수: 75/100\n", "  claim       0/25  실패: step 4: claim\n"},
	} {
		var b strings.Builder
		grade.WriteText(&b, sample, tc.lang)
		text := b.String()
		_, tail, _ := strings.Cut(text, tc.score)
		if !strings.Contains(text, tc.fail) || !strings.HasSuffix(text, tail) || strings.Count(tail, "\n") != 8 || !strings.Contains(tail, tc.claim) ||
			!strings.Contains(tail, "  claim_many 15/15\n") {
			t.Errorf("%s: the report does not label the failure %q and end with %q and the 8 rules, claim's %q:\n%s", tc.lang, tc.fail, tc.score, tc.claim, text)
		}
	}
}

// Code that could not run at all has lost every rule's points.
func TestUnrun_ScoresNothing(t *testing.T) {
	for _, lab := range grade.Labs() {
		r := grade.Unrun(lab, errors.New("student.py: no such file"))
		if got, most := r.Score(); got != 0 || most != 100 {
			t.Errorf("%s: %v/%v; want 0/100", lab, got, most)
		}
		for _, s := range r.Scores() {
			if len(s.Failed) != 1 || s.Failed[0] != "the student's code runs" {
				t.Errorf("%s: rule %s failed %v; want it charged with the code not running", lab, s.Rule, s.Failed)
			}
		}
	}
}

// A report's weights, when set, are the points its rules carry.
func TestScores_AreTheReportsWeights(t *testing.T) {
	r := *sample
	r.Weights = grade.DefaultWeights(grade.Fencing)
	r.Weights["claim"], r.Weights["renew"] = 40, 0
	if got, most := r.Score(); got != 60 || most != 100 {
		t.Errorf("%v/%v; want 60/100 (claim's 40 lost, renew's 15 moved to it)", got, most)
	}
	if grade.DefaultWeights(grade.Fencing)["claim"] != 25 {
		t.Error("changing a report's weights changed the default weights")
	}
}

// Every lab's default weights name its rules and sum to 100.
func TestDefaultWeights_NameEveryRuleAndSumTo100(t *testing.T) {
	for _, lab := range grade.Labs() {
		w, sum := grade.DefaultWeights(lab), 0.0
		for _, rule := range grade.Rules(lab) {
			p, ok := w[rule]
			if !ok || p <= 0 {
				t.Errorf("%s: rule %s carries %v", lab, rule, p)
			}
			sum += p
		}
		if sum != 100 || len(w) != len(grade.Rules(lab)) {
			t.Errorf("%s: %d weights summing to %v for %d rules; want 100", lab, len(w), sum, len(grade.Rules(lab)))
		}
	}
}

// The package doc's table of the default weights is DefaultWeights.
func TestDefaultWeights_AreThePackageDocs(t *testing.T) {
	src, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	_, table, _ := strings.Cut(string(src), "by default 100 in all:")
	table, _, _ = strings.Cut(strings.TrimPrefix(table, "\n//"), "\n//\n")
	lab, docs := "", map[string]grade.Weights{}
	f := strings.Fields(strings.ReplaceAll(strings.ReplaceAll(table, "//", ""), ",", ""))
	for i := 0; i < len(f); i++ {
		if slices.Contains(grade.Labs(), f[i]) {
			lab, docs[f[i]] = f[i], grade.Weights{}
			continue
		}
		p, err := strconv.ParseFloat(f[min(i+1, len(f)-1)], 64)
		if lab == "" || err != nil {
			t.Fatalf("the doc's table %q does not read as LAB RULE POINTS ...", table)
		}
		docs[lab][f[i]] = p
		i++
	}
	for _, lab := range grade.Labs() {
		want, got := grade.DefaultWeights(lab), docs[lab]
		if len(got) != len(want) {
			t.Errorf("%s: the doc gives %v; want %v", lab, got, want)
		}
		for rule, p := range want {
			if got[rule] != p {
				t.Errorf("%s: the doc gives %s %v; want %v", lab, rule, got[rule], p)
			}
		}
	}
}

// A weights file names every rule of the lab once, with a number at
// least 0; anything else is refused naming the line and what is wrong.
func TestParseWeights_RefusesUnknownRulesAndBadNumbers(t *testing.T) {
	const all = "init_db 5\nenqueue 5\nstate 5\nrenew 15\ncomplete 20\nrelease 10\nclaim_many 15\n"
	cases := []struct {
		name, src, err string // err "" accepts it
		claim          float64
	}{
		{"every rule", all + "claim 25\n", "", 25},
		{"comments, blank lines, a decimal", "# mine\n\n" + all + "  claim   12.5  \n", "", 12.5},
		{"no points at all", "init_db 0\nenqueue 0\nstate 0\nclaim 0\nrenew 0\ncomplete 0\nrelease 0\nclaim_many 0\n", "sum to 0", 0},
		{"zero points", all + "claim 0\n", "", 0},
		{"below zero", all + "claim -1\n", `line 8: claim's points "-1" are not a number at least 0`, 0},
		{"not a number", all + "claim lots\n", `line 8: claim's points "lots"`, 0},
		{"infinite", all + "claim Inf\n", `line 8: claim's points "Inf"`, 0},
		{"not a number (NaN)", all + "claim NaN\n", `line 8: claim's points "NaN"`, 0},
		{"an unknown rule", all + "claim 25\nclaim_next 5\n", `line 9: the fencing lab has no rule "claim_next" (its rules: init_db, enqueue, state, claim, renew, complete, release, claim_many)`, 0},
		{"a rule twice", all + "claim 25\nclaim 5\n", "line 9: claim is named twice", 0},
		{"a rule missing", all, "no points for claim: name every rule of the fencing lab once", 0},
		{"three fields", all + "claim 25 points\n", `line 8: "claim 25 points" is not "RULE POINTS"`, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w, err := grade.ParseWeights(grade.Fencing, strings.NewReader(tc.src))
			switch {
			case tc.err == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.err == "" && w["claim"] != tc.claim:
				t.Errorf("claim carries %v; want %v", w["claim"], tc.claim)
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
				t.Errorf("got %v; want it refused saying %q", err, tc.err)
			}
		})
	}
}

// Every failed test says in each report which rule it was charged to, a
// story, the race and the search as a step does: here a Go lab whose
// claim holds a lease at its end, whose failures are all claim's.
func TestReports_EachFailedTestNamesItsRule(t *testing.T) {
	lab := &goLab{claimBoundary: true}
	t.Cleanup(lab.close)
	r, err := grade.Grade(t.Context(), grade.Options{Lab: lab, Dir: tempDir(t), Sequences: 20, Rounds: 5})
	if err != nil {
		t.Fatal(err)
	}
	var text strings.Builder
	grade.WriteText(&text, r, "en")
	var gs, junit bytes.Buffer
	if err := grade.WriteGradescope(&gs, r); err != nil {
		t.Fatal(err)
	}
	if err := grade.WriteJUnit(&junit, r); err != nil {
		t.Fatal(err)
	}
	kinds := map[string]bool{}
	for _, test := range r.Tests {
		if test.Failure == nil {
			continue
		}
		kind, _, _ := strings.Cut(test.Name, ":")
		kinds[kind] = true
		if !strings.Contains(text.String(), "FAIL  "+test.Name+" (charged to claim)\n") {
			t.Errorf("the text report does not say %s is charged to claim:\n%s", test.Name, text.String())
		}
		name, _ := json.Marshal(test.Name)
		if !strings.Contains(gs.String(), `"name": `+string(name)+`,
      "status": "failed",
      "output": "charged to the rule claim\n`) {
			t.Errorf("Gradescope's results do not say %s is charged to claim:\n%s", test.Name, gs.String())
		}
	}
	var suite struct {
		Cases []junitCase `xml:"testcase"`
	}
	if err := xml.Unmarshal(junit.Bytes(), &suite); err != nil {
		t.Fatal(err)
	}
	for i, c := range suite.Cases {
		if failed := r.Tests[i].Failure != nil; c.Name != r.Tests[i].Name || failed != (c.Failure != nil) ||
			(failed && !strings.HasPrefix(c.Failure.Message, "charged to claim: ")) {
			t.Errorf("the JUnit testcase %+v, failure %+v; want %s, its failure's message naming claim", c, c.Failure, r.Tests[i].Name)
		}
	}
	for _, kind := range []string{"step 4", "story", "race", "search"} {
		if !kinds[kind] {
			t.Errorf("no %s test failed; want one of each kind (failed: %v)", kind, kinds)
		}
	}
}
