package history_test

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/history"
	"github.com/leaselab/leaselab/engine/limits"
)

// Every call and outcome, written and read back.
func TestWriteRead_RoundTrip(t *testing.T) {
	row := &engine.Job{ID: "a", Qty: 2, Owner: "A", LeaseUntil: 1000, Token: 1, Attempts: 1, MaxAttempts: 3, Deadline: 5000,
		Status: engine.StatusLeased, Result: "é \"quoted\""}
	lease := history.Args{Job: "a", Owner: "A", Token: 1, Now: 10}
	h := history.History{
		{Client: "setup", Call: engine.OpEnqueue, Args: history.Args{Job: "a", Qty: 2, Deadline: 5000, MaxAttempts: 3}, Invoke: 0, Return: 1,
			Answer: history.Answer{Outcome: engine.OutcomeOK, Created: true}},
		{Client: "setup", Call: engine.OpEnqueue, Args: history.Args{Job: "a"}, Invoke: 2, Return: 3,
			Answer: history.Answer{Outcome: engine.OutcomeOK}},
		claim("A", "a", 0, 4, 5, granted(1, 1000)),
		{Client: "B", Call: engine.OpClaimNext, Args: history.Args{Owner: "B", Now: 1, TTL: 10}, Invoke: 6, Return: 7,
			Answer: history.Answer{Outcome: engine.OutcomeEmpty}},
		state("C", "a", 8, 9, history.Answer{Outcome: engine.OutcomeOK, Row: row}),
		state("C", "zz", 8, 9, history.Answer{Outcome: engine.OutcomeEmpty}),
		{Client: "A", Call: engine.OpRenew, Args: history.Args{Job: "a", Owner: "A", Token: 1, Now: 10, TTL: 100}, Invoke: 10, Return: 11,
			Answer: history.Answer{Outcome: engine.OutcomeOK, Job: "a", Token: 1, LeaseUntil: 110}},
		{Client: "A", Call: history.OpFinish, Args: lease, Invoke: 12, Return: 13, Answer: history.Answer{Outcome: engine.OutcomeRefused}},
		complete("A", "a", 1, 10, 14, 15, history.Answer{Outcome: engine.OutcomeError, Error: "database is locked"}),
		{Client: "A", Call: engine.OpRelease, Args: history.Args{Job: "a", Owner: "A", Token: 1}, Invoke: 16, Return: 17,
			Answer: refused(engine.RefusedDone)},
		claim("B", "a", -1, 18, 19, history.Answer{Outcome: engine.OutcomeInvalid}),
	}
	var b bytes.Buffer
	if err := history.Write(&b, h); err != nil {
		t.Fatal(err)
	}
	got, err := history.Read(&b)
	if err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	if !reflect.DeepEqual(got, h) {
		t.Errorf("read back differs:\n got %+v\nwant %+v", got, h)
	}
}

// The format's lines as they are documented.
func TestWrite_WritesTheDocumentedLines(t *testing.T) {
	var b bytes.Buffer
	h := history.History{claim("A", "a", 0, 120, 450, granted(1, 1000)), complete("B", "a", 1, 999, 130, 460, ok)}
	if err := history.Write(&b, h); err != nil {
		t.Fatal(err)
	}
	want := `{"client":"A","call":"claim","args":{"job":"a","owner":"A","now":0,"ttl":1000},"invoke":120,"return":450,"answer":{"outcome":"ok","token":1,"lease_until":1000}}
{"client":"B","call":"complete","args":{"job":"a","owner":"B","token":1,"now":999},"invoke":130,"return":460,"answer":{"outcome":"ok"}}
`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

func TestRead_RefusesAMistakeAtItsLineAndColumn(t *testing.T) {
	good := `{"client":"A","call":"claim","args":{"job":"a","owner":"A","now":0,"ttl":1000},"invoke":1,"return":2,"answer":{"outcome":"ok","token":1,"lease_until":1000}}`
	for _, tc := range []struct {
		name, text, want string
	}{
		{"not JSON", "claim a", "1:1: invalid JSON"},
		{"an empty line", good + "\n\n" + good, "2:1: an empty line"},
		{"an unknown field", `{"client":"A","when":1}`, `1:15: unknown field "when"`},
		{"a field twice", `{"client":"A","client":"B"}`, "1:15: invalid JSON: duplicate object member name"},
		{"a field missing", strings.Replace(good, `"invoke":1,`, "", 1), "1:1: the line: a call needs invoke"},
		{"an unknown call", strings.Replace(good, `"call":"claim"`, `"call":"steal"`, 1), `1:22: call: unknown call "steal"`},
		{"an argument the call does not take", strings.Replace(good, `"ttl":1000}`, `"ttl":1000,"token":1}`, 1),
			"1:79: args: claim takes no token"},
		{"an argument missing", strings.Replace(good, `,"ttl":1000`, "", 1), "1:37: args: claim needs ttl"},
		{"an unknown argument", strings.Replace(good, `"job":"a"`, `"id":"a"`, 1), `1:38: args: unknown argument "id"`},
		{"a fraction", strings.Replace(good, `"now":0`, `"now":0.5`, 1), "1:66: now: 0.5 is not a whole number"},
		{"past int64", strings.Replace(good, `"now":0`, `"now":9223372036854775808`, 1), "1:66: now: 9223372036854775808 is not a whole number"},
		{"a string for a number", strings.Replace(good, `"now":0`, `"now":"0"`, 1), "1:66: now: want a whole number, got a string"},
		{"null", strings.Replace(good, `"now":0`, `"now":null`, 1), "1:66: now: want a whole number, got null"},
		{"an unknown outcome", strings.Replace(good, `"outcome":"ok"`, `"outcome":"won"`, 1), `1:122: outcome: unknown outcome "won"`},
		{"an ok answer's field missing", strings.Replace(good, `,"lease_until":1000`, "", 1), "1:111: answer: claim ok needs lease_until"},
		{"a field of another outcome", strings.Replace(good, `"outcome":"ok"`, `"outcome":"refused"`, 1),
			"1:132: answer: claim refused takes no token"},
		{"an unknown refusal", strings.Replace(good, `"outcome":"ok","token":1,"lease_until":1000`, `"outcome":"refused","refusal":"busy"`, 1),
			`1:142: refusal: unknown refusal "busy"`},
		{"return before invoke", strings.Replace(good, `"return":2`, `"return":0`, 1), "1:100: return: 0 is before invoke 1"},
		{"return at int64's maximum", strings.Replace(good, `"return":2`, `"return":9223372036854775807`, 1), "1:100: return: 9223372036854775807: want"},
		{"a negative invoke", strings.Replace(good, `"invoke":1`, `"invoke":-1`, 1), "1:89: invoke: -1: want"},
		{"an empty client", strings.Replace(good, `"client":"A"`, `"client":""`, 1), "1:11: client: empty"},
		{"a name over its limit", strings.Replace(good, `"owner":"A"`, `"owner":"`+strings.Repeat("x", limits.Default.NameBytes+1)+`"`, 1),
			"1:1: a name of 129 bytes: over the limit name_bytes"},
		{"two objects", good + " {}", "1:158: more after the line's object"},
		{"an unfinished line", good[:50], "1:51: the line ends inside its JSON object"},
		{"invalid UTF-8", strings.Replace(good, `"client":"A"`, "\"client\":\"\xff\"", 1), "1:12: invalid JSON: invalid UTF-8"},
		{"a row without a field", `{"client":"C","call":"state","args":{"job":"a"},"invoke":1,"return":2,"answer":{"outcome":"ok","row":{"id":"a"}}}`,
			"1:102: row: a row needs qty"},
		{"a line too long", strings.Repeat(" ", history.MaxLineBytes+1), "1:1: a line longer than 65536 bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := history.Read(strings.NewReader(tc.text))
			var ie *history.InputError
			if !errors.As(err, &ie) || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("got %v, want %q...", err, tc.want)
			}
		})
	}
}

// A file with a line for each call and no more; CRLF line ends too.
func TestRead_ReadsLinesWithOrWithoutAFinalNewline(t *testing.T) {
	var b bytes.Buffer
	h := history.History{enqueue("setup", "a", 0, 1), claim("A", "a", 0, 2, 3, granted(1, 1000))}
	if err := history.Write(&b, h); err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{b.String(), strings.TrimSuffix(b.String(), "\n"), strings.ReplaceAll(b.String(), "\n", "\r\n")} {
		got, err := history.Read(strings.NewReader(text))
		if err != nil || len(got) != 2 {
			t.Errorf("read %d calls, %v, from %q", len(got), err, text)
		}
	}
}

// More lines than history_calls: refused at the first line past it.
func TestRead_RefusesMoreCallsThanTheLimit(t *testing.T) {
	var b bytes.Buffer
	h := make(history.History, limits.Default.HistoryCalls+1)
	for i := range h {
		h[i] = enqueue("setup", "a", int64(i), int64(i))
	}
	if err := history.Write(&b, h); err != nil {
		t.Fatal(err)
	}
	_, err := history.Read(&b)
	if err == nil || !strings.HasPrefix(err.Error(), "10001:1: more calls than the limit history_calls (10000") {
		t.Errorf("got %v", err)
	}
	if err := h.Validate(); err == nil || !strings.Contains(err.Error(), "history_calls") {
		t.Errorf("Validate: %v", err)
	}
}
