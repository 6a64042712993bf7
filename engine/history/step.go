package history

import (
	"hash/fnv"
	"slices"
	"strconv"

	"github.com/anishathalye/porcupine"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/model"
)

// The checker is porcupine's, over a model whose state is the reference
// model's rows (package engine/model) and whose step plays a call on a copy
// of them. A call that answered error may or may not have taken effect: its
// step leads to both states, so porcupine's states are sets of models
// (NondeterministicModel) that hold one model unless such calls were made.

// porcupineModel is the model porcupine checks with; partition tells how
// a history's calls split into histories checked apart (nil: not at all).
func porcupineModel(partition func([]porcupine.Operation) [][]porcupine.Operation) porcupine.Model {
	nm := porcupine.NondeterministicModel{
		Partition: partition,
		Init:      func() []any { return []any{model.New()} },
		Step: func(state, input, _ any) []any {
			return next(state.(*model.Model), input.(*Operation))
		},
		Equal: func(a, b any) bool { return slices.Equal(a.(*model.Model).Rows(), b.(*model.Model).Rows()) },
		Hash:  func(state any) uint64 { return hashRows(state.(*model.Model).Rows()) },
		DescribeOperation: func(input, _ any) string {
			o := input.(*Operation)
			return o.Client + ": " + describeCall(o) + " → " + describeAnswer(o)
		},
		DescribeState: func(state any) string { return describeRows(state.(*model.Model).Rows()) },
	}
	return nm.ToModel()
}

// next is the states the model may be in after o, from m: none when the
// model cannot answer as o did.
func next(m *model.Model, o *Operation) []any {
	n := m.Clone()
	got := play(n, o)
	if o.Answer.Outcome == engine.OutcomeError {
		return []any{m, n}
	}
	if !fits(o, got) {
		return nil
	}
	return []any{n}
}

// play runs o's call on m and returns the model's answer.
func play(m *model.Model, o *Operation) Answer {
	a := &o.Args
	switch o.Call {
	case engine.OpEnqueue:
		return EnqueueAnswer(m.Enqueue(engine.NewJob{ID: a.Job, Qty: a.Qty, Deadline: a.Deadline, MaxAttempts: a.MaxAttempts}))
	case engine.OpState:
		return StateAnswer(m.Get(a.Job))
	case engine.OpClaim:
		return LeaseAnswer(m.Claim(a.Job, a.Owner, a.Now, a.TTL))
	case engine.OpClaimNext:
		return LeaseAnswer(m.ClaimNext(a.Owner, a.Now, a.TTL))
	case engine.OpRenew:
		return LeaseAnswer(m.Renew(a.Lease(), a.Now, a.TTL))
	case engine.OpComplete, OpFinish:
		return ErrAnswer(m.Complete(a.Lease(), a.Now, a.Result))
	case engine.OpRelease:
		return ErrAnswer(m.Release(a.Lease()))
	}
	panic("history: no call " + string(o.Call)) // Validate refused it
}

// fits reports whether the answer o records is the model's answer got: the
// same outcome, refusal (unless o's names none), lease (the job only when
// o names one), enqueue's created and state's row.
func fits(o *Operation, got Answer) bool {
	want := &o.Answer
	if got.Outcome != want.Outcome {
		return false
	}
	switch {
	case got.Outcome == engine.OutcomeRefused:
		return want.Refusal == "" || want.Refusal == got.Refusal
	case got.Outcome != engine.OutcomeOK:
		return true
	}
	switch o.Call {
	case engine.OpEnqueue:
		return want.Created == got.Created
	case engine.OpState:
		return *want.Row == *got.Row
	case engine.OpClaim, engine.OpClaimNext, engine.OpRenew:
		return want.Token == got.Token && want.LeaseUntil == got.LeaseUntil && (want.Job == "" || want.Job == got.Job)
	}
	return true
}

// hashRows hashes every column of rows, for porcupine's cache of states it
// has seen.
func hashRows(rows []engine.Job) uint64 {
	h := fnv.New64a()
	var b []byte
	for _, j := range rows {
		b = b[:0]
		for _, s := range []string{j.ID, j.Owner, j.Result, j.Reason, string(j.Status)} {
			b = append(strconv.AppendInt(b, int64(len(s)), 10), s...)
		}
		for _, n := range []int64{j.Qty, j.LeaseUntil, j.Token, j.Attempts, j.MaxAttempts, j.Deadline} {
			b = strconv.AppendInt(append(b, ','), n, 10)
		}
		h.Write(b)
	}
	return h.Sum64()
}
