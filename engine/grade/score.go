package grade

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/leaselab/leaselab/engine"
)

// labRules are each lab's rules, in the order its steps introduce them:
// the fencing lab's functions; the courier's steps, where quarantine and
// deadline are the parts of claim_next's contract that quarantine a job
// and cap its lease.
var labRules = map[string][]string{
	Fencing: labFunctions[Fencing],
	Courier: {"init_db", "enqueue", "state", "claim_next", "finish", "quarantine", "deadline", "send", "receive"},
}

// defaultWeights are the points each lab's rules carry unless told
// others, 100 in all. The fencing lab's weigh the checks the lab is about:
// claim (the lease's boundary, the fence counted up, one transaction) and
// complete (a stale worker's write refused) most, renew and claim_many
// (exactly one owner under threads) next, release then; init_db, enqueue
// and state are the table's plumbing. The courier's weigh claim_next and
// send (commit before deliver) most, finish next, the quarantine, the
// deadline and the idempotent receiver then.
var defaultWeights = map[string]Weights{
	Fencing: {"init_db": 5, "enqueue": 5, "state": 5, "claim": 25, "renew": 15, "complete": 20, "release": 10, "claim_many": 15},
	Courier: {"init_db": 5, "enqueue": 5, "state": 5, "claim_next": 20, "finish": 15, "quarantine": 10, "deadline": 10, "send": 20, "receive": 10},
}

// Rules are the rules of the lab called lab that a report scores, in
// order; nil for no such lab.
func Rules(lab string) []string { return slices.Clone(labRules[lab]) }

// Weights are the points each rule of a lab carries, by the rule's name.
type Weights map[string]float64

// DefaultWeights are the points the rules of the lab called lab carry
// unless told others: 100 in all (package doc); nil for no such lab.
func DefaultWeights(lab string) Weights {
	w := defaultWeights[lab]
	if w == nil {
		return nil
	}
	out := make(Weights, len(w))
	for k, v := range w {
		out[k] = v
	}
	return out
}

// ParseWeights reads the points of the rules of the lab called lab from
// r: a line "RULE POINTS" for each rule of Rules(lab), once each, in any
// order; blank lines and lines starting with # are skipped. POINTS is a
// finite decimal number at least 0, and they sum to more than 0. The error
// names the line and what is wrong with it: an unknown rule (with the
// lab's rules), a bad number, a rule named twice; or the rules not named.
func ParseWeights(lab string, r io.Reader) (Weights, error) {
	rules, ok := labRules[lab]
	if !ok {
		return nil, fmt.Errorf("no lab %q (the labs: %s)", lab, strings.Join(Labs(), ", "))
	}
	w, sum := Weights{}, 0.0
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		if len(f) != 2 {
			return nil, fmt.Errorf("line %d: %q is not \"RULE POINTS\"", n, line)
		}
		if !slices.Contains(rules, f[0]) {
			return nil, fmt.Errorf("line %d: the %s lab has no rule %q (its rules: %s)", n, lab, f[0], strings.Join(rules, ", "))
		}
		if _, twice := w[f[0]]; twice {
			return nil, fmt.Errorf("line %d: %s is named twice", n, f[0])
		}
		p, err := strconv.ParseFloat(f[1], 64)
		if err != nil || p < 0 || math.IsInf(p, 0) || math.IsNaN(p) {
			return nil, fmt.Errorf("line %d: %s's points %q are not a number at least 0", n, f[0], f[1])
		}
		w[f[0]], sum = p, sum+p
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	var unnamed []string
	for _, rule := range rules {
		if _, ok := w[rule]; !ok {
			unnamed = append(unnamed, rule)
		}
	}
	switch {
	case len(unnamed) > 0:
		return nil, fmt.Errorf("no points for %s: name every rule of the %s lab once", strings.Join(unnamed, ", "), lab)
	case sum <= 0:
		return nil, fmt.Errorf("the points sum to 0")
	}
	return w, nil
}

// RuleScore is one rule's score: Max points, all of them or none
// (Points), and the tests whose failures were charged to it (Failed, in
// the report's order; none when it kept its points).
type RuleScore struct {
	Rule        string
	Points, Max float64
	Failed      []string
}

// Scores are the report's score by rule, in the lab's order (Rules): a
// rule keeps its points unless a test's failure is charged to it
// (Failure.Rule), however many tests that is; the weights are r.Weights,
// or DefaultWeights. In the report of code that could not run at all
// (Unrun), every rule has lost its points.
func (r *Report) Scores() []RuleScore {
	lab := r.Lab
	if lab == "" {
		lab = Fencing
	}
	w := r.Weights
	if w == nil {
		w = defaultWeights[lab]
	}
	var out []RuleScore
	for _, rule := range labRules[lab] {
		s := RuleScore{Rule: rule, Max: w[rule]}
		for _, t := range r.Tests {
			if t.Failure != nil && (r.unrun || t.Failure.Rule == rule) {
				s.Failed = append(s.Failed, t.Name)
			}
		}
		if len(s.Failed) == 0 {
			s.Points = s.Max
		}
		out = append(out, s)
	}
	return out
}

// Score is the sum of the rules' points, and of their maximums.
func (r *Report) Score() (points, max float64) {
	for _, s := range r.Scores() {
		points += s.Points
		max += s.Max
	}
	return points, max
}

// charge is the rule of the lab called lab that f's first difference
// breaks: the lab function of the call that differs (a race's, a
// shrunk sequence's last); for a courier's claim_next whose difference
// is a job quarantined or not, or a lease the deadline caps, that step's
// rule; init_db when no call was made (the program did not start, or
// broke before its first call).
func charge(lab string, f *Failure) string {
	fn := f.fn
	if fn == "" {
		fn, _, _ = strings.Cut(f.Call, "(")
		fn = labFunction(fn)
	}
	if !slices.Contains(labRules[lab], fn) {
		return "init_db"
	}
	if lab == Courier && fn == "claim_next" {
		if rule := courierRule(f.WantRows, f.GotRows); rule != "" {
			return rule
		}
	}
	return fn
}

// labFunction is the lab function a call's name in any of the student's
// terms names (Claim in Go is claim).
func labFunction(name string) string {
	for lab, gn := range goNames {
		if gn == name {
			return lab
		}
	}
	return name
}

// courierRule is the courier step whose rule a claim_next's tables part
// on: quarantine or deadline when a row that differs is quarantined in
// either (by its reason), deadline when it differs in a lease the
// contract caps at the job's deadline; "" when neither.
func courierRule(want, got []engine.Job) string {
	gotByID := map[string]engine.Job{}
	for _, j := range got {
		gotByID[j.ID] = j
	}
	for _, w := range want {
		g := gotByID[w.ID]
		if g == w {
			continue
		}
		reason := w.Reason
		if reason == "" {
			reason = g.Reason
		}
		switch {
		case reason == engine.ReasonAttempts:
			return "quarantine"
		case reason == engine.ReasonDeadline:
			return "deadline"
		case w.Deadline != 0 && w.LeaseUntil == w.Deadline && g.LeaseUntil != w.LeaseUntil:
			return "deadline"
		}
	}
	return ""
}

// points is a number of points as a report writes it: 12.5, 20.
func points(p float64) string { return strconv.FormatFloat(p, 'f', -1, 64) }
