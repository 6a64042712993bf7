package timeline

import (
	_ "embed"
	"errors"
	"fmt"
	gotoken "go/token"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/limits"
)

// ErrTestName: GoTest was given a function name go test would not run.
var ErrTestName = errors.New("timeline: not a Go test function name")

// GoTest writes tl as a Go test: a whole _test.go file holding one function,
// funcName, that replays the timeline on the engine itself (engine.New over
// sqlitedb.Memory, then Claim, ClaimNext, ClaimManyOutcomes, Renew,
// Complete, Release, Dispatch, Enqueue, Get, the Receiver and the Storage,
// step by step, each at its worker's own now) and checks every expectation
// the timeline states. Notes for readers become comments; pauses and waits
// are comments too (only time passes); a crash makes the worker forget its
// leases; reopen runs engine.New again. It passes exactly when the
// timeline's expectations hold on the correct engine (Run's Summary.Failed
// is 0); the invariant verdicts are the simulator's and are not part of
// it. The file is gofmt-formatted and imports only the standard library,
// package engine and package engine/sqlitedb, so it can be put in any
// package of a module that requires github.com/leaselab/leaselab (with that
// package's name in its package clause). funcName must be a name go test
// runs: Test followed by a character that is not a lower-case letter
// (ErrTestName otherwise); see GoTestName.
//
// Its package clause is package leaselabtest; GoTestIn names the package.
func GoTest(tl *Timeline, funcName string) (string, error) {
	return GoTestIn(tl, "leaselabtest", funcName)
}

// ErrPackageName: GoTestIn was given a package name that is not a Go
// identifier.
var ErrPackageName = errors.New("timeline: not a Go package name")

// GoTestIn is GoTest for package pkg: the file's package clause names pkg
// (a Go identifier other than _, such as worker or worker_test), so it can
// be dropped into that package's folder as it is.
func GoTestIn(tl *Timeline, pkg, funcName string) (string, error) {
	if err := CheckGoTestNames(pkg, funcName); err != nil {
		return "", err
	}
	if err := runnable(tl); err != nil {
		return "", err
	}
	f := goFile{Package: pkg, Func: funcName, TL: tl, uses: map[string]bool{"context": true},
		tracksTTL: tl.Takeover != "" || slices.ContainsFunc(tl.Steps, func(s StepLine) bool { return s.Verb == VerbLeaderChange && s.Leases == LeasesReset })}
	limit, size := limits.Default.Row("report_bytes"), 0
	for _, ev := range tl.schedule() {
		s := tl.Steps[ev.step]
		f.before = ev.before
		var g goStep
		f.split = ev.split
		switch {
		case ev.heard:
			g = f.heard(&s)
		case ev.leave:
			g = f.leave(&s)
		case s.Arrives != 0:
			s.Time, s.Arrives = s.Arrives, 0
			f.arriving = s.Line
			g = f.step(&s)
			f.arriving = 0
		default:
			g = f.step(&s)
		}
		if size += g.size(); int64(size) > limit.Value {
			return "", ErrorList{&Error{Name: tl.Name, Line: s.Line, Col: 1,
				Msg: fmt.Sprintf("the Go test passes the limit %s at this step; nothing of it is given", limit),
				Err: &limits.ExceededError{Limit: limit, What: "the Go test"}}}
		}
		f.Steps = append(f.Steps, g)
	}
	f.closeUses()
	return f.render(), nil
}

// goSections are the parts of the file GoTest writes (gotest.txt): the
// file around the steps, and one section per helper, split at GoTest's
// first call, not as the package starts (a run never needs them). It is
// plain text with {{NAME}} marks, not a text/template: the page's
// WebAssembly links this package, and text/template's reflection would
// keep every method of every type in it.
//
//go:embed gotest.txt
var goSectionsText string

var goSections = sync.OnceValue(func() map[string]string {
	out := map[string]string{}
	parts := strings.Split("\n"+goSectionsText, "\n-- ")
	for _, part := range parts[1:] {
		name, body, _ := strings.Cut(part, " --\n")
		out[name] = strings.TrimSuffix(body, "\n")
	}
	return out
})

// goHelpers are the helper sections, in the order the file declares them.
var goHelpers = []string{"held", "hold", "forget", "lease", "row", "wantInt", "wantString", "wantBool",
	"wantRefusal", "contains", "race", "receiver", "errSendFailed", "send", "storage", "storageUnfenced", "sequencer", "inFlight", "sending", "forgets", "ttls", "newLeader", "observe", "acquire", "extend", "unlock"}

// section is the helper section name as tl declares it: the receiver of a
// `receiver not-idempotent` line applies every delivery.
func (f *goFile) section(name string) string {
	s := goSections()[name]
	if name == "receiver" && f.TL.ReceiverNotIdempotent {
		s = strings.NewReplacer(
			"// The receiver applies a business id's quantity once.",
			"// This receiver is not idempotent: it applies every delivery, a resend too.",
			"engine.NewReceiver(ctx, db)", "engine.NewReceiver(ctx, db, engine.WithoutIdempotence())").Replace(s)
	}
	return s
}

// render fills the file section in.
func (f *goFile) render() string {
	var imports, helpers, steps strings.Builder
	for _, imp := range []string{"cmp", "context", "errors", "strings"} {
		if f.uses[imp] {
			imports.WriteString("\t" + strconv.Quote(imp) + "\n")
		}
	}
	for _, name := range goHelpers {
		if f.uses[name] {
			helpers.WriteString(f.section(name) + "\n")
		}
	}
	for _, st := range f.Steps {
		st.render(&steps)
	}
	title := ""
	if f.TL.Title != "" {
		title = " " + strconv.Quote(f.TL.Title)
	}
	return strings.NewReplacer(
		"{{header}}", comment("", "This file was written by leaselab from the timeline "+f.TL.Name+
			". Put it in any package of a module that requires github.com/leaselab/leaselab,"+
			" with that package's name in the package clause, and run go test."),
		"{{imports}}", imports.String(),
		"{{doc}}", comment("", f.Func+" replays the timeline"+title+" on the engine over a fresh"+
			" in-memory SQLite database, each step at its instant in milliseconds (on its worker's"+
			" own clock), and checks what each line expects after its \"->\"."),
		"{{func}}", f.Func,
		"{{package}}", f.Package,
		"{{helpers}}", helpers.String(),
		"{{setup}}", f.setup(),
		"{{steps}}", steps.String(),
		"engine.New(ctx, db)", f.newStore(),
	).Replace(goSections()["file"]) + "\n"
}

// newStore is the call that opens the store, with the options the
// timeline's header gives it.
func (f *goFile) newStore() string {
	if f.TL.LockDelay > 0 {
		return fmt.Sprintf("engine.New(ctx, db, engine.WithLockDelay(%d))", f.TL.LockDelay)
	}
	return "engine.New(ctx, db)"
}

// setup is the lease and clock notes and the enqueue of the declared jobs.
func (f *goFile) setup() string {
	tl := f.TL
	var b strings.Builder
	if tl.Lease != 0 {
		fmt.Fprintf(&b, "\n\t// lease %d ms: the ttl of every claim, renew and send without ttl=\n", tl.Lease)
	}
	if tl.Service != nil {
		fmt.Fprintf(&b, "\t// the lock service's clock is %s: every step passes its now\n", offsetWords(tl.Service.Offset))
	}
	if tl.LockDelay > 0 {
		fmt.Fprintf(&b, "\t// lock-delay %d ms: a job whose lease ran out is kept that long\n", tl.LockDelay)
	}
	for _, c := range tl.Clocks {
		if tl.Service != nil {
			fmt.Fprintf(&b, "\t// %s's clock is %s: it shapes only what %s believes\n", c.Worker, offsetWords(c.Offset), c.Worker)
			continue
		}
		fmt.Fprintf(&b, "\t// %s's clock is %s: its steps pass its own now\n", c.Worker, offsetWords(c.Offset))
	}
	switch {
	case len(tl.Jobs) > 0:
		b.WriteString("\tfor _, j := range []engine.NewJob{\n")
		if tl.Nodes != 0 {
			fmt.Fprintf(&b, "\t\t// every lock is a row on each of the %d nodes\n", tl.Nodes)
		}
		for _, j := range tl.Jobs {
			for _, id := range tl.rowsOf(j.ID) {
				fields := []string{"ID: " + goQuote(id)}
				if j.Qty != 1 {
					fields = append(fields, "Qty: "+goInt(j.Qty))
				}
				if j.Deadline != 0 {
					fields = append(fields, "Deadline: "+goInt(j.Deadline))
				}
				if j.MaxAttempts != 0 {
					fields = append(fields, "MaxAttempts: "+goInt(j.MaxAttempts))
				}
				fmt.Fprintf(&b, "\t\t{%s},\n", strings.Join(fields, ", "))
			}
		}
		b.WriteString("\t} {\n\t\tif created, err := store.Enqueue(ctx, j); err != nil || !created {\n")
		b.WriteString("\t\t\tt.Fatalf(\"enqueue %s: %v, %v\", j.ID, created, err)\n\t\t}\n\t}\n")
	case len(tl.Steps) == 0:
		b.WriteString("\t_ = store // the timeline has neither jobs nor steps\n")
	}
	return b.String()
}

func offsetWords(off int64) string {
	if off < 0 {
		return goInt(-off) + " ms behind true time"
	}
	return goInt(off) + " ms ahead of true time"
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

// GoTestNameOf is the test function name for tl: from its file's name
// (GoTestName) when that names the story, else from its title's first
// words, up to a colon, a dash or a comma ("# Clock skew: …" gives
// TestClockSkew). A file's name says nothing when it is standard input's
// or the page's ("stdin.tl", "timeline.tl", "untitled.tl") or has no
// letters.
func GoTestNameOf(tl *Timeline) string {
	fromFile := GoTestName(tl.Name)
	switch fromFile {
	case "TestTimeline", "TestStdin", "TestUntitled":
	default:
		return fromFile
	}
	head := tl.Title
	if i := strings.IndexAny(head, ":,—(;"); i >= 0 {
		head = head[:i]
	}
	words := strings.Fields(head)
	if len(words) > 6 {
		words = words[:6]
	}
	if fromTitle := GoTestName(strings.Join(words, " ")); fromTitle != "TestTimeline" {
		return fromTitle
	}
	return fromFile
}

// CheckGoTestNames returns ErrPackageName or ErrTestName when pkg or
// funcName is not a name go test takes for a test file's package and a
// test function.
func CheckGoTestNames(pkg, funcName string) error {
	if !gotoken.IsIdentifier(pkg) || pkg == "_" {
		return fmt.Errorf("%w: %q (it must be a Go identifier, e.g. worker or worker_test)", ErrPackageName, pkg)
	}
	if !isTestName(funcName) {
		return fmt.Errorf("%w: %q (it must be TestXxx, a Go identifier)", ErrTestName, funcName)
	}
	return nil
}

func isTestName(s string) bool {
	if !strings.HasPrefix(s, "Test") || !gotoken.IsIdentifier(s) {
		return false
	}
	rest := []rune(s[len("Test"):])
	return len(rest) == 0 || !unicode.IsLower(rest[0])
}

// goFile is the file GoTest writes: the timeline, its steps as Go, and
// the helpers those steps use (the file declares nothing it does not use).
type goFile struct {
	Package string
	Func    string
	TL      *Timeline
	Steps   []goStep
	uses    map[string]bool
	// arriving is the line of the message in flight being written, whose
	// lease is the one it left with; 0 for any other step.
	arriving int
	// before counts the steps written before the one being written takes
	// effect (Timeline.JudgeAt).
	before int
	// split is set while the first half of a split send is written.
	split bool
	// tracksTTL is set when a leader change of the timeline resets its
	// leases, or its candidates observe (takeover observed): every grant
	// and renew then records its ttl.
	tracksTTL bool
}

// heard is a split send's second half, at its end: the courier completes
// the job it claimed (releases it, when the delivery failed), and the send
// line's expectation is checked on the whole send.
func (f *goFile) heard(s *StepLine) goStep {
	end := s.End()
	now := end + f.TL.JudgeAt(s.Actors[0], end, f.before)
	g := goStep{Comment: []string{fmt.Sprintf("line %d: %s hears back at %d ms", s.Line, s.Actors[0], end)}}
	f.use("sending")
	c := &goCall{f: f, s: s, g: &g, now: goInt(now), ln: goInt(int64(s.Line)), job: "l.JobID"}
	c.line("snd, ok := sending[%d]", s.Line)
	c.line("l, r := snd.l, snd.r")
	c.line("var err error")
	c.line("switch {")
	c.line("case !ok:")
	c.line("	err = engine.ErrEmpty // the send claimed nothing")
	if s.Fail {
		f.use("errors", "errSendFailed")
		c.line("case true:")
		c.line("	if err = store.Release(ctx, l); err == nil || !errors.As(err, new(*engine.Rejection)) {")
		c.line("		err = errors.Join(errSendFailed, err)")
		c.line("	}")
	} else {
		c.line("default:")
		c.line("	err = store.Complete(ctx, l, %s, engine.ResultSent)", c.now)
	}
	c.line("}")
	c.line("_ = r")
	c.outcome()
	c.fields()
	return g
}

// leave is a message in flight leaving its sender: the lease it carries,
// as its actor holds it now, kept until it arrives.
func (f *goFile) leave(s *StepLine) goStep {
	f.use("inFlight", "lease")
	g := goStep{Comment: []string{fmt.Sprintf("line %d sends its message at %d ms; it arrives at %d ms", s.Line, s.Time, s.Arrives)}}
	g.Call = append(g.Call, fmt.Sprintf("inFlight[%d] = lease(%s, %s)", s.Line, goQuote(s.Actors[0]), goQuote(s.Job)))
	if s.HasToken {
		g.Call = append(g.Call, fmt.Sprintf("p := inFlight[%d]", s.Line), "p.Token = "+goInt(s.Token),
			fmt.Sprintf("inFlight[%d] = p", s.Line))
	}
	return g
}

func (f *goFile) use(names ...string) {
	for _, n := range names {
		f.uses[n] = true
	}
}

// closeUses adds what the helpers use in turn.
func (f *goFile) closeUses() {
	u := f.uses
	if u["race"] {
		u["hold"] = true
	}
	if u["send"] {
		u["receiver"], u["errSendFailed"] = true, true
	}
	if u["hold"] || u["lease"] || u["forget"] {
		u["held"] = true
	}
	if u["errSendFailed"] {
		u["errors"] = true
	}
}

// goStep is one step as Go: a comment, the call, the outcome check and the
// field checks.
type goStep struct {
	Comment []string // the note, the line, what the step does when it is not a call
	Call    []string // statements, one per line, tab-indented inside the step's block
	Checks  []string // the checks after the call
}

// size is about how many bytes render writes: every line's text, with
// room for its indent and end.
func (g goStep) size() int {
	n := 8
	for _, lines := range [][]string{g.Comment, g.Call, g.Checks} {
		for _, l := range lines {
			n += len(l) + 4
		}
	}
	return n
}

// render writes the step: its comment lines, then its block (none for a
// step that calls nothing).
func (g goStep) render(b *strings.Builder) {
	b.WriteString("\n")
	for _, c := range g.Comment {
		b.WriteString(strings.TrimRight("\t// "+commentSafe(c), " \t") + "\n")
	}
	if len(g.Call)+len(g.Checks) == 0 {
		return
	}
	b.WriteString("\t{\n")
	for _, l := range append(append([]string{}, g.Call...), g.Checks...) {
		b.WriteString("\t\t" + l + "\n")
	}
	b.WriteString("\t}\n")
}

func (f *goFile) step(s *StepLine) goStep {
	g := goStep{}
	if s.Note != "" {
		g.Comment = append(g.Comment, strings.Split(s.Note, "\n")...)
	}
	g.Comment = append(g.Comment, fmt.Sprintf("line %d: %s", s.Line, s.Source))
	now := s.Time
	if len(s.Actors) > 0 {
		now += f.TL.JudgeAt(s.Actors[0], s.Time, f.before)
		switch {
		case now == s.Time:
		case f.TL.Service != nil:
			g.Comment = append(g.Comment, fmt.Sprintf("the service's clock reads %d ms at %d ms", now, s.Time))
		default:
			g.Comment = append(g.Comment, fmt.Sprintf("%s's clock reads %d ms at %d ms", s.Actors[0], now, s.Time))
		}
	}
	c := &goCall{f: f, s: s, g: &g, now: goInt(now), ln: goInt(int64(s.Line)), job: goQuote(s.Job)}
	c.call()
	return g
}

// goQuote and goInt write a string and a number as Go literals.
var (
	goQuote = strconv.Quote
	goInt   = func(v int64) string { return strconv.FormatInt(v, 10) }
)

// comment wraps text into // lines of at most about 76 columns, each line
// starting with indent.
func comment(indent, text string) string {
	var b strings.Builder
	width := 0
	for _, word := range strings.Fields(commentSafe(text)) {
		switch {
		case width == 0:
			b.WriteString(indent + "//")
			width = 2
		case width+1+len([]rune(word)) > 76:
			b.WriteString("\n" + indent + "//")
			width = 2
		}
		b.WriteString(" " + word)
		width += 1 + len([]rune(word))
	}
	return b.String()
}

// commentSafe is s with every character that must not stand raw in a Go
// comment written out as its escape (\r, \x00, \u2028, \u202e, …): the
// control characters but the tab, the line and paragraph separators, and
// the bidirectional controls that make a text read otherwise than it runs.
// A note or a name can hold any of them; the file stays gofmt-clean and
// reads as what it is.
func commentSafe(s string) string {
	if !strings.ContainsFunc(s, unsafeInComment) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if unsafeInComment(r) {
			q := strconv.QuoteRuneToASCII(r)
			b.WriteString(q[1 : len(q)-1])
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func unsafeInComment(r rune) bool {
	return (unicode.IsControl(r) && r != '\t') || r == '\u2028' || r == '\u2029' || unicode.Is(unicode.Bidi_Control, r) ||
		r == utf8.RuneError
}

// sentinel names the engine's error for a refusal.
func sentinel(r engine.Refusal) string {
	name := map[engine.Refusal]string{
		engine.RefusedNotFound: "ErrNotFound", engine.RefusedDone: "ErrDone", engine.RefusedQuarantined: "ErrQuarantined",
		engine.RefusedHeld: "ErrHeld", engine.RefusedSuperseded: "ErrSuperseded", engine.RefusedExpired: "ErrExpired",
		engine.RefusedFenced: "ErrFenced",
	}[r]
	return "engine." + name
}
