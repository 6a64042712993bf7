package explore

import (
	"fmt"
	"strings"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/timeline"
)

// expectation is what the correct engine answered at st, as the language
// writes an expectation: the outcome, then the fields that show it (the
// lease granted, the receiver's, the storage's, the race's). The last step
// also states its job's row, so a mutant that answers alike but leaves
// another row is caught there too.
func expectation(st timeline.Step, last bool) string {
	op := engine.Op(st.Op)
	if op == timeline.OpCrash || op == timeline.OpPause || op == timeline.OpWait || op == timeline.OpJump || op == timeline.OpDrift {
		return ""
	}
	parts := []string{st.Outcome.Kind}
	if st.Outcome.Reason != "" {
		parts = append(parts, st.Outcome.Reason)
	}
	parts = append(parts, fields(st)...)
	if last && st.Job != "" && op != engine.OpWrite && op != engine.OpRead && op != engine.OpState {
		for _, f := range rowFields(st) {
			key, _, _ := strings.Cut(f, "=")
			if !strings.Contains(" "+strings.Join(parts, " "), " "+key+"=") {
				parts = append(parts, f)
			}
		}
	}
	return strings.Join(parts, " ")
}

// fields are the step's own fields.
func fields(st timeline.Step) []string {
	var f []string
	switch engine.Op(st.Op) {
	case engine.OpClaim, engine.OpClaimNext, engine.OpRenew:
		if st.Lease != nil && st.Outcome.Kind == "ok" {
			f = append(f, fmt.Sprintf("token=%d", st.Lease.Token), fmt.Sprintf("lease_until=%d", st.Lease.LeaseUntil))
			if st.Op == string(engine.OpClaimNext) {
				f = append(f, "job="+st.Job)
			}
		}
	case engine.OpClaimMany:
		f = append(f, "winner="+winner(st))
		for _, c := range st.Contenders {
			if c.Outcome.Kind != "ok" && c.Outcome.Reason != "" {
				f = append(f, fmt.Sprintf("loser.%s=%s", c.Actor, c.Outcome.Reason))
			}
		}
	case engine.OpDeliver:
		if st.Receipt != nil {
			f = append(f, fmt.Sprintf("delivered=%t", st.Receipt.Delivered), fmt.Sprintf("total=%d", st.Receipt.Total))
		}
	case engine.OpWrite:
		if st.Stored != nil {
			f = append(f, fmt.Sprintf("storage.token=%d", st.Stored.Token), "storage.owner="+st.Stored.Owner)
		}
	case engine.OpEnqueue:
		if st.Enqueued != nil {
			f = append(f, fmt.Sprintf("enqueued=%t", *st.Enqueued))
		}
	}
	return f
}

func winner(st timeline.Step) string {
	for _, c := range st.Contenders {
		if c.Outcome.Kind == "ok" {
			return c.Actor
		}
	}
	return "none"
}

// rowFields state the step's job as the correct engine left it.
func rowFields(st timeline.Step) []string {
	for _, r := range st.Rows {
		if r.ID == st.Job {
			return rowWords(r)
		}
	}
	return nil // unchanged by the step: its earlier steps state it
}

func rowWords(r timeline.Row) []string {
	owner := r.Owner
	if owner == "" {
		owner = "none"
	}
	reason := r.Reason
	if reason == "" {
		reason = "none"
	}
	return []string{"status=" + r.Status, "owner=" + owner, fmt.Sprintf("token=%d", r.Token),
		fmt.Sprintf("attempts=%d", r.Attempts), "reason=" + reason}
}
