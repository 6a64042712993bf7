package timeline

import (
	"errors"
	"fmt"
	gotoken "go/token"
	"path"
	"strconv"
	"strings"
	"unicode"
)

// ErrTestName: GoTest was given a function name go test would not run.
var ErrTestName = errors.New("timeline: not a Go test function name")

// GoTest writes tl as a Go test: a whole _test.go file holding one function,
// funcName, that replays the timeline on the engine itself (engine.New over
// sqlitedb.Memory, then Claim, ClaimNext, ClaimMany, Renew, Complete,
// Release, Dispatch, Enqueue, Get and the Receiver, step by step, at each
// step's instant) and checks every expectation the timeline states. It
// passes exactly when the timeline's expectations hold on the correct
// engine (Run's Summary.Failed is 0); the invariant verdicts are the
// simulator's and are not part of it. A worker presents the lease of its
// own latest claim, as in Run. The file is gofmt-formatted and imports only
// the standard library, package engine and package engine/sqlitedb, so it
// can be put in any package of a module that requires
// github.com/leaselab/leaselab (with that package's name in its package
// clause). funcName must be a name go test runs: Test followed by a
// character that is not a lower-case letter (ErrTestName otherwise); see
// GoTestName.
func GoTest(tl *Timeline, funcName string) (string, error) {
	if !isTestName(funcName) {
		return "", fmt.Errorf("%w: %q (it must be TestXxx, a Go identifier)", ErrTestName, funcName)
	}
	if err := runnable(tl); err != nil {
		return "", err
	}
	g := &goGen{tl: tl}
	for i := range tl.Steps {
		g.step(&tl.Steps[i])
	}
	return g.file(funcName), nil
}

// GoTestName is the test function name GoTest output is given by default for
// a timeline called name: "01-late-courier.tl" gives "TestLateCourier"
// (leading numbers dropped, words capitalised), a name with no letters
// "TestTimeline".
func GoTestName(name string) string {
	base := strings.TrimSuffix(path.Base(name), path.Ext(name))
	words := strings.FieldsFunc(base, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	var b strings.Builder
	b.WriteString("Test")
	for _, w := range words {
		if b.Len() == len("Test") && strings.IndexFunc(w, unicode.IsLetter) != 0 {
			continue // a leading number, like a library index, or a digit-first word
		}
		r := []rune(w)
		r[0] = unicode.ToUpper(r[0])
		b.WriteString(string(r))
	}
	if b.Len() == len("Test") {
		b.WriteString("Timeline")
	}
	return b.String()
}

func isTestName(s string) bool {
	if !strings.HasPrefix(s, "Test") || !gotoken.IsIdentifier(s) {
		return false
	}
	rest := []rune(s[len("Test"):])
	return len(rest) == 0 || !unicode.IsLower(rest[0])
}

// goGen builds the test's body step by step and notes what the helpers and
// imports the body uses, so the file declares nothing it does not use.
type goGen struct {
	tl   *Timeline
	body strings.Builder
	uses map[string]bool // helper or import -> used
}

func (g *goGen) use(names ...string) {
	if g.uses == nil {
		g.uses = map[string]bool{}
	}
	for _, n := range names {
		g.uses[n] = true
	}
}

// line writes one line of the body at depth tabs past the function's own.
func (g *goGen) line(depth int, format string, args ...any) {
	g.body.WriteString(strings.Repeat("\t", depth+1))
	fmt.Fprintf(&g.body, format, args...)
	g.body.WriteByte('\n')
}

// goQuote and goInt write a string and a number as Go literals.
var (
	goQuote = strconv.Quote
	goInt   = func(v int64) string { return strconv.FormatInt(v, 10) }
)

// sentinels name the engine's error for each refusal reason.
var sentinels = map[string]string{
	"not-found": "engine.ErrNotFound", "done": "engine.ErrDone", "quarantined": "engine.ErrQuarantined",
	"held": "engine.ErrHeld", "superseded": "engine.ErrSuperseded", "expired": "engine.ErrExpired",
}

func (g *goGen) step(s *StepLine) {
	g.body.WriteByte('\n')
	g.line(0, "// line %d: %s", s.Line, s.Source)
	g.line(0, "{")
	ln := goInt(int64(s.Line))
	actor := s.Actors[0]
	jobExpr := goQuote(s.Job) // the job the fields describe
	var want []FieldCheck
	if s.Expect != nil {
		want = s.Expect.Fields
	}
	expect := func() string {
		if s.Expect == nil {
			return ""
		}
		return s.Expect.Outcome
	}
	reason := func() string {
		if s.Expect == nil {
			return ""
		}
		return s.Expect.Reason
	}
	switch s.Op() {
	case "claim", "claim-next", "renew":
		g.use("hold")
		switch s.Op() {
		case "claim":
			g.line(1, "l, err := store.Claim(ctx, %s, %s, %s, %s)", goQuote(s.Job), goQuote(actor), goInt(s.Time), goInt(s.TTL))
		case "claim-next":
			g.line(1, "l, err := store.ClaimNext(ctx, %s, %s, %s)", goQuote(actor), goInt(s.Time), goInt(s.TTL))
			jobExpr = "l.JobID"
		case "renew":
			g.presented(s)
			g.line(1, "l, err := store.Renew(ctx, p, %s, %s)", goInt(s.Time), goInt(s.TTL))
		}
		g.line(1, "if err == nil {")
		g.line(2, "hold(l)")
		g.line(1, "}")
		g.outcome(ln, expect(), reason(), s.Op())
	case "claim-many":
		g.use("race")
		owners := make([]string, len(s.Actors))
		for i, a := range s.Actors {
			owners[i] = goQuote(a)
		}
		g.line(1, "won, err := race(%s, []string{%s}, %s, %s)", goQuote(s.Job), strings.Join(owners, ", "), goInt(s.Time), goInt(s.TTL))
		switch cond, what := g.outcomeCond(expect(), reason()); {
		case what == "":
			g.line(1, "if len(won) == 0 {")
			g.line(2, "t.Logf(\"line %s: nobody won: %%v\", err)", ln)
			g.line(1, "}")
		case what == "ok":
			g.line(1, "if len(won) == 0 {")
			g.line(2, "t.Errorf(\"line %s: nobody won (%%v), want ok\", err)", ln)
			g.line(1, "}")
		default:
			g.line(1, "if len(won) > 0 || %s {", cond)
			g.line(2, "t.Errorf(\"line %s: won by %%v (%%v), want %s\", won, err)", ln, what)
			g.line(1, "}")
		}
	case "complete", "release":
		g.presented(s)
		if s.Verb == VerbComplete {
			g.line(1, "err := store.Complete(ctx, p, %s, %s)", goInt(s.Time), goQuote(s.Result))
		} else {
			g.line(1, "err := store.Release(ctx, p)")
		}
		g.outcome(ln, expect(), reason(), s.Op())
	case "send":
		g.use("send", "hold")
		g.line(1, "clock.Set(%s)", goInt(s.Time))
		g.line(1, "var r receipt")
		g.line(1, "l, err := store.Dispatch(ctx, %s, &clock, %s, send(%s, %t, &r))", goQuote(actor), goInt(s.TTL), goInt(s.Took), s.Fail)
		g.line(1, "if l.JobID != \"\" {")
		g.line(2, "hold(l)")
		g.line(1, "}")
		g.outcome(ln, expect(), reason(), s.Op())
		jobExpr = "l.JobID"
	case "deliver":
		g.use("receiver")
		g.presented(s)
		g.line(1, "var r receipt")
		g.line(1, "err := deliver(p, &r)")
		g.outcome(ln, expect(), reason(), s.Op())
	case "enqueue":
		var fields []string
		fields = append(fields, "ID: "+goQuote(s.Job))
		if s.Qty != 0 {
			fields = append(fields, "Qty: "+goInt(s.Qty))
		}
		if s.Deadline != 0 {
			fields = append(fields, "Deadline: "+goInt(s.Deadline))
		}
		if s.Attempts != 0 {
			fields = append(fields, "MaxAttempts: "+goInt(s.Attempts))
		}
		created := "_"
		if hasField(want, "enqueued") {
			created = "created"
		}
		g.line(1, "%s, err := store.Enqueue(ctx, engine.NewJob{%s})", created, strings.Join(fields, ", "))
		g.outcome(ln, expect(), reason(), s.Op())
	case "state":
		got := "_"
		if o := expect(); o == "ok" || o == "empty" {
			got = "got"
		}
		g.line(1, "%s, err := store.Get(ctx, %s)", got, goQuote(s.Job))
		switch expect() {
		case "ok":
			g.line(1, "if err != nil || got == nil {")
			g.line(2, "t.Errorf(\"line %s: %%v, %%v; want ok: the job exists\", got, err)", ln)
			g.line(1, "}")
		case "empty":
			g.line(1, "if err != nil || got != nil {")
			g.line(2, "t.Errorf(\"line %s: %%+v, %%v; want empty: no such job\", got, err)", ln)
			g.line(1, "}")
		default:
			g.outcome(ln, expect(), reason(), s.Op())
		}
	}
	g.fields(ln, want, jobExpr)
	g.line(0, "}")
}

// presented declares p, the lease the step's actor presents.
func (g *goGen) presented(s *StepLine) {
	g.use("lease")
	g.line(1, "p := lease(%s, %s)", goQuote(s.Actors[0]), goQuote(s.Job))
	if s.HasToken {
		g.line(1, "p.Token = %s", goInt(s.Token))
	}
}

// outcomeCond is the condition under which err is not the expected
// outcome, and the outcome in words; both "" when the line expects none.
func (g *goGen) outcomeCond(outcome, reason string) (cond, what string) {
	switch outcome {
	case "ok":
		return "err != nil", "ok"
	case "refused":
		g.use("errors")
		if reason != "" {
			return "!errors.Is(err, " + sentinels[reason] + ")", "refused " + reason
		}
		return "!errors.As(err, new(*engine.Rejection))", "refused"
	case "empty":
		g.use("errors")
		return "!errors.Is(err, engine.ErrEmpty)", "empty"
	case "invalid":
		g.use("errors")
		return "!errors.Is(err, engine.ErrInvalid)", "invalid"
	case "failed":
		g.use("errors")
		return "!errors.Is(err, errSendFailed)", "failed"
	}
	return "", ""
}

// outcome checks err against the expected outcome (and reason), or logs it
// when the line expects no outcome.
func (g *goGen) outcome(ln, outcome, reason, op string) {
	cond, what := g.outcomeCond(outcome, reason)
	if what == "" {
		g.line(1, "if err != nil {")
		g.line(2, "t.Logf(\"line %s: %%v\", err)", ln)
		g.line(1, "}")
		return
	}
	g.line(1, "if %s {", cond)
	g.line(2, "t.Errorf(\"line %s: %s: %%v, want %s\", err)", ln, op, what)
	g.line(1, "}")
}

// fields checks the expectation's field=value parts.
func (g *goGen) fields(ln string, want []FieldCheck, jobExpr string) {
	rowRead := false
	var receipt []FieldCheck
	for _, f := range want {
		switch f.Key {
		case "job":
			g.use("wantString")
			g.line(1, "wantString(%s, \"job\", %s, %s)", ln, jobExpr, goQuote(none(f.Want)))
		case "winner":
			g.use("wantString", "strings")
			g.line(1, "wantString(%s, \"winner\", strings.Join(won, \",\"), %s)", ln, goQuote(none(f.Want)))
		case "enqueued":
			g.use("wantBool")
			g.line(1, "wantBool(%s, \"enqueued\", created, %s)", ln, f.Want)
		case "delivered", "total":
			receipt = append(receipt, f)
		default:
			if !rowRead {
				g.use("row")
				g.line(1, "j := row(%s, %s)", ln, jobExpr)
				rowRead = true
			}
			switch f.Key {
			case "token", "lease_until", "attempt", "attempts", "qty", "deadline":
				g.use("wantInt")
				g.line(1, "wantInt(%s, %s, j.%s, %s)", ln, goQuote(f.Key), rowFields[f.Key], f.Want)
			case "status":
				g.use("wantString")
				g.line(1, "wantString(%s, \"status\", string(j.Status), %s)", ln, goQuote(f.Want))
			default: // owner, result, reason
				g.use("wantString")
				g.line(1, "wantString(%s, %s, j.%s, %s)", ln, goQuote(f.Key), rowFields[f.Key], goQuote(none(f.Want)))
			}
		}
	}
	if len(receipt) == 0 {
		return
	}
	var parts []string
	for _, f := range receipt {
		parts = append(parts, f.Key+"="+f.Want)
	}
	g.line(1, "if !r.ok {")
	g.line(2, "t.Errorf(\"line %s: nothing reached the receiver, want %s\")", ln, strings.Join(parts, " "))
	g.line(1, "} else {")
	for _, f := range receipt {
		if f.Key == "delivered" {
			g.use("wantBool")
			g.line(2, "wantBool(%s, \"delivered\", r.delivered, %s)", ln, f.Want)
		} else {
			g.use("wantInt")
			g.line(2, "wantInt(%s, \"total\", r.total, %s)", ln, f.Want)
		}
	}
	g.line(1, "}")
}

var rowFields = map[string]string{
	"token": "Token", "lease_until": "LeaseUntil", "attempt": "Attempts", "attempts": "Attempts",
	"qty": "Qty", "deadline": "Deadline", "owner": "Owner", "result": "Result", "reason": "Reason",
}

// none is an expectation's "none" (no owner, winner or reason) as the
// engine stores it.
func none(s string) string {
	if s == "none" {
		return ""
	}
	return s
}

func hasField(fs []FieldCheck, key string) bool {
	for _, f := range fs {
		if f.Key == key {
			return true
		}
	}
	return false
}

// file assembles the test file around the body.
func (g *goGen) file(funcName string) string {
	u := g.uses
	if u == nil {
		u = map[string]bool{}
	}
	// Helpers use one another.
	if u["race"] {
		u["hold"], u["row"] = true, true
	}
	if u["send"] {
		u["receiver"], u["errSendFailed"] = true, true
	}
	if u["receiver"] {
		u["receipt"] = true
	}
	if u["hold"] || u["lease"] {
		u["held"] = true
	}
	if u["errSendFailed"] {
		u["errors"] = true
	}
	tl := g.tl
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	w("package leaselabtest\n\n")
	w("%s\n", comment("This file was written by leaselab from the timeline "+tl.Name+
		". Put it in any package of a module that requires github.com/leaselab/leaselab,"+
		" with that package's name in the package clause, and run go test."))
	w("import (\n\t\"context\"\n")
	if u["errors"] {
		w("\t\"errors\"\n")
	}
	if u["strings"] {
		w("\t\"strings\"\n")
	}
	w("\t\"testing\"\n\n\t\"github.com/leaselab/leaselab/engine\"\n\t\"github.com/leaselab/leaselab/engine/sqlitedb\"\n)\n\n")
	title := ""
	if tl.Title != "" {
		title = " " + goQuote(tl.Title)
	}
	w("%s", comment(funcName+" replays the timeline"+title+" on the engine over a fresh"+
		" in-memory SQLite database, each step at its instant in milliseconds, and checks"+
		" what each line expects after its \"->\"."))
	w("func %s(t *testing.T) {\n", funcName)
	w("%s", goPrologue)
	if u["held"] {
		w("%s", goHeld)
	}
	if u["hold"] {
		w("%s", goHold)
	}
	if u["lease"] {
		w("%s", goLease)
	}
	if u["row"] {
		w("%s", goRow)
	}
	if u["wantInt"] {
		w("%s", goWantInt)
	}
	if u["wantString"] {
		w("%s", goWantString)
	}
	if u["wantBool"] {
		w("%s", goWantBool)
	}
	if u["race"] {
		w("%s", goRace)
	}
	if u["receiver"] {
		w("%s", goReceiver)
	}
	if u["errSendFailed"] {
		w("%s", goErrSendFailed)
	}
	if u["send"] {
		w("%s", goSend)
	}
	if tl.Lease != 0 {
		w("\n\t// lease %d ms: the ttl of every claim, renew and send without ttl=\n", tl.Lease)
	}
	if len(tl.Jobs) > 0 {
		w("\tfor _, j := range []engine.NewJob{\n")
		for _, j := range tl.Jobs {
			fields := []string{"ID: " + goQuote(j.ID)}
			if j.Qty != 1 {
				fields = append(fields, "Qty: "+goInt(j.Qty))
			}
			if j.Deadline != 0 {
				fields = append(fields, "Deadline: "+goInt(j.Deadline))
			}
			if j.Attempts != 0 {
				fields = append(fields, "MaxAttempts: "+goInt(j.Attempts))
			}
			w("\t\t{%s},\n", strings.Join(fields, ", "))
		}
		w("\t} {\n")
		w("\t\tif created, err := store.Enqueue(ctx, j); err != nil || !created {\n")
		w("\t\t\tt.Fatalf(\"enqueue %%s: %%v, %%v\", j.ID, created, err)\n")
		w("\t\t}\n\t}\n")
	} else if len(tl.Steps) == 0 {
		w("\t_ = store // the timeline has neither jobs nor steps\n")
	}
	b.WriteString(g.body.String())
	w("}\n")
	return b.String()
}

// comment wraps text into // lines of at most about 76 columns.
func comment(text string) string {
	var b strings.Builder
	width := 0
	for _, word := range strings.Fields(text) {
		switch {
		case width == 0:
			b.WriteString("//")
			width = 2
		case width+1+len([]rune(word)) > 76:
			b.WriteString("\n//")
			width = 2
		}
		b.WriteString(" " + word)
		width += 1 + len([]rune(word))
	}
	b.WriteString("\n")
	return b.String()
}

// The helpers, gofmt-formatted as they appear inside the test function.
const (
	goPrologue = `	ctx := context.Background()
	db, err := sqlitedb.Memory(t.Name())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	store, err := engine.New(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
`
	goHeld = `
	// held is the lease each worker holds of each job: that of its latest
	// claim, as a real worker keeps it.
	held := map[[2]string]engine.Lease{}
`
	goHold = `	hold := func(l engine.Lease) { held[[2]string{l.Owner, l.JobID}] = l }
`
	goLease = `	// lease is what owner presents for job: its latest lease, or token 0
	// when it never got one.
	lease := func(owner, job string) engine.Lease {
		if l, ok := held[[2]string{owner, job}]; ok {
			return l
		}
		l := engine.Lease{JobID: job, Owner: owner, Qty: 1}
		if j, err := store.Get(ctx, job); err == nil && j != nil {
			l.Qty = j.Qty
		}
		return l
	}
`
	goRow = `	// row reads a job as stored, for the checks after a step.
	row := func(line int, id string) engine.Job {
		t.Helper()
		j, err := store.Get(ctx, id)
		if err != nil || j == nil {
			t.Errorf("line %d: no job %q to check (%v)", line, id, err)
			return engine.Job{}
		}
		return *j
	}
`
	goWantInt = `	wantInt := func(line int, field string, got, want int64) {
		t.Helper()
		if got != want {
			t.Errorf("line %d: %s=%d, want %d", line, field, got, want)
		}
	}
`
	goWantString = `	wantString := func(line int, field, got, want string) {
		t.Helper()
		if got != want {
			t.Errorf("line %d: %s=%q, want %q", line, field, got, want)
		}
	}
`
	goWantBool = `	wantBool := func(line int, field string, got, want bool) {
		t.Helper()
		if got != want {
			t.Errorf("line %d: %s=%t, want %t", line, field, got, want)
		}
	}
`
	goRace = `	// race is a concurrent claim: the first owner's claim reaches the
	// database alone, then the others claim at once (ClaimMany, each on a
	// connection of its own). It returns who won and the first one's error.
	race := func(job string, owners []string, now, ttl int64) ([]string, error) {
		t.Helper()
		var won []string
		l, err := store.Claim(ctx, job, owners[0], now, ttl)
		if err == nil {
			hold(l)
			won = append(won, owners[0])
		}
		tokens, merr := store.ClaimMany(ctx, job, owners[1:], now, ttl)
		if merr != nil && err == nil {
			t.Fatalf("claim_many %s: %v", job, merr)
		}
		for i, token := range tokens {
			if token > 0 {
				j := row(0, job)
				hold(engine.Lease{JobID: job, Owner: owners[i+1], Qty: j.Qty, Token: token, Attempt: j.Attempts, LeaseUntil: j.LeaseUntil})
				won = append(won, owners[i+1])
			}
		}
		return won, err
	}
`
	goReceiver = `
	// The receiver applies a business id's quantity once.
	recv, err := engine.NewReceiver(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	// A receipt is what the receiver answered; ok once a delivery reached it.
	type receipt struct {
		ok, delivered bool
		total         int64
	}
	deliver := func(l engine.Lease, r *receipt) error {
		delivered, err := recv.Deliver(ctx, l)
		if err != nil {
			return err
		}
		total, err := recv.Total(ctx)
		if err != nil {
			return err
		}
		*r = receipt{ok: true, delivered: delivered, total: total}
		return nil
	}
`
	goErrSendFailed = `	errSendFailed := errors.New("the receiver did not answer")
`
	goSend = `
	// send is the courier's send for Dispatch: it delivers the lease (or
	// fails) and takes took ms on the virtual clock.
	var clock engine.VirtualClock
	send := func(took int64, fail bool, r *receipt) func(context.Context, engine.Lease) error {
		return func(_ context.Context, l engine.Lease) error {
			defer clock.Advance(took)
			if fail {
				return errSendFailed
			}
			return deliver(l, r)
		}
	}
`
)
