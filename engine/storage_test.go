package engine_test

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/leaselab/leaselab/engine"
)

func memStorage(t testing.TB) *engine.Storage {
	t.Helper()
	s, err := engine.NewStorage(context.Background(), memDB(t), testOptions(t)...)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func storedAll(t testing.TB, s *engine.Storage) []engine.Stored {
	t.Helper()
	all, err := s.All(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return all
}

// The storage accepts a write whose token is at least the highest it has
// accepted for the key — below: refused, at: accepted, above: accepted —
// and a refusal changes nothing.
func TestStorageWrite_TokenBelowAcceptedIsFenced(t *testing.T) {
	for _, tc := range []struct {
		name    string
		token   int64
		refused bool
	}{
		{"below the highest accepted", 4, true},
		{"at the highest accepted (the holder writes again)", 5, false},
		{"above the highest accepted", 6, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := t.Context()
			s := memStorage(t)
			if err := s.Write(ctx, "file-f", engine.Lease{Owner: "B", Token: 5}, "B's"); err != nil {
				t.Fatal(err)
			}
			before := storedAll(t, s)
			err := s.Write(ctx, "file-f", engine.Lease{Owner: "A", Token: tc.token}, "A's")
			if !tc.refused {
				if err != nil {
					t.Fatalf("write with token %d: %v", tc.token, err)
				}
				got, _ := s.Read(ctx, "file-f")
				want := engine.Stored{Key: "file-f", Value: "A's", Owner: "A", Token: tc.token}
				if got == nil || *got != want {
					t.Fatalf("stored %+v, want %+v", got, want)
				}
				return
			}
			var rej *engine.Rejection
			if !errors.As(err, &rej) || !errors.Is(err, engine.ErrFenced) || rej.Refusal() != engine.RefusedFenced {
				t.Fatalf("write with token %d = %v; want a fenced Rejection", tc.token, err)
			}
			if got := rej.Error(); got != "write refused (fenced): presented A#4 for file-f, stored B#5" {
				t.Fatalf("Error() = %q", got)
			}
			if after := storedAll(t, s); !reflect.DeepEqual(after, before) {
				t.Fatalf("a fenced write changed the storage: %+v -> %+v", before, after)
			}
		})
	}
}

// Keys are fenced separately, and the first write to a key lands whatever
// its token: the storage knows only the tokens that reached it (the limit
// of fencing at the point of effect).
func TestStorageWrite_FirstWriteLandsKeysApart(t *testing.T) {
	ctx := t.Context()
	s := memStorage(t)
	for _, w := range []struct {
		key   string
		token int64
	}{{"a", 9}, {"b", 1}, {"a", 9}} {
		if err := s.Write(ctx, w.key, engine.Lease{Owner: "A", Token: w.token}, "v"); err != nil {
			t.Fatalf("write %s#%d: %v", w.key, w.token, err)
		}
	}
	if err := s.Write(ctx, "a", engine.Lease{Owner: "B", Token: 1}, "late"); !errors.Is(err, engine.ErrFenced) {
		t.Fatalf("a#1 after a#9: %v, want fenced", err)
	}
	if got, _ := s.Read(ctx, "missing"); got != nil {
		t.Fatalf("Read of a missing key = %+v, want nil", got)
	}
}

func TestStorageWrite_InvalidArgumentsChangeNothing(t *testing.T) {
	ctx := t.Context()
	s := memStorage(t)
	for _, tc := range []struct {
		name  string
		key   string
		lease engine.Lease
	}{
		{"empty key", "", engine.Lease{Owner: "A", Token: 1}},
		{"empty owner", "k", engine.Lease{Token: 1}},
		{"negative token", "k", engine.Lease{Owner: "A", Token: -1}},
	} {
		if err := s.Write(ctx, tc.key, tc.lease, "v"); !errors.Is(err, engine.ErrInvalid) {
			t.Errorf("%s: %v, want ErrInvalid", tc.name, err)
		}
	}
	if all := storedAll(t, s); len(all) != 0 {
		t.Fatalf("invalid writes stored %+v", all)
	}
}

// NewStorage is idempotent: opening it again keeps every value and token.
func TestNewStorage_ReopenKeepsValues(t *testing.T) {
	ctx := t.Context()
	db := memDB(t)
	s, err := engine.NewStorage(ctx, db, testOptions(t)...)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Write(ctx, "k", engine.Lease{Owner: "A", Token: 3}, "v"); err != nil {
		t.Fatal(err)
	}
	again, err := engine.NewStorage(ctx, db, testOptions(t)...)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := again.Read(ctx, "k"); got == nil || got.Token != 3 {
		t.Fatalf("after reopening: %+v", got)
	}
}

// A storage opened WithoutFencing stores a write below the highest token
// it accepted (the storage of a system that does not fence); the same
// write to a default storage is refused.
func TestStorageWrite_WithoutFencingStoresALowerToken(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name    string
		opts    []engine.Option
		fenced  bool
		wantVal string
	}{
		{"fenced", nil, true, "B's"},
		{"without fencing", []engine.Option{engine.WithoutFencing()}, false, "A's"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := engine.NewStorage(ctx, memDB(t), append(testOptions(t), tc.opts...)...)
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Write(ctx, "f", engine.Lease{Owner: "B", Token: 2}, "B's"); err != nil {
				t.Fatal(err)
			}
			err = s.Write(ctx, "f", engine.Lease{Owner: "A", Token: 1}, "A's")
			if errors.Is(err, engine.ErrFenced) != tc.fenced {
				t.Fatalf("write with token 1 after 2: %v, want fenced=%v", err, tc.fenced)
			}
			if got, _ := s.Read(ctx, "f"); got == nil || got.Value != tc.wantVal {
				t.Fatalf("stored %+v, want %q", got, tc.wantVal)
			}
		})
	}
}

// A receiver opened WithoutIdempotence applies a resend of a business id
// again (true, and its quantity added); the default receiver applies it
// once.
func TestReceiverDeliver_WithoutIdempotenceAppliesAResend(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name    string
		opts    []engine.Option
		again   bool
		wantSum int64
	}{
		{"idempotent", nil, false, 2},
		{"without idempotence", []engine.Option{engine.WithoutIdempotence()}, true, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := engine.NewReceiver(ctx, memDB(t), append(testOptions(t), tc.opts...)...)
			if err != nil {
				t.Fatal(err)
			}
			if first, err := r.Deliver(ctx, engine.Lease{JobID: "o", Owner: "A", Token: 1, Qty: 2}); err != nil || !first {
				t.Fatalf("first delivery: %v, %v", first, err)
			}
			again, err := r.Deliver(ctx, engine.Lease{JobID: "o", Owner: "B", Token: 2, Qty: 2})
			if err != nil || again != tc.again {
				t.Fatalf("resend: %v, %v; want %v", again, err, tc.again)
			}
			if sum, err := r.Total(ctx); err != nil || sum != tc.wantSum {
				t.Fatalf("total %d, %v; want %d", sum, err, tc.wantSum)
			}
		})
	}
}
