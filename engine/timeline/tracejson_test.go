package timeline_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine/internal/mutant"
	"github.com/leaselab/leaselab/engine/timeline"
	"github.com/leaselab/leaselab/engine/timeline/memrun"
)

// referenceJSON is the trace's JSON as encoding/json gives it, the form
// Encode promises byte for byte.
func referenceJSON(t testing.TB, tr *timeline.Trace) []byte {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(tr); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// checkEncoding fails t unless Encode writes tr as encoding/json does.
func checkEncoding(t testing.TB, tr *timeline.Trace) {
	t.Helper()
	var got bytes.Buffer
	if err := tr.Encode(&got); err != nil {
		t.Fatal(err)
	}
	want := referenceJSON(t, tr)
	if !bytes.Equal(got.Bytes(), want) {
		t.Fatalf("Encode differs from encoding/json at byte %d:\n got %q\nwant %q",
			firstDifference(got.Bytes(), want), around(got.Bytes(), want), around(want, got.Bytes()))
	}
}

func firstDifference(a, b []byte) int {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	return i
}

// around is a's bytes near where it first differs from b.
func around(a, b []byte) []byte {
	i := firstDifference(a, b)
	return a[max(0, i-60):min(len(a), i+60)]
}

// Every library timeline, in every language, on the correct engine and on
// every mutant this build has, encodes as encoding/json encodes it.
func TestEncode_LibraryIsEncodingJSONsBytes(t *testing.T) {
	mutants := []string{""}
	for _, m := range mutant.All() {
		mutants = append(mutants, m.Name)
	}
	for _, name := range timeline.LibraryNames() {
		tl, err := timeline.LoadLibrary(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, lang := range timeline.Langs() {
			for _, m := range mutants {
				tr, err := memrun.Run(context.Background(), tl, timeline.Options{Lang: lang, Mutant: m})
				if err != nil {
					t.Fatalf("%s %s %q: %v", name, lang, m, err)
				}
				checkEncoding(t, tr)
			}
		}
	}
}

// Strings are escaped as encoding/json escapes them without HTML escaping,
// at every class of character; nil and empty slices and pointers, empty
// and full omitempty fields and arguments of any type come out alike.
func TestEncode_EdgesAreEncodingJSONsBytes(t *testing.T) {
	var all strings.Builder
	for c := range 0x80 {
		all.WriteByte(byte(c))
	}
	odd := all.String() + "<>&\u2028\u2029\ufffd\xff\xc3(\xe2\x82 늦게 \U0001F600 end\xe2"
	yes := true
	full := timeline.Args{TTL: 1, Token: 2, TokenFrom: "claim", Result: odd, Took: 3, Fail: true, Qty: 4,
		Deadline: 5, MaxAttempts: 6, Key: "k", Value: "v", For: 7}
	row := timeline.Row{ID: odd, Owner: "A", Status: "leased"}
	tr := &timeline.Trace{
		Format: 2, Name: odd, Title: "\x00\x1f\"\\", Actors: []string{}, Clocks: []timeline.ClockDecl{{Line: 1, Worker: "B", Offset: -300}},
		Setup: []timeline.Statement{{SQL: "SELECT ?", Args: []any{nil, "s\n", int64(-9), true, 1.5, map[string]any{"a": []int{1, 2}, "b": "<x>"}}},
			{SQL: "BEGIN", Args: []any{}}, {SQL: "COMMIT"}},
		Start: []timeline.Row{row},
		Steps: []timeline.Step{
			{Actors: nil, Args: timeline.Args{}, Enqueued: &yes, State: &row, Verdicts: []timeline.StepVerdict{{Invariant: "i", OK: false, Expected: true}}},
			{Actors: []string{"A", "B"}, Args: full, Lease: &timeline.Lease{Job: "j"}, Rejection: &timeline.Rejection{Current: row},
				Contenders: []timeline.Contender{{Actor: "A", Lease: &timeline.Lease{}}, {Actor: "B"}}, Receipt: &timeline.Receipt{Kept: timeline.ReceiptRow{Qty: 1}},
				Stored: &timeline.Stored{Key: odd}, Forgot: []timeline.Lease{{Job: "j"}}, Gone: []string{}, Expect: &timeline.ExpectResult{Text: odd}},
		},
		Storage: []timeline.Stored{},
		Summary: timeline.Summary{Failures: []string{odd}},
	}
	checkEncoding(t, tr)
	checkEncoding(t, &timeline.Trace{})
}

// A statement argument encoding/json cannot encode fails Encode, as it
// fails encoding/json, and nothing is written.
func TestEncode_UnencodableArgumentFails(t *testing.T) {
	tr := &timeline.Trace{Setup: []timeline.Statement{{SQL: "SELECT ?", Args: []any{make(chan int)}}}}
	var b bytes.Buffer
	if err := tr.Encode(&b); err == nil || b.Len() != 0 {
		t.Fatalf("Encode = %v with %d bytes written, want an error and nothing", err, b.Len())
	}
	if err := json.NewEncoder(&b).Encode(tr); err == nil {
		t.Fatal("encoding/json encodes a channel: the test no longer says anything")
	}
}

// Any string, valid UTF-8 or not, is escaped as encoding/json escapes it
// (without HTML escaping), wherever its special characters fall: first,
// last, in runs, beside multi-byte characters.
func FuzzEncode_StringsAreEncodingJSONsBytes(f *testing.F) {
	for _, s := range []string{"", "plain", "\"", "a\\b", "\n\n", "\x00x\x1f", "늦게\n", "\xff", "x\xe2\x82", "\u2028\u2029", "SELECT ?\nFROM jobs"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkEncoding(t, &timeline.Trace{Name: s, Title: s + "\t" + s, Summary: timeline.Summary{Failures: []string{s}}})
	})
}
