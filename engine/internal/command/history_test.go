package command

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/history"
)

// lateComplete is A's complete at 999 and B's claim at 1000, overlapping,
// with B's answer given: ok (both succeed, not linearizable) or refused
// done (linearizable).
func lateComplete(t *testing.T, claimAnswer history.Answer) string {
	t.Helper()
	ok := history.Answer{Outcome: engine.OutcomeOK}
	h := history.History{
		{Client: "setup", Call: engine.OpEnqueue, Args: history.Args{Job: "a"}, Invoke: 0, Return: 1,
			Answer: history.Answer{Outcome: engine.OutcomeOK, Created: true}},
		{Client: "A", Call: engine.OpClaim, Args: history.Args{Job: "a", Owner: "A", Now: 0, TTL: 1000}, Invoke: 2, Return: 3,
			Answer: history.Answer{Outcome: engine.OutcomeOK, Token: 1, LeaseUntil: 1000}},
		{Client: "A", Call: engine.OpComplete, Args: history.Args{Job: "a", Owner: "A", Token: 1, Now: 999}, Invoke: 10, Return: 20,
			Answer: ok},
		{Client: "B", Call: engine.OpClaim, Args: history.Args{Job: "a", Owner: "B", Now: 1000, TTL: 1000}, Invoke: 11, Return: 19,
			Answer: claimAnswer},
	}
	var b strings.Builder
	if err := history.Write(&b, h); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// A linearizable history exits 0 with its verdict; one that is not exits
// 1 with the calls no order places, and -html draws it.
func TestHistory_ExitsByTheVerdict(t *testing.T) {
	done := history.Answer{Outcome: engine.OutcomeRefused, Refusal: engine.RefusedDone}
	path := filepath.Join(t.TempDir(), "calls.jsonl")
	if err := os.WriteFile(path, []byte(lateComplete(t, done)), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, errOut := main1(t, "", "history", path); code != ExitPass || out != "linearizable: 4 calls of 3 clients\n" || errOut != "" {
		t.Errorf("linearizable: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	page := filepath.Join(t.TempDir(), "calls.html")
	both := lateComplete(t, history.Answer{Outcome: engine.OutcomeOK, Token: 2, LeaseUntil: 2000})
	code, out, errOut := main1(t, both, "history", "-html", page, "-")
	if code != ExitFail || errOut != "" {
		t.Fatalf("not linearizable: exit %d, stderr %q", code, errOut)
	}
	for _, want := range []string{"not linearizable: 4 calls of 3 clients", "complete a A#1 now=999", "!  call 4  B", "claim a by B now=1000"} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q:\n%s", want, out)
		}
	}
	if b, err := os.ReadFile(page); err != nil || !strings.Contains(string(b), "no order places it") {
		t.Errorf("-html wrote %d bytes (%v) without the stuck call", len(b), err)
	}
}

// A check that runs out of its time decides nothing: exit 1, "unknown".
func TestHistory_UndecidedInTimeExitsOne(t *testing.T) {
	done := history.Answer{Outcome: engine.OutcomeRefused, Refusal: engine.RefusedDone}
	code, out, _ := main1(t, lateComplete(t, done), "history", "-timeout", "1ns", "-")
	if code != ExitFail || !strings.HasPrefix(out, "unknown: 4 calls of 3 clients") {
		t.Errorf("exit %d, stdout %q", code, out)
	}
}

// Bad input exits 2 and says where: a mistake at the file's line and
// column, a missing file, bad flags.
func TestHistory_BadInputExitsTwo(t *testing.T) {
	good := lateComplete(t, history.Answer{Outcome: engine.OutcomeRefused})
	for _, tc := range []struct {
		stdin string
		args  []string
		want  string
	}{
		{good + `{"client":"C","when":5}` + "\n", []string{"-"}, `stdin:5:15: unknown field "when"`},
		{"", []string{filepath.Join(t.TempDir(), "none.jsonl")}, "no such file"},
		{good, []string{"-timeout", "0s", "-"}, "-timeout 0s: want a duration above 0"},
		{good, nil, "usage: leaselab history"},
		{good, []string{"-colour", "-"}, "flag provided but not defined"},
	} {
		code, out, errOut := main1(t, tc.stdin, append([]string{"history"}, tc.args...)...)
		if code != ExitBadInput || out != "" || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want %q", tc.args, code, out, errOut, tc.want)
		}
	}
}
