package explore

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/timeline"
	"github.com/leaselab/leaselab/engine/timeline/memrun"
)

// The explorer searches on the model and trusts it: on every state of a
// small scope, the history that reaches it, played on the real engine over
// SQLite, gives the same answer at every step and leaves the same rows as
// the model.
func TestModelAndEngineAgreeOnEveryStateOfASmallScope(t *testing.T) {
	sc := Scope{Workers: 2, Steps: 3, TTL: 1000, MaxStates: 1_000_000,
		Jobs: []Job{{ID: "a", Qty: 1, Deadline: 1500, MaxAttempts: 2}, {ID: "b", Qty: 1, Later: true}}}
	g := Goal{Property: "no-job-lost"}
	if err := Validate(sc, g); err != nil {
		t.Fatal(err)
	}
	s := newSearch(sc, g)
	var nodes []*node
	s.visit = func(n *node) { nodes = append(nodes, n) }
	if f, err := s.run(context.Background(), nil); err != nil || f.Steps != nil {
		t.Fatalf("search: %v %v", err, f)
	}
	if len(nodes) < 200 {
		t.Fatalf("only %d states in the scope", len(nodes))
	}
	for _, n := range nodes {
		var path []op
		for x := n; x.parent != nil; x = x.parent {
			path = append(path, x.via)
		}
		slices.Reverse(path)
		if msg := agree(t, s, sc, path); msg != "" {
			t.Fatal(msg)
		}
	}
	t.Logf("%d states, each reached on the engine as on the model", len(nodes))
}

// agree plays path on the model and on the engine and says where they
// differ, or "".
func agree(t *testing.T, s *search, sc Scope, path []op) string {
	f := &Found{Steps: s.steps(path)}
	text := render(sc, Goal{}, f, nil)
	tr, err := memrun.RunSource(context.Background(), "agree.tl", text, timeline.Options{})
	if err != nil {
		return fmt.Sprintf("%v\n%s", err, text)
	}
	st, _ := s.root()
	a := newApplier(sc, true)
	rows := tr.Start
	for i, o := range path {
		x, _ := a.apply(st, o)
		rows = tr.Steps[i].Apply(rows)
		got := engineAnswers(tr.Steps[i])
		if !slices.Equal(got, x.answers) {
			return fmt.Sprintf("step %d: the model answers %v, the engine %v\n%s", i+1, x.answers, got, text)
		}
		if want, got := modelRows(st), tableRows(rows); want != got {
			return fmt.Sprintf("step %d: the model leaves %s, the engine %s\n%s", i+1, want, got, text)
		}
	}
	return ""
}

// engineAnswers words a trace step's answers as the model's obs does.
func engineAnswers(st timeline.Step) []string {
	word := func(o timeline.StepOutcome, l *timeline.Lease) string {
		switch {
		case o.Kind == "ok" && l != nil && l.Token > 0:
			return fmt.Sprintf("ok %s#%d until %d", l.Owner, l.Token, l.LeaseUntil)
		case o.Kind == "refused":
			return "refused " + o.Reason
		}
		return o.Kind
	}
	switch engine.Op(st.Op) {
	case engine.OpClaimMany:
		var out []string
		for _, c := range st.Contenders {
			out = append(out, word(c.Outcome, c.Lease))
		}
		return out
	case engine.OpClaim, engine.OpClaimNext, engine.OpRenew:
		return []string{word(st.Outcome, st.Lease)}
	case engine.OpDeliver:
		return []string{fmt.Sprintf("%s delivered=%t", st.Outcome.Kind, st.Receipt.Delivered)}
	case engine.OpEnqueue:
		return []string{fmt.Sprintf("%s enqueued=%t", st.Outcome.Kind, *st.Enqueued)}
	case engine.OpState:
		if st.State == nil {
			return []string{"empty"}
		}
		return []string{"ok " + rowText(jobOf(*st.State))}
	}
	return []string{word(st.Outcome, nil)}
}

func jobOf(r timeline.Row) engine.Job {
	return engine.Job{ID: r.ID, Owner: r.Owner, Result: r.Result, Reason: r.Reason, Qty: r.Qty, LeaseUntil: r.LeaseUntil,
		Token: r.Token, Attempts: r.Attempts, MaxAttempts: r.MaxAttempts, Deadline: r.Deadline, Status: engine.Status(r.Status)}
}

func modelRows(st *state) string {
	var b []string
	for _, j := range st.m.Rows() {
		b = append(b, j.ID+" "+rowText(j))
	}
	return strings.Join(b, "; ")
}

func tableRows(rows []timeline.Row) string {
	var b []string
	for _, r := range rows {
		b = append(b, r.ID+" "+rowText(jobOf(r)))
	}
	return strings.Join(b, "; ")
}
