package explore

import (
	"encoding/binary"
	"hash/maphash"
	"slices"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/check"
	"github.com/leaselab/leaselab/engine/model"
)

// state is one point of a history: the model's jobs, receiver and storage,
// the clock, and what each worker holds — the lease of its latest claim of
// each job, as a real worker keeps it (a crash forgets them).
type state struct {
	now  int64
	m    *model.Model
	recv *model.Receiver
	stor *model.Storage
	held []engine.Lease // [worker*jobs + job]; Token 0: holds none
	chk  *check.Checker // property searches only
}

func (st *state) clone() *state {
	c := &state{now: st.now, m: st.m.Clone(), recv: st.recv.Clone(), stor: st.stor.Clone(),
		held: slices.Clone(st.held)}
	if st.chk != nil {
		c.chk = st.chk.Clone()
	}
	return c
}

// copyFrom makes st a copy of src, reusing st's memory: a step is tried on
// a scratch state, and only a state not seen before is kept (cloned).
func (st *state) copyFrom(src *state) {
	st.now = src.now
	st.m.CopyFrom(src.m)
	st.recv.CopyFrom(src.recv)
	st.stor.CopyFrom(src.stor)
	st.held = append(st.held[:0], src.held...)
	if src.chk != nil {
		if st.chk == nil {
			st.chk = check.New()
		}
		st.chk.CopyFrom(src.chk)
	}
}

// newScratch is an empty state to copy into.
func newScratch() *state {
	return &state{m: model.New(), recv: model.NewReceiver(), stor: model.NewStorage()}
}

// keyer computes a state's key: equal keys are equivalent states. Workers
// are interchangeable, so the key is the least encoding over every
// renaming of the workers: histories that differ only by who is called A
// and who B are visited once.
type keyer struct {
	seed  maphash.Seed
	perms [][]int // every permutation of the workers
	buf   []byte
	min   []byte
}

func newKeyer(workers int) *keyer {
	return &keyer{seed: maphash.MakeSeed(), perms: permutations(workers)}
}

func (k *keyer) key(st *state, jobs []Job) uint64 {
	k.min = k.min[:0]
	rows := st.m.Rows()
	for i, p := range k.perms {
		k.buf = encode(k.buf[:0], st, rows, jobs, p)
		if i == 0 || string(k.buf) < string(k.min) {
			k.min = append(k.min[:0], k.buf...)
		}
	}
	return maphash.Bytes(k.seed, k.min)
}

// encode appends the state with worker w renamed perm[w]: the clock, each
// job's row, the receiver's, the storage's, and what each worker holds.
func encode(b []byte, st *state, rows []engine.Job, jobs []Job, perm []int) []byte {
	name := func(owner string) int64 {
		for w, n := range workerNames[:len(perm)] {
			if n == owner {
				return int64(perm[w]) + 1
			}
		}
		if owner == "" {
			return 0
		}
		return -1 // a name no worker has (admin)
	}
	b = binary.AppendVarint(b, st.now)
	for _, j := range jobs {
		i := slices.IndexFunc(rows, func(r engine.Job) bool { return r.ID == j.ID })
		if i < 0 {
			b = append(b, 0)
			continue
		}
		row := &rows[i]
		b = append(b, 1, byte(statusCode(row.Status)), byte(len(row.Reason)))
		for _, v := range []int64{name(row.Owner), row.LeaseUntil, row.Token, row.Attempts, name(row.Result)} {
			b = binary.AppendVarint(b, v)
		}
	}
	b = binary.AppendVarint(b, st.recv.Total())
	for _, j := range jobs {
		if v, ok := st.stor.Lookup(j.ID); ok {
			b = binary.AppendVarint(b, name(v.Owner))
			b = binary.AppendVarint(b, v.Token)
			b = binary.AppendVarint(b, name(v.Value))
		} else {
			b = append(b, 0xff)
		}
	}
	return encodeHeld(b, st, len(jobs), perm)
}

// encodeHeld appends what each worker holds, workers in their new order.
func encodeHeld(b []byte, st *state, jobs int, perm []int) []byte {
	inv := make([]int, len(perm))
	for w, p := range perm {
		inv[p] = w
	}
	for _, w := range inv {
		for j := range jobs {
			l := st.held[w*jobs+j]
			b = binary.AppendVarint(b, l.Token)
			b = binary.AppendVarint(b, l.LeaseUntil)
		}
	}
	return b
}

func statusCode(s engine.Status) int {
	switch s {
	case engine.StatusLeased:
		return 1
	case engine.StatusDone:
		return 2
	case engine.StatusQuarantined:
		return 3
	}
	return 0
}

// permutations lists every order of 0..n-1, the identity first.
func permutations(n int) [][]int {
	if n == 0 {
		return [][]int{{}}
	}
	var out [][]int
	for _, p := range permutations(n - 1) {
		for i := len(p); i >= 0; i-- {
			q := append(append(append([]int{}, p[:i]...), n-1), p[i:]...)
			out = append(out, q)
		}
	}
	return out
}
