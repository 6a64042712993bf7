package history

import (
	"fmt"
	"io"
	"time"

	"github.com/anishathalye/porcupine"
)

// WriteHTML writes porcupine's visualisation of the result's history, one
// self-contained HTML page: each call an interval on its client's lane
// (the lanes are numbered in the order the clients first appear; each
// call's box starts with its client's name), the calls split as Check splits them, the longest order the model
// accepts and its rows after each call; for a failure, a lane "checker"
// marks the first call no order can place. It checks the history again
// (within the timeout the result was checked in) to find the orders it
// shows.
func (r *Result) WriteHTML(w io.Writer) error {
	m := porcupineModel(partitionOperations)
	all := make([]int, len(r.History))
	for i := range all {
		all[i] = i
	}
	_, info := porcupine.CheckOperationsVerbose(m, operations(r.History, all), max(r.timeout, time.Millisecond))
	if r.Failure != nil {
		for _, c := range r.Failure.Calls {
			if c.Stuck {
				o := &r.History[c.Index]
				info.AddAnnotations([]porcupine.Annotation{{Tag: "checker", Start: o.Invoke, End: o.Return,
					Description: fmt.Sprintf("call %d: no order places it", c.Index+1),
					Details:     o.Client + ": " + describeCall(o) + " → " + describeAnswer(o), BackgroundColor: "#f8d0d0"}})
			}
		}
	}
	return porcupine.Visualize(m, info, w)
}

// partitionOperations splits porcupine's operations as partitions splits
// a history.
func partitionOperations(ops []porcupine.Operation) [][]porcupine.Operation {
	h := make(History, len(ops))
	for i := range ops {
		h[i] = *ops[i].Input.(*Operation)
	}
	var out [][]porcupine.Operation
	for _, idx := range partitions(h) {
		part := make([]porcupine.Operation, len(idx))
		for k, i := range idx {
			part[k] = ops[i]
		}
		out = append(out, part)
	}
	return out
}
