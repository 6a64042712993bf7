package lab

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"
)

// eventOrder is the order events must pop in: by instant, then class (a
// worker's wake before a message's arrival), then push order (seq).
func eventOrder(a, b event) int {
	return cmp.Or(cmp.Compare(a.at, b.at), cmp.Compare(a.class, b.class), cmp.Compare(a.seq, b.seq))
}

// Each pop takes the least event pushed and not yet popped, by instant,
// class and push order, whatever order they were pushed in and however
// pushes and pops interleave.
func TestEvents_EachPopTakesTheLeastByInstantClassAndPushOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 2, 3, 17, 500} {
		var q events
		var model []event // what was pushed and not popped
		seq := 0
		for pushed := 0; pushed < n || len(q) > 0; {
			if pushed < n && (len(q) == 0 || r.IntN(3) > 0) {
				e := event{at: int64(r.IntN(8)), class: r.IntN(2), seq: seq}
				seq++
				pushed++
				q.push(e)
				model = append(model, e)
				continue
			}
			least := slices.MinFunc(model, eventOrder)
			model = slices.DeleteFunc(model, func(e event) bool { return e.seq == least.seq })
			if got := q.pop(); got != least {
				t.Fatalf("%d events: popped %+v, want %+v", n, got, least)
			}
		}
	}
}
